"""The words and numbers of the duel's rules (DUEL-1 to DUEL-6)."""

from __future__ import annotations

RULES_VERSION = "duel-1"
SIDES = ("a", "b")  # the seats' keys, in turn order
NAMES = ("Ash", "Birch")  # their pawns, as people call them
ROWS = 3  # DUEL-1: the board is three rows high
MIN_WIDTH, MAX_WIDTH = 4, 9  # DUEL-1: columns, from the setup's --width
DEFAULT_WIDTH = 5
ROUNDS = 6  # DUEL-6: a round is both players' turns; after this many, a draw
DIE = 6
HIT = 5  # DUEL-5: a strike wins on 5 or more
CARDS = {"sun": 2, "moon": 1, "star": 0}  # DUEL-4: each card's bonus to a strike (star: a bluff)
HIDDEN = "hidden"  # another seat's pledge, as that seat may not see it (SEAT-5)
