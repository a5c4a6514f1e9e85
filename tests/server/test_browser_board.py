"""One board drawer for every page, the delve drawn whole, and time travel
from the table (issue #24 points 3 and 4), in Debian's Chromium against a
real `rk server`, at desktop size and 390×844: the table, its history and
the dispute page draw the board with the same module (server/static/board.js);
a delve shows its objective's skyshards, its tiles apart by outline and tag,
its Connection and explorable hexes and, while a tile waits, every legal
placement as a ghost the seat on turn clicks to place it; the table links to
its history with the token after '#'. Screenshots: ``delve-ghost*.png``,
``history-delve*.png`` in the artifacts folder."""

from __future__ import annotations

import uuid

import pytest
from browsing import CHROMIUM, DESKTOP, PHONE, Running, shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

DELVE = {
    "new": "delve",
    "delve": "whispering-barrow",
    "seed": 7,
    "xp": 2,
    "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}],
}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SIDEWAYS = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def delve_waiting_for_a_tile(server: Running) -> tuple[str, dict[str, str], dict]:
    """A delve whose first adventurer explored from a distance: a tile waits to be placed.
    Its links (each seat's by name, "spectators"), and its board as the host's API gives it."""
    made = server.request("POST", "/api/games", {**DELVE, "name": f"b-{uuid.uuid4().hex[:8]}"})
    game = made["game"]
    version = server.request("GET", f"/api/games/{game}")["version"]
    server.request("POST", f"/api/games/{game}/commands", {"line": "explore ag31", "version": version})
    seats = server.request("GET", f"/api/games/{game}/seats")
    links = {s["name"]: s["link"] for s in seats["seats"]}
    links["spectators"] = seats["spectator"]
    return game, links, server.request("GET", f"/api/games/{game}/table")["board"]


def page_sized(open_page, link: str, size: str, **options):
    if size == "phone":
        return open_page(link, viewport=PHONE, is_mobile=True, has_touch=True, **options)
    return open_page(link, **options)


# -- 1. one drawer ------------------------------------------------------------------------------------


def test_every_page_that_draws_a_board_loads_the_one_drawer_and_the_old_copy_is_gone(server: Running):
    import urllib.request

    for path in ("/table/x", "/table/x/history", "/dispute"):
        with urllib.request.urlopen(f"{server.base}{path}") as answer:
            html = answer.read().decode()
        assert '<script src="/static/board.js"' in html and "replay-board" not in html, path
        assert '<link rel="stylesheet" href="/static/board.css">' in html, path
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(f"{server.base}/static/replay-board.js")
    assert gone.value.code == 404


@pytest.mark.parametrize("size", list(SIZES))
def test_the_history_page_draws_a_delve_as_the_table_does(server: Running, open_page, artifacts, size):
    game, links, board = delve_waiting_for_a_tile(server)
    link = links["Tarn"]
    table = page_sized(open_page, link, size)
    shown(table)
    history = page_sized(open_page, link.replace(f"/table/{game}#", f"/table/{game}/history#"), size, live=False)
    shown(history)
    ways = len(board["delve"]["placing"]["ways"])
    for page in (table, history):  # the same drawings on both: progress, tiles, icons, ghosts
        expect(page.get_by_test_id("delve-progress")).to_contain_text("skyshards 0/3 held")
        expect(page.locator('[data-testid^="ghost-pick-"]')).to_have_count(ways)
        expect(page.get_by_test_id("exploring-ag31")).to_have_text("!")
        expect(page.locator('.hex[data-icon="connection"]')).to_have_count(
            sum(1 for h in board["hexes"] if h.get("icon") == "connection")
        )
        expect(page.locator(".tile-borders line").first).to_be_attached()
        assert page.evaluate(SIDEWAYS)
    history.get_by_test_id("ghost-pick-A").click()  # to look at, never to place: the history gives nothing
    expect(history.get_by_test_id("ghost-A")).to_have_class("ghost chosen")
    expect(history.get_by_test_id("place-ghost")).to_have_count(0)
    history.screenshot(path=str(artifacts / f"history-delve{'-phone' if size == 'phone' else ''}.png"), full_page=True)


