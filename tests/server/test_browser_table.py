"""The table view as a group found it (#24), in a real headless Chromium
against a real `rk server`: figures as the command line gives them, undo
refused with its real rule and forced by the host, a seat waiting for
another's turn, and every ruleset's board whole on a phone (390×844), with
screenshots of each ruleset at desktop and phone size.

The fixtures are tests/server/conftest.py's (Debian's Chromium at
/usr/bin/chromium; skipped without it). Every game is set up and played
through the API with the host's token, as `rk new` and the command line
would, then looked at in the page.
"""

from __future__ import annotations

import re
import uuid

import pytest
from browsing import CHROMIUM, PHONE, Running, shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

CLASH = {
    "new": "clash",
    "setup": "waystone-crossing",
    "seed": 7,
    "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}],
}
LABYRINTH = {
    "new": "labyrinth",
    "encounter": "mossy-hollow",
    "seed": 3,
    "party": [{"class": "vanguard", "level": 2}, {"class": "mender"}],
}
CONQUEST = {"new": "conquest", "scenario": "border-clash", "armies": ["saltmarch", "cinderpact"], "seed": 7}
# Thornback Rat B ends at -5 HP by the last of these (the store keeps it; players read 0).
LABYRINTH_TO_A_RAT_BELOW_0 = (
    "pass p1",
    "full-defense p2",
    "attack p1 e1",
    "react p2 warding-veil",
    "react p1 riposte",
    "react p1 riposte",
    "react p1 riposte",
    "move p1 front 2",
    "move p2 front 1",
    "attack p1 e1",
    "attack p2 e1",
    "react p1 riposte",
    "react p1 riposte",
    "move p1 front 1",
    "move p2 front 2",
    "attack p1 e2",
    "attack p2 e2",
    "react p1 riposte",
)

# Words a box breaks in two (a word whose letters lie on two lines), read by the page itself.
BROKEN_WORDS = """(selector) => {
    const broken = [];
    for (const box of document.querySelectorAll(selector)) {
        const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (tops.size > 1) broken.push(m[0]);
            }
        }
    }
    return broken;
}"""

SIDEWAYS = """() => ({scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth})"""


def new_game(server: Running, body: dict) -> tuple[str, dict[str, str]]:
    """A game of its own (named uniquely) and its links: each seat's by name, "spectators", "host"."""
    made = server.request("POST", "/api/games", {**body, "name": f"t-{uuid.uuid4().hex[:8]}"})
    seats = server.request("GET", f"/api/games/{made['game']}/seats")
    links = {s["name"]: s["link"] for s in seats["seats"]}
    links["spectators"] = seats["spectator"]
    links["host"] = f"{server.base}/table/{made['game']}#token={server.host}"
    return made["game"], links


def play(server: Running, game: str, *lines: str) -> None:
    """Give ``lines`` one after the other, as the host (the command line's words)."""
    for line in lines:
        version = server.request("GET", f"/api/games/{game}")["version"]
        server.request("POST", f"/api/games/{game}/commands", {"line": line, "version": version})


def chips(page, card: str) -> list[str]:
    return page.get_by_test_id(card).locator(".chip").all_inner_texts()


# -- 1. figures as the command line gives them ------------------------------------------------


@pytest.mark.rule("TRACK-1")
def test_the_track_shows_each_face_as_rolled_and_fatigue_without_a_number(server, open_page):
    game, links = new_game(server, CLASH)
    play(
        server,
        game,
        "move a2",
        "end-turn",
        "move c2",
        "engage --form heavy --target e1 --dice 1",
        "resolve",
        "engage --form light --target e1 --dice 2",
        "resolve",
    )  # the second engage: a light fatigue (ENGAGE-4)
    tarn = open_page(links["Tarn"])
    shown(tarn)
    log = tarn.get_by_test_id("log").inner_text()
    first = re.search(r"Tarn rolls: #1 Combat (\d)", log).group(1)  # as rolled, 1 to 6 (`rk track`'s face)
    second = re.search(r"Tarn rolls: #2 Shield Bash (\d)", log).group(1)
    track = tarn.get_by_test_id("card-tarn").locator('[data-row="track"] .chip').all_inner_texts()
    assert track == [f"#1 Combat face {first}", "light fatigue", f"#2 Shield Bash face {second}"], track


