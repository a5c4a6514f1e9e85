"""The Commands panel reads as a table game's (#24: "buttons are command-line
strings"), in Debian's Chromium against a real `rk server`: each verb one
group headed by its title in words, with what it does; its finished commands
small choices labelled by their values ("b1", "e2 Road Lookout"); an open
command headed by its title and fixed values ("Engage · heavy form"), its
controls by what they choose ("dice", "target"). No button, heading, legend
or note shows an `rk ...` line or an ``--option``: the line stays in each
button's title and in an open command's "command line" disclosure, for whoever
types it. Every ruleset at desktop size and at 390×844, nothing cut, no
sideways scroll. Screenshots: ``words-<ruleset>.png``, ``words-<ruleset>-phone.png``.
"""

from __future__ import annotations

import re

import pytest
from browsing import CHROMIUM, PHONE, Running, shown
from test_browser_board import SIDEWAYS, delve_waiting_for_a_tile
from test_browser_page import CONQUEST_TO_THE_STACKS, DUNGEON, TARN_BESIDE_THE_IMP
from test_browser_table import CLASH, CONQUEST, LABYRINTH, new_game, play

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

# Every text of the Commands panel a player reads (the others' commands unfolded first), but the
# "command line" disclosure's own lines; and each that reads as a command line (`rk ...`, `--form`).
COMMAND_LINES = """() => {
    const legal = document.getElementById('legal');
    for (const d of legal.querySelectorAll('details.others-commands')) d.open = true;
    const looks = (t) => /(^|\\s)rk\\s|(^|[\\s(\\[])--[a-z]/.test(t || '');
    const read = [...legal.querySelectorAll(`button, h3, h4, summary, .open-label, .param-name, .verb-summary,
        .gives-up, .hint, .preview, option, .picked`)]
        .filter((n) => !n.closest('.cmdline') || n.matches('.cmdline > summary'));
    const shown = read.flatMap((n) => [n.textContent, n.getAttribute('aria-label')]).filter(Boolean);
    return {
        read: read.length,
        lines: shown.filter(looks),
        typed: [...legal.querySelectorAll('button[title^="rk "], .cmdline code')].length,
    };
}"""

# What each ruleset's page is opened on, and what its panel must read.
GAMES = {
    "clash": (CLASH, TARN_BESIDE_THE_IMP, "Tarn"),
    "dungeon": (DUNGEON, (), "Ria"),
    "conquest": (CONQUEST, CONQUEST_TO_THE_STACKS, "saltmarch"),
    "labyrinth": (LABYRINTH, (), "host"),
}


def opened(server: Running, ruleset: str) -> tuple[str, str]:
    """A game of ``ruleset`` where a seat has commands, and that seat's link."""
    if ruleset == "delve":  # a tile waiting: its placements on the map
        game, links, _ = delve_waiting_for_a_tile(server)
        return game, links["Ria"]
    body, lines, seat = GAMES[ruleset]
    game, links = new_game(server, body)
    play(server, game, *lines)
    return game, links[seat]


def no_command_lines(page, typed: bool = True) -> None:
    found = page.evaluate(COMMAND_LINES)
    assert found["read"] > 3, found
    assert found["lines"] == [], found["lines"]
    assert found["typed"] >= 1 or not typed, found  # the line stays for whoever types it


