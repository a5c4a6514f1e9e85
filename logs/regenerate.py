"""Regenerate the golden battle logs in this folder by real play.

Each log is a battle played through the kernel's ``GameApp`` on a memory
store by a ruleset's greedy bot (``domain.<ruleset>.bots``; delves by
Betrayal's delve bot) with fixed seeds, then exported. Play is
deterministic; only the timestamps (and so the hashes) change from one
regeneration to the next.

    .venv/bin/python logs/regenerate.py          # from the project root
    .venv/bin/python logs/regenerate.py delve-shortage.jsonl   # only those named
    .venv/bin/pytest tests/golden --regen-golden  # all, through pytest
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path

from domain.betrayal.battle.application import BetrayalApp, PartySpec, Result, delve_stream
from domain.betrayal.battle.bots import delve_choice, greedy_choice
from domain.betrayal.battle.commands import Engage, Move, Retreat
from domain.betrayal.delve.aggregate import DelveConcluded, ShortageSkyshard
from domain.betrayal.battle.events import DiceRolled
from domain.betrayal.battle.state import Outcome, Phase
from domain.conquest import bots as conquest_bots
from domain.conquest import events as conquest_events
from domain.conquest.commands import StartConquest
from domain.conquest.vocab import Termination
from domain.kernel.games import GameApp
from domain.kernel.portable import export_battle
from domain.labyrinth import events as labyrinth_events
from domain.labyrinth.commands import Attack, Escape, Member, StartLabyrinth
from domain.labyrinth.commands import Pass as LabyrinthPass
from domain.labyrinth.vocab import Termination as LabyrinthEnd

LOGS = Path(__file__).resolve().parent
PARTY = (PartySpec("Ysolda", "nord"), PartySpec("Tarn", "dark-elf"))
MAX_COMMANDS = 300  # a bot battle that runs longer is a bug, not a fixture


def _clash(app: BetrayalApp, battle_id: str, setup: str, xp: int, seed: int) -> None:
    app.new_clash(setup=setup, party=list(PARTY), xp=xp, seed=seed,
                  battle_id=battle_id)


def _ended(app: BetrayalApp, battle_id: str) -> bool:
    return app.battle(battle_id).state.phase is Phase.ENDED


def _next(app: BetrayalApp, battle_id: str, rnd: random.Random) -> Result:
    """Let the greedy bot give the next command."""
    state = app.battle(battle_id).state
    return app.execute(battle_id, greedy_choice(state, app.context(state), rnd))


def play_out(app: BetrayalApp, battle_id: str, rnd: random.Random) -> None:
    for _ in range(MAX_COMMANDS):
        if _ended(app, battle_id):
            return
        _next(app, battle_id, rnd)
    raise RuntimeError(f"{battle_id} did not end in {MAX_COMMANDS} commands")


def won_waystone_crossing(app: BetrayalApp) -> str:
    """Greedy play that wins (seed 2, XP 2: four enemies, five rounds)."""
    battle_id = "golden-won-waystone-crossing"
    _clash(app, battle_id, "waystone-crossing", xp=2, seed=2)
    play_out(app, battle_id, random.Random(2))
    return _expect(app, battle_id, Outcome.SUCCESS)


def lost_fallen_watchtower(app: BetrayalApp) -> str:
    """Greedy play that loses (seed 4, XP 2: the party falls in round 5)."""
    battle_id = "golden-lost-fallen-watchtower"
    _clash(app, battle_id, "fallen-watchtower", xp=2, seed=4)
    play_out(app, battle_id, random.Random(4))
    return _expect(app, battle_id, Outcome.FAILURE)


def undo_cinder_rite(app: BetrayalApp) -> str:
    """Greedy play with undo and redo in it: a move undone and redone, a
    roll undone by force and redone (the same faces come back), a move
    undone and replaced by a new command, two commands undone in a row and
    redone in turn, and
    the battle's last command (which wrote to the adventurers) undone by
    force and redone."""
    battle_id = "golden-undo-cinder-rite"
    _clash(app, battle_id, "cinder-rite", xp=1, seed=1)
    rnd = random.Random(1)
    moves = rolls = 0
    for _ in range(MAX_COMMANDS):
        if _ended(app, battle_id):
            break
        result = _next(app, battle_id, rnd)
        cmd = app.battle(battle_id).done[-1].command
        if _ended(app, battle_id):
            _undo_and_redo(app, battle_id, result)
        elif isinstance(cmd, Move):
            moves += 1
            if moves == 1:
                app.undo(battle_id)
                app.redo(battle_id)
            elif moves == 2:
                app.undo(battle_id)  # the bot then gives a new command: the redo is gone
            elif moves == 3:  # two back (the second by force: it ended a turn
                app.undo(battle_id)  # with enemy rolls), then both forward
                app.undo(battle_id, force=True)
                app.redo(battle_id)
                app.redo(battle_id)
        elif isinstance(cmd, Engage) and cmd.dice:
            rolls += 1
            if rolls == 1:
                _undo_and_redo(app, battle_id, result)
    else:
        raise RuntimeError(f"{battle_id} did not end in {MAX_COMMANDS} commands")
    return battle_id


def _undo_and_redo(app: BetrayalApp, battle_id: str, result: Result) -> None:
    """Undo the last command (by force: it revealed randomness) and redo it;
    the RNG counter came back, so the redo rolls the same faces."""
    app.undo(battle_id, force=True)
    again = app.redo(battle_id)
    if _rolls(again) != _rolls(result):
        raise RuntimeError("a redo rolled other faces than the undone command")


def _rolls(result: Result) -> list[DiceRolled]:
    return [e for e in result.events if isinstance(e, DiceRolled)]


def _expect(app: BetrayalApp, battle_id: str, outcome: Outcome) -> str:
    got = app.battle(battle_id).state.outcome
    if got is not outcome:
        raise RuntimeError(f"{battle_id} ended in {got}, not {outcome}: the rules changed; pick another seed")
    return battle_id


# --- Delves and dungeons -------------------------------------------------------------
#
# Each is played by ``bots.delve_choice`` (the greedy bot in a dungeon) with
# a fixed seed. The rules may still change what a seed gives: then the
# first seed of ``SEARCH`` that gives the outcome the log is named for is
# played instead (each try in a scratch store, so the log holds one battle
# only), and regeneration stops with an error if none does.

DELVE_PARTY = (*PARTY, PartySpec("Brelyna", "breton"), PartySpec("Onmund", "nord"))
SEARCH = range(40)

Bot = Callable[[object, object, random.Random], object]
Played = Callable[[BetrayalApp, str], bool]  # (app, battle id) -> the log shows what its name says


def _delve_bot(state, ctx, rnd: random.Random):
    return delve_choice(state, ctx, rnd)


def _early_retreat(state, ctx, rnd: random.Random):
    """The delve bot, but the party retreats at the end of the first round
    in which it holds some skyshards and not all (RETREAT-5, OBJ-9)."""
    delve = ctx.delve
    if state.phase is Phase.END_OF_ROUND and delve is not None and 0 < delve.gained < delve.required:
        return Retreat()
    return delve_choice(state, ctx, rnd)


def _play_delve(app: BetrayalApp, battle_id: str, *, delve: str, party: tuple[PartySpec, ...], xp: int, seed: int,
                bot: Bot = _delve_bot) -> None:
    """Set up ``delve`` (or, with a dungeon's id, that dungeon) and let ``bot``
    play it to the end, seeded with ``seed``."""
    if delve in app.pack.dungeons:
        app.new_dungeon(setup=delve, party=party, xp=xp, seed=seed, battle_id=battle_id)
    else:
        app.new_delve(delve=delve, party=party, xp=xp, seed=seed, battle_id=battle_id)
    rnd = random.Random(seed)
    for _ in range(MAX_COMMANDS):
        if _ended(app, battle_id):
            return
        app.execute(battle_id, bot(app.battle(battle_id).state, app.rules_context(battle_id), rnd))
    raise RuntimeError(f"{battle_id} did not end in {MAX_COMMANDS} commands")


def _seeded(app: BetrayalApp, battle_id: str, seed: int, shows: Played, **setup) -> str:
    """Play ``battle_id`` with ``seed`` if that shows what the log is named
    for, else with the first seed of ``SEARCH`` that does; loudly none."""
    for candidate in (seed, *(s for s in SEARCH if s != seed)):
        scratch = BetrayalApp(store="memory")
        _play_delve(scratch, battle_id, seed=candidate, **setup)
        if shows(scratch, battle_id):
            if candidate != seed:
                print(f"{battle_id}: seed {seed} no longer shows it; seed {candidate} does (update the"
                      " seed in logs/regenerate.py and logs/README.md)", file=sys.stderr)
            _play_delve(app, battle_id, seed=candidate, **setup)
            if not shows(app, battle_id):
                raise RuntimeError(f"{battle_id}: seed {candidate} played twice gave two battles")
            return battle_id
    raise RuntimeError(f"{battle_id}: neither seed {seed} nor any of {SEARCH.start} to {SEARCH.stop - 1} shows"
                       " what the log is named for;"
                       " the rules changed: write another bot or setup")


def _delve_events(app: BetrayalApp, battle_id: str) -> list:
    return [e.event for e in app.events(delve_stream(battle_id))]


def _won(app: BetrayalApp, battle_id: str) -> bool:
    return app.battle(battle_id).state.outcome is Outcome.SUCCESS


def _retreated_early_with_xp(app: BetrayalApp, battle_id: str) -> bool:
    """Failure by an early retreat (OBJ-9) with XP for the skyshards held (OBJ-10)."""
    state = app.battle(battle_id).state
    concluded = [e for e in _delve_events(app, battle_id) if isinstance(e, DelveConcluded)]
    return (state.outcome is Outcome.FAILURE and (state.ended_reason or "").startswith("OBJ-9")
            and bool(concluded) and concluded[-1].xp > 0 and concluded[-1].skyshards < app.delve_of(battle_id).required)


def _ran_short(app: BetrayalApp, battle_id: str) -> bool:
    """A card whose shape had no tile left was drawn (EXPLORATION-7a)."""
    return any(isinstance(e, ShortageSkyshard) for e in _delve_events(app, battle_id))


def delve_survey_won(app: BetrayalApp) -> str:
    """A Survey delve won (whispering-barrow, the party of four, XP 1, seed
    5): three skyshards found (OBJ-4, OBJ-5)."""
    return _seeded(app, "golden-delve-survey-won", 5, _won,
                   delve="whispering-barrow", party=DELVE_PARTY, xp=1)


def delve_uncover_retreat(app: BetrayalApp) -> str:
    """An Uncover delve left early (drowned-cistern, Ysolda and Tarn, XP 1,
    seed 5): the party retreats holding two of the three skyshards, so the
    delve fails (OBJ-9) but gives XP per skyshard (OBJ-10)."""
    return _seeded(app, "golden-delve-uncover-retreat", 5, _retreated_early_with_xp,
                   delve="drowned-cistern", party=PARTY, xp=1, bot=_early_retreat)


def delve_shortage(app: BetrayalApp) -> str:
    """A delve that runs out of tiles of a shape (whispering-barrow, the
    party of four, XP 1, seed 9): the card is kept face down as a skyshard
    (EXPLORATION-7a, SKYSHARD-4), and the party wins with it."""
    return _seeded(app, "golden-delve-shortage", 9, _ran_short,
                   delve="whispering-barrow", party=DELVE_PARTY, xp=1)


def dungeon_sentinel_vault(app: BetrayalApp) -> str:
    """A dungeon won (sentinel-vault, the party of four, XP 1, seed 7, the
    greedy bot): the Bound Sentinel destroyed (DUNGEON-6 to DUNGEON-11)."""
    return _seeded(app, "golden-dungeon-sentinel-vault", 7, _won,
                   delve="sentinel-vault", party=DELVE_PARTY, xp=1)


# --- Conquest -----------------------------------------------------------------------

CONQUEST_ARMIES = ("saltmarch", "cinderpact")
MAX_CONQUEST_COMMANDS = 1000


def _conquest(app: GameApp, battle_id: str, scenario: str, seed: int) -> None:
    app.start("conquest", StartConquest(battle_id=battle_id, scenario=scenario, armies=CONQUEST_ARMIES,
                                        seed=seed), battle_id=battle_id)


def _conquest_next(app: GameApp, battle_id: str) -> Result:
    rs = app.ruleset(battle_id)
    state = app.battle(battle_id).state
    return app.execute(battle_id, conquest_bots.greedy_choice(state, rs.context(app.pack_of(rs), state)))


def _conquest_over(app: GameApp, battle_id: str) -> bool:
    return app.battle(battle_id).state.result is not None


def _conquest_play_out(app: GameApp, battle_id: str) -> None:
    for _ in range(MAX_CONQUEST_COMMANDS):
        if _conquest_over(app, battle_id):
            return
        _conquest_next(app, battle_id)
    raise RuntimeError(f"{battle_id} did not end in {MAX_CONQUEST_COMMANDS} commands")


def _conquest_expect(app: GameApp, battle_id: str, termination: Termination) -> str:
    got = app.battle(battle_id).state.result.termination
    if got is not termination:
        raise RuntimeError(f"{battle_id} ended by {got}, not {termination}: the rules changed; pick another seed")
    return battle_id


def conquest_wipe_out(app: GameApp) -> str:
    """Greedy play decided by wipe-out (border-clash, seed 2, round 4)."""
    battle_id = "golden-conquest-wipe-out"
    _conquest(app, battle_id, "border-clash", seed=2)
    _conquest_play_out(app, battle_id)
    return _conquest_expect(app, battle_id, Termination.WIPE_OUT)


def conquest_round_limit(app: GameApp) -> str:
    """Greedy play that runs to the scenario's round limit (border-clash, seed 3, 10 rounds)."""
    battle_id = "golden-conquest-round-limit"
    _conquest(app, battle_id, "border-clash", seed=3)
    _conquest_play_out(app, battle_id)
    return _conquest_expect(app, battle_id, Termination.ROUND_LIMIT)


def conquest_undo(app: GameApp) -> str:
    """Greedy play with undo and redo in it (hold-the-ford, seed 1): each of
    the first three rolls (Reinforcement and roll-off) undone by force and
    redone (the same faces come back), a command without randomness undone
    and replaced, and the command that ended the battle undone and redone."""
    battle_id = "golden-conquest-undo"
    _conquest(app, battle_id, "hold-the-ford", seed=1)
    rolls = replaced = 0
    for _ in range(MAX_CONQUEST_COMMANDS):
        if _conquest_over(app, battle_id):
            break
        result = _conquest_next(app, battle_id)
        rolled = [e for e in result.events
                  if isinstance(e, (conquest_events.ReinforcementsRolled, conquest_events.SupremacyRolled))]
        if _conquest_over(app, battle_id) or (rolled and rolls < 3):
            rolls += bool(rolled)
            app.undo(battle_id, force=app.battle(battle_id).done[-1].random)
            again = app.redo(battle_id)
            if again.events[1:] != result.events[1:]:
                raise RuntimeError("a redo gave other events than the undone command")
        elif not app.battle(battle_id).done[-1].random and not replaced:
            replaced += 1
            app.undo(battle_id)  # the bot gives the same or another command: the redo is gone
    else:
        raise RuntimeError(f"{battle_id} did not end in {MAX_CONQUEST_COMMANDS} commands")
    return battle_id


def campaign_two_battles(app: BetrayalApp) -> str:
    """A campaign between two battles: Ysolda (Nord, Bastion) and Tarn (Dark
    Elf, Stalker) are recruited, win waystone-crossing (seed 2), hold its
    Reward Phase (health and Cooldown bought, a Bow die of level 2, Tenacity,
    the saved-XP cap), get and ready items, rest at the End of Day, fight
    fallen-watchtower (seed 4) at the campaign's dial, and hold its Reward
    Phase. The log is the campaign's: its own stream and both adventurers'
    whole histories."""
    from domain.betrayal.campaign import application as ca
    from domain.betrayal.campaign import commands as cc

    campaign_id = "golden-campaign"
    ca.new_campaign(app, campaign_id)
    for command in (cc.Recruit(name="Ysolda", race="nord", class_id="bastion"),
                    cc.Recruit(name="Tarn", race="dark-elf", class_id="stalker", lines=("bow", "destruction-staff"))):
        app.execute(campaign_id, command)
    party = [PartySpec("Ysolda"), PartySpec("Tarn")]
    app.new_clash(setup="waystone-crossing", party=party, xp=ca.campaign(app, campaign_id).dial, seed=2,
                  battle_id="golden-campaign-1")
    play_out(app, "golden-campaign-1", random.Random(2))
    _expect(app, "golden-campaign-1", Outcome.SUCCESS)
    reward = ca.battle_reward(app, "golden-campaign-1") + 6  # and a quest's XP on top: a default of this fixture
    for command in (cc.GainRewards(battle_id="golden-campaign-1", xp=reward),
                    cc.Untrain(adventurer="Ysolda", what="magicka"),
                    cc.Advance(adventurer="Ysolda", what="health"), cc.Advance(adventurer="Ysolda", what="cooldown"),
                    cc.Advance(adventurer="Tarn", what="twin-shafts"), cc.Advance(adventurer="Tarn", what="tenacity"),
                    cc.EndRewards(),
                    cc.GainItem(adventurer="Ysolda", item="scuffed-bracers", ready=True),
                    cc.GainItem(adventurer="Tarn", item="bitterroot-draught"),
                    cc.ReadyItem(adventurer="Tarn", item="bitterroot-draught"),
                    cc.UseItem(adventurer="Tarn", item="bitterroot-draught"),
                    cc.Rest()):
        app.execute(campaign_id, command)
    app.undo(campaign_id)  # the rest undone and given again: undo across the day's end
    app.redo(campaign_id)
    app.new_clash(setup="fallen-watchtower", party=party, xp=ca.campaign(app, campaign_id).dial, seed=4,
                  battle_id="golden-campaign-2")
    play_out(app, "golden-campaign-2", random.Random(4))
    app.execute(campaign_id, cc.GainRewards(battle_id="golden-campaign-2",
                                            xp=ca.battle_reward(app, "golden-campaign-2")))
    app.execute(campaign_id, cc.EndRewards())
    return campaign_id



# --- Labyrinth ------------------------------------------------------------------------
#
# Played on the starter pack by a plain bot (``_labyrinth_bot``), the
# Enemies by the engine's seeded policy. As for the delves, when a seed no
# longer gives what the log is named for, the first seed of
# ``LABYRINTH_SEARCH`` that does is played instead (and printed).

LABYRINTH_SEARCH = range(60)
MAX_LABYRINTH_COMMANDS = 600
LabyrinthShows = Callable[[GameApp, str], bool]


def _labyrinth_bot(state, listed: list, run: bool):
    """In the Standby phase the next PC passes (with ``run``: declares
    Escape); in the Main phase the acting PC attacks the Enemy with the
    least HP it may attack (the first listed on a tie), else passes."""
    if run:
        escape = next((c for c in listed if isinstance(c, Escape)), None)
        if escape is not None:
            return escape
    attacks = [c for c in listed if isinstance(c, Attack)]
    if attacks:
        return min(attacks, key=lambda c: state.get(c.target).hp)
    return next((c for c in listed if isinstance(c, LabyrinthPass)), listed[0])


def _labyrinth_play(app: GameApp, battle_id: str, *, encounter: str, party: tuple[Member, ...], seed: int,
                    run: bool = False) -> None:
    """Set the battle up and let the bot play it to the end."""
    app.start("labyrinth", StartLabyrinth(battle_id=battle_id, encounter=encounter, party=party, seed=seed),
              battle_id=battle_id)
    for _ in range(MAX_LABYRINTH_COMMANDS):
        state = app.battle(battle_id).state
        if state.over:
            return
        app.execute(battle_id, _labyrinth_bot(state, app.legal(battle_id), run))
    raise RuntimeError(f"{battle_id} did not end in {MAX_LABYRINTH_COMMANDS} commands")


def _labyrinth_seeded(app: GameApp, battle_id: str, seed: int, shows: LabyrinthShows, **setup) -> str:
    """Play ``battle_id`` with ``seed`` if that shows what the log is named
    for, else with the first seed of ``LABYRINTH_SEARCH`` that does; loudly none."""
    for candidate in (seed, *(s for s in LABYRINTH_SEARCH if s != seed)):
        with GameApp("memory") as scratch:
            _labyrinth_play(scratch, battle_id, seed=candidate, **setup)
            if not shows(scratch, battle_id):
                continue
        if candidate != seed:
            print(f"{battle_id}: seed {seed} no longer shows it; seed {candidate} does (update the"
                  " seed in logs/regenerate.py and logs/README.md)", file=sys.stderr)
        _labyrinth_play(app, battle_id, seed=candidate, **setup)
        if not shows(app, battle_id):
            raise RuntimeError(f"{battle_id}: seed {candidate} played twice gave two battles")
        return battle_id
    raise RuntimeError(f"{battle_id}: neither seed {seed} nor any of {LABYRINTH_SEARCH.start} to"
                       f" {LABYRINTH_SEARCH.stop - 1} shows what the log is named for; the rules changed:"
                       " change the party, the encounter or the bot")


def _labyrinth_ended(termination: LabyrinthEnd) -> LabyrinthShows:
    return lambda app, battle_id: app.battle(battle_id).state.termination is termination


def _labyrinth_escaped(app: GameApp, battle_id: str) -> bool:
    """The party got away (STANDBY-8) after at least one attempt that failed."""
    rolls = [e.event for e in app.stream(battle_id) if isinstance(e.event, labyrinth_events.EscapeRolled)]
    return (app.battle(battle_id).state.termination is LabyrinthEnd.ESCAPED
            and rolls[-1].escaped and any(not r.escaped for r in rolls))


def labyrinth_won(app: GameApp) -> str:
    """Mossy Hollow won (seed 1): Brann (Vanguard), Hild (Bulwark), Ysa
    (Mender) and Corvin (Stormcaller), all level 3, pass in Standby and
    attack the weakest Enemy until none is left."""
    party = (Member(cls="vanguard", level=3, name="Brann"), Member(cls="bulwark", level=3, name="Hild"),
             Member(cls="mender", level=3, name="Ysa"), Member(cls="stormcaller", level=3, name="Corvin"))
    return _labyrinth_seeded(app, "golden-labyrinth-won", 1, _labyrinth_ended(LabyrinthEnd.PCS_WIN),
                             encounter="mossy-hollow", party=party)


def labyrinth_lost(app: GameApp) -> str:
    """The Ogre's Den lost (seed 1): Brann (Vanguard) and Ysa (Mender), level
    1, stand and fight the same way until the party is wiped out."""
    party = (Member(cls="vanguard", level=1, name="Brann"), Member(cls="mender", level=1, name="Ysa"))
    return _labyrinth_seeded(app, "golden-labyrinth-lost", 1, _labyrinth_ended(LabyrinthEnd.PCS_LOSE),
                             encounter="ogre-den", party=party)


def labyrinth_escape(app: GameApp) -> str:
    """The Ogre's Den fled (seed 1): Tamsin (Tracker) and Brann (Vanguard),
    level 1, declare Escape in every Standby phase (fighting in the Main
    phase meanwhile); an attempt fails before one succeeds (STANDBY-8)."""
    party = (Member(cls="tracker", level=1, name="Tamsin"), Member(cls="vanguard", level=1, name="Brann"))
    return _labyrinth_seeded(app, "golden-labyrinth-escape", 1, _labyrinth_escaped,
                             encounter="ogre-den", party=party, run=True)


GOLDEN: dict[str, Callable[[GameApp], str]] = {
    "won-waystone-crossing.jsonl": won_waystone_crossing,
    "lost-fallen-watchtower.jsonl": lost_fallen_watchtower,
    "undo-cinder-rite.jsonl": undo_cinder_rite,
    "delve-survey-won.jsonl": delve_survey_won,
    "delve-uncover-retreat.jsonl": delve_uncover_retreat,
    "delve-shortage.jsonl": delve_shortage,
    "dungeon-sentinel-vault.jsonl": dungeon_sentinel_vault,
    "conquest-wipe-out.jsonl": conquest_wipe_out,
    "conquest-round-limit.jsonl": conquest_round_limit,
    "conquest-undo.jsonl": conquest_undo,
    "campaign-two-battles.jsonl": campaign_two_battles,
    "labyrinth-won.jsonl": labyrinth_won,
    "labyrinth-lost.jsonl": labyrinth_lost,
    "labyrinth-escape.jsonl": labyrinth_escape,
}


def regenerate(folder: Path = LOGS, names: list[str] | None = None) -> dict[str, bytes]:
    """Play every golden battle (or those ``names``), each in its own memory
    store, and write its log."""
    unknown = sorted(set(names or ()) - set(GOLDEN))
    if unknown:
        raise SystemExit(f"no golden log {', '.join(unknown)}; choose among {', '.join(GOLDEN)}")
    written = {}
    for name, build in GOLDEN.items():
        if names and name not in names:
            continue
        app = BetrayalApp(store="memory")  # a GameApp, with Betrayal's verbs as methods
        data = export_battle(app, build(app))
        (folder / name).write_bytes(data)
        written[name] = data
    return written


def main(argv: list[str] | None = None) -> None:
    for name, data in regenerate(LOGS, (sys.argv[1:] if argv is None else argv) or None).items():
        events = data.count(b"\n") - 1  # one line per event after the header
        print(f"{name}: {events} events, {len(data)} bytes, {len(data) // max(events, 1)} bytes per event")


if __name__ == "__main__":
    sys.exit(main())