def test_an_incapacitated_combatant_shows_0_hp_as_rk_status_does_not_below(server, open_page):
    game, links = new_game(server, LABYRINTH)
    play(server, game, *LABYRINTH_TO_A_RAT_BELOW_0)
    page = open_page(links["spectators"])
    shown(page)
    rat = page.get_by_test_id("card-e2")
    expect(rat).to_contain_text("incapacitated")
    expect(rat.locator(".hp-text")).to_have_text("0/9 HP")
    expect(page.get_by_test_id("board")).not_to_contain_text("-5")


# -- 2. undo: its real rule, and the host's forced undo -----------------------------------------


@pytest.mark.rule("UNDO-2")
def test_a_seats_undo_after_its_own_roll_is_refused_with_undo_2_and_anothers_with_seat_2(server, open_page):
    game, links = new_game(server, CLASH)
    play(server, game, "move b2", "engage --form light --target e1 --dice 1,2")  # Ria's roll
    ria = open_page(links["Ria"])
    tarn = open_page(links["Tarn"])
    shown(ria)
    expect(ria.get_by_test_id("undo")).to_be_disabled()
    expect(ria.get_by_test_id("undo-note")).to_contain_text("UNDO-2")
    expect(ria.get_by_test_id("undo-note")).not_to_contain_text("SEAT-2")
    expect(ria.get_by_test_id("undo-note")).to_contain_text("the host")  # who may force it
    expect(tarn.get_by_test_id("undo-note")).to_contain_text("SEAT-2")

    answer = ria.evaluate(
        """async (game) => {
        const token = new URLSearchParams(location.hash.slice(1)).get("token");
        const r = await fetch(`/api/games/${game}/undo`, {method: "POST", body: "{}",
          headers: {"authorization": "Bearer " + token, "content-type": "application/json"}});
        return {status: r.status, body: await r.json()};
    }""",
        game,
    )
    assert answer["status"] == 422 and answer["body"]["rule"] == "UNDO-2", answer


@pytest.mark.rule("UNDO-2")
def test_the_host_forces_an_undo_of_a_roll_once_confirmed(server, open_page):
    game, links = new_game(server, CLASH)
    play(server, game, "move b2", "engage --form light --target e1 --dice 1,2")
    host = open_page(links["host"])
    ria = open_page(links["Ria"])
    shown(host)
    before = server.request("GET", f"/api/games/{game}")["version"]
    expect(host.get_by_test_id("undo")).to_be_hidden()  # a plain undo would be refused (UNDO-2)
    force = host.get_by_test_id("force-undo")
    expect(force).to_be_enabled()

    force.click()
    confirm = host.get_by_test_id("ask")  # the page's own question (UNDO-2), not the browser's
    expect(confirm).to_contain_text("rk engage --form light --target e1 --dice 1,2")
    expect(confirm).to_contain_text("UNDO-2")
    confirm.get_by_role("button", name="Keep it").click()
    expect(confirm).to_be_hidden()
    assert server.request("GET", f"/api/games/{game}")["version"] == before  # nothing written

    force.click()
    confirm.get_by_role("button", name="Force undo").click()
    expect(ria.get_by_test_id("log")).to_contain_text("UNDO-2")
    expect(ria.locator('[data-testid="log"] li.undone')).not_to_have_count(0)
    expect(host.get_by_test_id("force-undo")).to_be_hidden()  # the move before it needs no force
    expect(host.get_by_test_id("undo")).to_be_enabled()


# -- 3. waiting for another seat ----------------------------------------------------------------


