"""A command that gives something up says so on the page and asks before
it is sent (#24): Ria's End Turn, with her Move and Engage unused, shows
"gives up: your unused Move, Engage, TURN-6" and asks on the page itself
(not the browser's dialog): No sends nothing, Yes ends the turn. Debian's Chromium against a real `rk server`
(tests/server/conftest.py; skipped without it)."""

from __future__ import annotations

import pytest
from browsing import CHROMIUM, Running, answer, shown
from test_browser_table import CLASH, new_game

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

END_TURN = '[data-testid="legal"] button[data-label="rk end-turn"]'


def test_a_command_that_gives_something_up_says_so_and_asks_before_it_is_sent(server: Running, open_page):
    game, links = new_game(server, CLASH)
    version = server.request("GET", f"/api/games/{game}")["version"]
    wary = open_page(links["Ria"])
    shown(wary)
    end = wary.locator(END_TURN)
    expect(end).to_contain_text("(gives up: your unused Move, Engage, TURN-6)")
    expect(end).to_have_attribute("data-gives-up", "your unused Move, Engage, TURN-6")
    first_move = wary.locator('[data-testid="legal"] button[data-label="rk move a2"]')
    expect(first_move).to_have_text("rk move a2")  # a first Move gives up nothing
    assert first_move.get_attribute("data-gives-up") is None

    end.click()  # No: nothing is sent
    question = wary.get_by_test_id("ask-question")
    expect(question).to_contain_text("TURN-6")
    expect(question).to_contain_text("your unused Move, Engage")
    answer(wary, yes=False)
    expect(wary.get_by_test_id("ask")).to_be_hidden()
    expect(wary.locator(END_TURN)).to_be_enabled()
    assert server.request("GET", f"/api/games/{game}")["version"] == version

    sure = open_page(links["Ria"])
    shown(sure)
    sure.locator(END_TURN).click()  # Yes: the turn ends
    expect(sure.get_by_test_id("ask-question")).to_contain_text("TURN-6")
    answer(sure)
    expect(sure.get_by_test_id("turn")).to_have_text("Tarn")
    assert server.request("GET", f"/api/games/{game}")["version"] > version
    assert wary.asked == sure.asked == []  # the page's own question, never window.confirm
