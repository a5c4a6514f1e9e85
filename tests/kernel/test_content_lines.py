"""A content pack's refusal names the line its wrong field is written on,
whichever ruleset reads it (``content.located`` over ``toml_lines``): a
syntax error always did; now a well-formed but wrong value does too."""

from __future__ import annotations

from importlib import resources

import pytest

from domain.betrayal.packs import load as betrayal
from domain.conquest import packs as conquest
from domain.kernel.errors import ContentError
from domain.labyrinth import packs as labyrinth


def _betrayal_files() -> dict[str, bytes]:
    content = resources.files("domain.betrayal.content")
    return {name: content.joinpath(name).read_bytes() for name in betrayal.PACK_FILES}


def _line_of(raw: bytes, needle: bytes) -> int:
    return raw[: raw.index(needle)].count(b"\n") + 1


@pytest.mark.parametrize(
    "module, file", [(labyrinth, "skills.toml"), (conquest, "armies.toml"), (betrayal, "enemies.toml")]
)
def test_a_wrong_value_is_refused_with_its_file_line_field_and_reason(module, file) -> None:
    files = module.starter_files() if module is not betrayal else _betrayal_files()
    raw = files[file]
    start = raw.index(b"\nname = ") + 1  # the first name of the file: not a string now
    end = raw.index(b"\n", start)
    files[file] = raw[:start] + b"name = 12" + raw[end:]
    with pytest.raises(ContentError) as caught:
        module.parse_pack(files)
    error = caught.value
    assert error.file == file and error.field.endswith(".name") and error.line == _line_of(raw, raw[start:end])
    assert str(error).startswith(f"{file}: line {error.line} ({error.field}): ")


def test_a_refusal_without_a_place_in_the_text_keeps_its_form() -> None:
    files = labyrinth.starter_files()
    files["extra.toml"] = b""
    with pytest.raises(ContentError) as caught:
        labyrinth.parse_pack(files)
    assert caught.value.line is None and str(caught.value).startswith("extra.toml: (file): ")
