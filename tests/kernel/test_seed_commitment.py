"""The commitment to a game's seed (``domain.kernel.fairness``): salted,
deterministic for a seed the host chose, random for a drawn one."""

from __future__ import annotations

import hashlib

from domain.kernel import fairness


def test_a_chosen_seed_commits_the_same_way_every_time_so_fixtures_replay():
    assert fairness.salt_for(7) == fairness.salt_for(7) == fairness.fixture_salt(7)
    salt = fairness.salt_for(7)
    assert fairness.commit(7, salt) == fairness.commit(7, salt)
    assert fairness.matches(fairness.commit(7, salt), 7, salt)
    assert not fairness.matches(fairness.commit(7, salt), 8, salt)
    assert not fairness.matches(fairness.commit(7, salt), 7, "00" * fairness.SALT_BYTES)
    assert not fairness.matches(fairness.commit(7, salt), True, salt)
    assert not fairness.matches(fairness.commit(7, salt), 7, "not hex")


def test_the_commitment_is_no_plain_hash_of_a_small_seed():
    commitment = fairness.commit(7, fairness.salt_for(7)).removeprefix("sha256:")
    for plain in (b"7", (7).to_bytes(8, "big")):
        assert hashlib.sha256(plain).hexdigest() != commitment


def test_a_drawn_seed_has_63_random_bits_and_a_random_salt_of_its_own():
    seeds = {fairness.random_seed() for _ in range(20)}
    assert len(seeds) == 20 and all(0 <= s <= fairness.MAX_SEED for s in seeds)
    assert any(s >= 2**40 for s in seeds)
    seed = fairness.random_seed()
    salt = fairness.salt_for(seed)
    assert salt != fairness.fixture_salt(seed) and len(salt) == 2 * fairness.SALT_BYTES
    assert fairness.salt_for(seed) == fairness.fixture_salt(seed)  # taken once: later, the seed is as chosen
