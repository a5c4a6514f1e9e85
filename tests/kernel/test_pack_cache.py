"""The parsed-pack cache (``domain.kernel.stores.pack_cache``): a pack read
back is the pack parsed; new content is parsed (and so validated) again; a
refusal is never cached; a damaged cache file is parsed over."""

from __future__ import annotations

from collections.abc import Mapping

import msgspec
import pytest

from domain.kernel.errors import ContentError
from domain.kernel.stores import pack_cache


class Toy(msgspec.Struct, frozen=True):
    name: str
    sizes: tuple[int, ...]


class Parser:
    """Counts its calls; refuses a file without ``name``."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, files: Mapping[str, bytes]) -> Toy:
        self.calls += 1
        text = files["toy.toml"].decode()
        if not text.startswith("name"):
            raise ContentError("toy.toml", "name", "missing")
        return Toy(text.split("=")[1].strip(), (1, 2, 3))


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path))
    monkeypatch.delenv(pack_cache.NO_CACHE_VARIABLE, raising=False)
    return tmp_path


def cached_files(home) -> list:
    return sorted(home.joinpath(*pack_cache.CACHE_DIR).glob("*.msgpack"))


def test_a_pack_is_parsed_once_and_read_back_equal(home):
    parse = Parser()
    files = {"toy.toml": b"name = a"}
    first = pack_cache.parsed(files, parse, Toy)
    again = pack_cache.parsed(dict(files), parse, Toy)
    assert first == again == Toy("a", (1, 2, 3)) and parse.calls == 1
    assert len(cached_files(home)) == 1


def test_changed_content_is_parsed_again(home):
    parse = Parser()
    assert pack_cache.parsed({"toy.toml": b"name = a"}, parse, Toy).name == "a"
    assert pack_cache.parsed({"toy.toml": b"name = b"}, parse, Toy).name == "b"
    assert parse.calls == 2


def test_a_refusal_is_never_cached(home):
    parse = Parser()
    for _ in range(2):
        with pytest.raises(ContentError):
            pack_cache.parsed({"toy.toml": b"nom = a"}, parse, Toy)
    assert parse.calls == 2 and cached_files(home) == []


def test_a_damaged_cache_file_is_parsed_over(home):
    parse = Parser()
    files = {"toy.toml": b"name = a"}
    pack_cache.parsed(files, parse, Toy)
    [path] = cached_files(home)
    path.write_bytes(b"\xc1 not msgpack")
    assert pack_cache.parsed(files, parse, Toy) == Toy("a", (1, 2, 3)) and parse.calls == 2
    assert msgspec.msgpack.decode(path.read_bytes(), type=Toy) == Toy("a", (1, 2, 3))


def test_an_unwritable_home_only_means_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("RULEKEEPER_HOME", str(blocker))  # a file: no folder can be made under it
    parse = Parser()
    for _ in range(2):
        assert pack_cache.parsed({"toy.toml": b"name = a"}, parse, Toy).name == "a"
    assert parse.calls == 2


def test_the_variable_turns_the_cache_off(home, monkeypatch):
    monkeypatch.setenv(pack_cache.NO_CACHE_VARIABLE, "1")
    parse = Parser()
    for _ in range(2):
        pack_cache.parsed({"toy.toml": b"name = a"}, parse, Toy)
    assert parse.calls == 2 and cached_files(home) == []
