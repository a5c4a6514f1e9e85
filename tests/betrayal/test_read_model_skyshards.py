"""The skyshard view (projections.skyshards, `rk skyshards`): a delve's
skyshards required, drawn, face down, obtained, and what the objective still
needs. It follows the log live, with undos, equals a rebuild from zero and
equals what the Delve aggregate says (SKYSHARD-3, SKYSHARD-4, SKYSHARD-5,
SKYSHARD-9, EXPLORATION-7a, OBJ-4, OBJ-8)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from domain.betrayal.delve import aggregate as dv
from domain.betrayal.battle.application import BetrayalApp, PartySpec, delve_stream
from domain.betrayal.battle.bots import delve_choice
from domain.betrayal.battle.state import Phase
from domain.betrayal.vocab import Difficulty
from domain.kernel.errors import NotFound
import betrayal_views as views
from projections.runner import Catchup
from domain.betrayal.read_models.skyshards import Kept, Obtained, SkyshardProgress, SkyshardView, skyshard_rows

HEROES = (("Ysolda", "nord"), ("Tarn", "dark-elf"), ("Brelyna", "breton"), ("Lydia", "argonian"))
SURVEY, UNCOVER = "whispering-barrow", "drowned-cistern"
# Four heroes at XP 1 (apprentice) or two at XP 2 (adept). Played straight
# through (the delve deck without its SP cards, CLEANUP-6), the bot on seed
# 35 runs out of cell tiles (a face-down card) and wins, 13 and 9 win with
# Twin Shards, one skyshard over the requirement, 19 draws every skyshard
# but falls with two, 2 falls early; the undos below send each game its
# own way.
GAMES = [
    pytest.param(SURVEY, 35, 4, id="survey-35"),
    pytest.param(SURVEY, 13, 4, id="survey-13"),
    pytest.param(SURVEY, 19, 4, id="survey-19"),
    pytest.param(SURVEY, 2, 2, id="survey-2-two-heroes"),
    pytest.param(UNCOVER, 9, 4, id="uncover-9"),
    pytest.param(UNCOVER, 35, 4, id="uncover-35"),
    pytest.param(UNCOVER, 11, 2, id="uncover-11-two-heroes"),
]


def new_delve(app: BetrayalApp, delve: str, seed: int, heroes: int = 4, bid: str = "v1") -> str:
    strong = heroes >= 4
    app.new_delve(
        delve=delve,
        party=[PartySpec(n, r) for n, r in HEROES[:heroes]],
        xp=1 if strong else 2,
        seed=seed,
        battle_id=bid,
        difficulty=Difficulty.APPRENTICE if strong else Difficulty.ADEPT,
    )
    return bid


def step(app: BetrayalApp, bid: str, rnd: random.Random) -> None:
    app.execute(bid, delve_choice(app.battle(bid).state, app.rules_context(bid), rnd))


def over(app: BetrayalApp, bid: str) -> bool:
    return app.battle(bid).state.phase is Phase.ENDED


def aggregate(d: dv.DelveState) -> SkyshardProgress:
    """What the Delve aggregate says, in the view's terms."""
    return SkyshardProgress(
        battle=d.battle_id,
        delve=d.delve,
        objective=d.objective.value,
        required=d.required,
        icons=d.icons,
        drawn=d.drawn,
        gained=d.gained,
        kept=(),
        face_down=d.face_down,
        obtained=tuple(Obtained(card=s.card, tile=s.tile, hero=s.hero, count=s.count) for s in d.obtained),
        concluded=d.concluded,
        reason="",
        xp=0,
    )


def numbers(p: SkyshardProgress) -> tuple:
    return (
        p.battle,
        p.delve,
        p.objective,
        p.required,
        p.icons,
        p.drawn,
        p.gained,
        p.face_down,
        p.obtained,
        p.concluded,
    )


def assert_equals_the_delve(app: BetrayalApp, bid: str) -> SkyshardProgress:
    """The live view (caught up now) against ``app.delve_of``."""
    p = views.skyshard_progress(app, bid)
    d = app.delve_of(bid)
    assert numbers(p) == numbers(aggregate(d))
    # Each card still holding skyshards lies beside its tile (SKYSHARD-5).
    assert [(k.card, k.tile, k.left) for k in p.kept if k.left] == [
        (k.card, k.tile, k.skyshards) for k in d.kept if k.skyshards
    ]
    assert {(k.card, k.tile) for k in p.kept} <= {(k.card, k.tile) for k in d.kept}
    return p


