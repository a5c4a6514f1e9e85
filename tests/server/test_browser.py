"""The table view in a real headless Chromium against a real `rk server`.

The fixtures (tests/server/conftest.py, from browsing.py): the server runs
as `rk server --port 0` in a subprocess on a throwaway SQLite
store, the links read from what it prints; Chromium is Debian's
(/usr/bin/chromium), driven by Playwright's sync API. Pages are never
reloaded: what one seat does reaches the others by the live feed. Every wait
is Playwright's auto-waiting ``expect`` with a deadline.

Screenshots go to ``$RULEKEEPER_ARTIFACTS`` (default: ``test-artifacts/``
under the repository root).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

import pytest
from browsing import CHROMIUM, PHONE, Running, answer, shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason=f"no Chromium at {CHROMIUM} (CI installs Debian's `chromium`; "
        "Playwright's own browser download is not used)",
    ),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


@dataclass
class Fresh:
    """A game of its own for one test."""

    id: str
    links: dict[str, str]


@pytest.fixture
def fresh(server: Running) -> Fresh:
    """A new clash set up through the API with the host's token (the same
    as `rk new`'s), so a test does not see another's moves."""
    name = f"t-{uuid.uuid4().hex[:8]}"
    made = server.request(
        "POST",
        "/api/games",
        {
            "new": "clash",
            "setup": "waystone-crossing",
            "seed": 7,
            "name": name,
            "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}],
        },
    )
    seats = server.request("GET", f"/api/games/{made['game']}/seats")
    links = {s["name"]: s["link"] for s in seats["seats"]}
    links["spectators"] = seats["spectator"]
    return Fresh(id=made["game"], links=links)


# -- helpers -------------------------------------------------------------------------------


def command(page, label: str):
    """The button of the legal command ``label``."""
    return page.locator(f'[data-testid="legal"] button[data-label="{label}"]')


def give_engage(page, form: str, target: str, dice: list[str]) -> None:
    """An engage built on the page from its open command: the form and the
    target chosen from their lists, the dice toggled one by one (ENGAGE-7a:
    no more than the stats allow), then Give."""
    block = (
        page.locator('[data-testid="legal"] .open-cmd[data-verb="engage"]')
        .filter(has=page.locator(f'option[value="{form}"], .open-label:text-matches("--form {form}( |$)")'))
        .first
    )
    expect(block).to_be_visible()
    if block.locator('select[data-param="form"]').count():
        block.locator('select[data-param="form"]').select_option(form)
    block.locator('select[data-param="target"]').select_option(target)
    for uid in dice:
        die = block.locator(f'button.pick[data-param="dice"][data-value="{uid}"]')
        die.click()
        expect(die).to_have_attribute("aria-pressed", "true")
    block.locator("button.give").click()
    answer(page)  # an Engage after a Move gives up a second Move (MOVE-3): the page asks first


def post_from(page, path: str, body: object) -> dict:
    """POST ``body`` to ``path`` from inside the page, with the page's own token."""
    return page.evaluate(
        """async ([path, body]) => {
            const token = new URLSearchParams(location.hash.slice(1)).get("token");
            const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
              headers: {"authorization": "Bearer " + token, "content-type": "application/json"}});
            return {status: r.status, body: await r.json()};
        }""",
        [path, body],
    )


def version_of(server: Running, game: str) -> int:
    return server.request("GET", f"/api/games/{game}")["version"]


# -- tests -----------------------------------------------------------------------------------