@pytest.mark.parametrize("ruleset", ["clash", "delve", "dungeon", "conquest", "labyrinth"])
def test_no_button_or_heading_of_the_commands_panel_reads_as_a_command_line(
    server: Running, open_page, artifacts, ruleset
):
    _, link = opened(server, ruleset)
    page = open_page(link)
    shown(page)
    legal = page.get_by_test_id("legal")
    expect(legal.locator(".verb-group").first).to_be_visible()
    no_command_lines(page, typed=ruleset != "delve")  # a delve's placements are its ghosts on the map
    if ruleset == "clash":
        moves = legal.get_by_test_id("verb-move")
        expect(moves.locator("h4")).to_have_text("Move")
        expect(moves.locator(".verb-summary")).to_have_text(
            "Move the current adventurer to the hex by a shortest free route (MOVE-1)."
        )
        expect(moves.locator('button[data-label="rk move b1"]')).to_have_text("b1")
        expect(moves.locator('button[data-label="rk move b1"]')).to_have_attribute("title", "rk move b1")
        expect(moves.locator("p.gives-up")).to_have_text("Each gives up your Engage this turn (a second Move), MOVE-3")
        expect(moves.get_by_test_id("on-map-move")).to_contain_text("click a hex marked on the map")
        heavy = legal.locator('.open-cmd[data-label*="--form heavy "]')
        expect(heavy.locator(".open-label")).to_have_text("Engage · heavy form")
        expect(heavy.locator(".param-name")).to_have_text(["target", "dice"])
        expect(heavy.locator('select[data-param="target"] option[value="e1"]')).to_have_text("e1 Ash Imp, c3")
        expect(heavy.locator('button.pick[data-value="1"]')).to_have_text("1 Combat")
        end = legal.locator('button[data-label="rk end-turn"]')
        expect(end).to_have_text("End turn  (gives up: your unused Move, Engage, TURN-6)")
        expect(legal.locator('button[data-label="rk race-ability"]')).to_have_text("Race ability")
        # the command line of what is chosen, in its disclosure
        heavy.locator('select[data-param="target"]').select_option("e1")
        heavy.locator('button.pick[data-value="1"]').click()
        heavy.locator(".cmdline summary").click()
        expect(heavy.get_by_test_id("cmdline-engage")).to_have_text("rk engage --form heavy --target e1 --dice 1")
    if ruleset == "delve":
        placing = legal.get_by_test_id("verb-place-tile")
        expect(placing.locator("h4")).to_have_text("Place the tile")
        expect(placing.get_by_test_id("place-on-map")).to_contain_text("ways to place the tile")
    if ruleset == "dungeon":
        engage = legal.locator('.open-cmd[data-verb="engage"]').filter(has=page.locator('select[data-param="form"]'))
        expect(engage.locator(".open-label")).to_have_text("Engage")
        expect(engage.locator(".param-name").first).to_have_text("form")
    if ruleset == "conquest":
        stack = legal.get_by_test_id("verb-order-stack")
        expect(stack.locator("h4")).to_have_count(0)  # one open command: its heading is the verb's, said once
        expect(stack.locator(".open-label")).to_have_text("Order the Command Stack")
        expect(stack.locator(".verb-summary")).to_have_text(
            "Command Phase: build the Command Stack, top card first (CMD-1, CMD-2)."
        )
        expect(stack.locator(".param-name")).to_have_text("cards")
        expect(legal.locator('button[data-label^="rk surrender"]')).to_contain_text("Surrender")
    if ruleset == "labyrinth":
        skill = legal.locator('.open-cmd[data-verb="standby-skill"]').first
        expect(skill.locator(".open-label")).to_have_text(re.compile(r"^Standby skill · [A-Z][\w ]+ · \d+ TP$"))
        target = skill.locator('select[data-param="target"] option').first
        expect(target).to_have_text(re.compile(r"^p\d \w+ \((front|back)\)$"))
        moves = legal.get_by_test_id("verb-move").first
        expect(moves.locator("button.choice").first).to_have_text(re.compile(r"^(front|back) row, place \d$"))
    page.screenshot(path=str(artifacts / f"words-{ruleset}.png"), full_page=True)

    small = open_page(link, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    shown(small)
    no_command_lines(small, typed=ruleset != "delve")
    cut = small.evaluate("""() => [...document.querySelectorAll(`#legal button, #legal select, #legal h4,
            #legal .open-label, #legal .verb-summary, #legal .preview, #legal .gives-up`)]
        .filter((n) => n.offsetParent !== null)
        .filter((n) => { const r = n.getBoundingClientRect();
            return r.left < -0.5 || r.right > innerWidth + 0.5 || n.scrollWidth > n.clientWidth + 1; })
        .map((n) => n.outerHTML.slice(0, 80))""")
    assert cut == []
    assert small.evaluate(SIDEWAYS)
    small.screenshot(path=str(artifacts / f"words-{ruleset}-phone.png"), full_page=True)


@pytest.mark.rule("MOVE-3")
def test_a_choice_is_given_by_its_button_and_asked_about_in_words(server: Running, open_page):
    """A move chosen by its hex's button: the question before it (it gives up the Engage) says
    the move in words, and Yes gives it; the map's hex names the move in words too."""
    game, links = new_game(server, CLASH)
    play(server, game, "move a2", "end-turn")
    page = open_page(links["Tarn"])
    shown(page)
    expect(page.get_by_test_id("hex-b2")).to_have_attribute("aria-label", "Move b2")
    move = page.locator('[data-testid="legal"] button[data-label="rk move b2"]')
    expect(move).to_have_text("b2")
    expect(move).to_have_attribute("aria-label", re.compile(r"^Move b2"))
    move.click()
    expect(page.get_by_test_id("log")).to_contain_text("Tarn moves b1 → b2")  # a first Move gives up nothing
    page.locator('[data-testid="legal"] button[data-label="rk move c2"]').click()
    expect(page.get_by_test_id("ask-question")).to_have_text(
        "Move c2 gives up your Engage this turn (a second Move) (MOVE-3). Send it?"
    )
    page.get_by_test_id("ask-yes").click()
    expect(page.get_by_test_id("log")).to_contain_text("b2 → c2")


LATER = {
    # the rolled die to leave unresolved, by its name and face
    "resolve": (CLASH, (*TARN_BESIDE_THE_IMP, "engage --form heavy --target e1 --dice 1"), "Tarn"),
    # the Main phase: attacks and skills, with FP to spend and a reroll
    "main": (LABYRINTH, ("pass p1", "full-defense p2"), "host"),
    # the Action Phase: a card drawn, its Regiment's actions
    "action": (
        CONQUEST,
        (*CONQUEST_TO_THE_STACKS, "order-stack --cards a1,ac1,a2,a3", "order-stack --cards b1,b2,bc2"),
        "host",
    ),
}


@pytest.mark.parametrize("moment", sorted(LATER))
def test_later_in_a_battle_the_commands_panel_still_reads_in_words(server: Running, open_page, artifacts, moment):
    body, lines, seat = LATER[moment]
    game, links = new_game(server, body)
    play(server, game, *lines)
    page = open_page(links[seat])
    shown(page)
    expect(page.get_by_test_id("legal").locator(".verb-group").first).to_be_visible()
    no_command_lines(page, typed=False)
    if moment == "resolve":
        skip = page.locator('.open-cmd[data-verb="resolve"]')
        expect(skip.locator(".param-name")).to_have_text("skip")
        expect(skip.locator("button.pick").first).to_have_text(re.compile(r"^#1 Combat: \d"))
    page.get_by_test_id("legal").screenshot(path=str(artifacts / f"words-later-{moment}.png"))
