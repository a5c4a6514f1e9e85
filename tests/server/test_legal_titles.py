"""The legal list names each command and each of its choices in players'
words (issue 24), for a table to head them with: ``title``, the verb's
(``Move``, ``End turn``, a ruleset's own where its words read wrong: ``Order
the Command Stack``), and each parameter's ``title`` (``dice``, not
``--dice``). The command line (``label``, ``example``) stays as it was."""

from __future__ import annotations

from api_table import Table


def test_every_command_of_the_legal_list_has_its_title_and_each_parameter_its_legend(table: Table):
    game = table.new_clash()
    legal = table.legal(game)
    titles = {e["verb"]: e["title"] for e in legal}
    assert titles["move"] == "Move" and titles["end-turn"] == "End turn" and titles["engage"] == "Engage"
    engage = next(e for e in legal if e["verb"] == "engage")
    assert [p["title"] for p in engage["params"]][:3] == ["form", "target", "dice"]
    assert engage["label"].startswith("rk engage --form")  # the line, for whoever types it
    assert next(e for e in legal if e["verb"] == "move")["params"][0]["title"] == "hex"


def test_a_ruleset_declares_a_title_where_its_verbs_words_read_wrong(table: Table):
    game = table.new_conquest()
    table.done(game, {"type": "ChooseArrival", "regiment": "a1"})
    table.done(game, {"type": "ChooseArrival", "regiment": "b1"})
    stack = next(e for e in table.legal(game) if e["verb"] == "order-stack")
    assert stack["title"] == "Order the Command Stack"
    assert stack["params"][0]["title"] == "cards"
