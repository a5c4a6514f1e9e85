"""Store settings, read in one place (``domain.kernel.stores.store_setting``): the
form of a setting, the store it names from any directory, and its password
masked. ``store_env`` (which opens stores) and the `rk` client and server
(which match a command's store against a server's) read them alike."""

from __future__ import annotations

import pytest

from domain.kernel.stores.store import store_env
from domain.kernel.stores.store_setting import canonical_store, masked, store_form

FORMS = [
    ("", ("default", "")),
    ("  ", ("default", "")),
    ("memory", ("memory", "")),
    (" MEMORY ", ("memory", "")),
    ("sqlite:games.db", ("sqlite", "games.db")),
    ("sqlite:~/x", ("sqlite", "~/x")),
    ("games.sqlite", ("sqlite", "games.sqlite")),
    ("../games.db", ("sqlite", "../games.db")),
    ("postgresql://me@host/db", ("postgresql", "postgresql://me@host/db")),
    ("postgres://me:pw@host:5433/db", ("postgresql", "postgres://me:pw@host:5433/db")),
]
MODULES = {
    "default": "eventsourcing.sqlite",
    "memory": "eventsourcing.popo",
    "sqlite": "eventsourcing.sqlite",
    "postgresql": "eventsourcing.postgres",
}


@pytest.mark.parametrize("setting, form", FORMS)
def test_each_form_of_setting_is_read_as_store_env_opens_it(setting, form, tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKEEPER_HOME", str(tmp_path))
    assert store_form(setting) == form
    assert store_env(setting, app_name="x")["PERSISTENCE_MODULE"] == MODULES[form[0]]


@pytest.mark.parametrize("setting", ["games.txt", "sqlite:", "mysql://me@host/db"])
def test_a_setting_of_no_known_form_is_refused_alike(setting):
    with pytest.raises(ValueError, match="use 'memory'"):
        store_form(setting)
    with pytest.raises(ValueError, match="use 'memory'"):
        store_env(setting, app_name="x")


def test_the_same_sqlite_file_is_named_alike_from_any_directory():
    named = {
        canonical_store("games.db", "/srv/rk"),
        canonical_store("sqlite:games.db", "/srv/rk"),
        canonical_store("sqlite:../rk/games.db", "/srv/rk"),
        canonical_store("/srv/rk/games.db", "/tmp"),
    }
    assert named == {"sqlite:/srv/rk/games.db"}


def test_other_settings_are_named_as_they_are():
    assert canonical_store(" Memory ", "/srv") == "memory"
    assert canonical_store("", "/srv") == ""
    url = "postgresql://me:pw@host/db"
    assert canonical_store(url, "/srv") == url
    assert canonical_store(" games.txt ", "/srv") == "games.txt"  # opening it says what is wrong


def test_masked_hides_the_password_and_nothing_else():
    assert masked("postgresql://me:s3cret@host:5432/db") == "postgresql://me:***@host:5432/db"
    assert masked("postgresql://me@host/db") == "postgresql://me@host/db"
    assert masked("sqlite:/a:b@c.db") == "sqlite:/a:b@c.db"


def test_an_unknown_setting_is_refused_with_its_password_masked():
    with pytest.raises(ValueError) as refused:
        store_form("mysql://me:s3cret@host/db")
    assert "s3cret" not in str(refused.value) and "me:***@host" in str(refused.value)
