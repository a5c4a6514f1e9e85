"""The table page as players use it (#24, the page half), in Debian's
Chromium against a real `rk server` (tests/server/conftest.py; skipped
without it): an open command's unit or hex chosen by clicking it on the
board or its card, marked dashed while it may be chosen and solid with a ✓
once chosen; a Command Stack put in order by dragging (desktop) or with ▲ ▼
(a phone), shown as a numbered list of card labels; a line under an open
command saying what it will do and what it gives up; the page's own
question before a command that gives something up (never the browser's);
a scrubber that draws the board at an earlier version and comes back to
now; crowded ghost letters laid out on a ring (and listed) so that each is
read and clicked; every new control reached and worked from the keyboard,
nothing cut at 390×844. Screenshots: ``page-*.png`` in the artifacts folder.
"""

from __future__ import annotations

import json
import re

import pytest
from browsing import CHROMIUM, PHONE, Running, shown
from test_browser_board import SIDEWAYS, delve_waiting_for_a_tile
from test_browser_table import CLASH, CONQUEST, LABYRINTH, new_game, play

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

TARN_BESIDE_THE_IMP = ("move a2", "end-turn", "move c2")  # Tarn may engage e1 (heavy, light) or e2 (ranged)


def engage(page, form: str):
    """Tarn's open engage in ``form`` (its label names the form)."""
    return page.locator(f'[data-testid="legal"] .open-cmd[data-verb="engage"][data-label*="--form {form} "]')


def phone(open_page, link: str, **options):
    return open_page(link, viewport=PHONE, is_mobile=True, has_touch=True, **options)


# -- 1. a unit (or hex) chosen on the board -------------------------------------------------------


@pytest.mark.rule("ENGAGE-5")
def test_a_click_on_an_enemy_or_its_card_chooses_it_as_the_target_of_the_command_worked_on(
    server: Running, open_page, artifacts
):
    game, links = new_game(server, CLASH)
    play(server, game, *TARN_BESIDE_THE_IMP)
    page = open_page(links["Tarn"])
    shown(page)
    heavy, ranged = engage(page, "heavy"), engage(page, "ranged")
    # The first command that takes a unit is the one a click serves: e1 may be chosen (dashed), e2 not.
    expect(heavy).to_have_class(re.compile(r"\baiming\b"))
    for unit in ("foe-e1", "card-e1"):
        expect(page.get_by_test_id(unit)).to_have_class(re.compile(r"\bchoosable\b"))
        expect(page.get_by_test_id(unit)).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("foe-e2")).not_to_have_class(re.compile(r"\bchoosable\b"))

    page.get_by_test_id("foe-e1").click()  # the token on the map
    expect(heavy.locator('select[data-param="target"]')).to_have_value("e1")
    for unit in ("foe-e1", "card-e1"):  # chosen: solid and a ✓, not a colour alone
        expect(page.get_by_test_id(unit)).to_have_class(re.compile(r"\bchosen\b"))
        expect(page.get_by_test_id(unit)).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_test_id("foe-e1").locator(".chosen-mark")).to_have_text("✓")
    page.screenshot(path=str(artifacts / "page-target-chosen.png"), full_page=True)

    # Working on the ranged engage: its target (e2) is the one marked, and the keyboard chooses it.
    ranged.locator('select[data-param="target"]').focus()
    expect(ranged).to_have_class(re.compile(r"\baiming\b"))
    expect(page.get_by_test_id("foe-e1")).not_to_have_class(re.compile(r"\bchoosable\b"))
    card = page.get_by_test_id("card-e2")
    expect(card).to_have_attribute("tabindex", "0")
    expect(card).to_have_attribute("role", "button")
    card.focus()
    page.keyboard.press("Enter")
    expect(ranged.locator('select[data-param="target"]')).to_have_value("e2")
    expect(card).to_have_class(re.compile(r"\bchosen\b"))

    # Back on the heavy engage: its die, then Give (it gives up a second Move: asked, then sent).
    heavy.locator('button.pick[data-value="1"]').click()
    heavy.locator("button.give").click()
    page.get_by_test_id("ask-yes").click()
    expect(page.get_by_test_id("log")).to_contain_text("rk engage --form heavy --target e1 --dice 1")


