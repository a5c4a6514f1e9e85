"""Naming and choosing battles on the command line: `rk use`, `rk rename`,
`rk delete`, `rk restore`, and what `rk new` does once a battle is set up.

A battle's id is fixed in its log (export, import and verify carry it); a
name given with `rk rename` is this store's label for it, and either finds
it. Deleting is soft: the battle leaves `rk battles` and the default choice,
its log stays whole. The index keeps all of it
(``domain.kernel.battle_index``); which battle is current is the user's own
(``domain.kernel.stores.current_battle``).
"""

from __future__ import annotations

from domain.kernel.battle_index import IndexEntry
from domain.kernel.errors import NotFound

from domain.kernel.stores.current_battle import chosen_battle, choose, current, current_or_none, remember
from .session import Session, StoreUnavailable


def started(s: Session, battle_id: str) -> None:
    """A battle was just set up: the session and later commands act on it."""
    s.battle = battle_id
    remember(s.app, battle_id)


def use(s: Session, name: str | None) -> None:
    """Make battle ``name`` current; without one, say which is."""
    app = s.app
    if name is None:
        found = current(app)
        entry = app.find_battle(found)
        chosen = chosen_battle(app) == found
        if s.json:
            s.out.emit(_json(entry) | {"chosen": chosen})
        else:
            how = "chosen with `rk use`" if chosen else "the latest; `rk use NAME` picks another"
            s.out.print(f"The current battle is {_called(entry)}: {how}.")
        return
    entry = app.find_battle(name)
    if entry.deleted:
        raise NotFound(f"battle {name!r} is deleted: `rk restore {entry.name}` brings it back")
    try:
        choose(app, entry.battle_id)
    except OSError as e:
        raise StoreUnavailable(f"cannot keep the current battle: {e}") from None
    if s.json:
        s.out.emit(_json(entry) | {"chosen": True})
    else:
        s.out.print(f"Commands now act on {_called(entry)} (`rk status` shows it).")


def rename(s: Session, old: str, new: str) -> None:
    """Call battle ``old`` ``new`` from now on."""
    before = s.app.find_battle(old)
    entry = s.app.rename_battle(old, new)
    if s.json:
        s.out.emit(_json(entry) | {"was": before.name})
        return
    s.out.print(
        f"Renamed {before.name} to {entry.name}"
        + ("." if entry.name == entry.battle_id else f"; its log keeps the id {entry.battle_id}, which finds it too.")
    )


def delete(s: Session, name: str) -> None:
    """Delete battle ``name`` softly."""
    entry = s.app.delete_battle(name)
    if chosen_battle(s.app) == entry.battle_id:
        try:
            choose(s.app, None)
        except OSError:
            pass  # the choice of a deleted battle is passed over anyway (current_battle)
    now = current_or_none(s.app)
    if s.json:
        s.out.emit(_json(entry) | {"current": now})
        return
    s.out.print(
        f"Deleted {entry.name}: `rk battles` no longer lists it. Its log is kept: `rk restore {entry.name}`"
        f" brings it back, `rk export --battle {entry.name}` still writes it."
    )
    if now is not None:
        s.out.print(f"The current battle is {_called(s.app.find_battle(now))}.")


def restore(s: Session, name: str) -> None:
    """List a deleted battle again."""
    entry = s.app.restore_battle(name)
    if s.json:
        s.out.emit(_json(entry))
        return
    s.out.print(f"Restored {_called(entry)}: `rk battles` lists it again (`rk use {entry.name}` to act on it).")


def called(app, battle_id: str) -> str:
    """How battle ``battle_id`` is shown to people (``GameApp.called``)."""
    return app.called(battle_id)


def _json(entry: IndexEntry) -> dict:
    return {"battle": entry.battle_id, "name": entry.name, "ruleset": entry.ruleset, "deleted": entry.deleted}


def _called(entry: IndexEntry) -> str:
    return entry.name if entry.name == entry.battle_id else f"{entry.name} (id {entry.battle_id})"
