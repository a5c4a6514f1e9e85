"""A revealed tile waiting to be placed, as the command line and the page's
board show it (EXPLORATION-9b): every legal placement with a letter on its
origin hex, the letters listed with the command each one is, and the page's
ghosts drawn from the same placements."""

from __future__ import annotations

import pytest

from domain.betrayal.table.placings import ghost_letter

DELVE = (
    "new",
    "delve",
    "--delve",
    "whispering-barrow",
    "--party",
    "Ria:nord",
    "--party",
    "Tarn:orc",
    "--xp",
    "2",
    "--seed",
    "7",
)


@pytest.mark.rule("EXPLORATION-9b")
def test_rk_status_letters_each_legal_placement_on_its_origin_and_lists_its_command(rk):
    rk(*DELVE)
    rk("explore", "ag31")
    placements = rk("status", json=True).json()["placements"]
    assert len(placements) > 1
    shown = rk("status").stdout
    for n, p in enumerate(placements):  # each letter is one legal command, as `rk legal` lists them
        assert f"{ghost_letter(n)}: --rotation {p['rotation']} --origin {p['origin']}" in shown
    legal = rk("legal").stdout
    assert all(f"rk place-tile --rotation {p['rotation']} --origin {p['origin']}" in legal for p in placements)
    shared = [p for p in placements if p["origin"] == placements[0]["origin"]]
    letters = "".join(ghost_letter(n) for n, p in enumerate(placements) if p["origin"] == placements[0]["origin"])
    row = next(line for line in shown.splitlines() if line.lstrip().startswith(placements[0]["origin"][2:] + " "))
    assert (letters if len(letters) <= 3 else letters[:2] + "+") in row, (shared, row)


@pytest.mark.rule("EXPLORATION-9b")
def test_the_letters_skip_the_entrances_e_and_run_on_past_the_alphabet():
    letters = [ghost_letter(n) for n in range(60)]
    assert "E" not in letters and len(set(letters)) == 60
    assert letters[:5] == ["A", "B", "C", "D", "F"]


@pytest.mark.rule("EXPLORATION-9b")
def test_once_placed_no_letter_is_left_and_the_tile_stands_where_its_letter_was(rk):
    rk(*DELVE)
    rk("explore", "ag31")
    chosen = rk("status", json=True).json()["placements"][2]
    rk("place-tile", "--rotation", str(chosen["rotation"]), "--origin", chosen["origin"])
    shown = rk("status").stdout
    assert "Tile waiting" not in shown and " C: --rotation" not in shown
    assert rk("status", json=True).json()["placements"] == []
