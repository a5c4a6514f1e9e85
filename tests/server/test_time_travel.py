"""Time travel at a live table (issue #24 point 4): ``GET
/api/games/{game}/table?at=N``, the table as it stood after event N, read
with the asking pass's rights as they are now (SEAT-5)."""

from __future__ import annotations

import msgspec
import pytest

from api_table import Table
from domain.kernel.surface import surface_of
from domain.kernel.surface.declared import Seen
from server.app import open_app

SEED = 5550123456789  # distinctive: its digits appear nowhere else in an answer


def test_the_table_at_an_earlier_version_draws_the_board_and_log_as_they_stood(table: Table):
    g = table.new_clash()
    before = table.get(f"/api/games/{g}/table")
    table.done(g, {"type": "Move", "to": [0, 1]})
    now = table.get(f"/api/games/{g}/table")
    assert now["version"] > before["version"] and now["board"] != before["board"]
    then = table.get(f"/api/games/{g}/table", at=before["version"])
    assert then["version"] == before["version"]
    assert then["board"] == before["board"] and then["summary"] == before["summary"]
    assert then["log"] == before["log"] and then["log"][-1]["version"] == before["version"]
    assert then["legal"] == [] and not (then["may_undo"] or then["may_redo"])  # nothing is given in the past
    assert table.get(f"/api/games/{g}/table", at=now["version"])["board"] == now["board"]


@pytest.mark.rule("SEAT-5")
def test_a_seat_reads_no_more_at_an_earlier_version_than_it_may_now(table: Table):
    g = table.new_conquest(seed=SEED)
    table.done(g, {"type": "ChooseArrival", "regiment": "a1"})
    version = table.version(g)
    host = table.client.get(f"/api/games/{g}/table", headers=table.host, params={"at": 2})
    assert str(SEED) in host.text  # the host's: the setup's line says the seed
    for who, headers in {"a": table.seat(g, "a"), "b": table.seat(g, "b"), "spectator": table.spectator(g)}.items():
        for at in range(2, version + 1):
            past = table.client.get(f"/api/games/{g}/table", headers=headers, params={"at": at})
            assert past.status_code == 200, (who, past.text)
            assert str(SEED) not in past.text, (who, at)  # the seed stays the host's while the game goes on
            assert past.json()["board"] == _board_as_state_masks(table, g, headers, at), (who, at)


def _board_as_state_masks(table: Table, g: str, headers, at: int):
    """The board the past state draws, masked for this pass as ``state?at`` masks it."""
    app = open_app(table.app)
    rs = app.ruleset(g)
    seat = table.get("/api/whoami", headers, game=g)["seat"]
    shown = app.seen(g, app.battle(g, version=at).state, seat)
    as_state = table.get(f"/api/games/{g}/state", headers, at=at)["state"]
    assert msgspec.json.decode(msgspec.json.encode(shown)) == as_state
    drawn = surface_of(rs.name).board(
        Seen(
            app=app,
            state=shown,
            version=at,
            name=app.called(g),
            pack=app.pack_of(rs),
            context=lambda: app.rules_context(g, at),
        )
    )
    return msgspec.json.decode(msgspec.json.encode(drawn))


def test_a_version_the_game_has_not_reached_is_refused(table: Table):
    g = table.new_clash()
    for at in (0, table.version(g) + 1, -3):
        r = table.client.get(f"/api/games/{g}/table", headers=table.host, params={"at": at})
        assert r.status_code == 400 and r.json()["error"] == "malformed", at


@pytest.mark.rule("SEAT-5")
def test_a_players_ordered_stack_stays_hidden_from_the_other_at_every_earlier_version(table: Table):
    g = table.new_conquest(seed=SEED)
    for _ in range(80):  # played on (the host gives every command) until a player orders a stack
        legal = [entry["command"] for entry in table.legal(g)]
        order = next((c for c in legal if c["type"] == "OrderStack"), None)
        if order is not None:
            break
        table.done(g, legal[0])
    assert order is not None
    ordered = table.done(g, order)["version"]
    table.done(g, table.legal(g)[0]["command"])  # the game goes on past it
    mine, theirs = (
        (table.seat(g, s) for s in ("a", "b"))
        if order["cards"][0].startswith("a")
        else (table.seat(g, s) for s in ("b", "a"))
    )
    cards = " ".join(order["cards"])
    past_mine = table.get(f"/api/games/{g}/table", mine, at=ordered)
    past_theirs = table.get(f"/api/games/{g}/table", theirs, at=ordered)
    assert any(cards in line["text"] or ",".join(order["cards"]) in line["text"] for line in past_mine["log"])
    assert any("(hidden from you)" in line["text"] for line in past_theirs["log"])
    assert all(
        ",".join(order["cards"]) not in line["text"] and cards not in line["text"] for line in past_theirs["log"]
    )
    assert past_theirs["board"] == _board_as_state_masks(table, g, theirs, ordered)


def test_a_delves_map_at_an_earlier_version_is_the_map_as_it_stood_not_as_it_is_now(table: Table):
    made = table.create(
        {
            "new": "delve",
            "delve": "whispering-barrow",
            "seed": 7,
            "xp": 2,
            "name": "d1",
            "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}],
        }
    )
    g = made["game"]
    before = table.get(f"/api/games/{g}/table")
    table.done(g, {"type": "Explore", "hex": [17, 30]})
    waiting = table.get(f"/api/games/{g}/table")
    assert waiting["board"]["delve"]["placing"]["ways"]
    way = waiting["board"]["delve"]["placing"]["ways"][0]
    table.done(g, {"type": "PlaceTile", **way["args"]})
    now = table.get(f"/api/games/{g}/table")
    assert len(now["board"]["hexes"]) > len(before["board"]["hexes"])
    for then, at in ((before, before["version"]), (waiting, waiting["version"])):
        past = table.get(f"/api/games/{g}/table", at=at)["board"]
        assert past["hexes"] == then["board"]["hexes"] and past["delve"] == then["board"]["delve"]
