"""The host's lobby in a real headless Chromium: the labyrinth form adds
allied NPCs (a1, a2...; counted with the party toward 6, SCALE-1), makes
Enemy slots of the chosen encounter rare, and chooses who decides the
passive actions (PASSIVE-2); the battle set up has them.

The server, the browser and the page opener are the fixtures of
tests/server/conftest.py (Debian's Chromium at /usr/bin/chromium; skipped
without it).
"""

from __future__ import annotations

import pytest

from browsing import CHROMIUM, lobby_of

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


@pytest.mark.rule("SCALE-1")
@pytest.mark.rule("PASSIVE-2")
def test_the_lobby_sets_up_a_labyrinth_battle_with_allies_a_rare_enemy_and_passives(server, open_page, artifacts):
    lobby, form = lobby_of(server, open_page)
    form.get_by_label("Game").select_option("labyrinth")
    form.get_by_label("encounter").select_option("tallow-cellar")
    rare = lobby.get_by_test_id("field-rare")
    expect(rare.locator("input[type=checkbox]")).to_have_count(3)
    always = form.get_by_label("rare e2 Tallow Grub B")
    expect(always).to_be_checked()
    expect(always).to_be_disabled()  # the encounter always has it rare
    form.get_by_label("rare e1 Tallow Grub A").check()
    expect(form.get_by_label("passives (optional)")).to_have_value("ask")  # the default
    form.get_by_label("passives (optional)").select_option("auto")

    lobby.get_by_test_id("add-party").click()
    form.get_by_label("party 1 class").select_option("vanguard")
    lobby.get_by_test_id("add-allies").click()
    form.get_by_label("allies 1 class").select_option("mender")
    form.get_by_label("allies 1 level").fill("2")
    form.get_by_label("allies 1 name").fill("<b>Hal</b>")
    form.get_by_label("seed (optional)").fill("2")
    form.get_by_label("name (optional)").fill("lobby-allies")
    lobby.screenshot(path=str(artifacts / "lobby-labyrinth-allies.png"), full_page=True)
    form.get_by_role("button", name="Set it up").click()

    expect(lobby.get_by_test_id("message")).to_contain_text("Set up lobby-allies")
    state = server.request("GET", "/api/games/lobby-allies/state")["state"]
    people = {c["id"]: c for c in state["combatants"]}
    assert [k for k in people if k[0] in "pa"] == ["p1", "a1"]
    assert (people["a1"]["name"], people["a1"]["side"], people["a1"]["level"]) == ("<b>Hal</b>", "npc", 2)
    assert [k for k in people if people[k]["rare"]] == ["e1", "e2"]
    assert (state["options"]["ask_passives"], state["options"]["auto_passives"]) == (False, True)
    seats = server.request("GET", "/api/games/lobby-allies/seats")["seats"]
    assert [s["key"] for s in seats] == ["p1"]  # an ally acts by itself: no seat
