"""The kernel runs any ruleset without knowing one (DESIGN: Rulesets on one
kernel): it never imports a ruleset, no ruleset imports another, and every
ruleset package under domain/ registers itself by its package name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from domain.kernel import ruleset as registry
from domain.kernel.errors import NotFound

DOMAIN = Path(__file__).resolve().parents[2] / "domain"


def imported_modules(package: Path) -> dict[str, set[str]]:
    """Every absolute module each file of ``package`` imports, by file."""
    found: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
        found[str(path.relative_to(DOMAIN.parent))] = names
    return found


def test_the_kernel_imports_no_ruleset():
    rulesets = registry.names()
    offending = {
        file: sorted(m for m in modules if any(m == f"domain.{r}" or m.startswith(f"domain.{r}.") for r in rulesets))
        for file, modules in imported_modules(DOMAIN / "kernel").items()
    }
    assert {f: m for f, m in offending.items() if m} == {}


@pytest.mark.parametrize("name", registry.names())
def test_no_ruleset_imports_another(name):
    others = [r for r in registry.names() if r != name]
    offending = {
        file: sorted(m for m in modules if any(m == f"domain.{o}" or m.startswith(f"domain.{o}.") for o in others))
        for file, modules in imported_modules(DOMAIN / name).items()
    }
    assert {f: m for f, m in offending.items() if m} == {}


def test_the_domain_imports_nothing_of_the_command_line():
    """What people type is read in cli/ (party members, hex labels); the
    domain takes it structured, so the server and scripts share its rules."""
    offending = {
        file: sorted(m for m in modules if m == "cli" or m.startswith("cli."))
        for file, modules in imported_modules(DOMAIN).items()
    }
    assert {f: m for f, m in offending.items() if m} == {}


def test_every_ruleset_package_registers_itself_under_its_name():
    names = registry.names()
    assert {"betrayal", "conquest"} <= set(names)
    for name in names:
        rs = registry.load(name)
        assert rs.name == name and rs.title and rs.rules_version and rs.snapshot_topic
        assert rs.setup_commands, f"{name} names no setup command"


def test_an_unknown_ruleset_is_refused_with_the_ones_there_are():
    with pytest.raises(NotFound, match="no ruleset 'chess'; there are: .*betrayal.*conquest"):
        registry.load("chess")


def test_battles_of_a_store_written_before_the_kernel_kept_the_index_are_listed():
    """Stores from before kept Betrayal's own index; its entries still list."""
    from domain.betrayal.battle.application import PartySpec, new_clash
    from domain.kernel.envelope import wrap
    from domain.kernel.battle_index import legacy_class, legacy_stream
    from domain.kernel.games import INDEX_STREAM, GameApp

    with GameApp("memory") as today, GameApp("memory") as old:
        new_clash(today, setup="waystone-crossing", party=[PartySpec("Ysolda", "nord")], xp=1, seed=3, battle_id="old")
        # The same events, but indexed where the old application indexed them.
        envelopes = [e for _, e in today.notifications() if e.originator_id != INDEX_STREAM]
        old.append(
            envelopes
            + wrap(
                legacy_stream("betrayal"),
                0,
                [legacy_class("betrayal")(battle_id="old", setup="waystone-crossing")],
                "c1",
            )
        )
        assert [(g.battle_id, g.ruleset) for g in old.battles()] == [("old", "betrayal")]
        assert old.latest_battle() == "old"
        assert old.battle("old").state == today.battle("old").state


def test_a_package_may_register_a_second_ruleset_that_shares_its_streams():
    """Betrayal's campaign is ``betrayal-campaign``: found by name in a fresh
    process, listed with the others, and its adventurers are the battles'."""
    import subprocess
    import sys

    code = (
        "from domain.kernel import ruleset as r; rs = r.load('betrayal-campaign');"
        " print(rs.name, rs.package, rs.game_kind)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["betrayal-campaign", "betrayal", "campaign"]
    names = [rs.name for rs in registry.all_rulesets()]
    assert {"betrayal", "betrayal-campaign", "conquest"} <= set(names)
    battle, campaign = registry.load("betrayal"), registry.load("betrayal-campaign")
    assert campaign.stream_of("adventurer", "Ria") == battle.stream_of("adventurer", "ria")
    assert campaign.game_stream("saga") != battle.game_stream("saga")  # a campaign is not a battle


def test_a_game_reads_the_stream_a_command_names_when_its_rules_ask():
    """``Ruleset.companions(state, command)``: a recruit's rules see whether
    the name is taken, in play and when a log is verified again."""
    from domain.betrayal.campaign import application as ca
    from domain.betrayal.campaign import commands as cc
    from domain.betrayal.battle.application import PartySpec, new_clash
    from domain.kernel.errors import MalformedCommand
    from domain.kernel.games import GameApp

    with GameApp("memory") as app:
        new_clash(app, setup="waystone-crossing", party=[PartySpec("Ysolda", "nord")], xp=1, seed=3, battle_id="b1")
        ca.new_campaign(app, "saga")
        with pytest.raises(MalformedCommand, match="exists already"):
            app.execute("saga", cc.Recruit(name="ysolda", race="argonian", class_id="bastion"))
        app.execute("saga", cc.Enlist(name="Ysolda", class_id="mender"))
        assert app.battle("saga").state.party[0].name == "Ysolda"


# The application on top of the contract: games, their index, the portable log.
APPLICATION = (
    "domain/kernel/games.py",
    "domain/kernel/game_reads.py",
    "domain/kernel/game_writes.py",
    "domain/kernel/open_reads.py",
    "domain/kernel/open_writes.py",
    "domain/kernel/battle_index.py",
    "domain/kernel/signing.py",
    "domain/kernel/portable/",
    "domain/kernel/stores/",
)


def test_the_kernels_contract_stands_apart_from_its_application_and_stores():
    """Issue 20: what a ruleset implements and uses (the Ruleset contract,
    the command log, messages, surface, narration...) imports nothing of
    the application that runs games nor of the stores that keep them; the
    stores use the contract, the application uses both."""
    below = (
        "domain.kernel.stores",
        "domain.kernel.games",
        "domain.kernel.game_reads",
        "domain.kernel.game_writes",
        "domain.kernel.open_reads",
        "domain.kernel.open_writes",
        "domain.kernel.battle_index",
        "domain.kernel.portable",
        "domain.kernel.signing",
    )
    offending = {
        file: sorted(m for m in modules if m.startswith(below))
        for file, modules in imported_modules(DOMAIN / "kernel").items()
        if not file.startswith(APPLICATION)
    }
    assert {f: m for f, m in offending.items() if m} == {}
    stores = {
        file: sorted(m for m in modules if m.startswith(below[1:]))
        for file, modules in imported_modules(DOMAIN / "kernel" / "stores").items()
    }
    assert {f: m for f, m in stores.items() if m} == {}
