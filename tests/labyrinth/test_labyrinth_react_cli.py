"""A passive action chosen by hand on the command line (PASSIVE-1 ..
PASSIVE-3): `rk status` says whose passive is awaited and how to answer,
`rk legal` lists `rk react ID SKILL` and `rk react ID none`, anything else
is refused naming PASSIVE-1 and writes nothing, and undo goes back to the
question exactly."""

from __future__ import annotations

import shlex

import pytest

NEW = [
    "new",
    "labyrinth",
    "--encounter",
    "mossy-hollow",
    "--party",
    "vanguard",
    "--party",
    "mender",
    "--option",
    "ask_passives=true",
]


def _asked(table):  # noqa: F811
    """A battle at its first question: the last command `rk legal` lists,
    played until a passive is asked (the Vanguard's Riposte)."""
    for seed in range(1, 40):
        battle = f"lab{seed}"
        table(*NEW, "--battle", battle, "--seed", str(seed))
        for _ in range(200):
            state = table.defaults.apps["memory"].battle(battle).state
            if state.question is not None or state.over:
                break
            listed = table("legal", json=True).json()
            table(*shlex.split(listed[-1]["example"])[1:])
        if state.question is not None:
            return battle, state
    pytest.fail("no seed asks a passive")


@pytest.mark.rule("PASSIVE-1")
@pytest.mark.rule("PASSIVE-2")
def test_the_cli_asks_for_the_passive_and_takes_the_answer(table) -> None:  # noqa: F811
    battle, state = _asked(table)
    q = state.question
    status = " ".join(table("status").stdout.split())
    assert f"rk react {q.who} {'|'.join(q.skills)}|none" in status
    lines = table("legal").stdout.splitlines()
    # each skill offered by its name and cost, as the players read it (issue 24); a label that
    # starts with the word typed says it alone
    named = {s: table.defaults.apps["memory"].pack_of("labyrinth").skills[s] for s in q.skills}
    assert lines == [f"rk react {q.who} {s}  ({k.name} · {k.tp} TP)" for s, k in named.items()] + [
        f"rk react {q.who} none  (None, the roll stands)"  # as the table's button reads it
    ]
    version = table.defaults.apps["memory"].battle(battle).version
    code, out, err = table("pass", "p2", code=None)
    assert code == 2 and "PASSIVE-1" in out + err
    assert table.defaults.apps["memory"].battle(battle).version == version  # nothing written
    table("react", q.who, q.skills[0])
    after = table.defaults.apps["memory"].battle(battle)
    assert after.state.question is None or after.state.question != q
    log = table("log").stdout
    assert f"chooses {q.skills[0]}" in log
    table("undo", "--force")
    assert table.defaults.apps["memory"].battle(battle).state == state  # back at the question, exactly


@pytest.mark.rule("FUMBLE-2")
def test_the_cli_asks_what_fp_to_spend_on_a_suppression_roll_with_ask_fp(table) -> None:  # noqa: F811
    table(
        "new",
        "labyrinth",
        "--encounter",
        "warren-gate",
        "--party",
        "vanguard:2",
        "--party",
        "mender:2",
        "--seed",
        "4",
        "--ask-fp",
        "--passives",
        "auto",
        "--battle",
        "fp",
    )
    for _ in range(80):
        state = table.defaults.apps["memory"].battle("fp").state
        if state.question is not None or state.over:
            break
        lines = [
            e["example"]
            for e in table("legal", json=True).json()
            if e["example"].split()[1] not in ("escape", "move", "full-defense", "swap")
        ]
        table(*shlex.split(lines[0])[1:])
    q = state.question
    assert q is not None and q.kind == "fp"
    status = " ".join(table("status").stdout.split())
    assert f"rk spend {q.who} N [--reroll]" in status and q.check in status
    assert any(
        e["rk"].startswith(f"rk spend {q.who} ") and e["example"] == f"rk spend {q.who} 0"
        for e in table("legal", json=True).json()
    )
    other = "p1" if q.who == "p2" else "p2"
    code, out, err = table("spend", other, "1", code=None)
    assert code == 2 and "FUMBLE-2" in out + err
    fp = state.get(q.who).fp
    table("spend", q.who, "1")
    assert f"spend {q.who} 1" in table("log").stdout
    assert table.defaults.apps["memory"].battle("fp").state.get(q.who).fp <= fp
    assert "--ask-fp" in table("log").stdout  # the setup as the log tells it
