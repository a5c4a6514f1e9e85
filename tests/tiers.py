"""The quick tier's share of a parametrized test (see conftest.py): some
cases run in every run, the others only in the full tier (marked
``slow``). Keep the cases that cover every kind (each mode, real dice and
seeded, each ruleset, each store).

A case is a value (one argument), a tuple (several arguments) or a
``pytest.param``; a single argument whose value is a tuple must come as a
``pytest.param``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

_PARAM = type(pytest.param(0))


def quick_first(cases: Iterable[Any], keep: int) -> list[Any]:
    """``cases`` as ``parametrize`` takes them, all but the first ``keep``
    marked ``slow``."""
    return [case if n < keep else slow(case) for n, case in enumerate(cases)]


def spread(cases: Iterable[Any], keep: int) -> list[Any]:
    """Like ``quick_first``, keeping ``keep`` cases spread evenly over the
    list (the first, the last and between): for lists ordered by kind."""
    cases = list(cases)
    if keep >= len(cases):
        return cases
    picked = {round(i * (len(cases) - 1) / max(keep - 1, 1)) for i in range(keep)}
    return [case if n in picked else slow(case) for n, case in enumerate(cases)]


def slow(case: Any) -> Any:
    """One case, for the full tier only."""
    if isinstance(case, _PARAM):
        return pytest.param(*case.values, marks=(*case.marks, pytest.mark.slow), id=case.id)
    return pytest.param(*(case if isinstance(case, tuple) else (case,)), marks=pytest.mark.slow)