@pytest.mark.rule("SEAT-1")
def test_a_seat_not_on_turn_sees_who_acts_and_what_it_may_do_meanwhile(server, open_page):
    game, links = new_game(server, CLASH)
    tarn = open_page(links["Tarn"])
    watcher = open_page(links["spectators"])
    for page in (tarn, watcher):
        waiting = page.get_by_test_id("waiting-for")
        expect(waiting).to_be_visible()
        expect(waiting).to_contain_text("Ria is acting")
        expect(waiting).to_contain_text("move")  # what Ria may do
        expect(waiting).to_contain_text("end-turn")
        expect(page.locator('[data-testid="legal"] button:visible')).to_have_count(0)  # no wall of greyed buttons
    expect(tarn.get_by_test_id("meanwhile")).to_contain_text("Meanwhile")
    expect(watcher.get_by_test_id("meanwhile")).to_contain_text("watching")

    play(server, game, "move a2", "end-turn")
    expect(tarn.get_by_test_id("waiting-for")).to_be_hidden()
    expect(tarn.locator('[data-testid="legal"] button[data-label="rk end-turn"]')).to_be_enabled()
    expect(watcher.get_by_test_id("waiting-for")).to_contain_text("Tarn is acting")


# -- 5. every board whole on a phone ---------------------------------------------------------------


def test_conquests_regiments_fit_a_phone_without_a_word_broken(server, open_page):
    _, links = new_game(server, CONQUEST)
    phone = open_page(links["host"], viewport=PHONE, is_mobile=True, has_touch=True)
    shown(phone)
    expect(phone.locator('[data-testid^="regiment-"]').first).to_be_visible()
    assert phone.evaluate(BROKEN_WORDS, '[data-testid="board"]') == []
    sizes = phone.evaluate(SIDEWAYS)
    assert sizes["scroll"] <= sizes["width"] == PHONE["width"], sizes
    tables = phone.evaluate("""() => [...document.querySelectorAll('[data-testid="board"] table')].map((t) =>
        [t.scrollWidth, t.parentElement.clientWidth])""")
    assert tables and all(w <= room for w, room in tables), f"a table scrolls sideways: {tables}"


@pytest.mark.rule("SCALE-1")
def test_the_labyrinths_rows_hold_their_cards_on_a_phone(server, open_page):
    game, links = new_game(server, LABYRINTH)
    play(
        server,
        game,
        "pass p1",
        "full-defense p2",
        "attack p1 e1",
        "react p2 warding-veil",
        "react p1 riposte",
        "react p1 riposte",
        "react p1 riposte",
        "move p1 front 2",
        "move p2 front 1",
    )  # both PCs in front
    phone = open_page(links["host"], viewport=PHONE, is_mobile=True, has_touch=True)
    shown(phone)
    expect(phone.get_by_test_id("party-front").locator(".card")).to_have_count(2)
    outside = phone.evaluate("""() => {
        const out = [];
        for (const rank of document.querySelectorAll('.rank')) {
            const name = rank.querySelector('.rank-name').getBoundingClientRect();
            const box = rank.getBoundingClientRect();
            for (const card of rank.querySelectorAll('.card')) {
                const r = card.getBoundingClientRect();
                if (r.left < name.right || r.right > box.right + 0.5 || r.top < box.top || r.bottom > box.bottom + 0.5)
                    out.push(card.dataset.testid + ' in ' + rank.dataset.testid);
            }
        }
        return out;
    }""")
    assert outside == [], f"cards outside their row: {outside}"
    assert phone.evaluate(BROKEN_WORDS, '[data-testid="board"]') == []
    sizes = phone.evaluate(SIDEWAYS)
    assert sizes["scroll"] <= sizes["width"] == PHONE["width"], sizes


# -- 6. Conquest drawn as a battlefield ------------------------------------------------------------


