"""The host's lobby in a real headless Chromium against a real `rk server`:
the new game's form is made from what ``GET /api/choices`` lists (every
setup of every ruleset, its fields and what the packs offer for them) and
sets up a labyrinth battle, a Conquest battle and a campaign as well as a
Betrayal one; a refusal shows its reason in the page.

The server, the browser and the page opener are the fixtures of
tests/server/conftest.py (Debian's Chromium at /usr/bin/chromium; skipped
without it).
"""

from __future__ import annotations

import re

import pytest

from browsing import CHROMIUM, PHONE, lobby_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


@pytest.mark.rule("SCALE-1")
def test_the_lobby_sets_up_a_labyrinth_battle_and_lists_it_with_its_links(server, open_page, artifacts):
    lobby, form = lobby_of(server, open_page)
    form.get_by_label("Game").select_option("labyrinth")
    encounter = form.get_by_label("encounter")
    expect(encounter).to_be_visible()
    offered = next(s for s in server.request("GET", "/api/choices")["setups"] if s["name"] == "labyrinth")
    expect(encounter.locator("option")).to_have_count(len(offered["offers"]["encounter"]))
    encounter.select_option("warren-gate")

    lobby.get_by_test_id("add-party").click()
    expect(lobby.get_by_test_id("row-party-1")).to_be_visible()
    form.get_by_label("party 1 class").select_option("vanguard")
    form.get_by_label("party 1 level").fill("3")
    form.get_by_label("party 1 name").fill("<img src=x onerror=window.pwned=1>")
    lobby.get_by_test_id("add-party").click()
    expect(form.get_by_label("party 2 class")).not_to_have_value("vanguard")  # the next class is offered
    form.get_by_label("party 2 class").select_option("mender")
    form.get_by_label("party 2 name").fill("Iris")
    lobby.get_by_test_id("add-party").click()
    form.get_by_label("Remove party 3").click()
    expect(lobby.get_by_test_id("row-party-3")).to_have_count(0)
    form.get_by_label("ambush (optional)").select_option("enemies")
    form.get_by_label("gm enemies").check()
    form.get_by_label("ask fp").check()
    form.get_by_label("seed (optional)").fill("5")
    form.get_by_label("name (optional)").fill("lobby-lab")
    form.get_by_role("button", name="Set it up").click()

    expect(lobby.get_by_test_id("message")).to_contain_text("Set up lobby-lab")
    item = lobby.get_by_test_id("game-lobby-lab")
    expect(item).to_contain_text("warren-gate")
    links = lobby.get_by_test_id("links-lobby-lab")
    expect(links).to_be_visible()
    odd = "<img src=x onerror=window.pwned=1>"
    expect(links.get_by_role("textbox", name=f"link for {odd}", exact=True)).to_have_value(
        re.compile(r"/table/lobby-lab#token=\S+")
    )
    assert lobby.evaluate("() => window.pwned") is None  # the name went in as text, never as HTML
    lobby.screenshot(path=str(artifacts / "lobby-labyrinth.png"), full_page=True)

    state = server.request("GET", "/api/games/lobby-lab/state")["state"]
    assert state["options"]["ambush"] == "enemy" and state["options"]["gm_enemies"] is True
    assert state["options"]["ask_fp"] is True  # FUMBLE-2: each seat spends its own FP
    iris_link = links.get_by_role("textbox", name="link for Iris", exact=True).input_value()
    seat = open_page(iris_link)
    expect(seat.get_by_test_id("me")).to_have_text("you are: Iris")
    expect(seat.get_by_test_id("rows-board")).to_be_visible()


@pytest.mark.rule("SCALE-1")
def test_a_refused_labyrinth_party_shows_its_rule_and_reason_and_sets_nothing_up(server, open_page):
    lobby, form = lobby_of(server, open_page)
    before = [g["id"] for g in server.request("GET", "/api/games")]
    form.get_by_label("Game").select_option("labyrinth")
    for n in range(1, 5):
        lobby.get_by_test_id("add-party").click()
        form.get_by_label(f"party {n} class").select_option("vanguard")
    form.get_by_label("name (optional)").fill("crowded")
    form.get_by_role("button", name="Set it up").click()
    message = lobby.get_by_test_id("message")
    expect(message).to_contain_text("SCALE-1")
    expect(message).to_contain_text("at most 3 to a row")
    expect(lobby.get_by_test_id("game-crowded")).to_have_count(0)
    assert [g["id"] for g in server.request("GET", "/api/games")] == before


def test_the_lobby_sets_up_a_conquest_battle_and_a_campaign(server, open_page):
    lobby, form = lobby_of(server, open_page)
    form.get_by_label("Game").select_option("conquest")
    form.get_by_label("scenario").select_option("hold-the-ford")
    form.get_by_label("armies 1", exact=True).select_option("cinderpact")  # two to start with: the example's
    form.get_by_label("armies 2", exact=True).select_option("saltmarch")
    form.get_by_label("name (optional)").fill("lobby-war")
    form.get_by_role("button", name="Set it up").click()
    links = lobby.get_by_test_id("links-lobby-war")
    expect(links.get_by_role("textbox", name="link for cinderpact", exact=True)).to_have_value(
        re.compile(r"/table/lobby-war#token=\S+")
    )
    expect(lobby.get_by_test_id("game-lobby-war")).to_contain_text("hold-the-ford")

    form.get_by_label("Game").select_option("campaign")
    expect(form.get_by_label("seed (optional)")).to_have_count(0)  # a campaign rolls no dice: no seed asked
    form.get_by_label("difficulty (optional)").select_option("expert")
    form.get_by_label("dial (optional)").fill("4")
    form.get_by_label("name (optional)").fill("lobby-saga")
    form.get_by_role("button", name="Set it up").click()
    expect(lobby.get_by_test_id("game-lobby-saga")).to_be_visible()
    summary = server.request("GET", "/api/games/lobby-saga")
    assert summary["ruleset"] == "betrayal-campaign"


def test_the_lobbys_labyrinth_form_fits_a_phone_screen(server, open_page, artifacts):
    lobby = open_page(f"{server.base}/#token={server.host}", viewport=PHONE, is_mobile=True, has_touch=True)
    form = lobby.get_by_test_id("new-game")
    expect(form.get_by_role("button", name="Set it up")).to_be_enabled()
    form.get_by_label("Game").select_option("labyrinth")
    for _ in range(3):
        lobby.get_by_test_id("add-party").click()
    expect(lobby.get_by_test_id("row-party-3")).to_be_visible()
    sizes = lobby.evaluate("""() => ({scroll: document.documentElement.scrollWidth,
                                      width: document.documentElement.clientWidth})""")
    assert sizes["scroll"] <= sizes["width"] == PHONE["width"], f"the lobby scrolls sideways: {sizes}"
    lobby.screenshot(path=str(artifacts / "lobby-labyrinth-phone.png"), full_page=True)
