"""At a table (`rk server`), a player's Command Stack stays hidden from the
other player and the spectators while the battle goes on (CMD-2, CMD-4;
the table's SEAT-5), and each player is a seat (SEAT-1)."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note on httpx's successor
    from starlette.testclient import TestClient

from server.app import create_app
from server.passes import Keyring

KEYRING = Keyring(b"a table secret of thirty-two bytes!")


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


@pytest.fixture
def table():
    """A Conquest battle on a fresh in-memory store, both players' arrivals
    chosen, player a's stack ordered; the client and the seats' tokens."""
    with TestClient(create_app("memory", KEYRING)) as client:
        host = bearer(KEYRING.host())
        made = client.post(
            "/api/games",
            headers=host,
            json={
                "new": "conquest",
                "scenario": "border-clash",
                "armies": ["saltmarch", "cinderpact"],
                "seed": 7,
                "name": "border-1",
            },
        )
        assert made.status_code == 201, made.text
        a, b = bearer(KEYRING.seat("border-1", "a")), bearer(KEYRING.seat("border-1", "b"))
        for seat, command in (
            (a, {"type": "ChooseArrival", "regiment": "a1"}),
            (b, {"type": "ChooseArrival", "regiment": "b1"}),
            (a, {"type": "OrderStack", "cards": ["a1", "ac1", "a2", "a3"]}),
        ):
            answer = client.post("/api/games/border-1/commands", headers=seat, json={"command": command})
            assert answer.status_code == 200, answer.text
        yield client, host, a, b, bearer(KEYRING.spectator("border-1"))


@pytest.mark.rule("SEAT-1")
def test_each_player_is_a_seat_and_gives_only_its_own_decisions(table):
    client, host, a, b, spectator = table
    seats = client.get("/api/games/border-1/seats", headers=host).json()["seats"]
    assert [(s["key"], s["name"]) for s in seats] == [("a", "saltmarch"), ("b", "cinderpact")]
    # Player b orders its stack now: player a may not do it for b.
    refused = client.post(
        "/api/games/border-1/commands",
        headers=a,
        json={"command": {"type": "OrderStack", "cards": ["b1", "bc2", "b2"]}},
    )
    assert refused.status_code == 403 and refused.json()["rule"] == "SEAT-1"


@pytest.mark.rule("SEAT-5")
def test_the_other_players_stack_is_face_down_in_the_state(table):
    client, host, a, b, spectator = table
    sides = lambda who: client.get("/api/games/border-1/state", headers=who).json()["state"]["sides"]  # noqa: E731
    assert sides(a)[0]["stack"] == ["a1", "ac1", "a2", "a3"]
    assert sides(b)[0]["stack"] == ["?", "?", "?", "?"]
    assert sides(spectator)[0]["stack"] == ["?", "?", "?", "?"]
    assert sides(host)[0]["stack"] == ["a1", "ac1", "a2", "a3"]


@pytest.mark.rule("SEAT-5")
def test_the_log_names_the_other_players_order_stack_without_its_cards(table):
    client, host, a, b, spectator = table
    said = lambda who: [e["text"] for e in client.get("/api/games/border-1/log", headers=who).json()]  # noqa: E731
    assert any("a1,ac1,a2,a3" in line for line in said(a))
    for who in (b, spectator):
        lines = said(who)
        assert not any("ac1,a2" in line for line in lines)
        assert "rk order-stack (hidden from you)" in lines
    assert any("CMD-1: saltmarch stacks 4 Command Cards face down" in line for line in said(b))


@pytest.mark.rule("SEAT-5")
def test_the_whole_log_is_the_hosts_while_the_battle_goes_on(table):
    client, host, a, b, spectator = table
    for who in (a, b, spectator):
        for path in ("/api/games/border-1/export", "/api/games/border-1/verify"):
            refused = client.get(path, headers=who)
            assert refused.status_code == 403 and refused.json()["rule"] == "SEAT-5"
    assert client.get("/api/games/border-1/export", headers=host).status_code == 200
    # Once it is over (player b surrenders, ROUND-3c), anyone at the table may take the log.
    over = client.post("/api/games/border-1/commands", headers=b, json={"command": {"type": "Surrender", "side": 1}})
    assert over.status_code == 200, over.text
    assert client.get("/api/games/border-1/export", headers=spectator).status_code == 200


@pytest.mark.rule("SEAT-5")
def test_an_undone_stack_stays_hidden_from_the_other_player_until_the_battle_is_over(table):
    """#21 point 2: player a orders its stack, undoes it and orders again;
    the undone order is as secret as the one that stands."""
    client, host, a, b, spectator = table
    undone = client.post("/api/games/border-1/undo", headers=a, json={})
    assert undone.status_code == 200, undone.text

    def seen(who):
        said = [e["text"] for e in client.get("/api/games/border-1/log", headers=who).json()]
        shown = [e["text"] for e in client.get("/api/games/border-1/table", headers=who).json()["log"]]
        return said + shown

    def secret_out(who) -> bool:
        return any("a1,ac1" in line for line in seen(who))

    for who in (b, spectator):
        assert not secret_out(who)
        assert any(line.startswith("UNDO-1: rk order-stack (hidden from you)") for line in seen(who))
        for path in ("/api/games/border-1/export", "/api/games/border-1/verify"):
            refused = client.get(path, headers=who)
            assert refused.status_code == 403 and refused.json()["rule"] == "SEAT-5", (path, refused.text)
    assert secret_out(a) and secret_out(host)
    again = client.post(
        "/api/games/border-1/commands",
        headers=a,
        json={"command": {"type": "OrderStack", "cards": ["a3", "a2", "a1", "ac1"]}},
    )
    assert again.status_code == 200, again.text
    for who in (b, spectator):
        assert not secret_out(who) and not any("a3,a2" in line for line in seen(who))
        assert client.get("/api/games/border-1/export", headers=who).status_code == 403
