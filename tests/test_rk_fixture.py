"""The shared ``store`` and ``rk`` fixtures (rk_fixture.py): a fresh store
per test at 80 columns, a run that checks its exit status, JSON read back,
and the real process beside the in-process run."""

from __future__ import annotations

import os

import pytest

from cli.session import Defaults

NEW_CLASH = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ysolda:nord", "--seed", "7"]


def test_the_store_is_a_fresh_file_of_the_tests_own_read_at_80_columns(store, tmp_path):
    assert os.environ["RULEKEEPER_STORE"] == str(store) and store.parent == tmp_path
    assert not store.exists()
    assert os.environ["COLUMNS"] == "80"


@pytest.mark.columns(120)
def test_a_columns_mark_sets_another_width(store):
    assert os.environ["COLUMNS"] == "120"


def test_rk_fails_the_test_when_the_exit_status_is_not_the_one_asked_for(rk):
    with pytest.raises(AssertionError, match="'status'"):
        rk("status")  # no battle yet: exit 1
    refused = rk("status", code=1)
    assert "rk new" in refused.stderr and refused.stdout == ""
    assert rk("status", code=None).code == 1


def test_a_usage_error_exits_1_as_the_rk_command_does(rk):
    code, _, err = rk("no-such-command", code=None)
    assert code == 1 and len(err.strip().splitlines()) == 1


def test_json_adds_the_flag_and_json_reads_stdout(rk):
    rk(*NEW_CLASH)
    status = rk("status", json=True)
    assert status.args[-1] == "--json"
    assert status.json()["battle"] == "waystone-1"


def test_input_is_what_is_typed_on_standard_input(rk):
    rk(*NEW_CLASH)
    assert "Battle waystone-1" in rk("play", input="status\nquit\n").stdout


def test_rk_on_types_at_one_open_table(rk):
    defaults = Defaults(store="memory", keep_open=True)
    try:
        table = rk.on(defaults)
        table(*NEW_CLASH, "--battle", "kept")
        assert table("status", json=True).json()["battle"] == "kept"  # the same memory store, still open
        assert rk("battles", json=True).json() == []  # the test's own store holds nothing
    finally:
        defaults.close()


def test_rk_process_runs_a_real_process_on_the_same_store(rk):
    rk(*NEW_CLASH)
    assert rk.process("status", json=True).json()["battle"] == "waystone-1"
