"""Every card and Regiment a Conquest player chooses reads by its name as
the players call it (issue 24): the automatic arrival (REINF-4), the cards
of the Command Stack (CMD-1), the card drawn (ACT-3), the Regiment acting
(ACT-2); `rk legal` prints them, and each open command says what it does.
At a table, another player's Command Stack stays out of a seat's legal list,
names and all (CMD-2, CMD-4)."""

from __future__ import annotations

import warnings

import pytest

from cli.session import Defaults

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on httpx's successor
    from starlette.testclient import TestClient

from server.app import create_app
from server.passes import Keyring

NEW = ("new", "conquest", "--scenario", "border-clash", "--army", "saltmarch", "--army", "cinderpact", "--seed", "7")
KEYRING = Keyring(b"a table secret of thirty-two bytes!")


@pytest.fixture
def table(rk):
    defaults = Defaults(store="memory", keep_open=True)
    yield rk.on(defaults)
    defaults.close()


def said(table) -> str:
    return " ".join(table("legal").stdout.split())


@pytest.mark.rule("REINF-4", "CMD-1", "ACT-2", "ACT-3")
def test_rk_legal_names_each_card_and_regiment_as_the_players_call_it(table) -> None:
    table(*NEW)
    assert "rk choose-arrival a1 (a1: Brine Spears) rk choose-arrival a2 (a2: Brine Spears)" in said(table)
    assert "rk surrender --side a (a: saltmarch)" in said(table)
    table("choose-arrival", "a1")
    table("choose-arrival", "b1")
    assert "(CARDS: any order of a1:Brine Spears a2:Brine Spears a3:Reed Slingers ac1:Tide Warden)" in said(table)
    listed = table("legal", json=True).json()
    stack = next(o for o in listed if o["verb"] == "order-stack")
    assert stack["summary"] == "Command Phase: build the Command Stack, top card first (CMD-1, CMD-2)."
    table("order-stack", "--cards", "a1,ac1,a2,a3")
    table("order-stack", "--cards", "b1,bc2,b2")
    table("roll-off")
    table("choose-first-player", "--first")
    assert "rk draw-card a1 (a1: Brine Spears)" in said(table)
    table("draw-card", "a1")
    listed = table("legal", json=True).json()
    march = next(o for o in listed if o["verb"] == "march")
    regiment = next(p for p in march["params"] if p["name"] == "regiment")
    assert [(v["word"], v["label"]) for v in regiment["values"]] == [("a1", "Brine Spears")]


@pytest.mark.rule("CMD-2", "CMD-4")
def test_a_seats_legal_list_never_names_the_other_players_stack() -> None:
    with TestClient(create_app("memory", KEYRING)) as client:
        host = {"authorization": f"Bearer {KEYRING.host()}"}
        made = client.post(
            "/api/games",
            headers=host,
            json={"new": "conquest", "scenario": "border-clash", "armies": ["saltmarch", "cinderpact"], "seed": 7},
        )
        assert made.status_code == 201, made.text
        game = made.json()["game"]
        a = {"authorization": f"Bearer {KEYRING.seat(game, 'a')}"}
        b = {"authorization": f"Bearer {KEYRING.seat(game, 'b')}"}
        for seat, regiment in ((a, "a1"), (b, "b1")):
            answer = client.post(
                f"/api/games/{game}/commands",
                headers=seat,
                json={"command": {"type": "ChooseArrival", "regiment": regiment}},
            )
            assert answer.status_code == 200, answer.text

        def listed(seat: dict[str, str]) -> tuple[list[dict], set[str]]:
            entries = client.get(f"/api/games/{game}/legal", headers=seat).json()
            return entries, {v["label"] for o in entries for p in o["params"] for v in p["values"]}

        theirs, labels = listed(b)  # a orders its stack now: b is not shown it, nor its cards' names
        assert "order-stack" not in {o["verb"] for o in theirs}
        assert "Tide Warden" not in labels and "Brine Spears" not in labels
        assert all(o["summary"] for o in theirs)  # each says what it does
        for seat in (a, host):  # the seat that gives it, and the host, see it named
            mine, labels = listed(seat)
            assert {"Tide Warden", "Brine Spears"} <= labels
            assert all(o["summary"] for o in mine)


@pytest.mark.rule("ACT-8")
def test_a_draw_event_reads_by_the_name_printed_on_its_card() -> None:
    from conquest_harness import CTX, when
    from test_conquest_rules_action import _drawing

    from domain.conquest.commands import DrawCard
    from domain.kernel.surface import surface_of
    from domain.kernel.surface.open import open_commands

    from domain.conquest.rules import legal_commands

    s, _ = when(_drawing(a=("a1",), a1=10), DrawCard(regiment="a1"))
    opens = open_commands(surface_of("conquest").grammar, legal_commands(s, CTX), s, CTX)
    named = [(v.word, v.label) for o in opens if o.verb.name == "resolve-draw-event" for v in o.domains["event"].values]
    assert ("quickstep", CTX.pack.draw_events["quickstep"].name) in named
