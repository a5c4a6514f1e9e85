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


def _commands(path: Path):
    """The ruleset of a golden log and the command of each CommandIssued in it."""
    lines = path.read_bytes().splitlines()
    header = msgspec.json.decode(lines[0])
    name = header["ruleset"]
    rs = registry.load(name)
    out = []
    for line in lines[1:]:
        row = msgspec.json.decode(line)
        if str(row.get("type", "")).endswith(".CommandIssued") and isinstance(row.get("data"), dict):
            out.append(msgspec.convert(row["data"]["command"], rs.command_type))
    return name, out


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_each_command_of_a_golden_log_reads_back_from_its_line(path):
    name, commands = _commands(path)
    try:
        grammar = surface_of(name).grammar
    except KeyError:
        pytest.skip(f"{name} declares no surface yet")
    assert commands
    for command in commands:
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