def skyshard_tables(views_db: Catchup) -> dict[str, list[tuple]]:
    return {t: rows for t, rows in views_db.contents().items() if t in SkyshardView.tables}


def assert_rebuild_equals_live(app: BetrayalApp, bid: str) -> None:
    """A fresh catch-up over the whole log (small pages) gives the rows the
    live view holds, table by table and line by line."""
    live = views.views_for(app)
    live.catch_up(app)
    fresh = Catchup(None, (SkyshardView(),), page=7)
    try:
        assert fresh.catch_up(app) > 0
        assert skyshard_tables(fresh) == skyshard_tables(live)
        with fresh.reading() as db:
            rebuilt = skyshard_rows(db, str(delve_stream(bid)), app.pack)
        assert rebuilt == views.skyshards(app, bid)
    finally:
        fresh.close()


@pytest.fixture
def app():
    app = BetrayalApp("memory")
    yield app
    views.close_views(app)
    app.close()


# -- live, undone, rebuilt, and the aggregate ----------------------------------------


@pytest.mark.parametrize("delve, seed, heroes", GAMES)
def test_the_view_follows_play_and_undo_equals_the_delve_and_a_rebuild(app, delve, seed, heroes):
    bid = new_delve(app, delve, seed, heroes)
    rnd = random.Random(seed)
    undone = changed = 0
    before: list[SkyshardProgress] = [assert_equals_the_delve(app, bid)]
    n = 0
    while not over(app, bid) and n < 400:
        step(app, bid, rnd)
        n += 1
        now = assert_equals_the_delve(app, bid)
        if numbers(now) != numbers(before[-1]) or now.kept != before[-1].kept:
            # The command drew, took or turned down skyshards: undo it (forced
            # across draws and rolls, UNDO-2) and redo it, so play goes on as
            # it would have.
            app.undo(bid, force=True)
            assert assert_equals_the_delve(app, bid) == before[-1]
            app.redo(bid)
            assert assert_equals_the_delve(app, bid) == now
            changed += 1
        elif n % 7 == 3:  # an undo that is not redone: play goes another way
            app.undo(bid, force=True)
            assert assert_equals_the_delve(app, bid) == before[-1]
            undone += 1
            continue
        before.append(now)
    assert over(app, bid) and undone and changed
    concluded = assert_equals_the_delve(app, bid)
    assert concluded.concluded in ("success", "failure")
    assert concluded.gained == min(concluded.required, sum(o.count for o in concluded.obtained))  # SKYSHARD-9
    # Undo the command that ended the battle: the conclusion goes; redo: it is back.
    app.undo(bid, force=True)
    assert assert_equals_the_delve(app, bid).concluded == ""
    assert_rebuild_equals_live(app, bid)
    app.redo(bid)
    assert numbers(assert_equals_the_delve(app, bid)) == numbers(concluded)
    assert_rebuild_equals_live(app, bid)


@pytest.mark.rule("SKYSHARD-5")
@pytest.mark.rule("SKYSHARD-7")
@pytest.mark.parametrize("delve", [SURVEY, UNCOVER])
def test_an_undone_skyshard_goes_back_beside_its_tile(app, delve):
    """SKYSHARD-5: entering the tile took the card's skyshards; undoing that
    command puts them back beside the tile and takes them from the party."""
    bid = new_delve(app, delve, 13)
    rnd = random.Random(13)
    while not app.delve_of(bid).obtained:
        assert not over(app, bid), "seed 13 obtains a skyshard"
        step(app, bid, rnd)
    taken = views.skyshard_progress(app, bid)
    (first,) = taken.obtained
    assert first.hero and first.tile and first.count >= 1
    assert [k for k in taken.kept if k.tile == first.tile] == [
        Kept(card=first.card, tile=first.tile, icons=first.count, left=0)
    ]
    app.undo(bid, force=True)
    back = assert_equals_the_delve(app, bid)
    assert back.obtained == () and back.gained == 0
    assert [k for k in back.kept if k.tile == first.tile] == [
        Kept(card=first.card, tile=first.tile, icons=first.count, left=first.count)
    ]
    waiting = next(r for r in views.skyshards(app, bid) if r.kind == "drawn" and r.tile == first.tile)
    assert waiting.left == first.count and "(SKYSHARD-5)" in waiting.note
    app.redo(bid)
    assert views.skyshard_progress(app, bid) == taken
    assert_rebuild_equals_live(app, bid)


