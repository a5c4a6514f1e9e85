"""The table options of a labyrinth battle, fixed at setup: the facts'
community readings (each one's default is that reading) and the engine's
documented defaults."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

import msgspec

from .vocab import DEFAULT_BUFF_TURNS, Side


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """Table options: the facts' community readings (each default = that
    reading) and the engine's documented defaults, fixed at setup."""

    ambush: Side | None = None  # the ambushed side: passive actions only in turn 1 (facts section 8)
    gm_enemies: bool = False  # the GM chooses each Enemy's action instead of the seeded policy
    auto_passives: bool = True  # a guard/counter passive is used whenever it may be (PASSIVE-2)
    ask_passives: bool = False  # whoever controls a target chooses its passive action, or none (PASSIVE-2)
    ask_fp: bool = False  # a PC's player chooses the FP spent on each of its Suppression defense rolls (FUMBLE-2)
    failed_activation_pays: bool = True  # a failed activation still pays the skill's cost (OQ 9)
    reapply_raises_depth: bool = True  # re-inflicting a held ailment only raises its depth (OQ 5)
    one_ailment_at_a_time: bool = False  # the OQ 35 house rule: a new ailment replaces the old
    sleep_wakes_on_hit_only: bool = True  # only a hit wakes a sleeper (OQ 37)
    curse_can_incapacitate: bool = True  # Curse backlash may drop its bearer to 0 (OQ 44)
    buff_limit_drops_oldest: bool = True  # a 4th kind drops the oldest (OQ 7); else it is not applied
    same_buff_keeps_longer: bool = True  # equal values: keep the longer duration (OQ 36)
    resist_weak_same_element: bool = True  # Resistance/Weakness grant oppose only on one element (OQ 41)
    default_buff_turns: int = DEFAULT_BUFF_TURNS  # a buff with no duration (OQ 59)
    follow_ups_need_range: bool = True  # pursuits and counters obey near/far (OQ 63)
    full_defense_through_end: bool = True  # the Waiting state runs through the End phase (OQ 27)
    zero_dice_deal_nothing: bool = True  # a damage dice count <= 0 deals 0 (OQ 1); off: one die at least
    critical_dice_never_crit: bool = True  # the 4 critical dice make no further critical (OQ 2)
    one_passive_per_action: bool = True  # hits of one action on a target are one attack roll: one reaction (OQ 54)
    depth_zero_keeps_ailment: bool = True  # depth stops at 0 and the ailment stays (OQ 38); off: it ends
    poison_ignores_defense: bool = True  # poison is Actual damage past [Defense] (OQ 8); off: less [Defense]
    poison_recorded_if_gone: bool = True  # a gone poisoner's recorded value still applies (OQ 43); off: none
    confused_alone_does_nothing: bool = True  # a confused one with no ally to hit does nothing (OQ 42)
    pursuit_stays: bool = True  # Pursuit:● is not used up by pursuing (OQ 64); off: one Pursuit per grant
    fp_reroll_cost: int = 1  # FP for rerolling a check (OQ 18)
    identify: bool = False  # the party Identifies the Enemies before the battle (ENEMY-3, ENEMY-4)
    physical_dice: bool = False  # the table rolls real dice and types every roll's faces (`rk roll --faces`)

    # Logs written before passives could be asked hold no ``ask_passives``: left out when off.
    __digest_skip_default__: ClassVar[frozenset[str]] = frozenset({"ask_passives", "ask_fp", "physical_dice"})


# How the passive actions of a battle are chosen (PASSIVE-2), as `rk new labyrinth --passives` and the
# server's ``passives`` name them: the table options each way sets.
PASSIVES: Mapping[str, Mapping[str, bool]] = {
    "ask": {"ask_passives": True},  # whoever controls the target chooses its passive, or none
    "auto": {"ask_passives": False, "auto_passives": True},  # a guard/counter is used whenever it may be
    "off": {"ask_passives": False, "auto_passives": False},  # no passive actions are used
}


def passive_settings(mode: str) -> dict[str, bool] | None:
    """The table options ``mode`` (ask, auto or off; PASSIVE-2) sets, as
    {option: value}; None when ``mode`` is none of them."""
    chosen = PASSIVES.get(mode)
    return None if chosen is None else dict(chosen)


def passive_mode(options: Options) -> str:
    """The mode of ``PASSIVES`` that ``options`` play: ask, auto or off."""
    return "ask" if options.ask_passives else "auto" if options.auto_passives else "off"


def option_text(value: object) -> str:
    """A table option's value as ``--option NAME=VALUE`` takes it and the
    status shows it (``true``, ``none``, ``4``)."""
    return str(value).lower() if isinstance(value, bool) or value is None else str(value)
