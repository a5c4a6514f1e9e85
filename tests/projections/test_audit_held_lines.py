"""The audit's catch-up marks the lines an undo reverts where they are still
held back (not yet inserted) and, for those of earlier pages, in the
database: either way the rows are the same. It reads the store a page of
plain rows at a time, the same stored events the notification log holds
(issue 25, sixth pass)."""

from __future__ import annotations

import random
from pathlib import Path

from domain.betrayal.battle.application import BetrayalApp
from domain.betrayal.battle.bots import greedy_choice
from domain.betrayal.table.party import party_member
from domain.kernel.stores.streams_order import stored_page
from projections.audit import AuditView
from projections.runner import Catchup


def played_with_undos(app: BetrayalApp) -> str:
    """A clash of a few dozen commands, some undone one or several at a
    time (with force: past the dice they revealed), and played on."""
    specs = [party_member(p) for p in ("Ysolda:nord", "Tarn:dark-elf")]
    bid = app.new_clash(setup="waystone-crossing", party=specs, xp=2, seed=5).battle.state.battle_id
    rnd = random.Random(5)
    standing = 0  # commands played and not undone: what an undo may revert
    for _ in range(40):
        state = app.battle(bid).state
        if standing and (state.outcome is not None or rnd.random() < 0.25):
            for _ in range(min(rnd.randint(1, 3), standing)):
                app.undo(bid, force=True)
                standing -= 1
            continue
        app.execute(bid, greedy_choice(state, app.context(state), rnd))
        standing += 1
    return bid


def test_an_undo_marks_the_same_lines_held_back_or_already_written():
    app = BetrayalApp(store="memory")
    played_with_undos(app)
    rows = {}
    for page in (1, 7, 100_000):  # every line written before its undo; some; none
        catchup = Catchup(None, (AuditView(),), page=page)
        catchup.catch_up(app)
        rows[page] = catchup.contents()
    assert rows[1] == rows[7] == rows[100_000]
    lines = rows[1]["audit_lines"]
    undone = [line for line in lines if line[10]]
    assert undone and len(undone) < len(lines)
    assert all(line[12] for line in undone)  # each names the undo that reverted it
    assert any(line[11] for line in undone)  # forced: past the dice


def test_a_page_of_stored_rows_is_what_the_notification_log_holds(tmp_path: Path):
    app = BetrayalApp(store=f"sqlite:{tmp_path / 'store.sqlite'}")
    played_with_undos(app)
    last = app.max_notification_id()
    expected = [
        (n.id, n.originator_id, n.originator_version, n.topic, n.state)
        for n in app.recorder.select_notifications(start=3, limit=last)
    ]
    got = [(r.id, r.originator_id, r.originator_version, r.topic, r.state) for r in stored_page(app, 3, last)]
    assert got == expected and len(got) == last - 2
    assert [r.id for r in stored_page(app, 3, 5)] == [3, 4, 5, 6, 7]
    assert [app.mapper.to_domain_event(r) for r in stored_page(app, 1, last)] == [
        envelope for _, envelope in app.notifications()
    ]
