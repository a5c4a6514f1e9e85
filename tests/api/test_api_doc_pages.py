"""examples/README.md, the API's doc page, and the README's section on it:
their blocks of Python run, in order, in one namespace a page, and the
tests they show pass."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulekeeper import Rulekeeper
from rulekeeper.testing import Given

ROOT = Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


@pytest.mark.parametrize("page", ["examples/README.md", "README.md"])
def test_every_python_block_of_the_page_runs(page, capsys):
    blocks = BLOCK.findall((ROOT / page).read_text(encoding="utf-8"))
    assert len(blocks) >= 2
    namespace: dict = {}
    for n, block in enumerate(blocks, start=1):
        exec(compile(block, f"{page} python block {n}", "exec"), namespace)
    shown = [name for name in namespace if name.startswith("test_")]
    assert shown
    for name in shown:
        with Rulekeeper() as keeper:
            namespace[name](Given(keeper))
