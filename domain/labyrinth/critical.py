"""Skills that trigger on a critical (CRIT-3): the moment a damage roll of
``who`` is a critical, each of its on-critical skills triggers at once, in
the order it has them.

What such a skill is in content terms (``pack_skills``): timing "passive"
with ``on_critical = true``, never used as an action; it pays its TP when
it triggers (no activation roll: nothing is "used"), a bind on its part
blocks it, and it cannot trigger if its user cannot pay or has fallen.
Its effects reach the foe just hit critically (opponent targets; a row or
every opponent in reach for row-opponents and opponents) or its user's
side (self, allies). Attack rolls it makes draw no Pursuit and their own
criticals trigger nothing more (no chain, as CHASE-4 and COUNTER-4 avoid)."""

from __future__ import annotations

from . import events as ev
from . import skills
from .decision import Decision
from .targeting import skill_blocked


def trigger(d: Decision, who: str, target: str) -> None:
    """``who`` just rolled a critical on ``target``."""
    if d.triggering:
        return
    d.triggering = True
    try:
        for sid in d.state.get(who).skills:
            user = d.state.get(who)
            skill = d.pack.skills.get(sid)
            if d.state.over or user.down:
                return
            if skill is None or not skill.on_critical or skill_blocked(user, skill) or skill.tp > user.tp:
                continue
            d.emit(ev.CriticalTriggered(who=who, skill=sid, target=target, tp=skill.tp))
            skills.run_effects(d, who, skill.effects, target, activation="", item=False, follow_ups=False)
    finally:
        d.triggering = False
