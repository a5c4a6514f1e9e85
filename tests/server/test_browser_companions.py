"""The table view draws a clash's companions (CLASH-9, ROUND-6) in a real
headless Chromium against a real `rk server` (fixtures: tests/server/conftest.py):
each on its hex with its mark and HP, its controller in its title, listed
among the units, and whose companion turn it is in the Companion Turns step."""

from __future__ import annotations

import re
import uuid

import pytest
from browsing import CHROMIUM, Running, shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def escorted(server: Running) -> tuple[str, dict[str, str]]:
    """A clash of its own with Ember the Fox under Ria's control (CLASH-9:
    placed on the Entrance after the party), set up through the API; its id
    and the seats' links."""
    made = server.request(
        "POST",
        "/api/games",
        {
            "new": "clash",
            "setup": "waystone-crossing",
            "seed": 7,
            "name": f"c-{uuid.uuid4().hex[:8]}",
            "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}],
            "companions": [{"chip": "fox", "controller": "Ria"}],
        },
    )
    seats = server.request("GET", f"/api/games/{made['game']}/seats")
    return made["game"], {s["name"]: s["link"] for s in seats["seats"]}


def test_a_companion_is_drawn_on_its_hex_with_its_hp_and_follows_its_move(server, open_page):
    game, links = escorted(server)
    ria = open_page(links["Ria"])
    shown(ria)
    fox = ria.get_by_test_id("ally-fox")
    expect(fox).to_have_attribute("data-hex", "a2")  # CLASH-9: placed after the party
    expect(ria.get_by_test_id("ally-fox-hp")).to_have_text("3/3")
    expect(fox.locator("title")).to_have_text(re.compile(r"^Ember the Fox \(Ria's\): 3/3 HP on a2"))
    expect(ria.get_by_test_id("card-ally-fox")).to_contain_text("Ria's · a2")

    for _ in range(2):  # ROUND-6: after the adventurers' turns, the companions'
        server.request("POST", f"/api/games/{game}/commands", {"line": "end-turn"})
    expect(ria.get_by_test_id("turn")).to_have_text("allies: choose who acts next")

    ria.get_by_test_id("hex-b2").click()  # the page's own legal move: rk companion-move b2 --companion fox

    expect(fox).to_have_attribute("data-hex", "b2")
    expect(ria.get_by_test_id("ally-fox-hp")).to_have_text("3/3")
    expect(ria.get_by_test_id("turn")).to_have_text("Ember the Fox (Ria's)")
    expect(fox).to_have_class(re.compile(r"\bturn\b"))
    expect(ria.get_by_test_id("waiting")).to_have_count(0)  # none waits: the fox is on the map


def test_a_companion_waiting_beside_the_map_is_listed_there_not_drawn_on_a_hex(server, open_page):
    """ROUND-6a: a companion with no empty Entrance hex waits off the map. A
    clash's Entrance holds every companion a setup may bring, so the board the
    page reads is altered in flight: the fox's hex taken away."""
    game, links = escorted(server)
    ria = open_page(links["Ria"])
    shown(ria)

    def unplaced(route) -> None:
        answer = route.fetch()
        view = answer.json()
        for ally in view["board"]["companions"]:
            ally["pos"] = None
        route.fulfill(response=answer, json=view)

    ria.route(re.compile(r"/table$"), unplaced)
    server.request("POST", f"/api/games/{game}/commands", {"line": "end-turn"})  # the page reads its table again

    expect(ria.get_by_test_id("waiting-fox")).to_have_text("fo Ember the Fox 3/3")
    expect(ria.get_by_test_id("ally-fox")).to_have_count(0)
    expect(ria.get_by_test_id("card-ally-fox")).to_contain_text("Ria's · waiting")
