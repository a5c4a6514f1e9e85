"""A ruleset is one package: a small fourth ruleset, the duel
(``tests/plant/duel``: a few commands, a hex board, a setup parameter, one
hidden card), is planted as ``domain/duel/`` in a temporary copy of the
project and played through `rk`, through the API and through the page in
Chromium, with undo, export and verify; the project's own contract suite
holds it to the kernel's contract. After each channel no file of the copy
outside ``domain/duel/`` was edited: the adapters are built from what the
ruleset declares.

One copy per module (per worker under xdist), one game per channel.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from planting import REPO, Planted, Server, plant, serving

DUEL = Path(__file__).parent / "duel"
CHROMIUM = Path("/usr/bin/chromium")
WAIT_MS = 10_000


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Planted:
    """The copy of the project with the duel in it."""
    assert not (REPO / "domain" / "duel").exists(), "the duel must live in tests/plant only"
    found = plant(DUEL, tmp_path_factory.mktemp("planted"))
    loaded = found.python("-c", "import cli, domain, server; print(domain.__file__, cli.__file__, server.__file__)")
    assert loaded.returncode == 0, loaded.stderr
    assert all(Path(p).is_relative_to(found.root) for p in loaded.stdout.split()), loaded.stdout
    return found


def untouched(planted: Planted) -> None:
    """Nothing outside ``domain/duel/`` was added, removed or changed."""
    assert planted.edited() == {}


# -- rk ------------------------------------------------------------------------------------


def ok(result: Any) -> str:
    assert result.returncode == 0, f"{result.args[3:]}: {result.stderr}{result.stdout}"
    return result.stdout


def legal_lines(planted: Planted, store: Path) -> list[str]:
    return [line for line in ok(planted.rk("legal", store=store)).splitlines() if line.startswith("rk ")]


def test_the_planted_duel_is_played_through_rk_with_undo_export_and_verify(planted, tmp_path):
    store, other = tmp_path / "duel.sqlite", tmp_path / "other.sqlite"
    helped = ok(planted.rk("--help"))
    for verb in ("step", "pledge", "strike", "pass"):
        assert re.search(rf"│ {verb}\s", helped), verb
    assert re.search(r"│ duel\s+Set up a duel", ok(planted.rk("new", "--help")))

    started = ok(planted.rk("new", "duel", "--width", "5", "--seed", "3", store=store))
    assert "DUEL-1: duel duel-1 on a board 5 hexes wide" in started
    assert re.search(r"2\s+A\s+·\s+·\s+·\s+B", started)  # the map: a2 and e2
    assert "round 1 of 6, Ash (a) to act" in ok(planted.rk("status", store=store))
    assert legal_lines(planted, store) == [
        "rk step a1",
        "rk step b1",
        "rk step b2",
        "rk step a3",
        "rk step b3",
        "rk pledge sun",
        "rk pledge moon",
        "rk pledge star",
        "rk pass",
    ]
    far = planted.rk("strike", store=store)
    assert far.returncode == 2 and "DUEL-5" in far.stderr  # refused by the rules, naming theirs

    for line in ("rk step b2", "rk step d2", "rk step c2"):  # Ash, Birch, Ash: side by side
        assert line in legal_lines(planted, store)
        assert "DUEL-3" in ok(planted.rk(*line.split()[1:], store=store))
    assert "rk strike" in legal_lines(planted, store)
    assert "Birch pledges a card face down" in ok(planted.rk("pledge", "sun", store=store))  # Birch's hidden card
    assert re.search(r"b\s+Birch\s+d2\s+sun", ok(planted.rk("status", store=store)))  # to Birch, on turn

    struck = ok(planted.rk("strike", store=store))
    roll = re.search(r"DUEL-5: Birch strikes: rolls \d \+ sun 2 = \d, a (hit|miss)", struck)
    assert roll, struck
    refused = planted.rk("undo", store=store)
    assert refused.returncode == 2 and "UNDO-2" in refused.stderr
    assert "it had revealed dice or a draw" in ok(planted.rk("undo", "--force", store=store))
    assert roll.group(0) in ok(planted.rk("redo", store=store))  # the same roll again
    log = ok(planted.rk("log", store=store))
    for said in ("rk new duel --width 5 --seed 3", "rk pledge sun", "DUEL-4", "UNDO-2: rk strike", "(redone)"):
        assert said in log
    spec = (DUEL / "spec" / "duel.md").read_text(encoding="utf-8")
    assert set(re.findall(r"DUEL-\d+", log)) <= set(re.findall(r"\*\*\[(DUEL-\d+)\]\*\*", spec))  # cites its own rules
    assert ok(planted.rk("rule", "DUEL-5", store=store)).startswith("DUEL-5 (duel): A player whose pawn")

    assert "Exported duel-1" in ok(planted.rk("export", "-o", "duel.jsonl", store=store, cwd=tmp_path))
    assert ok(planted.rk("verify", "duel.jsonl", cwd=tmp_path)).startswith("ok:")
    assert "Imported battle duel-1" in ok(planted.rk("import", "duel.jsonl", store=other, cwd=tmp_path))
    assert roll.group(0) in ok(planted.rk("log", store=other))
    # `pass` is the labyrinth's verb too (`rk pass PC`): in a duel it is the duel's
    assert "DUEL-2: Birch to act, round 3" in ok(planted.rk("pass", store=other))
    untouched(planted)


def test_the_projects_contract_suite_holds_the_planted_duel(planted, tmp_path):
    """Random legal play from the setup's examples, with undos and redos,
    checked through the kernel (``tests/contract``, unchanged)."""
    suite = REPO / "tests" / "contract" / "test_every_ruleset.py"
    ran = planted.python(
        "-m",
        "pytest",
        str(suite),
        "-k",
        "duel",
        "-p",
        "no:cacheprovider",
        "--basetemp",
        str(tmp_path / "inner"),
        cwd=tmp_path,
    )
    assert ran.returncode == 0, ran.stdout[-3000:]
    passed = re.search(r"\b(\d+) passed\b", ran.stdout)
    assert passed and int(passed.group(1)) >= 7, ran.stdout[-500:]  # a verb per command; 2 examples x 3 seeds
    untouched(planted)


def test_an_edit_outside_the_planted_package_would_be_seen(tmp_path):
    """The check every channel ends with sees a file changed, added or
    removed anywhere in the copy but the planted package."""
    copy = plant(DUEL, tmp_path)
    assert copy.edited() == {}
    with (copy.root / "cli" / "main.py").open("a") as f:
        f.write("# edited\n")
    (copy.root / "server" / "static" / "extra.js").write_text("")
    (copy.root / "projections" / "audit.py").unlink()
    (copy.root / "domain" / "duel" / "rules.py").write_text("")  # its own: free to change
    assert copy.edited() == {
        "cli/main.py": "changed",
        "server/static/extra.js": "added",
        "projections/audit.py": "removed",
    }


# -- the API -------------------------------------------------------------------------------


def call(server: Server, token: str, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """A request with ``token`` (a body of bytes goes as it is, anything
    else as JSON): the status and the answer (JSON decoded, else the bytes)."""
    data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        server.base + path,
        data=data,
        method=method,
        headers={"authorization": f"Bearer {token}", "content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=15) as answer:
            status, raw = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw


@pytest.fixture(scope="module")
def server(planted, tmp_path_factory) -> Iterator[Server]:
    """The copy's `rk server` on a fresh store."""
    with serving(planted, tmp_path_factory.mktemp("served") / "games.sqlite") as running:
        yield running


