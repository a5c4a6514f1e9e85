"""The Python API (``rulekeeper``): every ruleset's setups started, played,
undone, read at past versions, exported, loaded and verified through it;
refusals that write nothing; stores and packs."""

from __future__ import annotations

import pytest

from rulekeeper import Game, MalformedCommand, NotFound, Rulekeeper, RuleViolation, verify

SETUPS = sorted(Rulekeeper.setups())
CLASH = {"setup": "waystone-crossing", "party": [{"name": "Ria", "race": "nord"}], "seed": 1}


def started(keeper: Rulekeeper, setup: str) -> Game:
    fields = Rulekeeper.setup_examples(setup)[0]
    if "seed" in Rulekeeper.setup_fields(setup):
        fields["seed"] = 5
    return keeper.new(setup, **fields)


@pytest.mark.parametrize("setup", SETUPS)
def test_every_setup_starts_plays_undoes_and_redoes_through_the_api(setup):
    with Rulekeeper() as keeper:
        game = started(keeper, setup)
        assert game.ruleset == Rulekeeper.setups()[setup]
        after_setup = game.version
        for _ in range(3):
            if game.over or not game.legal():
                break
            command = game.legal()[0]
            assert game.parse(game.spell(command)) == command
            before = game.state
            played = game.play(command)
            assert played.version == game.version and len(played.lines) == len(played.events)
            assert game.at(game.history()[-1].before).state == before
        if game.can_undo():
            last = game.state
            undone = game.undo(force=True)
            assert undone.command is None and len(undone.events) == 1
            assert game.state == game.at(game.history()[-2].before).state
            game.redo()
            assert game.state == last
        assert game.at(after_setup).version == after_setup


@pytest.mark.parametrize("setup", SETUPS)
def test_every_setup_exports_loads_and_verifies_through_the_api(setup):
    with Rulekeeper() as keeper, Rulekeeper() as elsewhere:
        game = started(keeper, setup)
        if game.legal():
            game.play(game.legal()[0])
        log = game.export()
        report = verify(log)
        assert report.ok, report.summary()
        assert game.verify().ok
        loaded = elsewhere.load(log)
        assert (loaded.id, loaded.digest(), loaded.lines()) == (game.id, game.digest(), game.lines())


def test_a_refused_command_writes_nothing_and_names_its_rule():
    with Rulekeeper() as keeper:
        game = keeper.new("clash", **CLASH)
        version = game.version
        with pytest.raises(RuleViolation) as refused:
            game.play("move c3")
        assert refused.value.rule == "MOVE-1" and "another unit" in refused.value.message
        with pytest.raises(MalformedCommand):
            game.play("fly away")
        assert game.version == version
        assert game.refusal("move c3").rule == "MOVE-1"
        assert game.refusal("move b2") is None and game.version == version


def test_a_moment_reads_the_game_as_it_stood_and_decides_without_writing():
    with Rulekeeper() as keeper:
        game = keeper.new("clash", **CLASH)
        set_up = game.version
        moved = game.play("move b2")
        then = game.at(set_up)
        assert "move b2" in then.legal_lines() and "move b2" not in game.legal_lines()
        assert then.decide("move b2") == list(moved.events)
        assert then.events() == game.events()[:set_up]
        assert then.lines() == game.lines()[:set_up]
        assert game.version == moved.version
        with pytest.raises(NotFound):
            game.at(game.version + 1)


def test_history_lists_every_command_with_its_versions():
    with Rulekeeper() as keeper:
        game = keeper.new("clash", **CLASH)
        game.play("move b2")
        game.undo()
        game.redo()
        steps = game.history()
        assert [s.line.split(" ")[:2] for s in steps] == [
            ["rk", "new"],
            ["rk", "move"],
            ["UNDO-1:", "the"],
            ["rk", "move"],
        ]
        assert [s.before for s in steps[1:]] == [s.after for s in steps[:-1]]
        assert steps[-1].after == game.version


def test_undo_to_takes_a_loaded_game_back_to_a_version_past_dice():
    with Rulekeeper() as keeper, Rulekeeper() as elsewhere:
        game = keeper.new("clash", **CLASH)
        game.play_all(["move b2", "engage --form heavy --target e1 --dice 1,2", "resolve"])
        loaded = elsewhere.load(game.export())
        step = loaded.history()[2]  # the engage, which rolled
        undone = loaded.undo_to(step.before)
        assert len(undone) == 2 and loaded.state == game.at(step.before).state
        assert loaded.play(step.line.removeprefix("rk ")).lines == tuple(game.lines()[step.before + 1 : step.after])


def test_undo_to_a_state_the_log_undid_itself_is_refused():
    with Rulekeeper() as keeper:
        game = keeper.new("clash", **CLASH)
        game.play("move b2")
        moved = game.version
        game.undo()
        game.play("move b1")
        with pytest.raises(ValueError, match="cannot be reached"):
            game.undo_to(moved)


def test_an_unknown_setup_or_field_is_refused_naming_what_there_is():
    with Rulekeeper() as keeper:
        with pytest.raises(NotFound, match="there are: .*clash"):
            keeper.new("no-such-setup")
        with pytest.raises(MalformedCommand, match="new clash"):
            keeper.new("clash", party="Ria", xp="lots")
        assert keeper.games() == []


def test_games_are_found_by_name_and_the_last_one_by_default():
    with Rulekeeper() as keeper:
        first = keeper.new("clash", **CLASH, name="first")
        keeper.new("clash", **CLASH, name="second")
        assert [g.id for g in keeper.games()] == ["first", "second"]
        assert keeper.game().id == "second" and keeper.game("first").digest() == first.digest()
        with pytest.raises(NotFound):
            keeper.game("third")


def test_an_sqlite_store_keeps_its_games(tmp_path):
    path = tmp_path / "games.db"
    with Rulekeeper(path) as keeper:
        keeper.new("clash", **CLASH, name="kept").play("move b2")
    with Rulekeeper(path) as again:
        assert again.game("kept").lines()[-1].startswith("MOVE-1: Ria moves")


def test_a_pack_of_ones_own_plays_that_game_alone():
    files = Rulekeeper.starter_pack("conquest")
    table = files["pack.toml"].decode()
    house = {
        **files,
        "pack.toml": table.replace(
            '[4, "no", "no"],\n  [4, 2, "no"]', '["auto", "no", "no"],\n  ["auto", 2, "no"]'
        ).encode(),
    }
    armies = {"scenario": "border-clash", "armies": ["saltmarch", "cinderpact"], "seed": 7}
    with Rulekeeper() as keeper:
        own = keeper.new("conquest", **armies, pack=house, name="house")
        usual = keeper.new("conquest", **armies, name="usual")
        assert own.play("choose-arrival").lines[0].startswith("REINF-5")
        assert usual.play("choose-arrival").lines[0].startswith("REINF-6")
        assert verify(own.export(), pack=house).ok and not verify(own.export()).ok
