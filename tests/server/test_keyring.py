"""Tokens a keyring keeps once made (every request checks the host's and
its game's seats' again) are the tokens its secret makes, whatever was
asked before and however many were kept."""

from __future__ import annotations

from server.passes import KEPT_TOKENS, Keyring, Role

SECRET = b"a test secret of the server, 32b"


def test_tokens_kept_are_those_the_secret_makes_each_for_its_own_pass():
    kept, fresh = Keyring(SECRET), Keyring(SECRET)
    asked = [("g1", "a"), ("g1", "b"), ("g2", "a")]
    for _ in range(2):
        for game, seat in asked:
            assert kept.seat(game, seat) == Keyring(SECRET).seat(game, seat)
    assert len({kept.seat(g, s) for g, s in asked} | {kept.host(), kept.spectator("g1"), kept.spectator("g2")}) == 6
    assert kept.seat("g1", "a") != Keyring(b"another secret of a server, 32b!").seat("g1", "a")
    assert kept.check(fresh.seat("g1", "b"), "g1", ["a", "b"]).seat == "b"  # type: ignore[union-attr]
    assert kept.check(fresh.seat("g2", "a"), "g1", ["a", "b"]) is None  # another game's seat: no pass here
    assert kept.check(fresh.spectator("g1"), "g1").role is Role.SPECTATOR  # type: ignore[union-attr]


def test_a_keyring_past_its_kept_tokens_still_makes_the_same_ones():
    keyring = Keyring(SECRET)
    first = keyring.seat("g0", "a")
    for i in range(KEPT_TOKENS + 10):
        keyring.seat(f"g{i}", "b")
    assert keyring.seat("g0", "a") == first == Keyring(SECRET).seat("g0", "a")
    assert len(keyring._made) <= KEPT_TOKENS
