"""The typed shape of a pack's campaign content: class sheets, item cards
with their effects, and the campaign tables (adventurer mat, rest, session
EP, rewards). ``catalog.py`` re-exports these and ``Pack`` holds them;
loading and validation live in ``campaign.py`` and its helpers."""

from __future__ import annotations

import msgspec

from domain.kernel.enums import PlainStr
from domain.kernel.errors import InternalError

from domain.betrayal.vocab import AbilityTiming, BattleForm, EffectKind, ItemKind, Status


class AbilityEffect(msgspec.Struct, frozen=True, kw_only=True):
    """What an ability or item does, in a form a battle engine can apply:
    ``amount`` of ``kind`` (see ``EffectKind``), or the ``status`` it places."""

    kind: EffectKind
    amount: int = 0
    status: Status | None = None

    @property
    def placed(self) -> Status:
        """The status a status effect places (a status effect names one:
        checked as the pack is read)."""
        if self.status is None:
            raise InternalError(f"a {self.kind.value} effect places no status")
        return self.status


class ClassAbility(msgspec.Struct, frozen=True, kw_only=True):
    """One ability of a class sheet, or one a Clothing item grants
    (CLASS-1 to CLASS-5, CLOTHING-1). ``cost`` is the tenacity it spends
    (0 to 5), for an Enduring ability the tenacity it needs (CLASS-3);
    ``form`` the battle form it needs (CLASS-5); ``trigger`` what sets off
    an Interrupt (``vocab.Trigger`` values, CLASS-4)."""

    id: str
    name: str
    timing: AbilityTiming
    cost: int
    form: BattleForm | None = None
    effect: AbilityEffect
    trigger: str = ""
    text: str


class RequirementKind(PlainStr):
    """What a promotion requirement counts in one battle (ADVANCE-15): our
    own closed set, each something the battle rules can count."""

    PREVENT_DAMAGE = "prevent-damage"  # damage prevented on yourself, or by your abilities on others
    ENEMIES_DEFEATED = "enemies-defeated"  # enemies whose last damage you dealt
    TRUE_DAMAGE_DEFEATS = "true-damage-defeats"  # enemies defeated by your true damage
    DISTANT_DEFEAT = "distant-defeat"  # one enemy defeated by you from ``amount`` or more hexes away
    HEAL_OTHERS = "heal-others"  # HP your class abilities healed on other adventurers


class Requirement(msgspec.Struct, frozen=True, kw_only=True):
    """A class sheet's promotion requirement in a form a battle can count
    (ADVANCE-15, ADVANCE-16): ``amount`` of ``kind`` within one battle."""

    kind: RequirementKind
    amount: int


class ClassSheet(msgspec.Struct, frozen=True, kw_only=True):
    """A class sheet: its Novice side's abilities, the Innate one first
    (facts: CLASS-2a), what it takes to be promoted (ADVANCE-15: the words
    and the ``requirement`` a battle counts), and the abilities its Master
    side adds (``master``), usable only once the sheet is flipped."""

    id: str
    name: str
    text: str
    abilities: tuple[ClassAbility, ...]
    promotion: str
    requirement: Requirement | None = None
    master: tuple[ClassAbility, ...] = ()


class Gear(msgspec.Struct, frozen=True, kw_only=True):
    """An item card's type and effect. ``trait`` is an Armor's (ARMOR-3),
    ``form`` the battle form a Weapon serves, ``overtax`` a Weapon's or
    Armor's stronger effect (OVERTAX-1), ``ability`` the class ability a
    Clothing grants (CLOTHING-1), ``hp_limit`` a Pet's (PET-2, PET-3) and
    ``attaches`` what an Enchantment goes on (``vocab.Attaches`` values,
    ENCHANT-1)."""

    id: str
    name: str
    kind: ItemKind
    legendary: bool = False
    value: int
    trait: str = ""
    form: BattleForm | None = None
    effect: AbilityEffect | None = None
    overtax: AbilityEffect | None = None
    ability: ClassAbility | None = None
    hp_limit: int = 0
    attaches: str = ""
    text: str


class Rest(msgspec.Struct, frozen=True, kw_only=True):
    """Adventurers Rest at one difficulty (facts: End of Day table): HP
    healed, cooldown dice removed, and whether an item must be discarded."""

    heal: int
    remove: int
    discard_item: bool = False


class SessionEp(msgspec.Struct, frozen=True, kw_only=True):
    """One cell of the session-end EP table (SESSION-EP-3): the EP, and the
    XP per adventurer it is based on (SESSION-EP-4)."""

    session: int
    difficulty: str
    players: int
    ep: int
    xp: int


class CampaignRules(msgspec.Struct, frozen=True, kw_only=True):
    """The numbers of a campaign: the adventurer mat (ADVANCE-2 to
    ADVANCE-4; ``start`` is each row's (left, right) round token, "" for an
    empty round slot), the limits, rest by difficulty, the session-end EP
    table and the XP each won encounter gives, by setup, delve or dungeon id."""

    squares: int
    rows: int
    white: tuple[int, ...]  # cost per column, from the left (ADVANCE-4 white box)
    black: tuple[int, ...]  # cost per column, from the right (ADVANCE-4 black box)
    start: tuple[tuple[str, str], ...]
    max_cooldown: int = 6
    max_tenacity: int = 10
    saved_xp: int = 3  # ADVANCE-12
    combat_max: int = 14  # COMBAT-2
    start_dial: int = 2
    rest: dict[str, Rest]
    session_ep: tuple[SessionEp, ...]
    rewards: dict[str, int]
