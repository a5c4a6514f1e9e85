"""Which rule a labyrinth event cites: the rule that governs its kind of
event, or, where one kind serves several rules, the one its content picks.
The narration (``rk log``) and the audit cite through here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import commands as cmd
from . import events as ev

_COMMAND_RULES: dict[type, str] = {
    cmd.StartLabyrinth: "SCALE-1",
    cmd.Move: "STANDBY-2",
    cmd.SwapWeapons: "STANDBY-4",
    cmd.UseStandbySkill: "STANDBY-5",
    cmd.FullDefense: "STANDBY-6",
    cmd.Escape: "STANDBY-8",
    cmd.Pass: "STANDBY-1",
    cmd.Attack: "MAIN-2",
    cmd.UseSkill: "MAIN-4",
    cmd.UseItem: "MAIN-6",
    cmd.EnemyAct: "MAIN-1",
    cmd.Hold: "ORDER-3",
    cmd.React: "PASSIVE-2",
    cmd.SpendFp: "FUMBLE-2",
    cmd.TypeFaces: "",  # the roll's own rule: its question's (``ReactionAsked.rule``)
}

_DECLARED = {
    "move": "STANDBY-2",
    "swap": "STANDBY-4",
    "skill": "STANDBY-5",
    "defend": "STANDBY-6",
    "escape": "STANDBY-8",
    "pass": "STANDBY-1",
}
_AILMENT_RULES = {
    "paralyze": "AILMENT-PARALYZE",
    "fear": "AILMENT-FEAR",
    "confuse": "AILMENT-CONFUSE",
    "stun": "AILMENT-STUN",
}
_MODES = {"normal": "HIT-1", "skill": "HIT-1", "pursuit": "CHASE-3", "counter": "COUNTER-3"}


def _afflicted(e: ev.Afflicted) -> str:
    if e.kind in ("head", "arm", "leg"):
        return f"BIND-{e.kind.upper()}"
    return "DEPTH-1"


def _hp_lost(e: ev.HpLost) -> str:
    return "AILMENT-POISON" if e.cause == "poison" else "AILMENT-CURSE"


def _damage(e: ev.DamageRolled) -> str:
    if e.critical:
        return "CRIT-2"
    return "STANDBY-7" if "full defense" in e.halved else "DAMAGE-1"


def _cured(e: ev.Cured) -> str:
    if e.cause == "natural recovery":
        return "SUPPRESS-3"
    if e.cause == "depth 0":
        return "DEPTH-2"
    return "AILMENT-SLEEP" if e.cause == "woke" else ""


_RULES: dict[type, str | Callable[[Any], str]] = {
    ev.CommandIssued: lambda e: _COMMAND_RULES.get(type(e.command), ""),
    ev.CommandUndone: lambda e: "UNDO-2" if e.forced else "UNDO",
    ev.BattleStarted: "SCALE-1",
    ev.TurnStarted: "STANDBY-1",
    ev.AilmentRolled: lambda e: _AILMENT_RULES.get(e.ailment, ""),
    ev.TurnLost: lambda e: _AILMENT_RULES.get(e.cause, ""),
    ev.Confused: "AILMENT-CONFUSE",
    ev.Declared: lambda e: _DECLARED.get(e.declaration.action, "STANDBY-1"),
    ev.Moved: "STANDBY-2",
    ev.RowsSwapped: "",
    ev.DeclarationLapsed: lambda e: e.rule,
    ev.WeaponsSwapped: "STANDBY-4",
    ev.FullDefenseTaken: "STANDBY-6",
    ev.EscapeRolled: "STANDBY-8",
    ev.MainStarted: "ORDER-1",
    ev.ActorUp: lambda e: "ORDER-3" if e.window else "MAIN-1",
    ev.Held: "ORDER-3",
    ev.ActionDelayed: "ORDER-3",
    ev.DelayedAttackSet: "ATTACK-1",
    ev.DelayedAttackResolved: "ATTACK-1",
    ev.TokenPlaced: "ATTACK-1",
    ev.TokenVanished: "ATTACK-1",
    ev.CriticalTriggered: "CRIT-3",
    ev.EffectFizzled: lambda e: e.rule,
    ev.Identified: "ENEMY-3",
    ev.FpSpent: "FUMBLE-2",
    ev.CheckRerolled: "FUMBLE-2",
    ev.ActionSkipped: lambda e: e.rule,
    ev.Passed: "MAIN-1",
    ev.ActionEnded: "MAIN-1",
    ev.SkillFumbled: "FUMBLE-1",
    ev.ActionChosen: "ENEMY-1",
    ev.TargetPicked: "",
    ev.SkillUsed: lambda e: "FUMBLE-2" if e.fumbled else "MAIN-5",
    ev.ItemUsed: "MAIN-6",
    ev.AttackRolled: lambda e: _MODES.get(e.mode, "HIT-1"),
    ev.DamageRolled: _damage,
    ev.PassiveUsed: "PASSIVE-3",
    ev.ReactionAsked: lambda e: e.rule if e.kind == "faces" else "FUMBLE-2" if e.kind == "fp" else "PASSIVE-1",
    ev.ReactionChosen: lambda e: "" if e.kind == "faces" else "FUMBLE-2" if e.kind == "fp" else "PASSIVE-2",
    ev.HpLost: _hp_lost,
    ev.Incapacitated: "",
    ev.Healed: "HEAL-3",
    ev.SuppressionRolled: "SUPPRESS-2",
    ev.Afflicted: _afflicted,
    ev.Cured: _cured,
    ev.BuffsChanged: lambda e: e.rule,
    ev.Regenerated: "BUFF-HP-REGEN",
    ev.EndStarted: "",
    ev.DepthLowered: "DEPTH-2",
    ev.TurnEnded: "BUFF-4",
    ev.BattleEnded: "",
    ev.DropRolled: "",
}


def cited_rule(event: Any) -> str:
    """The rule ``event`` applies, or ""."""
    rule = _RULES.get(type(event), "")
    return rule(event) if callable(rule) else rule