@pytest.mark.rule("MOVE-1")
def test_a_hex_an_open_command_takes_is_chosen_on_the_map_and_the_moves_stay_buttons(server: Running, open_page):
    """A view whose open command takes a hex (as a companion's move or an item's free move does),
    its table answered with that command added: a click on the hex chooses it; the other hexes
    still move Ria, and the move buttons stay."""
    game, links = new_game(server, CLASH)
    page = open_page(links["Ria"], live=False)

    def with_a_hex_param(route) -> None:
        answer = route.fetch()
        view = answer.json()
        view["legal"].append(
            {
                "label": "rk item --hex HEX",
                "command": {},
                "actor": "ria",
                "allowed": True,
                "verb": "item",
                "at": None,
                "open": True,
                "example": "rk item --hex b2",
                "gives_up": [],
                "params": [
                    {
                        "name": "hex",
                        "option": "--hex",
                        "flag": False,
                        "what": "hex",
                        "metavar": "HEX",
                        "fixed": False,
                        "how": "one",
                        "optional": True,
                        "values": [{"value": [1, 1], "word": "b2"}, {"value": [1, 0], "word": "b1"}],
                    }
                ],
            }
        )
        route.fulfill(response=answer, body=json.dumps(view))

    page.route(re.compile(rf"/api/games/{game}/table$"), with_a_hex_param)
    page.reload()
    shown(page)
    item = page.locator('.open-cmd[data-verb="item"]')
    expect(page.get_by_test_id("hex-b2")).to_have_class(re.compile(r"\bchoosable\b"))
    page.get_by_test_id("hex-b2").click()
    expect(item.locator('select[data-param="hex"]')).to_have_value("b2")
    expect(page.get_by_test_id("hex-b2")).to_have_class(re.compile(r"\bchosen\b"))
    expect(item.get_by_test_id("preview-item")).to_contain_text("hex b2")
    page.get_by_test_id("hex-b1").focus()
    page.keyboard.press(" ")
    expect(item.locator('select[data-param="hex"]')).to_have_value("b1")
    # a2 is no value of it: still Ria's move, as a button on the map and in the list
    expect(page.get_by_test_id("hex-a2")).to_have_attribute("aria-label", "rk move a2")
    expect(page.locator('[data-testid="legal"] button[data-label="rk move a2"]')).to_be_enabled()
    version = server.request("GET", f"/api/games/{game}")["version"]
    page.get_by_test_id("hex-a2").click()
    expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    assert server.request("GET", f"/api/games/{game}")["version"] > version


def test_regiments_an_open_command_takes_are_chosen_on_the_battlefield_or_in_their_side_list(
    server: Running, open_page
):
    """A Conquest view whose open command takes some of a side's regiments (its table answered
    with that command added): a click on a regiment's lane or on its row picks it, a second
    click leaves it out."""
    game, links = new_game(server, CONQUEST)
    page = open_page(links["saltmarch"], live=False)

    def with_regiments(route) -> None:
        answer = route.fetch()
        view = answer.json()
        view["legal"].append(
            {
                "label": "rk rally --regiments A,B",
                "command": {},
                "actor": "a",
                "allowed": True,
                "verb": "rally",
                "at": None,
                "open": True,
                "example": "rk rally --regiments a1",
                "gives_up": [],
                "params": [
                    {
                        "name": "regiments",
                        "option": "--regiments",
                        "flag": False,
                        "what": "regiments",
                        "metavar": "A,B",
                        "fixed": False,
                        "how": "some",
                        "low": 1,
                        "high": 2,
                        "limits": {},
                        "sep": ",",
                        "values": [{"value": "a1", "word": "a1"}, {"value": "a2", "word": "a2"}],
                    }
                ],
            }
        )
        route.fulfill(response=answer, body=json.dumps(view))

    page.route(re.compile(rf"/api/games/{game}/table$"), with_regiments)
    page.reload()
    shown(page)
    rally = page.locator('.open-cmd[data-verb="rally"]')
    for unit in ("field-a1", "regiment-a2"):
        expect(page.get_by_test_id(unit)).to_have_class(re.compile(r"\bchoosable\b"))
    expect(page.get_by_test_id("field-b1")).not_to_have_class(re.compile(r"\bchoosable\b"))
    page.get_by_test_id("field-a1").click()
    page.get_by_test_id("regiment-a2").click()
    expect(rally.locator('button.pick[data-value="a1"]')).to_have_attribute("aria-pressed", "true")
    expect(rally.locator('button.pick[data-value="a2"]')).to_have_attribute("aria-pressed", "true")
    expect(rally.get_by_test_id("preview-rally")).to_contain_text("regiments a1 Brine Spears, a2 Brine Spears")
    page.get_by_test_id("regiment-a1").click()  # the same regiment again: left out
    expect(rally.locator('button.pick[data-value="a1"]')).to_have_attribute("aria-pressed", "false")
    expect(page.get_by_test_id("field-a1")).not_to_have_class(re.compile(r"\bchosen\b"))


