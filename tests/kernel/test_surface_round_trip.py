"""Every command of every golden log reads back from the line its ruleset
writes for it (python-chess's SAN both ways): `rk log`, `rk legal` and the
narrator print lines the command line takes as they are."""

from __future__ import annotations

import shlex
from pathlib import Path

import msgspec
import pytest

from domain.kernel import ruleset as registry
from domain.kernel.surface import plain, read, surface_of

LOGS = sorted((Path(__file__).resolve().parents[2] / "logs").glob("*.jsonl"))


def _commands(path: Path) -> list[tuple[str, object]]:
    """Each CommandIssued of a golden log: its ruleset (by the event's
    topic: a campaign's log holds its battles' commands too) and its command."""
    by_topic = {rs.issued.TOPIC: rs for rs in registry.all_rulesets()}
    out = []
    for line in path.read_bytes().splitlines()[1:]:
        row = msgspec.json.decode(line)
        rs = by_topic.get(str(row.get("type", "")))
        if rs is not None and isinstance(row.get("data"), dict):
            out.append((rs.name, msgspec.convert(row["data"]["command"], rs.command_type)))
    return out


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_each_command_of_a_golden_log_reads_back_from_its_line(path):
    commands = _commands(path)
    assert commands
    for name, command in commands:
        grammar = surface_of(name).grammar
        line = grammar.spell(command)
        setup = _setup_of(name, command)
        if setup is None:
            assert grammar.parse(line) == command, line
        elif "<" not in line:  # a setup from a sheet file names the file, which the log does not keep
            _, values = read(setup.verb, shlex.split(line)[2:])
            assert plain(values) == plain({k: v for k, v in setup.fields(command).items() if k in values}), line


def _setup_of(name: str, command):
    """The setup that makes ``command``, if it is a setup command."""
    for setup in surface_of(name).setups:
        if isinstance(command, setup.makes):
            return setup
    return None
