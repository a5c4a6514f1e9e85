"""Every refusal of the API, on SQLite and on PostgreSQL: the status, the
JSON refusal with its rule ID, and nothing written (the version, the whole
log and the list of games as they were)."""

from __future__ import annotations

from typing import Any

import pytest

from api_table import PARTY, Table, bearer, refusal
from domain.kernel.games import GameApp
from server import tables
from server.app import open_app
from server.passes import Pass, Role
from server.refusals import Refused
from domain.betrayal.table.battle_surface import NewClash

MOVE = {"type": "Move", "to": [0, 1]}  # Ria's first move, a1 to a2


def undo(table: Table, game: str, headers: dict[str, str], **body: Any):
    return table.client.post(f"/api/games/{game}/undo", headers=headers, json=body)


def redo(table: Table, game: str, headers: dict[str, str], **body: Any):
    return table.client.post(f"/api/games/{game}/redo", headers=headers, json=body)


# -- the rules ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command, rule",
    [
        ({"type": "Move", "to": [99, 99]}, "MOVE-1"),
        ({"type": "Engage", "form": "light", "target": "e1", "dice": [1, 2]}, "FORM-5"),
        ({"type": "NextRound"}, "ROUND-8"),
    ],
)
def test_a_command_the_rules_forbid_is_refused_with_its_rule_and_nothing_written(table: Table, command, rule):
    g = table.new_clash()
    before = table.written(g)
    body = refusal(table.command(g, command, table.seat(g, "ria")), 422, "rule", rule)
    assert body["reason"].startswith(f"{rule}: ")
    assert table.written(g) == before


@pytest.mark.rule("MOVE-1")
def test_a_move_off_the_map_says_which_hex_is_not_on_it(table: Table):
    g = table.new_clash()
    body = refusal(table.command(g, {"type": "Move", "to": [99, 99]}), 422, "rule", "MOVE-1")
    assert "is not on this map" in body["reason"]


@pytest.mark.rule("UNDO-1")
def test_undo_with_nothing_to_undo_is_refused(table: Table):
    g = table.new_clash()
    before = table.written(g)
    for headers in (table.host, table.seat(g, "ria")):
        refusal(undo(table, g, headers), 422, "rule", "UNDO-1")
    assert table.written(g) == before


@pytest.mark.rule("UNDO-2")
def test_undo_past_revealed_dice_without_force_is_refused_even_for_the_host(table: Table):
    g = table.new_conquest()
    table.done(g, {"type": "ChooseArrival", "regiment": "a1"})  # rolls the Reinforcement dice
    before = table.written(g)
    for headers in (table.host, table.seat(g, "a")):
        body = refusal(undo(table, g, headers), 422, "rule", "UNDO-2")
        assert "revealed dice" in body["reason"]
    assert table.written(g) == before


@pytest.mark.rule("REDO-1")
def test_redo_with_nothing_undone_is_refused(table: Table):
    g = table.new_clash()
    table.done(g, MOVE)
    before = table.written(g)
    for headers in (table.host, table.seat(g, "ria")):
        refusal(redo(table, g, headers), 422, "rule", "REDO-1")
    assert table.written(g) == before


# -- moved on ---------------------------------------------------------------------------------


def test_a_command_undo_or_redo_naming_a_version_the_game_has_left_is_refused(table: Table):
    g = table.new_clash()
    seen = table.version(g)
    table.done(g, MOVE)
    undo(table, g, table.host)  # something to redo, too
    now = table.version(g)
    before = table.written(g)
    for response in (
        table.command(g, {"type": "EndTurn"}, version=seen),
        undo(table, g, table.host, version=seen),
        redo(table, g, table.host, version=seen),
    ):
        body = refusal(response, 409, "moved-on")
        assert body["version"] == now and f"you saw version {seen}" in body["reason"]
    assert table.written(g) == before


def test_of_two_players_who_saw_one_version_the_second_to_write_is_told_it_moved_on(table: Table):
    g = table.new_conquest()
    seen = table.version(g)  # both players load the game at this version
    ria_moves = table.command(g, {"type": "ChooseArrival", "regiment": "a2"}, table.seat(g, "a"), version=seen)
    assert ria_moves.status_code == 200, ria_moves.text
    before = table.written(g)
    late = table.command(g, {"type": "Surrender", "side": 0}, table.seat(g, "a"), version=seen)
    assert refusal(late, 409, "moved-on")["version"] == before[0]
    assert table.written(g) == before


