"""`rk --version`, shell completion, `rk play`'s Tab completion and usage
errors, and `rk rule ID`: a rule's text and facts from the spec files that
ship inside the package."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest

import domain
from cli import client, shell
from cli.main import app, main
from domain.kernel import spec
from domain.kernel.ruleset import load

pytestmark = pytest.mark.columns(300)  # the width these tests read output at

ROOT = Path(__file__).resolve().parents[2]
SHARED_RULES = ROOT.parent / "shared" / "rules"
SPEC_FILES = {
    "betrayal": ("betrayal.md", "betrayal-facts.md"),
    "conquest": ("conquest.md", "conquest-facts.md"),
    "labyrinth": ("labyrinth.md", "labyrinth-facts.md"),
}
CONQUEST = [
    "new",
    "conquest",
    "--scenario",
    "border-clash",
    "--army",
    "saltmarch",
    "--army",
    "cinderpact",
    "--seed",
    "3",
]


# --- rk --version and shell completion ----------------------------------------------------


def test_version_prints_the_package_version_and_each_rulesets_rules_version(capsys):
    assert main(["--version"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"rulekeeper {metadata.version('rulekeeper')}"
    assert f"rules {load('betrayal').rules_version} ({load('betrayal').title})" in lines
    assert f"rules {load('conquest').rules_version} ({load('conquest').title})" in lines
    assert "rules betrayal-0.1 (Betrayal of the Second Era)" in lines


def test_version_needs_no_command_and_wins_over_one(rk):
    rk("--version")
    result = rk("--version", "status", code=None)  # eager: nothing else runs, no store is opened
    assert result.code == 0 and result.stdout.startswith("rulekeeper ")


def test_the_shell_completion_options_are_offered(rk):
    out = rk("--help", code=None).stdout
    assert "--install-completion" in out and "--show-completion" in out and "--version" in out


def test_a_shells_completion_request_is_answered_with_matching_command_names(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != client.NO_SERVER} | {
        client.COMPLETE_VARIABLE: "complete_bash",
        "COMP_WORDS": "rk ru",
        "COMP_CWORD": "1",
        "RULEKEEPER_HOME": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "cli.client"], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False
    )
    assert (done.returncode, done.stdout.split()) == (0, ["rule"]), done.stderr


def test_completion_and_its_setup_are_never_sent_to_a_server(monkeypatch):
    monkeypatch.delenv(client.NO_SERVER, raising=False)
    assert client.request_for(["status"]) is not None
    for argv in (["--install-completion"], ["--show-completion"], ["--show-completion=bash"]):
        assert client.in_process(argv) and client.request_for(argv) is None
    monkeypatch.setenv(client.COMPLETE_VARIABLE, "complete_bash")
    assert client.request_for([]) is None  # the completion script runs `rk` with no arguments


# --- rk play: Tab completion and usage errors ------------------------------------------------


def test_the_shell_completes_command_names_from_their_first_letters():
    complete = shell.Completer(app).matches
    assert complete("", "ru") == ["rule"]
    assert complete("", "end") == ["end-activation", "end-round", "end-turn"]
    assert {"help", "quit", "status", "move"} <= set(complete("", "")) and "play" not in complete("", "")
    assert complete("rk ", "stat") == ["status"]  # `rk` typed out of habit


def test_the_shell_completes_a_groups_commands_and_a_commands_options():
    complete = shell.Completer(app).matches
    assert complete("new ", "") == [
        "betrayal",
        "betrayal-campaign",
        "campaign",
        "clash",
        "conquest",
        "delve",
        "dungeon",
        "labyrinth",
    ]  # a ruleset's name: a game from a position file
    assert complete("rule MOVE-1 ", "--a") == ["--all"]
    assert complete("move ", "--") == ["--battle", "--explore", "--help", "--json", "--store"]
    assert complete("move ", "c") == []  # hexes are not guessed
    assert complete("nonsense ", "") == []


def test_the_shell_completer_speaks_readlines_protocol(monkeypatch):
    readline = pytest.importorskip("readline")
    monkeypatch.setattr(readline, "get_line_buffer", lambda: "new c")
    monkeypatch.setattr(readline, "get_begidx", lambda: 4)
    completer = shell.Completer(app)
    assert [completer.complete("c", i) for i in range(4)] == ["campaign", "clash", "conquest", None]


def test_the_shells_usage_errors_name_commands_as_typed_in_it(monkeypatch, capsys):
    lines = "engage --form\nfoo\nnew foo\n--show-completion\nrule MOVE-1 --json\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
    shell.run(main, app, store="memory")
    out, err = capsys.readouterr()
    assert err.splitlines()[:3] == [
        "engage: --form needs a value (FORM) (see `engage -h`)",
        "No such command 'foo'. (see `help`)",
        "No such command 'foo'. (see `new -h`)",
    ]
    assert "rk --install-completion" in err.splitlines()[3]  # refused here; the shell goes on
    assert json.loads(out)["id"] == "MOVE-1"


def test_outside_the_shell_usage_errors_still_name_rk(capsys):
    assert main(["engage", "--form"]) == 1
    assert capsys.readouterr().err.strip() == "engage: --form needs a value (FORM) (see `rk engage -h`)"


# --- rk rule ---------------------------------------------------------------------------------


def test_rule_prints_the_rules_text_and_its_notes(rk, store):
    result = rk("rule", "MOVE-1", code=None)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "MOVE-1 (betrayal): Move through adjacent hexes, up to as many hexes as your Stamina "
        "stat. (000 §Action: Move, L65)"
    )
    assert lines[1].startswith("  Not in source: whether other units block an adventurer's movement")
    assert "betrayal-facts.md, Fills MOVE-1 (blocking):" in lines
    assert not store.exists()  # a lookup creates no store


@pytest.mark.parametrize("typed", ["EXPLORATION-9E", "exploration-9e", "[Exploration-9e]"])
def test_rule_ids_are_read_in_any_case(rk, store, typed):
    result = rk("rule", typed, code=None)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(
        "EXPLORATION-9e (betrayal): When the first delve tile is attached to the Entrance tile, place it so that "
        "one Connection hex of the new tile touches both Connection hexes of the Entrance tile."
    )
    assert "facts.md" not in result.stdout  # no facts section fills 9e


def test_rule_prints_the_facts_that_fill_it(rk, store):
    out = rk("rule", "exploration-9b", code=None).stdout
    assert out.startswith("EXPLORATION-9b (betrayal): The tile may be rotated to any orientation.")
    assert "  Ambiguity: the source does not say who chooses the orientation (presumably the party)." in out
    assert (
        "betrayal-facts.md, Fills DELVE-10d, EXPLORE-4, EXPLORATION-5b, EXPLORATION-9b, EXPLORATION-9f, "
        "EXPLORATION-10b (exploration):"
    ) in out
    assert "- **Fact:** the party chooses the new tile's shift and rotation." in out


def test_rule_prints_sub_rules_only_when_asked(rk, store):
    alone = rk("rule", "EXPLORATION-9", code=None).stdout
    assert "EXPLORATION-9a" not in alone and "facts.md" not in alone
    everything = rk("rule", "EXPLORATION-9", "--all", code=None).stdout
    subs = [line.split(":")[0] for line in everything.splitlines() if line.startswith("  EXPLORATION-9")]
    assert subs == [f"  EXPLORATION-9{x}" for x in "abcdef"]
    assert "Fills DELVE-10d, EXPLORE-4" in everything  # the facts that fill 9b and 9f


def test_rule_json_gives_ruleset_id_text_notes_and_facts(rk, store):
    body = rk("rule", "move-1", "--json", code=None).json()
    assert set(body) == {"ruleset", "id", "text", "notes", "facts"}
    assert (body["ruleset"], body["id"]) == ("betrayal", "MOVE-1")
    assert body["text"].startswith("Move through adjacent hexes")
    assert body["notes"][0].startswith("Not in source: whether other units block")
    assert body["facts"][0]["heading"] == "Fills MOVE-1 (blocking)"
    assert body["facts"][0]["text"].startswith("**Fact.** No unit may move through")


def test_a_conquest_rule_is_found_with_ruleset_conquest(rk, store):
    body = rk("rule", "ROUND-3", "--ruleset", "conquest", "--json", code=None).json()
    assert (body["ruleset"], body["id"]) == ("conquest", "ROUND-3")
    assert body["text"].startswith("Rounds are repeated until (a) the number of Rounds set by the scenario")
    assert body["notes"][0].startswith("Not in source: the scenario's Round count")  # a note inside the line
    assert body["facts"][0]["heading"] == "Fills ROUND-3, VICTORY-2, VICTORY-3, VICTORY-4"
    assert rk("rule", "ROUND-3(b)", "--ruleset", "conquest", "--json", code=None).json()["id"] == "ROUND-3"


def test_an_id_of_one_ruleset_only_is_found_there(rk, store):
    out = rk("rule", "reinf-4", code=None).stdout
    assert out.startswith("REINF-4 (conquest): The player may choose one Regiment")
    assert "conquest-facts.md, Fills REINF-4, REINF-5, REINF-9 (Reinforcement Table):" in out


def test_an_id_of_both_rulesets_is_the_current_battles_else_betrayals(rk, store):
    assert rk("rule", "ROUND-3", code=None).stdout.startswith("ROUND-3 (betrayal): A battle continues until")
    rk(*CONQUEST)
    assert rk("rule", "ROUND-3", code=None).stdout.startswith("ROUND-3 (conquest): Rounds are repeated until")
    assert rk("rule", "ROUND-3", "--ruleset", "betrayal", code=None).stdout.startswith("ROUND-3 (betrayal)")


def test_an_unknown_rule_exits_1_suggesting_close_ids(rk, store):
    result = rk("rule", "MOVE-99", code=None)
    assert (result.code, result.stdout) == (1, "")
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("no rule 'MOVE-99' in betrayal or conquest or labyrinth; did you mean MOVE-")
    error = json.loads(rk("rule", "exploration-9z", "--json", code=None).stderr)
    assert error["error"] == "UnknownRule" and "EXPLORATION-9" in error["message"]


def test_a_rule_of_the_other_ruleset_is_pointed_to(rk, store):
    result = rk("rule", "REINF-4", "--ruleset", "betrayal", code=None)
    assert result.code == 1
    assert result.stderr.strip() == "no rule 'REINF-4' in betrayal; conquest has it (--ruleset conquest)"


def test_an_unknown_ruleset_is_refused(rk, store):
    result = rk("rule", "MOVE-1", "--ruleset", "chess", code=None)
    assert result.code == 1 and "betrayal, conquest" in result.stderr


# --- the spec files ship in the package ------------------------------------------------------


def test_the_spec_files_are_package_data_read_through_importlib_resources():
    for ruleset, names in SPEC_FILES.items():
        folder = spec.spec_files(ruleset)
        assert Path(str(folder)) == Path(domain.__file__).parent / ruleset / "spec"
        package = resources.files(f"domain.{ruleset}.spec")
        for name in names:
            assert package.joinpath(name).is_file() and folder.joinpath(name).read_bytes()
    packaged = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "*.md" in packaged["*"] and "*.toml" in packaged["*"]  # every ruleset's spec and content, by name or not


def test_rules_are_found_from_any_directory(tmp_path):
    code = "from domain.kernel.spec import lookup; print(lookup('exploration-9e')[1].id)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=os.environ | {"PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.strip() == "EXPLORATION-9e", done.stderr


@pytest.mark.skipif(not SHARED_RULES.is_dir(), reason="no shared/rules beside this checkout")
def test_the_packaged_spec_files_are_copies_of_shared_rules():
    for ruleset, names in SPEC_FILES.items():
        for name in names:
            assert spec.spec_files(ruleset).joinpath(name).read_bytes() == (SHARED_RULES / name).read_bytes(), (
                f"copy shared/rules/{name} to domain/{ruleset}/spec/"
            )


def test_every_id_the_facts_fill_is_a_rule_of_the_spec():
    for ruleset in SPEC_FILES:
        book = spec.rulebook(ruleset)
        assert book.fills and all(book.find(rule_id) for rule_id in book.fills)


def test_every_rule_bullet_of_the_spec_is_read():
    for ruleset in SPEC_FILES:
        text = spec.spec_files(ruleset).joinpath(f"{ruleset}.md").read_text(encoding="utf-8")
        bullets = [line for line in text.splitlines() if line.lstrip().startswith("- **[")]
        assert len(spec.rulebook(ruleset).rules) == len(bullets)
