"""Betrayal as the table sees it: its verbs, setups, queries and views,
declared for the adapters (``domain.kernel.surface``). Light imports only:
the rules load when a command is decided."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface import Param, Query, Surface
from domain.kernel.surface.kinds import Text

VIEWS = "Read models"


def _report(name: str) -> Any:
    """A query's answer from ``read_models.reports``, imported when asked."""
    def answer(asked: Any, **values: Any) -> Any:
        from .read_models import reports

        return getattr(reports, name)(asked, **values)

    answer.__name__ = name
    return answer


READ_MODEL_QUERIES = (
    Query("track", "Each adventurer's cooldown track, die by die (a projection of the log).", _report("track"),
          panel=VIEWS, game=True),
    Query("pool", "The enemy pool: EP computed, each draw and what remained (a projection).", _report("pool"),
          panel=VIEWS, game=True),
    Query("skyshards", "A delve's skyshards: required, drawn, obtained, and what the objective still needs "
          "(a projection).", _report("skyshards"), panel=VIEWS, game=True),
    Query("adventurers", "List the adventurers of the store: race, HP, battles fought, the last one, whether "
          "they can fight.", _report("adventurers"), panel="Looking"),
    Query("xp", "An adventurer's XP ledger: each XP gained (from which battle) and spent (on what), with the "
          "balance.", _report("xp"), params=(Param("name", Text("adventurer"), "The adventurer's name (any case).",
                                                   metavar="NAME"),), panel="Between battles"),
)

SURFACES = (Surface(ruleset="betrayal", title="Betrayal of the Second Era", queries=READ_MODEL_QUERIES),)