# -- 2. the Command Stack put in order ------------------------------------------------------------------


CONQUEST_TO_THE_STACKS = ("choose-arrival a1", "choose-arrival b1")


def test_a_command_stack_is_ordered_by_dragging_its_cards_and_is_given_in_that_order(
    server: Running, open_page, artifacts
):
    game, links = new_game(server, CONQUEST)
    play(server, game, *CONQUEST_TO_THE_STACKS)
    page = open_page(links["saltmarch"])
    shown(page)
    listed = page.get_by_test_id("order-cards")
    expect(listed.locator("li")).to_have_count(4)
    expect(listed.locator("li").first).to_contain_text("1.a1 Brine Spears")
    page.get_by_test_id("order-item-ac1").drag_to(page.get_by_test_id("order-item-a1"))  # the Warden first
    expect(listed.locator(".order-name")).to_have_text(
        ["ac1 Tide Warden", "a1 Brine Spears", "a2 Brine Spears", "a3 Reed Slingers"]
    )
    expect(listed.locator(".order-n")).to_have_text(["1.", "2.", "3.", "4."])
    page.get_by_test_id("order-item-a3").drag_to(page.get_by_test_id("order-item-a1"))
    preview = page.get_by_test_id("preview-order-stack")
    expect(preview).to_contain_text(
        "cards 1. ac1 Tide Warden, 2. a3 Reed Slingers, 3. a1 Brine Spears, 4. a2 Brine Spears"
    )
    page.screenshot(path=str(artifacts / "page-order-stack.png"), full_page=True)
    page.locator('.open-cmd[data-verb="order-stack"] button.give').click()
    expect(page.get_by_test_id("log")).to_contain_text("order-stack --cards ac1,a3,a1,a2")


def test_on_a_phone_the_command_stack_is_ordered_with_its_up_and_down_buttons(server: Running, open_page, artifacts):
    game, links = new_game(server, CONQUEST)
    play(server, game, *CONQUEST_TO_THE_STACKS, "order-stack --cards a1,ac1,a2,a3")  # then the second side's
    page = phone(open_page, links["cinderpact"])
    shown(page)
    listed = page.get_by_test_id("order-cards")
    names = listed.locator(".order-name")
    expect(names.first).to_be_visible()
    first = names.all_inner_texts()
    assert len(first) >= 3
    up = listed.get_by_role("button", name=f"Move {first[-1]} up")
    up.tap()
    expect(names).to_have_text([*first[:-2], first[-1], first[-2]])
    # the keyboard: focus stays on the card moved, so ▲ again moves it on up
    page.keyboard.press("Enter")
    expect(names).to_have_text([*first[:-3], first[-1], first[-3], first[-2]])
    ordered = [*first[:-3], first[-1], first[-3], first[-2]]
    expect(listed.get_by_role("button", name=f"Move {ordered[0]} up")).to_be_disabled()  # the first goes no higher
    expect(listed.get_by_role("button", name=f"Move {ordered[-1]} down")).to_be_disabled()
    box = listed.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert page.evaluate(SIDEWAYS)
    page.screenshot(path=str(artifacts / "page-order-stack-phone.png"), full_page=True)
    page.locator('.open-cmd[data-verb="order-stack"] button.give').tap()
    words = [w.split(" ")[0] for w in ordered]
    expect(page.get_by_test_id("log")).to_contain_text(f"order-stack --cards {','.join(words)}")


# -- 3. what a command will do and give up, said before it is sent ----------------------------------------


@pytest.mark.rule("MOVE-3")
def test_an_open_command_says_what_it_will_do_and_what_it_gives_up_before_it_is_sent(server: Running, open_page):
    game, links = new_game(server, CLASH)
    play(server, game, *TARN_BESIDE_THE_IMP)
    page = open_page(links["Tarn"], live=False)
    heavy = engage(page, "heavy")
    preview = heavy.get_by_test_id("preview-engage")
    expect(preview).to_have_text("Will: engage: form heavy. Gives up: a second Move this turn (MOVE-3).")
    heavy.locator('select[data-param="target"]').select_option("e1")
    heavy.locator('button.pick[data-value="1"]').click()
    expect(preview).to_have_text(
        "Will: engage: form heavy · target e1 Ash Imp · dice 1 Combat. Gives up: a second Move this turn (MOVE-3)."
    )

    # With the verb's one-line summary (the server's ``summary``, when it gives one), that is said first.
    def with_a_summary(route) -> None:
        answer = route.fetch()
        view = answer.json()
        for entry in view["legal"]:
            entry["summary"] = f"Attack in one form ({entry['verb']} summary)"
        route.fulfill(response=answer, body=json.dumps(view))

    page.route(re.compile(rf"/api/games/{game}/table$"), with_a_summary)
    page.reload()
    shown(page)
    expect(engage(page, "heavy").get_by_test_id("preview-engage")).to_have_text(
        "Will: Attack in one form (engage summary) (engage): form heavy. Gives up: a second Move this turn (MOVE-3)."
    )


