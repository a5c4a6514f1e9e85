"""The table view in a real headless Chromium against a real `rk server`.

The server runs as `rk server --port 0` in a subprocess on a throwaway SQLite
store, the links read from what it prints; Chromium is Debian's
(/usr/bin/chromium), driven by Playwright's sync API. Pages are never
reloaded: what one seat does reaches the others by the live feed. Every wait
is Playwright's auto-waiting ``expect`` with a deadline.

Screenshots go to ``$RULEKEEPER_ARTIFACTS`` (default: ``test-artifacts/``
under the repository root).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM} (CI installs Debian's `chromium`; "
                       "Playwright's own browser download is not used)"),
]

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
expect = sync_api.expect

REPO = Path(__file__).resolve().parents[2]
WAIT_MS = 10_000  # the longest any expectation waits
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SETUP = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc", "--seed", "7"]

expect.set_options(timeout=WAIT_MS)


def _rk() -> str:
    """The `rk` of the interpreter running the tests (the venv's)."""
    beside = Path(sys.executable).parent / "rk"
    return str(beside) if beside.exists() else (shutil.which("rk") or "rk")


@dataclass
class Running:
    """A running `rk server`: its address, the host's token and the links it printed."""

    base: str
    host: str
    game: str
    links: dict[str, str]  # seat name (and "spectators") -> link
    out: list[str] = field(default_factory=list)

    def request(self, method: str, path: str, body: object = None) -> object:
        """An API request with the host's token; the decoded answer."""
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"authorization": f"Bearer {self.host}",
                                              "content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=15) as answer:
            return json.loads(answer.read())


def _read_links(lines: list[str]) -> Running:
    base = re.search(r"rulekeeper server on (\S+)", "\n".join(lines)).group(1)
    host = re.search(r"host .*#token=(\S+)", "\n".join(lines)).group(1)
    game = next(line[:-1] for line in lines if re.fullmatch(r"[\w-]+:", line))
    links = {}
    for line in lines:
        found = re.fullmatch(r"\s+(\S+)\s+(http\S+/table/\S+)", line)
        if found:
            links[found.group(1)] = found.group(2)
    return Running(base=base, host=host, game=game, links=links, out=lines)


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[Running]:
    """`rk server` on a fresh store holding one clash (set up with `rk new`)."""
    home = tmp_path_factory.mktemp("browser-home")
    store = str(home / "t.sqlite")
    env = {k: v for k, v in os.environ.items() if k not in ("RULEKEEPER_STORE", "RULEKEEPER_SERVER_SECRET")}
    env["RULEKEEPER_HOME"] = str(home)
    rk = _rk()
    subprocess.run([rk, "--store", store, *SETUP], env=env, check=True, timeout=60,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    errors = (home / "server.err").open("wb")
    proc = subprocess.Popen([rk, "--store", store, "server", "--port", "0"], env=env, stdout=subprocess.PIPE,
                            stderr=errors, text=True)
    lines: list[str] = []
    ready = threading.Event()

    def drain() -> None:  # keeps the pipe empty for the server's whole life
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.startswith("Stop it with"):
                ready.set()
        ready.set()  # the server ended before it was ready: the test says so below

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        ready.wait(timeout=60)
        if proc.poll() is not None or not any(line.startswith("Stop it with") for line in lines):
            errors.flush()
            pytest.fail(f"rk server did not start: {lines} {(home / 'server.err').read_text()}")
        yield _read_links(lines)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        reader.join(timeout=5)
        errors.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless; skips when it does not start."""
    playwright = sync_api.sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
    except Exception as e:  # noqa: BLE001 - any launch failure means no browser to test with
        playwright.stop()
        pytest.skip(f"Chromium at {CHROMIUM} does not start under Playwright: {e}")
    try:
        yield chromium
    finally:
        chromium.close()
        playwright.stop()


@pytest.fixture
def open_page(browser) -> Iterator[object]:
    """Opens a link in a context of its own (its own cookies, its own live
    feed; ``live=False``: none), closed at the end of the test."""
    contexts = []

    def opener(link: str, viewport: dict[str, int] = DESKTOP, live: bool = True, **options: object):
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        if not live:
            context.route(re.compile(r"/live$"), lambda route: route.abort())
        page = context.new_page()
        page.goto(link)
        return page

    yield opener
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def artifacts() -> Path:
    """Where screenshots go."""
    path = Path(os.environ.get("RULEKEEPER_ARTIFACTS") or REPO / "test-artifacts")
    path.mkdir(parents=True, exist_ok=True)
    return path


@dataclass
class Fresh:
    """A game of its own for one test."""

    id: str
    links: dict[str, str]


@pytest.fixture
def fresh(server: Running) -> Fresh:
    """A new clash set up through the API with the host's token (the same
    as `rk new`'s), so a test does not see another's moves."""
    name = f"t-{uuid.uuid4().hex[:8]}"
    made = server.request("POST", "/api/games", {
        "new": "clash", "setup": "waystone-crossing", "seed": 7, "name": name,
        "party": [{"name": "Ria", "race": "nord"}, {"name": "Tarn", "race": "orc"}]})
    seats = server.request("GET", f"/api/games/{made['game']}/seats")
    links = {s["name"]: s["link"] for s in seats["seats"]}
    links["spectators"] = seats["spectator"]
    return Fresh(id=made["game"], links=links)


# -- helpers -------------------------------------------------------------------------------


def command(page, label: str):
    """The button of the legal command ``label``."""
    return page.locator(f'[data-testid="legal"] button[data-label="{label}"]')


def give_engage(page, form: str, target: str, dice: list[str]) -> None:
    """An engage built on the page from its open command: the form and the
    target chosen from their lists, the dice toggled one by one (ENGAGE-7a:
    no more than the stats allow), then Give."""
    block = page.locator('[data-testid="legal"] .open-cmd[data-verb="engage"]').filter(
        has=page.locator(f'option[value="{form}"], .open-label:text-matches("--form {form}( |$)")')).first
    expect(block).to_be_visible()
    if block.locator('select[data-param="form"]').count():
        block.locator('select[data-param="form"]').select_option(form)
    block.locator('select[data-param="target"]').select_option(target)
    for uid in dice:
        die = block.locator(f'button.pick[data-param="dice"][data-value="{uid}"]')
        die.click()
        expect(die).to_have_attribute("aria-pressed", "true")
    block.locator("button.give").click()


def shown(page) -> None:
    """Wait until the page has drawn the table."""
    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"^\d+$"))


def post_from(page, path: str, body: object) -> dict:
    """POST ``body`` to ``path`` from inside the page, with the page's own token."""
    return page.evaluate(
        """async ([path, body]) => {
            const token = new URLSearchParams(location.hash.slice(1)).get("token");
            const r = await fetch(path, {method: "POST", body: JSON.stringify(body),
              headers: {"authorization": "Bearer " + token, "content-type": "application/json"}});
            return {status: r.status, body: await r.json()};
        }""",
        [path, body],
    )


def version_of(server: Running, game: str) -> int:
    return server.request("GET", f"/api/games/{game}")["version"]


# -- tests -----------------------------------------------------------------------------------


def test_two_seats_play_a_clash_and_each_sees_the_others_moves_live(server, open_page, artifacts):
    assert set(server.links) == {"Ria", "Tarn", "spectators"}, server.out
    ria = open_page(server.links["Ria"])
    tarn = open_page(server.links["Tarn"])
    expect(ria.get_by_test_id("me")).to_have_text("you are: Ria")
    expect(tarn.get_by_test_id("me")).to_have_text("you are: Tarn")
    for page in (ria, tarn):
        expect(page.get_by_test_id("turn")).to_have_text("Ria")
        expect(page.get_by_test_id("round")).to_have_text("1")
        expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")

    command(ria, "rk move a2").click()
    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    expect(tarn.get_by_test_id("log")).to_contain_text("Ria moves a1 → a2")

    command(ria, "rk end-turn").click()
    expect(tarn.get_by_test_id("turn")).to_have_text("Tarn")
    command(tarn, "rk move c2").click()
    expect(ria.get_by_test_id("hero-tarn")).to_have_attribute("data-hex", "c2")
    expect(ria.get_by_test_id("log")).to_contain_text("MOVE-1: Tarn moves b1 → c1 → c2")
    expect(command(ria, "rk end-turn")).to_be_disabled()

    give_engage(tarn, form="heavy", target="e1", dice=["1"])  # chosen on the page (ENGAGE-5 to ENGAGE-7)
    expect(ria.get_by_test_id("log")).to_contain_text("rk engage --form heavy --target e1 --dice 1")
    tarn.locator('[data-testid="legal"] .open-cmd[data-verb="resolve"] button.give').click()  # none skipped
    expect(ria.get_by_test_id("card-e1")).to_contain_text("1/2 HP")
    expect(ria.get_by_test_id("card-tarn")).to_contain_text("skill")  # the die on the cooldown track

    ria.screenshot(path=str(artifacts / "table-view.png"), full_page=True)


@pytest.mark.rule("SEAT-1")
def test_a_seat_cannot_command_another_seats_adventurer(server, fresh, open_page):
    tarn = open_page(fresh.links["Tarn"])
    shown(tarn)
    expect(command(tarn, "rk move a2")).to_be_disabled()
    expect(tarn.locator('[data-testid="legal"] button:enabled')).to_have_count(0)
    before = version_of(server, fresh.id)

    move = {"type": "Move", "to": [0, 1]}  # rk move a2: Ria's
    answer = post_from(tarn, f"/api/games/{fresh.id}/commands", {"command": move, "version": before})

    assert answer["status"] == 403, answer
    assert answer["body"]["rule"] == "SEAT-1", answer
    assert version_of(server, fresh.id) == before
    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")


@pytest.mark.rule("SEAT-3")
def test_a_spectator_watches_live_and_cannot_command(server, fresh, open_page):
    watcher = open_page(fresh.links["spectators"])
    ria = open_page(fresh.links["Ria"])
    expect(watcher.get_by_test_id("me")).to_have_text("you are: spectator")
    expect(watcher.get_by_test_id("hex-a1")).to_be_visible()
    expect(watcher.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")
    expect(command(watcher, "rk move a2")).to_be_disabled()
    expect(watcher.locator("button[data-label]:enabled")).to_have_count(0)
    expect(watcher.get_by_test_id("undo")).to_be_disabled()

    command(ria, "rk move a2").click()
    expect(watcher.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    expect(watcher.get_by_test_id("log")).to_contain_text("Ria moves a1 → a2")
    expect(watcher.get_by_test_id("undo")).to_be_disabled()

    before = version_of(server, fresh.id)
    answer = post_from(watcher, f"/api/games/{fresh.id}/commands",
                       {"command": {"type": "EndTurn"}, "version": before})
    assert answer["status"] == 403, answer
    assert answer["body"]["rule"] == "SEAT-3", answer
    assert version_of(server, fresh.id) == before


@pytest.mark.rule("SEAT-2")
def test_undo_on_the_movers_page_restores_the_board_on_the_other_seats_page(server, fresh, open_page):
    ria = open_page(fresh.links["Ria"])
    tarn = open_page(fresh.links["Tarn"])
    shown(tarn)
    ria.get_by_test_id("hex-a2").click()  # a hex a legal move goes to: the move
    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    expect(ria.get_by_test_id("undo")).to_be_enabled()
    expect(tarn.get_by_test_id("undo")).to_be_disabled()  # the move is Ria's to undo

    ria.get_by_test_id("undo").click()

    expect(tarn.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")
    expect(tarn.locator('[data-testid="log"] li.undone')).not_to_have_count(0)
    expect(ria.get_by_test_id("redo")).to_be_enabled()
    expect(ria.get_by_test_id("message")).to_be_hidden()


def test_a_refused_command_shows_its_reason_and_the_table_as_it_now_stands(server, fresh, open_page):
    ria = open_page(fresh.links["Ria"], live=False)  # deaf to the feed: its buttons go stale
    shown(ria)
    server.request("POST", f"/api/games/{fresh.id}/commands",
                   {"command": {"type": "Move", "to": [0, 1]}, "version": version_of(server, fresh.id)})
    expect(ria.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a1")

    command(ria, "rk move b2").click()

    message = ria.get_by_test_id("message")
    expect(message).to_be_visible()
    expect(message).to_contain_text("moved on")
    expect(ria.get_by_role("alert")).to_contain_text("moved on")
    expect(ria.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")


def test_the_hosts_lobby_lists_games_sets_one_up_and_hands_out_its_links(server, open_page):
    lobby = open_page(f"{server.base}/#token={server.host}")
    expect(lobby.get_by_test_id("me")).to_have_text("you are: host")
    expect(lobby.get_by_test_id(f"game-{server.game}")).to_be_visible()

    form = lobby.get_by_test_id("new-game")
    expect(form.get_by_role("button", name="Set it up")).to_be_enabled()
    form.get_by_label("Game").select_option("clash")
    form.get_by_label("party 1 name").fill("Ria")
    form.get_by_label("party 1 race").select_option("nord")
    lobby.get_by_test_id("add-party").click()
    form.get_by_label("party 2 name").fill("Tarn")
    form.get_by_label("party 2 race").select_option("orc")
    form.get_by_label("seed (optional)").fill("11")
    form.get_by_label("name (optional)").fill("lobby-made")
    form.get_by_role("button", name="Set it up").click()

    links = lobby.get_by_test_id("links-lobby-made")
    expect(links).to_be_visible()
    expect(links.get_by_role("textbox", name="link for Ria", exact=True)).to_have_value(
        re.compile(r"/table/lobby-made#token=\S+"))
    expect(links.get_by_role("textbox", name="link for spectators", exact=True)).to_have_value(
        re.compile(r"/table/lobby-made#token=\S+"))
    ria_link = links.get_by_role("textbox", name="link for Ria", exact=True).input_value()
    seat = open_page(ria_link)
    expect(seat.get_by_test_id("me")).to_have_text("you are: Ria")


def test_the_table_fits_a_phone_screen(server, fresh, open_page, artifacts):
    phone = open_page(fresh.links["Ria"], viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    board = phone.locator("svg.board")
    expect(board).to_be_visible()
    expect(command(phone, "rk move a2")).to_be_enabled()
    command(phone, "rk move a2").tap()
    expect(phone.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")

    # Measured in one call: a redraw between two calls would replace the elements.
    sizes = phone.evaluate("""() => {
        const board = document.querySelector("svg.board").getBoundingClientRect();
        const end = document.querySelector('[data-label="rk end-turn"]').getBoundingClientRect();
        const root = document.documentElement;
        return {board: [board.left, board.right], end: [end.left, end.right, end.height],
                scroll: root.scrollWidth, width: root.clientWidth};
    }""")
    assert sizes["scroll"] <= sizes["width"] == PHONE["width"], f"the page scrolls sideways: {sizes}"
    assert 0 <= sizes["board"][0] and sizes["board"][1] <= PHONE["width"], sizes
    assert 0 <= sizes["end"][0] and sizes["end"][1] <= PHONE["width"], sizes
    assert sizes["end"][2] >= 40, f"a command button is too small to tap: {sizes}"

    phone.screenshot(path=str(artifacts / "table-view-phone.png"), full_page=True)


def test_an_old_link_lands_on_the_hash_and_no_request_carries_the_token_in_its_address(server, fresh, open_page):
    """#21 point 5: an old `?token=` link is sent on to the page with the
    token after '#'; from there the page (its API calls and its live feed)
    sends the token in a header only, never in an address."""
    link = fresh.links["Ria"]
    token = link.split("#token=")[1]
    ria = open_page(link.replace("#token=", "?token="))
    seen: list[str] = []
    ria.on("request", lambda request: seen.append(request.url))
    shown(ria)
    assert ria.url.endswith(f"/table/{fresh.id}#token={token}"), ria.url
    command(ria, "rk move a2").click()  # told back by the live feed, read with the header
    expect(ria.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
    ria.reload()
    shown(ria)
    assert seen and any("/live" in url for url in seen), seen
    assert not [url for url in seen if token in url.split("#")[0]], seen
