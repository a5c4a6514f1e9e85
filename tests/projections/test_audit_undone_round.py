"""The audit caught up alone reads an undo as an ``UndoneRound``
(``AuditView.narrowed``): the command it reverted, whether it was forced,
and the round of the state it restores, the state itself skipped unread
(issue 25, eighth pass). Its rows are the rows of a catch-up that reads
every undo whole (the audit beside another projection), and an undo's
words are what ``describe`` says of it whole, in every ruleset and from
every state its golden games pass through. An event the narrower Struct
cannot read is read whole.
"""

from __future__ import annotations

from datetime import datetime, timezone
from uuid import uuid4

import msgspec
import pytest

from domain.betrayal.battle.application import BetrayalApp
from domain.kernel import ruleset as registry
from domain.kernel.commandlog import CommandUndone, fold
from domain.kernel.read_model import Projection
from domain.kernel.stores.decoding import EnvelopeDecoder, StoredRow
from projections.audit import AuditView
from projections.audit_words import UndoneRound, describe, undo_words, undone_round
from projections.runner import Catchup

from test_audit_first_read import GOLDEN, golden_store
from test_audit_held_lines import played_with_undos


class _Beside(Projection):
    """A projection with no handlers: caught up with the audit, it keeps the
    runner from giving the audit anything narrowed."""

    name = "beside"


class _Counted(AuditView):
    """The audit, counting the undos it was given narrowed."""

    def __init__(self) -> None:
        super().__init__()
        self.narrow = 0

    def line(self, db, nid, env):  # type: ignore[no-untyped-def]
        self.narrow += isinstance(env.event, UndoneRound)
        super().line(db, nid, env)


def rows(app, page: int, alone: bool) -> tuple[dict, int]:
    view = _Counted()
    catchup = Catchup(None, (view,) if alone else (view, _Beside()), page=page)
    catchup.catch_up(app)
    return catchup.contents(), view.narrow


@pytest.mark.parametrize("page", [1, 7, 500])
def test_the_audit_alone_writes_the_rows_of_undos_read_whole(page):
    app = BetrayalApp(store="memory")
    played_with_undos(app)
    narrowed, undos = rows(app, page, alone=True)
    whole, none = rows(app, page, alone=False)
    assert narrowed == whole
    assert undos > 0 and none == 0
    assert any(line[10] for line in narrowed["audit_lines"])  # lines marked undone


@pytest.mark.parametrize("name", GOLDEN)
def test_each_golden_game_has_the_same_rows_its_undos_narrowed_or_whole(name):
    app, _ = golden_store([name])
    narrowed, undos = rows(app, 5, alone=True)
    whole, _ = rows(app, 5, alone=False)
    assert narrowed == whole
    assert undos == sum(line[7] in {"CommandUndone", "CampaignUndone"} for line in whole["audit_lines"])


def test_every_golden_game_in_one_store_has_the_same_rows():
    app, _ = golden_store([n for n in GOLDEN if "conquest" in n or "labyrinth" in n or n == "undo-cinder-rite.jsonl"])
    assert rows(app, 11, alone=True)[0] == rows(app, 11, alone=False)[0]


def stored(event: CommandUndone) -> StoredRow:
    body = {"t": datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc), "c": "c1", "v": 1, "d": event}
    return StoredRow(uuid4(), 1, type(event).TOPIC, msgspec.json.encode(body))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", GOLDEN)
def test_an_undo_to_any_state_of_a_golden_game_says_what_describe_says(name):
    """Every state a golden game's stream folds through, as an undo would
    restore it, forced or not: its narrowed words are ``describe``'s of
    the undo whole (the round is the state's ``round_field``)."""
    app, (bid,) = golden_store([name])
    rs = app.ruleset(bid)
    assert undone_round(rs.undone) is not None
    game = None
    decoder = EnvelopeDecoder()
    seen = 0
    for env in app.stream(bid):
        game = fold(rs, game, [env])
        if game is None or game.state is None:
            continue
        assert getattr(game.state, rs.round_field) == rs.summary(game.state).round
        for forced in (False, True):
            undo = rs.undone(command_id="c0", restored=game.state, forced=forced)
            (narrow,) = decoder.decoded([stored(undo)], undone_round)
            (whole,) = decoder.decoded([stored(undo)])
            assert isinstance(narrow.event, UndoneRound) and whole.event == undo
            assert (narrow.event.command_id, narrow.event.forced) == ("c0", forced)
            assert undo_words(narrow.event) == describe(undo)
            seen += 1
    assert seen > 0


def test_only_a_game_undo_is_narrowed():
    for rs in registry.all_rulesets():
        assert undone_round(rs.undone) is not None
        assert undone_round(rs.issued) is None
        for aggregate in rs.aggregates:
            assert undone_round(aggregate.event_base) is None


def test_an_event_the_narrower_struct_cannot_read_is_read_whole():
    class Unreadable(msgspec.Struct, kw_only=True):
        absent: int  # no stored undo has it

    app = BetrayalApp(store="memory")
    bid = played_with_undos(app)
    undo = next(e.event for e in app.stream(bid) if isinstance(e.event, CommandUndone))
    decoder = EnvelopeDecoder()
    (env,) = decoder.decoded([stored(undo)], lambda cls: Unreadable if cls is type(undo) else None)
    assert env.event == undo
