"""Time travel at a live table in Debian's Chromium (issue #24 point 4):
``/table/{game}/history``, the table as it stood at any earlier version,
as a seat's token may read it (``table?at=N``)."""

from __future__ import annotations

import uuid

import pytest
from browsing import CHROMIUM, PHONE, Running

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def test_a_seat_scrubs_back_to_before_a_move_and_sees_the_board_as_it_stood(server: Running, open_page, artifacts):
    name = f"h-{uuid.uuid4().hex[:8]}"
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
    game = made["game"]
    before = server.request("GET", f"/api/games/{game}")["version"]
    board = server.request("GET", f"/api/games/{game}/table")["board"]
    hero = next(h for h in board["heroes"] if h["id"] == board["turn"])
    server.request("POST", f"/api/games/{game}/commands", {"command": {"type": "Move", "to": [0, 1]}})
    now = server.request("GET", f"/api/games/{game}")["version"]
    seats = server.request("GET", f"/api/games/{game}/seats")
    link = next(s["link"] for s in seats["seats"] if s["name"] == "Tarn")  # the seat not on turn
    page = open_page(link.replace(f"/table/{game}#", f"/table/{game}/history#"), live=False)
    expect(page.locator("body")).to_have_attribute("data-version", str(now))
    token = page.get_by_test_id(f"hero-{hero['id']}")
    moved_to = token.get_attribute("data-hex")
    assert moved_to != hero["pos"]["label"]
    for _ in range(now - before):
        page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-version", str(before))
    expect(page.get_by_test_id(f"hero-{hero['id']}")).to_have_attribute("data-hex", hero["pos"]["label"])
    expect(page.get_by_test_id("position")).to_have_text(f"version {before} of {now}")
    expect(page.locator('[data-testid="log"] li').last).to_contain_text(str(before))
    expect(page.get_by_test_id("back")).to_have_attribute("href", link.removeprefix(server.base))
    page.screenshot(path=str(artifacts / "history.png"), full_page=True)
    page.set_viewport_size(PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts / "history-phone.png"), full_page=True)
