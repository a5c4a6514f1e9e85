"""Golden-log fixtures and the ``--regen-golden`` option.

    .venv/bin/pytest tests/golden --regen-golden

plays the golden battles again (logs/regenerate.py) and writes their logs
before the golden tests check them. Pass the folder: pytest only reads
options from the conftest files of the paths it is given.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOGS = ROOT / "logs"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="regenerate the golden battle logs in logs/ (by real play) instead of trusting the stored ones",
    )


@pytest.fixture(scope="session")
def regenerate() -> ModuleType:
    """logs/regenerate.py, which is a script, not a package module."""
    spec = importlib.util.spec_from_file_location("golden_regenerate", LOGS / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def golden_logs(request: pytest.FixtureRequest, regenerate: ModuleType) -> dict[str, bytes]:
    """Every golden log by file name; regenerated first with --regen-golden."""
    if request.config.getoption("--regen-golden", default=False):
        regenerate.regenerate(LOGS)
    return {p.name: p.read_bytes() for p in sorted(LOGS.glob("*.jsonl"))}
