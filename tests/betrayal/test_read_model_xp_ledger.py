"""The XP ledger read model: each XP an adventurer gains (which battle's
rewards) and spends (which advancement), the saved-XP cap's Tenacity and
loss, the balance after each line; undone commands leave it; a rebuild
from zero gives the same rows. The EP ledger is the enemy pool view
(`rk pool`, test_projections.py)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "betrayal"))

from campaign_arrange import CAMPAIGN, campaign, play, run, set_adventurer  # noqa: E402

from domain.betrayal.campaign import commands as cc  # noqa: E402
import betrayal_views as views  # noqa: E402


def _ledger(app, name="Ria"):
    return [(line.rule, line.amount, line.balance) for line in views.xp_ledger(app, name)]


def test_the_ledger_follows_the_reward_phase_and_its_undos():
    app = campaign()
    play(app, "w1")
    set_adventurer(app, "Ria", tenacity=9)
    run(
        app,
        cc.GainRewards(battle_id="w1", xp=8),
        cc.Advance(adventurer="Ria", what="health"),
        cc.Advance(adventurer="Ria", what="cooldown"),
    )
    assert _ledger(app) == [("REWARD-1", 8, 8), ("ADVANCE-4", -1, 7), ("ADVANCE-9", -3, 4)]
    app.undo(CAMPAIGN)
    assert _ledger(app) == [("REWARD-1", 8, 8), ("ADVANCE-4", -1, 7)]
    run(app, cc.EndRewards())  # 7 unspent: 3 kept, 1 fills Tenacity to 10, 3 lost (ADVANCE-12)
    assert _ledger(app)[2:] == [("ADVANCE-12", -1, 6), ("ADVANCE-12", -3, 3)]
    assert app.adventurer("Ria").xp == _ledger(app)[-1][2]
    assert [line.what for line in views.xp_ledger(app, "Tarn")] == [
        "the rewards of w1",
        "5 Tenacity (over the saved cap)",
    ]


def test_a_rebuild_from_zero_gives_the_same_ledger():
    app = campaign()
    play(app, "w1")
    run(app, cc.GainRewards(battle_id="w1", xp=5), cc.Advance(adventurer="Tarn", what="twin-shafts"), cc.EndRewards())
    before = {n: views.xp_ledger(app, n) for n in ("Ria", "Tarn")}
    views.views_for(app).reset()
    assert {n: views.xp_ledger(app, n) for n in ("Ria", "Tarn")} == before
    rows = views.adventurers(app)
    assert [r.name for r in rows] == ["Ria", "Tarn"]  # recruits are listed
