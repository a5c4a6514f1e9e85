"""Betrayal's campaign as the kernel sees it: a second ruleset of the
``betrayal`` package, ``betrayal-campaign``, whose game is a campaign and
whose commands write to the same adventurer streams the battles do. The
kernel's command log then gives the time between battles what a battle
has: undo and redo across the Reward Phase, time travel, export, import
and verify."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any
from uuid import UUID

from domain.kernel.errors import NotFound
from domain.kernel.messages import Event
from domain.kernel.ruleset import Outcome, Problem, Ruleset, Summary

from domain.betrayal import RULES_VERSION
from domain.betrayal.adventurer import aggregate as adv
from domain.betrayal.adventurer import events as ae
from domain.betrayal.battle.ruleset import ADVENTURERS, BETRAYAL
from domain.betrayal.packs.catalog import Pack
from domain.betrayal.packs.load import parse_pack, starter_pack

from . import game as cp
from . import commands as cc
from .game import CampaignContext


class BetrayalCampaign(Ruleset[cp.CampaignState, cc.CampaignCommand, CampaignContext, Pack, cp.CampaignEvent]):
    """The campaign of Betrayal of the Second Era: the party between battles."""

    name = "betrayal-campaign"
    package = "betrayal"
    title = "Betrayal campaign"
    rules_version = RULES_VERSION
    game_kind = "campaign"
    round_field = "session"
    state_type = cp.CampaignState
    command_type = cc.CampaignCommand
    event_base = cp.CampaignEvent
    issued = cp.CampaignIssued
    undone = cp.CampaignUndone
    snapshot_topic = "betrayal.snapshot.Campaign"
    aggregates = (ADVENTURERS,)
    setup_commands = (cc.StartCampaign, cc.StartFromPosition)
    positioned = cp.CampaignPositionTaken
    position_hexes = BETRAYAL.position_hexes
    battles = False  # `rk campaign list` lists campaigns; `rk battles` the battles
    group_kind = "campaign"  # `rk export --campaign NAME`: the campaign with its battles, one log

    def pack(self) -> Pack:
        return starter_pack()

    def load_pack(self, files: Mapping[str, bytes]) -> Pack:
        return parse_pack(files)

    def pack_hashes(self, pack: Pack) -> tuple[str, ...]:
        return (pack.campaign_hash,)

    def _context(self, pack: Pack) -> CampaignContext:
        return CampaignContext(pack, {}, lambda name: self.stream_of(ADVENTURERS.kind, name))

    def context(self, pack: Pack, state: cp.CampaignState) -> CampaignContext:
        if state.pack_hash != pack.campaign_hash:
            raise NotFound(
                f"campaign {state.battle_id} was played with pack {state.pack_id} ({state.pack_hash});"
                " that pack is not loaded"
            )
        return self._context(pack)

    def setup_context(self, pack: Pack, command: cc.CampaignCommand) -> CampaignContext:
        return self._context(pack)  # the same for every campaign: its party comes later

    def companions(self, state: cp.CampaignState, command: object = None) -> tuple[tuple[str, UUID], ...]:
        """The party's adventurers, and the one a recruit or an enlistment names."""
        streams = [(ADVENTURERS.kind, UUID(m.adventurer_id)) for m in state.party]
        if isinstance(command, (cc.Recruit, cc.Enlist)):
            streams.append((ADVENTURERS.kind, self.stream_of(ADVENTURERS.kind, command.name)))
        return tuple(streams)

    def joined_streams(self, ctx: CampaignContext, companions: Mapping[tuple[str, UUID], Any]) -> CampaignContext:
        return CampaignContext(
            ctx.pack, {str(stream): state for (_, stream), state in companions.items()}, ctx.stream_of
        )

    evolve = staticmethod(cp.evolve_campaign)

    def decide(self, state: cp.CampaignState | None, command: cc.CampaignCommand, ctx: CampaignContext) -> Outcome:
        from .rules import decide  # the rules, imported when a command is decided

        return decide(state, command, ctx, RULES_VERSION)

    def legal_commands(self, state: cp.CampaignState, ctx: CampaignContext) -> list[cc.CampaignCommand]:
        from .rules import legal_commands

        return legal_commands(state, ctx)

    def reveals(self, event: Event) -> bool:
        return False  # nothing between battles is random

    def check_random(self, state: Any, event: Event) -> None:
        return None

    def describe_event(self, event: Event, state: Any, pack: Pack | None) -> str:
        from . import narrate as words  # the narrator, imported when an event is told

        return words.describe(event, pack, state) or BETRAYAL.describe_event(event, None, pack)

    def describe_written(self, event: Event, stream: UUID, state: cp.CampaignState | None, pack: Pack) -> str:
        """A party member's event, with its name: ``REWARD-1: Ria gains 2 XP``."""
        text = self.describe_event(event, state, pack)
        member = next((m for m in state.party if m.adventurer_id == str(stream)), None) if state else None
        if member is None or isinstance(event, (adv.AdventurerRestored, ae.AdventurerRecruited)):
            return text
        rule, sep, rest = text.partition(": ")
        if sep and rule and rule.replace("-", "").isalnum() and rule.isupper():
            return f"{rule}: {member.name} {rest}"
        return f"{member.name} {text}"

    def check_position(self, state: cp.CampaignState, others: Any, pack: Pack) -> list[Any]:
        """The party's adventurers: race, dice and HP (``battle.position``)."""
        from domain.betrayal.battle.position import adventurer_flaws

        return adventurer_flaws(others, pack)

    def position_streams(self, state: cp.CampaignState) -> dict[UUID, str]:
        """A campaign's position holds its party's adventurers."""
        return {UUID(m.adventurer_id): f"{ADVENTURERS.kind}:{m.name}" for m in state.party}

    def cited_rule(self, event: Event) -> str:
        from . import narrate as words

        return words.cited_rule(event) or BETRAYAL.cited_rule(event)

    def summary(self, state: cp.CampaignState) -> Summary:
        where = f"reward phase of {state.reward}" if state.reward else f"session {state.session}, day {state.day}"
        return Summary(round=state.session, where=where, who=", ".join(m.name for m in state.party), setup="campaign")

    def related_streams(self, state: cp.CampaignState) -> dict[UUID, str]:
        return {UUID(m.adventurer_id): f"{ADVENTURERS.kind}:{m.name}" for m in state.party}

    def grouped_games(self, state: cp.CampaignState, events_of: Callable[[UUID], Iterable[Event]]) -> tuple[str, ...]:
        """A campaign's battles: every battle a party member joined or came
        back from (as its adventurer's stream says), in the order met."""
        found: dict[str, None] = {}
        for member in state.party:
            for event in events_of(UUID(member.adventurer_id)):
                if isinstance(event, (ae.BattleJoined, adv.BattleConcluded)):
                    found.setdefault(event.battle_id)
        return tuple(found)

    def check_other(self, kind: str, stream: UUID, event: Event, state: object, pack: Pack) -> Problem | None:
        """An adventurer's history from outside this campaign (its battles,
        its creation for one) is held as a battle's log holds it."""
        return BETRAYAL.check_other(kind, stream, event, state, pack)


CAMPAIGN = BetrayalCampaign()