@pytest.mark.rule("EXPLORATION-7a")
@pytest.mark.rule("SKYSHARD-4")
@pytest.mark.rule("EXPLORATION-5d")
@pytest.mark.parametrize("delve", [SURVEY, UNCOVER])
def test_a_shortage_card_is_a_face_down_skyshard_gained(app, delve):
    """EXPLORATION-7a: no tile of the card's shape is left, so the card lies
    face down and counts as one skyshard obtained (SKYSHARD-4: and drawn).
    Undone, it goes; redone, it is back."""
    bid = new_delve(app, delve, 35)
    rnd = random.Random(35)
    while not app.delve_of(bid).face_down:
        assert not over(app, bid), "seed 35 runs out of cell tiles"
        step(app, bid, rnd)
    shortage = next(
        e.event for e in reversed(app.events(delve_stream(bid))) if isinstance(e.event, dv.ShortageSkyshard)
    )
    p = assert_equals_the_delve(app, bid)
    assert p.face_down == (shortage.card,)
    assert p.obtained[-1] == Obtained(card=shortage.card, tile="", hero="", count=1)
    assert p.drawn == p.icons + 1
    rows = views.skyshards(app, bid)
    (down,) = [r for r in rows if r.kind == "face-down"]
    assert down.rule == "EXPLORATION-7a, SKYSHARD-4" and down.count == 1 and down.card == shortage.card
    assert f"no {shortage.shape} tile left" in down.note and "counts as 1 skyshard gained" in down.note
    assert not any(r.kind == "obtained" and r.card == shortage.card for r in rows)  # not a hero's
    gained = next(r for r in rows if r.kind == "gained")
    assert gained.count == p.gained >= 1

    app.undo(bid, force=True)
    assert assert_equals_the_delve(app, bid).face_down == ()
    assert not any(r.kind == "face-down" for r in views.skyshards(app, bid))
    app.redo(bid)
    assert assert_equals_the_delve(app, bid) == p
    while not over(app, bid):
        step(app, bid, rnd)
    end = assert_equals_the_delve(app, bid)
    assert end.face_down == (shortage.card,) and end.drawn >= end.required
    rows = views.skyshards(app, bid)
    assert next(r for r in rows if r.kind == "all-drawn").rule == "EXPLORATION-5d"
    assert_rebuild_equals_live(app, bid)


# -- the rows -----------------------------------------------------------------------


@pytest.mark.rule("OBJ-4")
@pytest.mark.rule("OBJ-8")
@pytest.mark.rule("RETREAT-5")
@pytest.mark.rule("SKYSHARD-2")
def test_the_objective_row_says_what_is_still_needed(app):
    """OBJ-4 Survey: obtain N more; OBJ-8 Uncover: obtain N more, then
    retreat at the end of a round (RETREAT-5); then complete."""
    survey = new_delve(app, SURVEY, 13, bid="s13")
    uncover = new_delve(app, UNCOVER, 6, bid="u6")
    seen = {survey: set(), uncover: set()}
    for bid, seed in ((survey, 13), (uncover, 6)):
        rnd = random.Random(seed)
        while not over(app, bid):
            rows = views.skyshards(app, bid)
            p = views.skyshard_progress(app, bid)
            (objective,) = [r for r in rows if r.kind == "objective"]
            more = p.required - p.gained
            if bid == survey:
                expected = (
                    ("OBJ-4", f"Survey: obtain {more} more")
                    if more
                    else (
                        "OBJ-4, SKYSHARD-2",
                        "Survey: complete: every required skyshard obtained, the map is fully explored",
                    )
                )
            else:
                expected = (
                    ("OBJ-8, RETREAT-5", f"Uncover: obtain {more} more, then retreat at the end of a round")
                    if more
                    else (
                        "OBJ-8, RETREAT-5",
                        "Uncover: every required skyshard obtained: retreat at the end of a round to succeed",
                    )
                )
            assert (objective.rule, objective.note) == expected
            seen[bid].add(more)
            step(app, bid, rnd)
        (concluded,) = [r for r in views.skyshards(app, bid) if r.kind == "concluded"]
        assert not any(r.kind == "objective" for r in views.skyshards(app, bid))
        assert concluded.note.startswith("success: ")
        if bid == survey:
            assert concluded.rule == "END-1a, OBJ-4" and concluded.count == 0
        else:  # OBJ-10: 1 XP per skyshard gained, up to the requirement
            assert concluded.rule == "RETREAT-5, OBJ-10" and concluded.count == 3
    assert {3, 0} <= seen[survey] and {3, 0} <= seen[uncover]


