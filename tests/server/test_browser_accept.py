"""What a new group trying the table page found reading wrong, in Debian's
Chromium against a real `rk server` (issue 24's acceptance): a choice left at
its "none" value is not in the preview ("· FP 0"), the hint about clicking the
board is one clear sentence before and after the command is worked on, and
a note under Undo says the verb's title, not the `rk ...` line the CLI and the
API still quote.
"""

from __future__ import annotations

import re

import pytest
from browsing import CHROMIUM, Running, answer, shown
from test_browser_page import TARN_BESIDE_THE_IMP
from test_browser_table import CLASH, CONQUEST, LABYRINTH, new_game, play

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


@pytest.mark.rule("FUMBLE-2")
def test_fp_left_at_none_is_not_in_the_preview_nor_the_line(server: Running, open_page):
    game, links = new_game(server, LABYRINTH)
    play(server, game, "pass p1", "full-defense p2")  # the Main phase: a PC holding FP acts
    page = open_page(links["host"])
    shown(page)
    box = page.locator(".open-cmd", has=page.locator('input[data-param="fp"]')).first
    fp = box.locator('input[data-param="fp"]')
    expect(fp).to_have_value("0")
    preview = box.locator(".preview")
    expect(preview).not_to_contain_text("FP")  # none spent: nothing to say
    box.locator("details.cmdline").evaluate("d => d.open = true")
    expect(box.locator(".cmdline code")).not_to_contain_text("--fp")
    fp.fill("1")
    expect(preview).to_contain_text("· FP 1")
    expect(box.locator(".cmdline code")).to_contain_text("--fp 1")


def test_the_hint_about_clicking_the_board_is_one_sentence_before_and_after(server: Running, open_page):
    game, links = new_game(server, CLASH)
    play(server, game, *TARN_BESIDE_THE_IMP)
    page = open_page(links["Tarn"])
    shown(page)
    # one command is worked on when the page opens (the first); another is not yet
    label = page.locator(".open-cmd:not(.aiming)", has=page.locator(".aim-hint")).first.get_attribute("data-label")
    box = page.locator(f".open-cmd[data-label='{label}']")  # the same box once it is worked on
    hint = box.locator(".aim-hint")
    expect(hint).to_have_text(
        "To choose a unit by clicking the board, first click or tab into this command.", use_inner_text=True
    )
    box.locator("select, button.pick").first.focus()
    expect(box).to_have_class(re.compile(r"\baiming\b"))
    expect(hint).to_have_text(
        "You may also click a unit marked on the board (dashed: may be chosen, ✓: chosen).", use_inner_text=True
    )


@pytest.mark.rule("SEAT-2")
def test_a_note_under_undo_names_the_verb_not_its_command_line(server: Running, open_page):
    game, links = new_game(server, CLASH)
    play(server, game, "move b2")  # Ria's: Tarn may not undo it
    tarn = open_page(links["Tarn"])
    shown(tarn)
    note = tarn.get_by_test_id("undo-note")
    expect(note).to_have_text("Undo: SEAT-2: undoing the last Move is Ria's, not this seat's")
    expect(tarn.get_by_test_id("undo")).to_have_attribute(
        "title", "Undo: SEAT-2: undoing the last Move is Ria's, not this seat's"
    )
    api = tarn.evaluate(
        """async (game) => {
        const token = new URLSearchParams(location.hash.slice(1)).get("token");
        const r = await fetch(`/api/games/${game}/table`, {headers: {"authorization": "Bearer " + token}});
        return (await r.json()).undo_note;
    }""",
        game,
    )
    assert api["rule"] == "SEAT-2" and "`rk move b2`" in api["reason"], api  # the API quotes the line as before


@pytest.mark.rule("RETREAT-2")
def test_retreat_asks_first_in_the_page_and_no_keeps_the_battle(server: Running, open_page):
    game, links = new_game(server, CLASH)
    play(server, game, "end-turn", "end-turn")  # both turns over: the end of round 1, where the party may retreat
    page = open_page(links["Ria"])
    shown(page)
    version = page.locator("body").get_attribute("data-version")
    retreat = page.locator('[data-testid="legal"] button.cmd[data-verb="retreat"]')
    expect(retreat).to_have_text(re.compile(r"^Retreat +\(gives up: the encounter: it ends at once, RETREAT-2\)"))
    retreat.click()
    expect(page.get_by_test_id("ask-question")).to_have_text(
        "Retreat gives up the encounter: it ends at once (RETREAT-2). Send it?"
    )
    answer(page, yes=False)
    expect(page.get_by_test_id("ask")).to_be_hidden()
    expect(page.locator("body")).to_have_attribute("data-version", version)  # nothing sent
    retreat.click()
    answer(page)
    expect(page.get_by_test_id("log")).to_contain_text("retreat")


@pytest.mark.rule("PASSIVE-1")
def test_a_pc_attacked_may_answer_with_no_reaction_said_in_words(server: Running, open_page):
    game, links = new_game(server, LABYRINTH)
    play(server, game, "pass p1", "full-defense p2", "attack p1 e1")  # Mender (p2) is asked for a passive answer
    page = open_page(links["Mender"])
    shown(page)
    react = page.get_by_test_id("verb-react")
    expect(react.locator("button.cmd")).to_have_text(["Warding Veil · 1 TP", "None, the roll stands"])
    version = int(page.locator("body").get_attribute("data-version"))
    react.get_by_role("button", name="React None, the roll stands").click()
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(rf"^(?!{version}$)\d+$"))
    assert server.request("GET", f"/api/games/{game}")["version"] > version


@pytest.mark.rule("REINF-4")
def test_no_automatic_arrival_is_a_choice_said_in_words_beside_the_regiments(server: Running, open_page):
    game, links = new_game(server, CONQUEST)
    play(server, game, "choose-arrival a1")
    page = open_page(links["cinderpact"])
    shown(page)
    arrival = page.get_by_test_id("verb-choose-arrival")
    expect(arrival.locator("button.cmd")).to_have_text(["None (all roll)", "b1 Cinder Hounds", "b2 Ash Skirmishers"])
    expect(arrival.locator("button.cmd").first).to_have_attribute("title", "rk choose-arrival")  # the line kept
    arrival.get_by_role("button", name="Choose arrival None (all roll)").click()
    expect(page.get_by_test_id("verb-choose-arrival")).to_have_count(0)  # given: the phase moves on


# Mender carries a Sap Salve; Vanguard's attack over, Mender's Main action may use it on Vanguard.
MENDER_WITH_A_SALVE = (
    "move p1 front 3",
    "pass p2",
    "skill p1 sundering-blow --target e3 --reroll",
    "skill p2 purge --target p2 --reroll",
    "react p1 none",
    "react p1 none",
    "react p1 riposte",
    "move p1 back 3",
    "standby-skill p2 quicken --target p1",
    "attack p1 e1 --reroll",
)


@pytest.mark.rule("MAIN-6")
def test_a_choice_said_whole_is_named_once_by_its_verb(server: Running, open_page):
    game, links = new_game(server, LABYRINTH)
    play(server, game, *MENDER_WITH_A_SALVE)
    page = open_page(links["Mender"])
    shown(page)
    use = page.locator('[data-testid="verb-consume"] button.cmd').first
    expect(use).to_have_text("Consume Sap Salve, p1 Vanguard (front)")
    expect(use).to_have_attribute("aria-label", "Consume Sap Salve, p1 Vanguard (front)")  # not "Consume Consume"
    use.click()
    expect(page.get_by_test_id("log")).to_contain_text("MAIN-6: Mender uses sap-salve")