# -- 2. the delve drawn whole --------------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
def test_a_seat_on_turn_places_the_tile_by_clicking_its_ghost_twice(server: Running, open_page, artifacts, size):
    game, links, board = delve_waiting_for_a_tile(server)
    placing = board["delve"]["placing"]
    page = page_sized(open_page, links["Ria"], size)
    shown(page)
    before = int(page.locator("body").get_attribute("data-version"))
    # the place-tile buttons are gone: the map's ghosts are the control
    expect(page.locator('#legal [data-label^="rk place-tile"]')).to_have_count(0)
    expect(page.get_by_test_id("place-on-map")).to_contain_text(f"{len(placing['ways'])} ways to place the tile")
    expect(page.get_by_test_id("ghost-note")).to_contain_text(f"{placing['tile']} ({placing['shape']}) waits")
    way = placing["ways"][2]
    page.get_by_test_id(f"ghost-pick-{way['mark']}").click()
    expect(page.get_by_test_id(f"ghost-{way['mark']}")).to_have_class("ghost chosen")
    expect(page.get_by_test_id("ghost-note")).to_contain_text(
        f"{way['mark']}: turned {way['rotation']}, origin {way['origin']}. Click it again to place the tile there."
    )
    assert page.evaluate(SIDEWAYS)
    page.screenshot(path=str(artifacts / f"delve-ghost{'-phone' if size == 'phone' else ''}.png"), full_page=True)
    page.get_by_test_id(f"ghost-pick-{way['mark']}").click()
    expect(page.locator("body")).not_to_have_attribute("data-version", str(before))
    expect(page.locator('[data-testid^="ghost-pick-"]')).to_have_count(0)
    for cell in way["hexes"]:  # the tile stands where its ghost was, its own tag on each hex
        expect(page.get_by_test_id(f"hex-{cell['label']}")).to_have_attribute("data-tile", "1")
        if cell["icon"]:
            expect(page.get_by_test_id(f"hex-{cell['label']}")).to_have_attribute("data-icon", cell["icon"])
    after = server.request("GET", f"/api/games/{game}/table")["board"]
    assert after["delve"]["placing"] is None
    explorable = [h["label"] for h in after["hexes"] if h.get("explorable")]
    assert explorable
    for label in explorable:
        expect(page.get_by_test_id(f"explorable-{label}")).to_have_text("?")
    for h in after["hexes"]:
        if h.get("shards"):
            expect(page.get_by_test_id(f"shard-{h['label']}")).to_have_text("✦")
    page.screenshot(path=str(artifacts / f"delve-placed{'-phone' if size == 'phone' else ''}.png"), full_page=True)


def test_a_spectator_sees_the_ghosts_but_cannot_place_a_tile(server: Running, open_page):
    game, links, _ = delve_waiting_for_a_tile(server)
    page = open_page(links["spectators"])
    shown(page)
    before = page.locator("body").get_attribute("data-version")
    pick = page.get_by_test_id("ghost-pick-A")
    pick.click()
    pick.click()
    expect(page.get_by_test_id("ghost-A")).to_have_class("ghost chosen")
    expect(page.get_by_test_id("place-ghost")).to_have_count(0)
    expect(page.get_by_test_id("ghost-note")).not_to_contain_text("again to place")
    assert server.request("GET", f"/api/games/{game}")["version"] == int(before)


# -- 3. time travel from the table ---------------------------------------------------------------------


@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_links_to_its_history_with_the_token_after_the_hash(server: Running, open_page, size):
    game, links, _ = delve_waiting_for_a_tile(server)
    link = links["Tarn"]
    token = link.split("#token=", 1)[1]
    page = page_sized(open_page, link, size)
    shown(page)
    anchor = page.get_by_test_id("history-link")
    expect(anchor).to_be_visible()
    href = anchor.get_attribute("href")
    assert href == f"/table/{game}/history#token={token}" and "?" not in href
    anchor.click()
    page.wait_for_url(f"**/table/{game}/history#token={token}")
    expect(page.get_by_test_id("scrubber")).to_be_visible()
    now = server.request("GET", f"/api/games/{game}")["version"]
    expect(page.locator("body")).to_have_attribute("data-version", str(now))
    page.keyboard.press("ArrowLeft")  # one version back
    expect(page.locator("body")).to_have_attribute("data-version", str(now - 1))
    page.keyboard.press("Home")  # the game as set up: the tile not yet revealed, no ghosts
    expect(page.locator("body")).to_have_attribute("data-version", "2")
    expect(page.locator('[data-testid^="ghost-pick-"]')).to_have_count(0)
    expect(page.get_by_test_id("delve-progress")).to_contain_text("skyshards 0/3 held")