@pytest.mark.rule("SKYSHARD-8")
@pytest.mark.rule("SKYSHARD-9")
@pytest.mark.rule("OBJ-10")
def test_twin_shards_over_the_requirement_are_capped(app):
    """SKYSHARD-8: Twin Shards shows two skyshards; taken when the party
    needs one more, one counts and the other is ignored (SKYSHARD-9)."""
    bid = new_delve(app, UNCOVER, 9)
    rnd = random.Random(9)
    while not over(app, bid):
        step(app, bid, rnd)
    rows = views.skyshards(app, bid)
    twin = next(r for r in rows if r.kind == "drawn" and r.card == "twin-shards")
    assert (twin.count, twin.rule, twin.card_name) == (2, "SKYSHARD-1, SKYSHARD-8", "Twin Shards")
    taken = next(r for r in rows if r.kind == "obtained" and r.card == "twin-shards")
    assert taken.count == 1 and taken.rule == "SKYSHARD-5, SKYSHARD-9"
    assert "1 of its 2 in excess of the requirement, ignored" in taken.note
    assert taken.hero_name == dict((h.id, h.name) for h in app.battle(bid).state.heroes)[taken.hero]
    p = views.skyshard_progress(app, bid)
    assert (p.drawn, p.gained, p.xp) == (4, 3, 3) == (app.delve_of(bid).drawn, app.delve_of(bid).gained, 3)


def test_a_battle_that_is_not_a_delve_has_no_skyshards(app):
    clash = app.new_clash(setup="waystone-crossing", party=[PartySpec("Brand", "nord")], xp=2, seed=7)
    bid = clash.battle.state.battle_id
    for query in (views.skyshards, views.skyshard_progress):
        with pytest.raises(NotFound, match=f"battle {bid} is not a delve: it has no skyshards.*SKYSHARD-1"):
            query(app, bid)
        with pytest.raises(NotFound, match="no battle"):
            query(app, "no-such-battle")


# -- rk skyshards -------------------------------------------------------------------


def delve_store(path: Path, delve: str, seed: int, steps: int | None = None, heroes: int = 4) -> Path:
    """An SQLite store holding one delve, played by the bot (``steps``
    commands, or to its end)."""
    app = BetrayalApp(f"sqlite:{path}")
    try:
        bid = new_delve(app, delve, seed, heroes, bid=f"v{seed}")
        rnd = random.Random(seed)
        n = 0
        while not over(app, bid) and (steps is None or n < steps):
            step(app, bid, rnd)
            n += 1
    finally:
        app.close()
    return path


@pytest.mark.rule("SKYSHARD-3")
@pytest.mark.rule("SKYSHARD-4")
@pytest.mark.rule("SKYSHARD-5")
@pytest.mark.rule("EXPLORATION-7a")
@pytest.mark.rule("EXPLORATION-5d")
@pytest.mark.rule("OBJ-4")
@pytest.mark.columns(200)
def test_rk_skyshards_shows_a_finished_survey_citing_the_rules(rk, tmp_path):
    store = str(delve_store(tmp_path / "s.sqlite", SURVEY, 35))
    result = rk("skyshards", "--store", store, code=None)  # the latest battle
    assert result.code == 0, result.stderr
    out = result.stdout
    assert out.startswith("Skyshards of delve battle v35: gained 3 of 3, drawn 3")
    for cited in (
        "SKYSHARD-3, OBJ-5",
        "SKYSHARD-1",
        "EXPLORATION-7a, SKYSHARD-4",
        "SKYSHARD-5",
        "SKYSHARD-7",
        "EXPLORATION-5d",
        "END-1a, OBJ-4",
    ):
        assert cited in out, cited
    assert "The Whispering Barrow (Survey) requires 3 skyshards" in out
    assert "counts as 1 skyshard gained" in out and "all drawn: nothing left to explore" in out
    assert rk("skyshards", "--store", store, "--battle", "v35", code=None).stdout == out


