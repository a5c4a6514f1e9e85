"""``hexes.as_hex``: a command's hex as the rules read it."""

import pytest

from domain.kernel.errors import MalformedCommand
from domain.kernel.hexes import as_hex


def test_a_hex_given_as_a_list_is_read_as_a_pair():
    assert as_hex([2, -1]) == (2, -1)
    assert isinstance(as_hex([2, -1]), tuple)


def test_a_hex_of_other_than_two_coordinates_is_malformed():
    with pytest.raises(MalformedCommand, match="two coordinates"):
        as_hex((1, 2, 3))