def test_two_writers_past_the_version_check_the_second_append_is_refused(table: Table, monkeypatch):
    g = table.new_clash()
    stale = open_app(table.app).battle(g)  # the second writer's view, loaded before the first writes
    table.done(g, MOVE)
    before = table.written(g)
    real = GameApp.battle

    def battle_as_loaded(self, battle_id, version=None):
        return stale if version is None and battle_id == g else real(self, battle_id, version)

    # Every load of the game now answers the old version, as for a writer
    # that loaded it just before the other's commit.
    monkeypatch.setattr(GameApp, "battle", battle_as_loaded)
    late = table.command(g, {"type": "Move", "to": [1, 1]})
    monkeypatch.setattr(GameApp, "battle", real)
    assert "moved on" in refusal(late, 409, "moved-on")["reason"]
    assert table.written(g) == before


# -- seats -------------------------------------------------------------------------------------


@pytest.mark.rule("SEAT-1")
def test_a_seat_may_not_command_another_seats_adventurer(table: Table):
    g = table.new_clash()
    before = table.written(g)
    body = refusal(table.command(g, MOVE, table.seat(g, "tarn")), 403, "forbidden", "SEAT-1")
    assert body["reason"] == "SEAT-1: `rk move a2` is Ria's, not this seat's"
    named = {"type": "UseRaceAbility", "hero": "Tarn"}  # names Tarn, on Ria's turn, by Ria's seat
    refusal(table.command(g, named, table.seat(g, "ria")), 403, "forbidden", "SEAT-1")
    assert table.written(g) == before


@pytest.mark.rule("SEAT-1")
def test_a_conquest_player_may_not_decide_for_the_other(table: Table):
    g = table.new_conquest()
    before = table.written(g)
    refusal(
        table.command(g, {"type": "ChooseArrival", "regiment": "a1"}, table.seat(g, "b")), 403, "forbidden", "SEAT-1"
    )
    refusal(table.command(g, {"type": "Surrender", "side": 0}, table.seat(g, "b")), 403, "forbidden", "SEAT-1")
    assert table.written(g) == before


@pytest.mark.rule("SEAT-2")
def test_a_seat_may_not_undo_or_redo_another_seats_command(table: Table):
    g = table.new_clash()
    table.done(g, MOVE, table.seat(g, "ria"))
    before = table.written(g)
    body = refusal(undo(table, g, table.seat(g, "tarn")), 403, "forbidden", "SEAT-2")
    assert "undoing `rk move a2` is Ria's" in body["reason"]
    assert table.written(g) == before
    assert undo(table, g, table.seat(g, "ria")).status_code == 200
    before = table.written(g)
    refusal(redo(table, g, table.seat(g, "tarn")), 403, "forbidden", "SEAT-2")
    assert table.written(g) == before


@pytest.mark.rule("SEAT-2")
def test_a_forced_undo_is_the_hosts_even_of_a_seats_own_command(table: Table):
    g = table.new_conquest()
    table.done(g, {"type": "ChooseArrival", "regiment": "a1"}, table.seat(g, "a"))
    before = table.written(g)
    body = refusal(undo(table, g, table.seat(g, "a"), force=True), 403, "forbidden", "SEAT-2")
    assert "forced undo" in body["reason"]
    assert table.written(g) == before


@pytest.mark.rule("SEAT-3")
def test_a_spectator_may_not_command_undo_or_redo(table: Table):
    g = table.new_clash()
    table.done(g, MOVE)
    before = table.written(g)
    watcher = table.spectator(g)
    for response in (table.command(g, {"type": "EndTurn"}, watcher), undo(table, g, watcher), redo(table, g, watcher)):
        refusal(response, 403, "forbidden", "SEAT-3")
    assert table.written(g) == before