# -- 4. the page's own question ------------------------------------------------------------------------------


@pytest.mark.rule("TURN-6")
def test_the_question_before_a_command_that_gives_something_up_is_the_pages_own_and_keyboard_answered(
    server: Running, open_page
):
    game, links = new_game(server, CLASH)
    version = server.request("GET", f"/api/games/{game}")["version"]
    page = open_page(links["Ria"])
    shown(page)
    end = page.locator('[data-testid="legal"] button[data-label="rk end-turn"]')
    end.focus()
    page.keyboard.press("Enter")
    ask = page.get_by_test_id("ask")
    expect(ask).to_be_visible()
    expect(ask).to_have_attribute("role", "alertdialog")
    expect(page.get_by_test_id("ask-question")).to_have_text(
        "rk end-turn gives up your unused Move, Engage (TURN-6). Send it?"
    )
    expect(page.get_by_test_id("ask-yes")).to_be_focused()
    page.keyboard.press("Escape")  # No: nothing sent, back where the player was
    expect(ask).to_be_hidden()
    expect(end).to_be_focused()
    assert server.request("GET", f"/api/games/{game}")["version"] == version
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # to No
    expect(page.get_by_test_id("ask-no")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")  # Yes
    expect(page.get_by_test_id("turn")).to_have_text("Tarn")
    assert page.asked == []  # never the browser's window.confirm


# -- 5. the scrubber on the table page -------------------------------------------------------------------


def test_the_scrubber_draws_the_board_at_an_earlier_version_and_back_to_now_is_live_again(
    server: Running, open_page, artifacts
):
    game, links = new_game(server, CLASH)
    play(server, game, "move a2")
    page = open_page(links["Tarn"])
    shown(page)
    now = int(page.locator("body").get_attribute("data-version"))
    scrubber = page.get_by_test_id("scrubber")
    expect(scrubber).to_have_attribute("max", str(now))
    expect(page.get_by_test_id("scrub-position")).to_have_text(f"now (version {now})")
    expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    scrubber.focus()
    page.keyboard.press("ArrowLeft")  # the move undone on the board only: Ria back on a1
    expect(page.get_by_test_id("board")).to_have_attribute("data-at", str(now - 1))
    expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")
    expect(page.get_by_test_id("scrub-position")).to_contain_text(f"version {now - 1} of {now}")
    assert page.evaluate("document.getElementById('legal').inert")  # nothing is given from the past
    page.screenshot(path=str(artifacts / "page-scrubber.png"), full_page=True)

    play(server, game, "move b2")  # live meanwhile: the range grows, the board stays where it was
    expect(scrubber).to_have_attribute("max", str(server.request("GET", f"/api/games/{game}/table")["version"]))
    expect(page.get_by_test_id("log")).to_contain_text("Ria moves a2 → b2")
    expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")

    page.get_by_test_id("scrub-now").click()
    expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "b2")
    expect(page.get_by_test_id("scrub-now")).to_be_hidden()
    expect(scrubber).to_be_focused()
    assert not page.evaluate("document.getElementById('legal').inert")
    play(server, game, "end-turn")
    expect(page.get_by_test_id("turn")).to_have_text("Tarn")  # live again


# -- 6. crowded ghost letters ---------------------------------------------------------------------------------


LETTERS = """() => {
    const picks = [...document.querySelectorAll('.ghost-pick')];
    const discs = picks.map((g) => g.querySelector('circle').getBoundingClientRect());
    const touching = [];
    for (let i = 0; i < discs.length; i++) for (let j = i + 1; j < discs.length; j++) {
        const a = discs[i], b = discs[j];
        const d = Math.hypot(a.x + a.width / 2 - b.x - b.width / 2, a.y + a.height / 2 - b.y - b.height / 2);
        if (d < a.width) touching.push(picks[i].dataset.way + picks[j].dataset.way);
    }
    const hidden = picks.filter((g) => {
        const r = g.querySelector('circle').getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return !(top && g.contains(top));
    }).map((g) => g.dataset.way);
    return {touching, hidden, count: picks.length};
}"""