@pytest.mark.rule("OBJ-8")
@pytest.mark.rule("RETREAT-5")
@pytest.mark.rule("SKYSHARD-8")
@pytest.mark.rule("SKYSHARD-9")
@pytest.mark.columns(200)
def test_rk_skyshards_shows_an_uncover_delve_under_way_and_ended(rk, tmp_path):
    under_way = str(delve_store(tmp_path / "u.sqlite", UNCOVER, 9, steps=40))
    result = rk("skyshards", "--store", under_way, code=None)
    assert result.code == 0, result.stderr
    assert "OBJ-8, RETREAT-5" in result.stdout
    assert "Uncover: obtain 1 more, then retreat at the end of a round" in result.stdout

    ended = str(delve_store(tmp_path / "e.sqlite", UNCOVER, 9))
    out = rk("skyshards", "--store", ended, "-b", "v9", code=None).stdout
    for cited in ("SKYSHARD-1, SKYSHARD-8", "SKYSHARD-5, SKYSHARD-9", "EXPLORATION-5d", "RETREAT-5, OBJ-10"):
        assert cited in out, cited
    rows = json.loads(rk("skyshards", "--store", ended, "--json", code=None).stdout)
    assert [r["kind"] for r in rows][0] == "required" and rows[-1]["kind"] == "concluded"
    assert {r["kind"]: r["count"] for r in rows if r["kind"] in ("required", "gained", "drawn-total")} == {
        "required": 3,
        "gained": 3,
        "drawn-total": 4,
    }
    assert all(r["rule"] for r in rows)


@pytest.mark.columns(200)
def test_rk_skyshards_refuses_a_clash_and_a_conquest_battle_in_one_line(rk, tmp_path):
    """As `rk track` refuses a Conquest battle: one line on stderr, exit
    status 1 (a refusal that is not a rule's), nothing on stdout."""
    store = str(tmp_path / "mixed.sqlite")
    assert (
        rk(
            "new",
            "clash",
            "--store",
            store,
            "--setup",
            "waystone-crossing",
            "--party",
            "Ysolda:nord",
            "--xp",
            "2",
            "--seed",
            "7",
            code=None,
        ).code
        == 0
    )
    refused = rk("skyshards", "--store", store, code=None)
    assert refused.code == 1 and refused.stdout == ""
    (line,) = refused.stderr.strip().splitlines()
    assert "is not a delve: it has no skyshards" in line and "SKYSHARD-1" in line
    assert "Traceback" not in refused.stderr

    assert (
        rk(
            "new",
            "conquest",
            "--store",
            store,
            "--scenario",
            "border-clash",
            "--army",
            "saltmarch",
            "--army",
            "cinderpact",
            "--seed",
            "4",
            code=None,
        ).code
        == 0
    )
    refused = rk("skyshards", "--store", store, code=None)
    assert refused.code == 1 and refused.stdout == ""
    (line,) = refused.stderr.strip().splitlines()
    assert "not a Betrayal battle" in line and "it has no skyshards" in line

    as_json = rk("skyshards", "--store", store, "--json", code=None)
    assert as_json.code == 1 and json.loads(as_json.stderr)["error"] == "NotFound"


@pytest.mark.columns(200)
def test_rk_skyshards_only_reads_the_store(rk, tmp_path):
    """A read model: a missing store is not created (as `rk track`)."""
    missing = tmp_path / "none.sqlite"
    refused = rk("skyshards", "--store", str(missing), code=None)
    assert refused.code == 1 and "there is no battle yet" in refused.stderr
    assert not missing.exists()