@pytest.mark.rule("SEAT-4")
def test_a_seat_or_spectator_token_is_no_pass_outside_its_game(table: Table):
    g = table.new_clash()
    _, log, games = table.written(g)
    for pass_ in (table.seat(g, "ria"), table.spectator(g)):
        answers = [
            table.client.get("/api/games", headers=pass_),
            table.client.post(
                "/api/games",
                headers=pass_,
                json={"new": "clash", "setup": "waystone-crossing", "party": PARTY, "name": "mine"},
            ),
            table.client.post("/api/import", headers={**pass_, "content-type": "application/x-ndjson"}, content=log),
            table.client.post("/api/verify", headers={**pass_, "content-type": "application/x-ndjson"}, content=log),
            table.client.get("/api/whoami", headers=pass_),
        ]
        for response in answers:
            assert "SEAT-4" in refusal(response, 401, "unauthorized")["reason"]
    assert table.everything() == games


@pytest.mark.rule("SEAT-4")
@pytest.mark.parametrize("what", ["games", "new_game", "import_log", "verify_log"])
def test_listing_setting_up_importing_and_verifying_logs_are_the_hosts(what):
    seat = Pass(Role.SEAT, "t1", "ria")
    calls = {
        "games": (tables.games, seat),
        "new_game": (tables.new_game, seat, NewClash(setup="waystone-crossing", party=())),
        "import_log": (tables.import_log, seat, b"{}"),
        "verify_log": (tables.verify_log, seat, b"{}", None),
    }
    fn, *args = calls[what]
    with GameApp(store="memory") as app, pytest.raises(Refused) as refused:
        fn(app, *args)
    assert refused.value.status == 403 and refused.value.refusal.rule == "SEAT-4"


@pytest.mark.rule("SEAT-4")
def test_a_seat_token_of_one_game_is_no_pass_for_another(table: Table):
    a, b = table.new_clash("a1"), table.new_clash("b1")  # the same party: the same seat keys
    before = table.written(b)
    replayed = table.seat(a, "ria")
    for response in (
        table.client.get(f"/api/games/{b}", headers=replayed),
        table.client.get(f"/api/games/{b}/state", headers=replayed),
        table.command(b, MOVE, replayed),
        table.client.get(f"/api/games/{b}/live", headers=bearer(table.keyring.seat(a, "ria"))),
        table.client.get(f"/api/games/{b}/table", headers=table.spectator(a)),
    ):
        assert "SEAT-4" in refusal(response, 401, "unauthorized")["reason"]
    assert table.written(b) == before


# -- tokens and games -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers, params",
    [
        ({}, {}),
        (bearer("not-a-token"), {}),
        ({"authorization": "Basic cmlhOnJpYQ=="}, {}),
        ({}, {"token": "not-a-token"}),
        (bearer(""), {}),
    ],
    ids=["none", "wrong", "basic", "wrong-in-query", "empty"],
)
def test_a_request_without_a_good_token_is_refused_unauthorized(table: Table, headers, params):
    g = table.new_clash()
    before = table.written(g)
    for method, path in (
        ("GET", "/api/games"),
        ("GET", f"/api/games/{g}"),
        ("GET", f"/api/games/{g}/legal"),
        ("POST", f"/api/games/{g}/commands"),
        ("POST", f"/api/games/{g}/undo"),
        ("GET", f"/api/games/{g}/live"),
        ("GET", f"/api/games/{g}/export"),
        ("GET", "/api/whoami"),
    ):
        response = table.client.request(method, path, headers=headers, params=params, json={"command": MOVE})
        refusal(response, 401, "unauthorized")
    assert table.written(g) == before


def test_an_unknown_game_is_not_found_for_the_host(table: Table):
    table.new_clash()
    for path in (
        "/api/games/nowhere",
        "/api/games/nowhere/state",
        "/api/games/nowhere/export",
        "/api/games/nowhere/verify",
    ):
        assert "nowhere" in refusal(table.client.get(path, headers=table.host), 404, "not-found")["reason"]
    refusal(table.command("nowhere", MOVE), 404, "not-found")
    refusal(table.client.get("/api/whoami", headers=table.host, params={"game": "nowhere"}), 404, "not-found")


def test_a_stranger_learns_nothing_of_which_games_exist(table: Table):
    g = table.new_clash()
    wrong = bearer("not-a-token")
    there = refusal(table.client.get(f"/api/games/{g}", headers=wrong), 401, "unauthorized")
    nowhere = refusal(table.client.get("/api/games/nowhere", headers=wrong), 401, "unauthorized")
    assert there == nowhere