def test_two_seats_play_a_clash_and_each_sees_the_others_moves_live(server, open_page, artifacts):
    assert set(server.links) == {"Ria", "Tarn", "spectators"}, server.out
    ria = open_page(server.links["Ria"])
    tarn = open_page(server.links["Tarn"])
    expect(ria.get_by_test_id("me")).to_have_text("you are: Ria")
    expect(tarn.get_by_test_id("me")).to_have_text("you are: Tarn")
    for page in (ria, tarn):
        expect(page.get_by_test_id("turn")).to_have_text("Ria")
        expect(page.get_by_test_id("round")).to_have_text("1")
        expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")

    command(ria, "rk move a2").click()
    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    expect(tarn.get_by_test_id("log")).to_contain_text("Ria moves a1 → a2")

    command(ria, "rk end-turn").click()
    answer(ria)  # it gives up Ria's unused Engage: the page asks first (TURN-6)
    expect(tarn.get_by_test_id("turn")).to_have_text("Tarn")
    command(tarn, "rk move c2").click()
    expect(ria.get_by_test_id("hero-tarn")).to_have_attribute("data-hex", "c2")
    expect(ria.get_by_test_id("log")).to_contain_text("MOVE-1: Tarn moves b1 → c1 → c2")
    expect(command(ria, "rk end-turn")).to_be_disabled()

    give_engage(tarn, form="heavy", target="e1", dice=["1"])  # chosen on the page (ENGAGE-5 to ENGAGE-7)
    expect(ria.get_by_test_id("log")).to_contain_text("rk engage --form heavy --target e1 --dice 1")
    tarn.locator('[data-testid="legal"] .open-cmd[data-verb="resolve"] button.give').click()  # none skipped
    expect(ria.get_by_test_id("card-e1")).to_contain_text("1/2 HP")
    expect(ria.get_by_test_id("card-tarn")).to_contain_text("#1 Combat face")  # the die on the cooldown track

    ria.screenshot(path=str(artifacts / "table-view.png"), full_page=True)


@pytest.mark.rule("SEAT-1")
def test_a_seat_cannot_command_another_seats_adventurer(server, fresh, open_page):
    tarn = open_page(fresh.links["Tarn"])
    shown(tarn)
    expect(command(tarn, "rk move a2")).to_be_disabled()
    expect(tarn.locator('[data-testid="legal"] button:enabled')).to_have_count(0)
    before = version_of(server, fresh.id)

    move = {"type": "Move", "to": [0, 1]}  # rk move a2: Ria's
    answer = post_from(tarn, f"/api/games/{fresh.id}/commands", {"command": move, "version": before})

    assert answer["status"] == 403, answer
    assert answer["body"]["rule"] == "SEAT-1", answer
    assert version_of(server, fresh.id) == before
    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")


