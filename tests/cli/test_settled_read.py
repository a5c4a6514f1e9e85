"""``cli.settled.settled`` (issue 25, eighth pass): within it the objects
made before it are out of the collector's generations, and after it, even
when the read fails or one is nested in another, they are back and
collected as ever."""

from __future__ import annotations

import gc
import weakref

import pytest

from cli.settled import settled


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


def test_objects_made_before_are_frozen_within_and_thawed_after():
    before = _Node()
    with settled():
        assert gc.get_freeze_count() > 0
        during = _Node()
        assert not any(o is during for o in gc.get_objects(2))  # what the read makes is collected as ever
    assert gc.get_freeze_count() == 0
    gone = weakref.ref(before)
    del before
    gc.collect()
    assert gone() is None  # dropped while frozen: collected once thawed


def test_a_failed_read_and_a_nested_one_thaw_only_at_the_outer_end():
    with pytest.raises(ValueError):
        with settled():
            with settled():
                pass
            assert gc.get_freeze_count() > 0  # the inner one left them frozen
            raise ValueError
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("verb", [["log"], ["log", "--json"], ["audit"], ["audit", "--json"]])
def test_rk_log_and_rk_audit_leave_nothing_frozen(tmp_path, capsys, verb):
    from cli.main import main
    from cli.session import Defaults

    store = f"sqlite:{tmp_path / 'rk.sqlite'}"
    new = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc"]
    assert main([*new, "--seed", "7", "--name", "b"], obj=Defaults(store=store)) == 0
    assert main([*verb, "--battle", "b", "--no-pager"], obj=Defaults(store=store)) == 0
    assert gc.get_freeze_count() == 0
    assert "rk new clash" in capsys.readouterr().out
