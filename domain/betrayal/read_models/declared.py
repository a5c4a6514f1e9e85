"""The queries that show Betrayal's read models (`rk track`, `rk pool`,
`rk skyshards`, `rk adventurers`, `rk xp`), declared for its surface. Light:
the reports and the read models load when a query is answered."""

from __future__ import annotations

from typing import Any

from domain.kernel.surface import Param, Query
from domain.kernel.surface.kinds import Text

VIEWS = "Read models"


def _report(name: str) -> Any:
    """A query's answer from ``reports``, imported when asked."""

    def answer(asked: Any, **values: Any) -> Any:
        from . import reports

        return getattr(reports, name)(asked, **values)

    answer.__name__ = name
    return answer


READ_MODEL_QUERIES = (
    Query(
        "track",
        "Each adventurer's cooldown track, die by die (a projection of the log).",
        _report("track"),
        panel=VIEWS,
        game=True,
    ),
    Query(
        "pool",
        "The enemy pool: EP computed, each draw and what remained (a projection).",
        _report("pool"),
        panel=VIEWS,
        game=True,
    ),
    Query(
        "skyshards",
        "A delve's skyshards: required, drawn, obtained, and what the objective still needs (a projection).",
        _report("skyshards"),
        panel=VIEWS,
        game=True,
    ),
    Query(
        "adventurers",
        "List the adventurers of the store: race, HP, battles fought, the last one, whether they can fight.",
        _report("adventurers"),
        panel="Looking",
    ),
    Query(
        "xp",
        "An adventurer's XP ledger: each XP gained (from which battle) and spent (on what), with the balance.",
        _report("xp"),
        params=(Param("name", Text("adventurer"), "The adventurer's name (any case).", metavar="NAME"),),
        panel="Between battles",
    ),
)
