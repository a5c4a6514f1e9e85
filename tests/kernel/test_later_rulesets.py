"""Rulesets a package gives for later (``LATER``, Betrayal's campaign) are
registered when first asked for, and every way the registry is asked finds
them: by name, by an event's or a snapshot's topic, the probing that loads
the loaded ones first, every ruleset. Each check runs in a fresh process
(this one's registry has everything loaded by other tests), and whole
commands on a campaign's store are run both ways, the campaign registered
first (as before) and on first use, and must print the same."""

from __future__ import annotations

import os
import subprocess
import sys

from fresh_process import answer_of

import pytest

EAGER = "import domain.kernel.ruleset as r; r.load('betrayal-campaign'); "
RK = "import sys; from cli.client import run; sys.argv[0] = 'rk'; sys.exit(run())"


def test_a_battle_ruleset_loads_without_the_campaign():
    answer = answer_of(
        "import sys, domain.kernel.ruleset as r\n"
        "r.load('betrayal')\n"
        "answer = [sorted(r._REGISTRY), 'domain.betrayal.campaign.game' in sys.modules]"
    )
    assert answer == [["betrayal"], False]


def test_the_campaign_is_found_by_name():
    answer = answer_of(
        "import domain.kernel.ruleset as r\n"
        "from domain.betrayal.campaign.ruleset import CAMPAIGN\n"
        "answer = [r.load('betrayal-campaign') is CAMPAIGN, sorted(r._REGISTRY), r._LATER == {}]"
    )
    assert answer == [True, ["betrayal", "betrayal-campaign"], True]


@pytest.mark.parametrize("topic", ["betrayal.CampaignStarted", "betrayal.snapshot.Campaign"])
def test_a_campaign_topic_registers_the_campaign_once_the_battles_are_loaded(topic):
    answer = answer_of(
        "import domain.kernel.ruleset as r\n"
        "from domain.kernel.envelope import is_state_topic\n"
        "from domain.kernel.messages import known_topics\n"
        "r.load('betrayal')\n"
        f"first, again = r.load_for_topic({topic!r}), r.load_for_topic({topic!r})\n"
        f"answer = [first, again, {topic!r} in known_topics() or is_state_topic({topic!r}), sorted(r._REGISTRY)]"
    )
    assert answer == [True, False, True, ["betrayal", "betrayal-campaign"]]


def test_an_unknown_topic_of_a_loaded_package_is_still_unknown():
    answer = answer_of(
        "import domain.kernel.ruleset as r\n"
        "from domain.kernel.messages import known_topics\n"
        "r.load('betrayal')\n"
        "first, again = r.load_for_topic('betrayal.NoSuchThing'), r.load_for_topic('betrayal.NoSuchThing')\n"
        "answer = [first, again, 'betrayal.NoSuchThing' in known_topics()]"
    )
    assert answer == [True, False, False]  # the campaign was loaded in case; then nothing more


def test_every_way_of_listing_rulesets_finds_the_campaign_as_before():
    listed = (
        "from domain.kernel.envelope import _STATE_CLASSES\n"
        "from domain.kernel.messages import known_topics\n"
        "answer = [names, sorted(known_topics()), sorted(_STATE_CLASSES)]"
    )
    eager = answer_of(EAGER + "\nnames = sorted(rs.name for rs in r.all_rulesets())\n" + listed)
    for ask in (
        "names = sorted(rs.name for rs in r.all_rulesets())",
        "r.load('betrayal'); names = sorted(rs.name for rs in r.all_rulesets())",
        "r.load('betrayal'); names = sorted(rs.name for rs in r.loaded_first())",
        "names = sorted(rs.name for rs in r.loaded_first())",
    ):
        assert answer_of("import domain.kernel.ruleset as r\n" + ask + "\n" + listed) == eager, ask
    assert "betrayal-campaign" in eager[0]


def test_loaded_first_gives_the_loaded_ones_before_importing_the_campaign():
    answer = answer_of(
        "import sys, domain.kernel.ruleset as r\n"
        "r.load('betrayal')\n"
        "first = next(r.loaded_first()).name\n"
        "answer = [first, 'domain.betrayal.campaign.game' in sys.modules]"
    )
    assert answer == ["betrayal", False]


@pytest.fixture(scope="module")
def campaign_store(tmp_path_factory):
    here = tmp_path_factory.mktemp("later")
    env = os.environ | {
        "RULEKEEPER_STORE": str(here / "c.sqlite"),
        "RULEKEEPER_HOME": str(here / "home"),
        "RULEKEEPER_NO_SERVER": "1",
        "COLUMNS": "100",
    }
    for line in (
        ["campaign", "new", "saga", "--difficulty", "adept"],
        ["adventurer", "new", "Ria", "--race", "nord", "--class", "bastion"],
        ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria", "--seed", "2", "--name", "w1"],
        ["export", "--campaign", "saga", "-o", str(here / "saga.jsonl")],
    ):
        done = subprocess.run([sys.executable, "-c", RK, *line], cwd=here, env=env, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
    return here, env


LINES = [
    ["campaign", "status"],
    ["campaign", "status", "--json"],
    ["campaign", "list"],
    ["battles", "--all"],
    ["status"],
    ["log", "-b", "saga", "--no-pager"],
    ["log", "--no-pager"],
    ["adventurer", "Ria"],
    ["campaign", "legal"],
    ["legal"],
    ["verify", "saga.jsonl"],
    ["export", "--campaign", "saga", "-o", "-"],
    ["rule", "CLASS-1"],
]


@pytest.mark.parametrize("line", LINES, ids=" ".join)
def test_commands_on_a_campaign_store_print_the_same_either_way(campaign_store, line):
    here, env = campaign_store
    runs = [
        subprocess.run([sys.executable, "-c", first + RK, *line], cwd=here, env=env, capture_output=True, text=True)
        for first in ("", EAGER)
    ]
    lazy, eager = ((r.returncode, r.stdout, r.stderr) for r in runs)
    assert lazy == eager
