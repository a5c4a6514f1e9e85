"""How things are called on screen: units by a short mark or their name,
dice by uid and name, faces by number (1 to 6) and what they show.

Shared by the views, the narration and the demo, so a die or a unit reads
the same everywhere."""

from __future__ import annotations

from domain.betrayal.packs.catalog import Pack, describe_face
from domain.betrayal.vocab import AbilityType

from .context import ENEMY_DIE, ENEMY_DIE_FACES
from .state import ActiveDie, BattleState, DieKind, Foe, Hero, TrackDie
from domain.kernel.hexes import label


def marks(state: BattleState) -> dict[str, str]:
    """The short mark of each unit on the map: two letters of an
    adventurer's name ("Ys"), an enemy's id ("e2")."""
    out: dict[str, str] = {}
    for i, hero in enumerate(state.heroes):
        letters = [ch for ch in hero.name if ch.isalnum()] or ["?"]
        mark = letters[0].upper() + (letters[1].lower() if len(letters) > 1 else "")
        if mark in out.values():
            mark = letters[0].upper() + str(i + 1)
        out[hero.id] = mark
    for foe in state.foes:
        out[foe.id] = foe.id
    for i, ally in enumerate(state.companions):  # a companion: two letters of its chip id, lower case
        mark = ally.id[:2].lower()
        out[ally.id] = mark if mark not in out.values() else f"{ally.id[0].lower()}{i + 1}"
    return out


def unit_name(state: BattleState, pack: Pack, unit_id: str) -> str:
    """An adventurer's name, a companion's, or an enemy as ``e2 Road Lookout``."""
    for hero in state.heroes:
        if hero.id == unit_id:
            return hero.name
    for ally in state.companions:
        if ally.id == unit_id:
            return ally.name
    for foe in state.foes:
        if foe.id == unit_id:
            return f"{foe.id} {enemy_name(pack, foe)}"
    return unit_id


def enemy_name(pack: Pack, foe: Foe) -> str:
    """An enemy's name as its card prints it (its content id if the pack lacks it)."""
    enemy = pack.enemies.get(foe.enemy)
    return enemy.name if enemy else foe.enemy


def where(pos) -> str:
    return label(pos) if pos is not None else "off the map"


face_text = describe_face


def die_name(pack: Pack, hero: Hero, uid: int) -> str:
    """``#3 Cleave``: the uid players pass to --dice, and the die's name."""
    for owned in hero.dice:
        if owned.uid == uid:
            die = pack.dice.get(owned.die)
            return f"#{uid} {die.name if die else owned.die}"
    return f"#{uid}"


def rolled_face(pack: Pack, die_id: str, face: int) -> str:
    """A rolled face as people count it, 1 to 6, and what it shows."""
    if die_id == ENEMY_DIE:
        amount = ENEMY_DIE_FACES[face]
        return f"{face + 1} ({'miss' if amount == 0 else f'{amount} damage'})"
    return f"{face + 1} ({face_text(pack.dice[die_id].faces[face])})"


def track_die(pack: Pack, hero: Hero, t: TrackDie) -> str:
    """One die on a cooldown track: kind, die name and face. What a face
    does is shown only for track abilities, which act while they sit there
    (TRACK-11)."""
    if t.kind is DieKind.SKILL:
        text = die_name(pack, hero, t.uid)
        if t.face >= 0:
            text += f" face {t.face + 1}"
            die = _owned(pack, hero, t.uid)
            face = die.faces[t.face] if die else None
            if face is not None and face.ability is AbilityType.TRACK and not face.tenacity:
                text += f" ({face_text(face)})"
        return text
    if t.kind is DieKind.STATUS:
        return f"status {t.status.value if t.status else '?'}"
    return t.kind.value.replace("-", " ")


def track_lines(pack: Pack, hero: Hero) -> list[str]:
    """The track left to right, numbered from 1; runs of the same fatigue
    die share a line (``6-8. light fatigue ×3``)."""
    lines: list[str] = []
    i = 0
    track = hero.track
    while i < len(track):
        text = track_die(pack, hero, track[i])
        j = i
        if track[i].kind in (DieKind.LIGHT_FATIGUE, DieKind.OVERFATIGUE):
            while j + 1 < len(track) and track[j + 1] == track[i]:
                j += 1
        if j > i:
            lines.append(f"{i + 1}-{j + 1}. {text} ×{j - i + 1}")
        else:
            lines.append(f"{i + 1}. {text}")
        i = j + 1
    return lines


def active_die(pack: Pack, hero: Hero, a: ActiveDie) -> str:
    """One die in an active slot and the amount left on it."""
    if a.kind is DieKind.SKILL:
        return f"{die_name(pack, hero, a.uid)}: {a.amount} left"
    return f"{a.kind.value.replace('-', ' ')}: {a.amount} left"


def _owned(pack: Pack, hero: Hero, uid: int):
    for owned in hero.dice:
        if owned.uid == uid:
            return pack.dice.get(owned.die)
    return None