def test_the_planted_duel_is_played_through_the_api_and_a_pledge_is_hidden_from_the_other_seat(planted, server):
    host = server.host
    status, choices = call(server, host, "GET", "/api/choices")
    duel = next(s for s in choices["setups"] if s["name"] == "duel")
    assert (duel["ruleset"], duel["title"]) == ("duel", "Duel")
    assert [p["name"] for p in duel["params"]] == ["width", "seed", "name"]
    assert (duel["schema"]["properties"]["width"]["minimum"], duel["schema"]["properties"]["width"]["maximum"]) == (
        4,
        9,
    )
    assert call(server, host, "POST", "/api/games", {"new": "duel", "width": 12})[0] == 400
    status, made = call(server, host, "POST", "/api/games", {"new": "duel", "width": 4, "seed": 11, "name": "api-duel"})
    assert status == 201, made
    game = f"/api/games/{made['game']}"
    _, seats = call(server, host, "GET", f"{game}/seats")
    token = {s["key"]: re.search(r"token=(\S+)", s["link"]).group(1) for s in seats["seats"]}
    assert [s["name"] for s in seats["seats"]] == ["Ash", "Birch"]

    def play(who: str, command: dict[str, Any]) -> tuple[int, Any]:
        version = call(server, host, "GET", game)[1]["version"]
        return call(server, token[who], "POST", f"{game}/commands", {"command": command, "version": version})

    def seen(who: str, what: str) -> Any:
        return call(server, token[who], "GET", f"{game}/{what}")[1]

    status, refused = play("b", {"type": "Pass"})
    assert (status, refused["rule"]) == (403, "SEAT-1")  # not Birch's turn
    assert [e["label"] for e in seen("a", "legal") if e["label"].startswith("rk pledge")] == [
        "rk pledge sun",
        "rk pledge moon",
        "rk pledge star",
    ]
    assert not [e for e in seen("b", "legal") if e["label"].startswith("rk pledge")]  # SEAT-5: Ash's secret choice

    assert play("a", {"type": "Pledge", "card": "moon"})[0] == 200
    assert seen("a", "state")["state"]["pledges"] == ["moon", ""]
    assert seen("b", "state")["state"]["pledges"] == ["hidden", ""]  # SEAT-5
    birch_log = [n["text"] for n in seen("b", "log")]
    assert "rk pledge (hidden from you)" in birch_log and "DUEL-4: Ash pledges a card face down" in birch_log
    table = seen("b", "table")
    assert table["board"]["kind"] == "hexes" and table["board"]["heroes"][0]["form"] == "face down"
    assert "moon" not in json.dumps([seen("b", "state"), seen("b", "log"), table])
    status, refused = call(server, token["b"], "POST", f"{game}/undo", {})
    assert (status, refused["rule"]) == (403, "SEAT-2") and "moon" not in refused["reason"]  # nor its undo's refusal
    status, refused = call(server, token["b"], "GET", f"{game}/export")
    assert (status, refused["rule"]) == (403, "SEAT-5")  # the whole log is the host's while it hides a card

    assert play("a", {"type": "Step", "to": [1, 1]})[0] == 200  # a2 -> b2
    assert play("b", {"type": "Step", "to": [2, 1]})[0] == 200  # d2 -> c2
    status, struck = play("a", {"type": "Strike"})
    assert status == 200 and re.match(r"DUEL-5: Ash strikes: rolls \d \+ moon 1", struck["narrated"][1]), struck
    version = struck["version"]
    status, refused = call(server, token["a"], "POST", f"{game}/undo", {"version": version})
    assert (status, refused["rule"]) == (422, "UNDO-2")
    status, refused = call(server, token["a"], "POST", f"{game}/undo", {"force": True, "version": version})
    assert (status, refused["rule"]) == (403, "SEAT-2")  # a forced undo is the host's
    assert call(server, host, "POST", f"{game}/undo", {"force": True, "version": version})[0] == 200
    assert seen("b", "state")["state"]["pledges"] == ["hidden", ""]  # hidden again, as before the strike
    status, redone = call(server, host, "POST", f"{game}/redo", {})
    assert status == 200 and redone["narrated"][1:] == struck["narrated"][1:], redone  # the same roll

    status, log = call(server, host, "GET", f"{game}/export")
    assert status == 200 and isinstance(log, bytes) and log.count(b"\n") > 10
    status, checked = call(server, host, "POST", "/api/verify", log)
    assert status == 200 and checked["ok"], checked
    assert call(server, host, "GET", f"{game}/verify")[1]["ok"]
    untouched(planted)