@pytest.mark.rule("SEAT-3")
def test_a_spectator_watches_live_and_cannot_command(server, fresh, open_page):
    watcher = open_page(fresh.links["spectators"])
    ria = open_page(fresh.links["Ria"])
    expect(watcher.get_by_test_id("me")).to_have_text("you are: spectator")
    expect(watcher.get_by_test_id("hex-a1")).to_be_visible()
    expect(watcher.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")
    expect(command(watcher, "rk move a2")).to_be_disabled()
    expect(watcher.locator("button[data-label]:enabled")).to_have_count(0)
    expect(watcher.get_by_test_id("undo")).to_be_disabled()

    command(ria, "rk move a2").click()
    expect(watcher.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    expect(watcher.get_by_test_id("log")).to_contain_text("Ria moves a1 → a2")
    expect(watcher.get_by_test_id("undo")).to_be_disabled()

    before = version_of(server, fresh.id)
    answer = post_from(watcher, f"/api/games/{fresh.id}/commands", {"command": {"type": "EndTurn"}, "version": before})
    assert answer["status"] == 403, answer
    assert answer["body"]["rule"] == "SEAT-3", answer
    assert version_of(server, fresh.id) == before


@pytest.mark.rule("SEAT-2")
def test_undo_on_the_movers_page_restores_the_board_on_the_other_seats_page(server, fresh, open_page):
    ria = open_page(fresh.links["Ria"])
    tarn = open_page(fresh.links["Tarn"])
    shown(tarn)
    ria.get_by_test_id("hex-a2").click()  # a hex a legal move goes to: the move
    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    expect(ria.get_by_test_id("undo")).to_be_enabled()
    expect(tarn.get_by_test_id("undo")).to_be_disabled()  # the move is Ria's to undo

    ria.get_by_test_id("undo").click()

    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")
    expect(tarn.locator('[data-testid="log"] li.undone')).not_to_have_count(0)
    expect(ria.get_by_test_id("redo")).to_be_enabled()
    expect(ria.get_by_test_id("message")).to_be_hidden()


def test_a_refused_command_shows_its_reason_and_the_table_as_it_now_stands(server, fresh, open_page):
    ria = open_page(fresh.links["Ria"], live=False)  # deaf to the feed: its buttons go stale
    shown(ria)
    server.request(
        "POST",
        f"/api/games/{fresh.id}/commands",
        {"command": {"type": "Move", "to": [0, 1]}, "version": version_of(server, fresh.id)},
    )
    expect(ria.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")

    command(ria, "rk move b2").click()

    message = ria.get_by_test_id("message")
    expect(message).to_be_visible()
    expect(message).to_contain_text("moved on")
    expect(ria.get_by_role("alert")).to_contain_text("moved on")
    expect(ria.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")


def test_the_hosts_lobby_lists_games_sets_one_up_and_hands_out_its_links(server, open_page):
    lobby = open_page(f"{server.base}/#token={server.host}")
    expect(lobby.get_by_test_id("me")).to_have_text("you are: host")
    expect(lobby.get_by_test_id(f"game-{server.game}")).to_be_visible()

    form = lobby.get_by_test_id("new-game")
    expect(form.get_by_role("button", name="Set it up")).to_be_enabled()
    form.get_by_label("Game").select_option("clash")
    form.get_by_label("party 1 name").fill("Ria")
    form.get_by_label("party 1 race").select_option("nord")
    form.get_by_label("party 2 name").fill("Tarn")  # the form starts with two (the setup's example)
    form.get_by_label("party 2 race").select_option("orc")
    form.get_by_label("party 2 form").select_option("")
    form.get_by_label("seed (optional)").fill("11")
    form.get_by_label("name (optional)").fill("lobby-made")
    form.get_by_role("button", name="Set it up").click()

    links = lobby.get_by_test_id("links-lobby-made")
    expect(links).to_be_visible()
    expect(links.get_by_role("textbox", name="link for Ria", exact=True)).to_have_value(
        re.compile(r"/table/lobby-made#token=\S+")
    )
    expect(links.get_by_role("textbox", name="link for spectators", exact=True)).to_have_value(
        re.compile(r"/table/lobby-made#token=\S+")
    )
    ria_link = links.get_by_role("textbox", name="link for Ria", exact=True).input_value()
    seat = open_page(ria_link)
    expect(seat.get_by_test_id("me")).to_have_text("you are: Ria")


def test_the_table_fits_a_phone_screen(server, fresh, open_page, artifacts):
    phone = open_page(fresh.links["Ria"], viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    board = phone.locator("svg.board")
    expect(board).to_be_visible()
    expect(command(phone, "rk move a2")).to_be_enabled()
    command(phone, "rk move a2").tap()
    expect(phone.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")

    # Measured in one call: a redraw between two calls would replace the elements.
    sizes = phone.evaluate("""() => {
        const board = document.querySelector("svg.board").getBoundingClientRect();
        const end = document.querySelector('[data-label="rk end-turn"]').getBoundingClientRect();
        const root = document.documentElement;
        return {board: [board.left, board.right], end: [end.left, end.right, end.height],
                scroll: root.scrollWidth, width: root.clientWidth};
    }""")
    assert sizes["scroll"] <= sizes["width"] == PHONE["width"], f"the page scrolls sideways: {sizes}"
    assert 0 <= sizes["board"][0] and sizes["board"][1] <= PHONE["width"], sizes
    assert 0 <= sizes["end"][0] and sizes["end"][1] <= PHONE["width"], sizes
    assert sizes["end"][2] >= 40, f"a command button is too small to tap: {sizes}"

    phone.screenshot(path=str(artifacts / "table-view-phone.png"), full_page=True)


def test_an_old_link_lands_on_the_hash_and_no_request_carries_the_token_in_its_address(server, fresh, open_page):
    """#21 point 5: an old `?token=` link is sent on to the page with the
    token after '#'; from there the page (its API calls and its live feed)
    sends the token in a header only, never in an address."""
    link = fresh.links["Ria"]
    token = link.split("#token=")[1]
    ria = open_page(link.replace("#token=", "?token="))
    seen: list[str] = []
    ria.on("request", lambda request: seen.append(request.url))
    shown(ria)
    assert ria.url.endswith(f"/table/{fresh.id}#token={token}"), ria.url
    command(ria, "rk move a2").click()  # told back by the live feed, read with the header
    expect(ria.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    ria.reload()
    shown(ria)
    assert seen and any("/live" in url for url in seen), seen
    assert not [url for url in seen if token in url.split("#")[0]], seen
