"""The lobby's first click (#24), in a real headless Chromium against a
real `rk server` on a store where the README's tour was followed (Ysolda,
Tarn the dark elf and Ria are the store's adventurers): the form starts
from the setup's own example and sets a game up at once, and on a phone
what the click did is in sight, not above the form.

Fixtures: tests/server/conftest.py's (Debian's Chromium at
/usr/bin/chromium; skipped without it).
"""

from __future__ import annotations

import pytest
from browsing import CHROMIUM, PHONE, lobby_of
from conftest import rk_serving

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

README_TOUR = [  # the tour's adventurers, as its commands make them
    [
        "new",
        "clash",
        "--setup",
        "waystone-crossing",
        "--party",
        "Ysolda:nord",
        "--party",
        "Tarn:dark-elf:bow+destruction-staff:ranged",
        "--xp",
        "2",
        "--seed",
        "7",
    ],
    ["adventurer", "new", "Ria", "--race", "nord", "--class", "stalker", "--lines", "bow+destruction-staff"],
]

IN_SIGHT = """(el) => { const r = el.getBoundingClientRect();
    return r.top >= -1 && r.bottom <= window.innerHeight + 1 && r.height > 0; }"""

PLACE = """(el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, window.innerHeight]; }"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`rk server` on a store after the README's tour made its adventurers."""
    with rk_serving(tmp_path_factory.mktemp("readme-home"), README_TOUR) as running:
        yield running


@pytest.fixture(scope="module")
def server_ria_busy(tmp_path_factory):
    """The same store once the lobby's first click has put Ria in a clash
    (as the first test's click does), its own server, so the phone test does
    not hang on which test ran first or in which worker (pytest-xdist)."""
    busy = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria", "--party", "Tarn", "--seed", "8"]
    with rk_serving(tmp_path_factory.mktemp("readme-home-busy"), README_TOUR + [busy]) as running:
        yield running


def games(server) -> set[str]:
    return {g["id"] for g in server.request("GET", "/api/games")}


def test_the_lobbys_first_click_sets_a_clash_up_for_a_reader_of_the_readme(server, open_page):
    lobby, form = lobby_of(server, open_page)
    expect(form.get_by_label("Game")).to_have_value("clash")
    expect(form.get_by_label("party 1 name")).to_have_value("Ria")  # the setup's example: the tour's Ria and Tarn
    expect(form.get_by_label("party 2 name")).to_have_value("Tarn")
    expect(form.get_by_label("party 2 race")).to_have_value("dark-elf")
    before = games(server)

    form.get_by_role("button", name="Set it up").click()

    expect(lobby.get_by_test_id("message")).to_contain_text("Set up")
    (made,) = games(server) - before
    links = lobby.get_by_test_id(f"links-{made}")
    expect(links.get_by_role("textbox", name="link for Tarn", exact=True)).to_be_visible()


def test_on_a_phone_what_the_click_did_is_in_sight(server_ria_busy, open_page):
    server = server_ria_busy
    lobby = open_page(f"{server.base}/#token={server.host}", viewport=PHONE, is_mobile=True, has_touch=True)
    form = lobby.get_by_test_id("new-game")
    button = form.get_by_role("button", name="Set it up")
    expect(button).to_be_enabled()
    # Ria is in a battle not ended (BETWEEN-1): the form starts with a free name.
    expect(form.get_by_label("party 1 name")).to_have_value("Ria-2")
    before = games(server)

    button.click()
    expect(lobby.get_by_test_id("message")).to_contain_text("Set up")
    (made,) = games(server) - before
    links = lobby.get_by_test_id(f"links-{made}")
    expect(links.get_by_role("textbox", name="link for Ria-2", exact=True)).to_be_visible()
    item = lobby.get_by_test_id(f"game-{made}")
    assert item.evaluate(IN_SIGHT), f"the new game is not in sight: {item.evaluate(PLACE)}"

    form.get_by_label("party 2 name").fill("Tarn")
    form.get_by_label("party 2 race").select_option("orc")  # Tarn is a dark elf already: refused
    button.click()
    message = lobby.get_by_test_id("message")
    expect(message).to_contain_text("an adventurer named Tarn already exists")
    assert message.evaluate(IN_SIGHT), f"the refusal is not in sight: {message.evaluate(PLACE)}"
    sizes = lobby.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert sizes[0] <= sizes[1] == PHONE["width"], sizes
