"""``cli.declarations.declaring``: the surfaces declaring a word, as
filtering every surface finds them, importing only the packages that
declare it (which words each package declares is cached while the domain
code is the same)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cli.declarations import declaring
from domain.kernel import surface
from domain.kernel.stores import pack_cache

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path))
    monkeypatch.delenv(pack_cache.NO_CACHE_VARIABLE, raising=False)
    return tmp_path


def _every_word() -> set[str]:
    words = {"no-such-word", "status"}
    for s in surface.surfaces():
        words |= {v.words[0] for v in s.verbs} | {q.name.split()[0] for q in s.queries} | {s.noun}
    return words


def test_the_surfaces_declaring_a_word_are_those_filtering_finds(home):
    for cached in (False, True):  # the cache written, then read back
        for word in sorted(_every_word()):
            expected = [s for s in surface.surfaces() if surface.declares(s, word)]
            assert declaring(word) == expected, (word, cached)
    assert list(home.joinpath("cache", "words").glob("*.msgpack"))


def test_a_word_of_one_ruleset_imports_no_other(home):
    word = next(
        v.words[0]
        for s in surface.surfaces()
        for v in s.verbs
        if [t.ruleset for t in surface.surfaces() if surface.declares(t, v.words[0])] == [s.ruleset]
    )
    code = (
        "import sys; from cli.declarations import declaring; found = declaring(sys.argv[1]);"
        "print(len(found), ' '.join(sorted({m.split('.')[1] for m in sys.modules if m.count('.') > 1"
        " and m.startswith('domain.') and not m.startswith('domain.kernel')})))"
    )
    for _ in range(2):  # the cache written, then read back
        done = subprocess.run(
            [sys.executable, "-c", code, word], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
        )
    count, *packages = done.stdout.split()
    assert count == "1" and len(packages) == 1, (word, done.stdout)