# -- the page ------------------------------------------------------------------------------


@pytest.mark.browser
@pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"no Chromium at {CHROMIUM} (CI installs Debian's `chromium`; "
    "Playwright's own browser download is not used)",
)
def test_the_host_sets_a_duel_up_in_the_lobby_and_a_seat_plays_and_undoes_on_its_board(planted, server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    expect = sync_api.expect
    expect.set_options(timeout=WAIT_MS)
    playwright = sync_api.sync_playwright().start()
    try:
        try:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        except Exception as e:  # noqa: BLE001 - any launch failure means no browser to test with
            pytest.skip(f"Chromium at {CHROMIUM} does not start under Playwright: {e}")
        try:
            _play_on_the_page(server, browser, expect)
        finally:
            browser.close()
    finally:
        playwright.stop()
    untouched(planted)


def _play_on_the_page(server: Server, browser: Any, expect: Any) -> None:
    def page(link: str) -> Any:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.set_default_timeout(WAIT_MS)
        opened = context.new_page()
        opened.goto(link)
        return opened

    lobby = page(f"{server.base}/#token={server.host}")
    form = lobby.get_by_test_id("new-game")
    expect(form.get_by_role("button", name="Set it up")).to_be_enabled()
    form.get_by_label("Game").select_option("duel")
    expect(lobby.locator("#setup-summary")).to_contain_text("Set up a duel")
    width = form.get_by_label("width")
    expect(width).to_have_value("5")  # the request's default, from its schema
    width.fill("4")
    form.get_by_label("seed").fill("2")
    form.get_by_label("name (optional)").fill("page-duel")
    form.get_by_role("button", name="Set it up").click()
    expect(lobby.get_by_test_id("message")).to_contain_text("Set up page-duel")
    expect(lobby.get_by_test_id("game-page-duel")).to_contain_text("Duel · 4 wide")
    links = lobby.get_by_test_id("links-page-duel")
    ash = page(links.get_by_role("textbox", name="link for Ash", exact=True).input_value())
    birch = page(links.get_by_role("textbox", name="link for Birch", exact=True).input_value())

    expect(ash.get_by_test_id("me")).to_have_text("you are: Ash")
    expect(ash.get_by_test_id("turn")).to_have_text("Ash")
    expect(ash.locator('[data-testid="board"] svg [data-testid^="hex-"]')).to_have_count(12)  # 4 x 3
    expect(ash.get_by_test_id("hero-a")).to_have_attribute("data-hex", "a2")
    expect(ash.get_by_test_id("hero-b")).to_have_attribute("data-hex", "d2")
    button = ash.locator('[data-testid="legal"] button[data-label="rk step b2"]')
    expect(birch.locator('[data-testid="legal"] button[data-label="rk step b2"]')).to_be_disabled()  # Ash's
    expect(birch.locator('[data-testid="legal"] button[data-label^="rk pledge"]')).to_have_count(0)  # SEAT-5

    button.click()
    expect(ash.get_by_test_id("hero-a")).to_have_attribute("data-hex", "b2")
    expect(birch.get_by_test_id("hero-a")).to_have_attribute("data-hex", "b2")  # told live
    expect(ash.get_by_test_id("log")).to_contain_text("DUEL-3: Ash steps to b2")
    expect(ash.get_by_test_id("turn")).to_have_text("Birch")
    artifacts = Path(os.environ.get("RULEKEEPER_ARTIFACTS") or REPO / "test-artifacts")
    artifacts.mkdir(parents=True, exist_ok=True)
    ash.screenshot(path=str(artifacts / "planted-duel-table.png"), full_page=True)
    ash.get_by_test_id("undo").click()
    expect(ash.get_by_test_id("hero-a")).to_have_attribute("data-hex", "a2")
    expect(ash.get_by_test_id("log")).to_contain_text("UNDO-1: rk step b2 is reverted")
    expect(ash.get_by_test_id("turn")).to_have_text("Ash")
