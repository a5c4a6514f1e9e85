"""A surface a package gives for later (``LATER``, Betrayal's campaign's) is
imported when that ruleset's surface is first asked for, and every way the
surfaces are asked finds it: by ruleset, by package, all of them, by a word
a command line starts with. Each check runs in a fresh process (this one
has every surface loaded)."""

from __future__ import annotations


from fresh_process import answer_of

CAMPAIGN = "domain.betrayal.table.campaign_surface"


def _answer(code: str) -> object:
    return answer_of(f"import sys\nfrom domain.kernel import surface as s\n{code}")


def test_a_battle_surface_loads_without_the_campaign_surface():
    answer = _answer(
        f"b = s.surface_of('betrayal')\nanswer = [b.ruleset, {CAMPAIGN!r} in sys.modules, sorted(s._LATER)]"
    )
    assert answer == ["betrayal", False, ["betrayal-campaign"]]


def test_the_campaign_surface_is_found_by_its_ruleset():
    answer = _answer(
        "c = s.surface_of('betrayal-campaign')\n"
        f"from {CAMPAIGN} import CAMPAIGN_SURFACE\n"
        "answer = [c is CAMPAIGN_SURFACE, s._LATER == {}, s.surface_of('betrayal').ruleset]"
    )
    assert answer == [True, True, "betrayal"]


def test_by_package_and_all_of_them_the_campaign_surface_is_there_as_before():
    answer = _answer(
        "s.surface_of('betrayal')\n"
        "answer = [[x.ruleset for x in s.of_package('betrayal')], [x.ruleset for x in s.surfaces()]]"
    )
    assert answer[0] == ["betrayal", "betrayal-campaign"]
    assert "betrayal-campaign" in answer[1] and answer[1] == sorted(answer[1])


def test_the_campaign_word_finds_the_campaign_surface():
    answer = _answer(
        "from cli.declarations import declaring, games_named\n"
        "answer = [[x.ruleset for x in declaring('campaign')], [x.ruleset for x in games_named('campaign')],"
        " [x.ruleset for x in declaring('move')]]"
    )
    assert answer == [["betrayal-campaign"], ["betrayal-campaign"], ["betrayal", "labyrinth"]]