@pytest.mark.rule("EXPLORATION-9b")
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_ghost_letters_sharing_an_origin_are_each_readable_and_clickable(server: Running, open_page, artifacts, size):
    game, links, board = delve_waiting_for_a_tile(server)
    ways = board["delve"]["placing"]["ways"]
    origins = [w["origin"] for w in ways]
    assert max(origins.count(o) for o in origins) >= 4  # the crowd: four placements on one origin
    page = phone(open_page, links["Ria"]) if size == "phone" else open_page(links["Ria"])
    shown(page)
    letters = page.evaluate(LETTERS)
    assert letters == {"touching": [], "hidden": [], "count": len(ways)}, letters
    page.get_by_test_id("board").screenshot(
        path=str(artifacts / f"page-ghosts-after{'-phone' if size == 'phone' else ''}.png")
    )
    # the same letters listed under the map, each a button: a crowded one placed from there
    crowded = next(w for w in ways if origins.count(w["origin"]) >= 4 and w["mark"] != ways[0]["mark"])
    listed = page.get_by_test_id(f"ghost-list-{crowded['mark']}")
    expect(listed).to_contain_text(f"{crowded['mark']} · {crowded['origin']}")
    listed.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id(f"ghost-{crowded['mark']}")).to_have_class("ghost chosen")
    expect(page.get_by_test_id(f"ghost-list-{crowded['mark']}")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(SIDEWAYS)
    page.get_by_test_id(f"ghost-list-{crowded['mark']}").click()
    expect(page.locator('[data-testid^="ghost-pick-"]')).to_have_count(0)
    assert server.request("GET", f"/api/games/{game}/table")["board"]["delve"]["placing"] is None


# -- 7. the keyboard, and every ruleset whole at 390×844 ----------------------------------------------------------


DUNGEON = {"new": "dungeon", "setup": "sentinel-vault", "seed": 3, "xp": 2, "party": [{"name": "Ria", "race": "nord"}]}


@pytest.mark.parametrize("ruleset", ["clash", "delve", "dungeon", "conquest", "labyrinth"])
def test_every_new_control_is_reached_by_tab_and_nothing_is_cut_on_a_phone(
    server: Running, open_page, artifacts, ruleset
):
    if ruleset == "delve":  # a tile waiting: its ghosts' letters listed
        game, links, _ = delve_waiting_for_a_tile(server)
        seat = "Ria"
    else:
        body, lines, seat = {
            "clash": (CLASH, TARN_BESIDE_THE_IMP, "Tarn"),
            "dungeon": (DUNGEON, (), "Ria"),
            "conquest": (CONQUEST, CONQUEST_TO_THE_STACKS, "saltmarch"),
            "labyrinth": (LABYRINTH, (), None),
        }[ruleset]
        game, links = new_game(server, body)
        play(server, game, *lines)
    page = phone(open_page, links[seat or "host"], device_scale_factor=2)
    shown(page)
    reached = set()
    for _ in range(400):  # Tab through the whole page once
        page.keyboard.press("Tab")
        reached.add(
            page.evaluate("""() => { const a = document.activeElement;
                const what = a.dataset.testid || a.dataset.move || a.id || a.className || a.tagName;
                return a.classList.contains('choosable') ? `choosable ${what}` : what; }""")
        )
        if "scrubber" in reached and len(reached) > 5 and page.evaluate("document.activeElement === document.body"):
            break
    assert "scrubber" in reached, reached
    if ruleset == "clash":
        # e1 (the heavy engage's, the first) on the map; e2 (the ranged one's, tabbed through last) on its card
        assert {"choosable foe-e1", "choosable card-e2"} <= reached, reached
    if ruleset == "delve":
        assert {"ghost-pick-A", "ghost-list-A"} <= reached, reached
    if ruleset == "conquest":
        assert {"up", "down"} <= reached, reached
    if ruleset == "labyrinth":  # the standby skills' target: the party's cards
        assert {"choosable card-p1", "choosable card-p2"} <= reached, reached
    cut = page.evaluate("""() => [...document.querySelectorAll('#table button, #table select, #table input, .preview')]
        .filter((n) => n.offsetParent !== null)
        .filter((n) => { const r = n.getBoundingClientRect(); return r.left < -0.5 || r.right > innerWidth + 0.5; })
        .map((n) => n.outerHTML.slice(0, 80))""")
    assert cut == []
    assert page.evaluate(SIDEWAYS)
    page.screenshot(path=str(artifacts / f"page-{ruleset}-phone.png"), full_page=True)