CONQUEST_TO_A_MARCH = (
    "choose-arrival a1",
    "choose-arrival b1",
    "order-stack --cards a1,ac1,a2,a3",
    "order-stack --cards b1,bc2,b2",
    "roll-off",
    "choose-first-player --first",
    "draw-card a1",
    "march a1 --inches 6",
)  # the README's round: a1 marches 6" onto the battlefield


@pytest.mark.rule("ARRIVE-2")
def test_conquest_is_drawn_as_a_battlefield_of_lanes_with_its_reinforcement_lines(server, open_page):
    game, links = new_game(server, CONQUEST)
    play(server, game, *CONQUEST_TO_A_MARCH)
    page = open_page(links["cinderpact"])
    shown(page)
    field = page.get_by_test_id("battlefield")
    expect(field).to_be_visible()
    board = server.request("GET", f"/api/games/{game}/table")["board"]
    a1 = field.get_by_test_id("field-a1")
    expect(a1).to_have_attribute("data-where", "field")
    expect(a1).to_have_attribute("data-front", "6")
    expect(field.get_by_test_id("field-a2")).to_have_attribute("data-where", "arriving")
    expect(field.get_by_test_id("field-a4")).to_have_attribute("data-where", "waiting")
    expect(field.get_by_test_id("field-b1")).to_have_attribute("data-where", "arriving")
    for side in board["sides"]:  # each side's Reinforcement Line where the rules put it (RLINE-3)
        expect(field.get_by_test_id(f"rline-{side['key']}")).to_have_attribute("data-inches", str(side["line"]))
    # Drawn to scale along the axis: a1's front rank 6" from a's edge, past a's Reinforcement Line.
    xs = page.evaluate("""() => {
        const x = (sel) => document.querySelector(sel).getBBox().x;
        return {front: x('[data-testid="field-a1"] .front-rank'), line: x('[data-testid="rline-a"] line'),
                zero: x('.field-ground'), width: document.querySelector('.field-ground').getBBox().width};
    }""")
    depth = board["field"]["depth"]
    assert abs(xs["front"] - (xs["zero"] + 6 * xs["width"] / depth)) < 1.5, xs
    assert xs["line"] < xs["front"], xs
    expect(a1).to_contain_text("a1 ×4")  # its stands


# -- screenshots of every ruleset ---------------------------------------------------------------------


SHOWN = {  # what each screenshot shows: a setup and the commands played on it
    "clash": ({**CLASH}, ("move a2", "end-turn", "move c2", "engage --form heavy --target e1 --dice 1", "resolve")),
    "delve": (
        {
            "new": "delve",
            "delve": "whispering-barrow",
            "seed": 7,
            "xp": 2,
            "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}],
        },
        (),
    ),
    "dungeon": (
        {"new": "dungeon", "setup": "sentinel-vault", "seed": 3, "xp": 2, "party": [{"name": "Ria", "race": "nord"}]},
        (),
    ),
    "conquest": (CONQUEST, CONQUEST_TO_A_MARCH),
    "labyrinth": (LABYRINTH, LABYRINTH_TO_A_RAT_BELOW_0[:9]),
}


@pytest.mark.parametrize("ruleset", list(SHOWN))
def test_screenshots_of_every_ruleset_at_desktop_and_phone_size(server, open_page, artifacts, ruleset):
    body, lines = SHOWN[ruleset]
    game, links = new_game(server, body)
    play(server, game, *lines)
    seat = next(name for name in links if name not in ("spectators", "host"))
    desk = open_page(links[seat])
    shown(desk)
    desk.screenshot(path=str(artifacts / f"table-{ruleset}.png"), full_page=True)
    phone = open_page(links[seat], viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    shown(phone)
    sizes = phone.evaluate(SIDEWAYS)
    assert sizes["scroll"] <= sizes["width"] == PHONE["width"], f"{ruleset} scrolls sideways: {sizes}"
    phone.screenshot(path=str(artifacts / f"table-{ruleset}-phone.png"), full_page=True)
