"""Nothing offered is a trap: a command the rules accept but that could
only spend its action (and its TP or its item) is left out of the legal
list, though ``decide`` still takes it (RULES-COVERAGE-labyrinth,
"Offered commands"). Two such: a Pursuit skill aimed at its own user
(BUFF-CHASE: the user pursues the ally it names, never itself), and a
Recovery whose every effect heals a target already at its maximum
(HEAL-3: never above the maximum). Pure."""

from __future__ import annotations

from collections.abc import Sequence

from .catalog import Pack, SkillEffect
from .commands import EnemyAct, LabyrinthCommand, UseItem, UseSkill, UseStandbySkill
from .state import LabyrinthState
from .stats import stats
from .vocab import Effect, Targets


def does_something(state: LabyrinthState, pack: Pack, command: LabyrinthCommand) -> bool:
    """Whether ``command`` (a listed one) can do more than spend its action."""
    effects = _effects(pack, command)
    if not effects:
        return True
    actor, target = getattr(command, "actor", ""), getattr(command, "target", "")
    if all(e.effect is Effect.CHASE for e in effects) and target == actor:
        return False  # BUFF-CHASE
    if all(e.effect is Effect.HEAL and e.targets is Targets.ALLY for e in effects) and target:
        t = state.find(target)
        if t is not None and not t.down and t.hp >= stats(t, pack).max_hp:
            return False  # HEAL-3
    return True


def _effects(pack: Pack, command: LabyrinthCommand) -> Sequence[SkillEffect]:
    if isinstance(command, UseItem):
        item = pack.items.get(command.item)
        return item.effects if item is not None else ()
    if isinstance(command, (UseSkill, UseStandbySkill, EnemyAct)) and command.skill not in ("", "pass"):
        skill = pack.skills.get(command.skill)
        return skill.effects if skill is not None else ()
    return ()
