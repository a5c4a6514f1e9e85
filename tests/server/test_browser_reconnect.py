"""An open page outlives a restart of `rk server` (#21 point 7), in a real
headless Chromium: while the server is down the page says it is
reconnecting; the server comes back on the same port, the page's live
feed reconnects by itself, and a move made after is drawn without a reload.

Chromium and Playwright are the fixtures of tests/server/conftest.py
(Debian's /usr/bin/chromium; skipped without it)."""

from __future__ import annotations

import json
import re
import subprocess
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from rk_server import environment, new_clash, rk_script, start
from browsing import CHROMIUM, shown

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

OFFLINE = re.compile(r"\boffline\b")
BACK_MS = 40_000  # the page tries again after at most ~10 s, and a start takes a few on a loaded machine
STATIC = Path(__file__).resolve().parents[2] / "server" / "static"
SETTLE = 0.5  # seconds (real) a try the page would wrongly make is given to show (never asserted as a duration)
WAIT = 30.0  # seconds (real) a try the page must make is given to show


def command_as(link: str, command: dict) -> dict:
    """``command`` given through the API with the token of ``link`` (a seat's)."""
    base, rest = link.split("/table/", 1)
    game, token = rest.split("#token=", 1)
    auth = {"authorization": f"Bearer {token}", "content-type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/api/games/{game}", headers=auth), timeout=30) as r:
        version = json.loads(r.read())["version"]
    body = json.dumps({"command": command, "version": version}).encode()
    req = urllib.request.Request(f"{base}/api/games/{game}/commands", data=body, method="POST", headers=auth)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def test_an_open_page_reconnects_by_itself_after_a_restart_and_draws_what_happened(tmp_path, open_page):
    home = tmp_path / "home"
    home.mkdir()
    store = new_clash(home)
    first = start(home, store, "--port", "0", name="first")
    try:
        page = open_page(first.link("Ria"))
        shown(page)
        expect(page.locator("body")).not_to_have_class(OFFLINE)
    finally:
        first.stop()
    expect(page.locator("body")).to_have_class(OFFLINE)
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.status'), '::after').content")
        == '"reconnecting…"'
    )
    # While it is down, Ria moves from the command line: the page learns of it once back.
    subprocess.run(
        [rk_script(), "--store", str(store), "move", "a2"],
        env=environment(home),
        check=True,
        timeout=60,
        capture_output=True,
    )
    again = start(home, store, "--port", "0", name="again")
    try:
        assert again.base == first.base
        expect(page.locator("body")).not_to_have_class(OFFLINE, timeout=BACK_MS)
        expect(page.get_by_test_id("hero-ria")).to_have_attribute("data-hex", "a2")
        # And the live feed is read again: a command given elsewhere is drawn without a reload.
        command_as(again.link("Ria"), {"type": "EndTurn"})
        expect(page.get_by_test_id("turn")).to_have_text("Tarn")
    finally:
        again.stop()


# -- the schedule of the tries, pinned down (#21 point 7) ------------------------------------


@pytest.fixture
def unreachable_table(browser):  # noqa: F811
    """The table page, served from the repository's files, whose server
    answers nothing else: each try of the live feed fails and is counted.
    The page's clock is Playwright's: its pauses pass only when the test
    says, so no test waits them out."""
    context = browser.new_context()
    tries: list[str] = []

    def answer(route) -> None:
        path = urlsplit(route.request.url).path
        if path.startswith("/static/"):
            route.fulfill(path=STATIC / path.rsplit("/", 1)[1])
        elif path.startswith("/table/"):
            route.fulfill(path=STATIC / "table.html")
        elif path.endswith("/live"):
            tries.append(path)
            route.abort()
        else:
            route.fulfill(status=503, json={"error": "store-down", "reason": "the store cannot be reached"})

    context.route("http://rk.test/**", answer)
    page = context.new_page()
    page.clock.install(time=0)
    page.clock.pause_at(1)  # from now on the page's time passes only as the test says
    page.goto("http://rk.test/table/g1#token=t")
    try:
        yield page, tries
    finally:
        context.close()


def tried(page, tries: list[str], n: int, within: float = WAIT) -> bool:
    """Whether the page has made ``n`` tries by ``within`` seconds from now
    (Playwright handles the routes while the page is waited on)."""
    deadline = time.monotonic() + within
    while len(tries) < n and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    return len(tries) >= n


def test_the_pauses_between_tries_grow_1_2_4_then_8_seconds_with_a_fifth_of_jitter(unreachable_table):
    page, _ = unreachable_table
    middle = page.evaluate("() => [0, 1, 2, 3, 4, 10].map((n) => rulekeeperRetry.delay(n, 0.5))")
    assert middle == [1000, 2000, 4000, 8000, 8000, 8000]
    edges = page.evaluate("() => [rulekeeperRetry.delay(0, 0), rulekeeperRetry.delay(3, 1)]")
    assert edges == pytest.approx([800, 9600])  # a fifth either way


def test_the_page_tries_again_at_once_when_back_online_and_else_after_each_pause(unreachable_table):
    page, tries = unreachable_table
    assert tried(page, tries, 1)
    expect(page.locator("body")).to_have_class(OFFLINE)
    page.wait_for_timeout(SETTLE * 1000)
    assert len(tries) == 1  # the clock stands still: the page waits out its pause
    page.evaluate("() => window.dispatchEvent(new Event('online'))")
    assert tried(page, tries, 2)  # back online: at once, with no time passed
    for failures, most in ((1, 2400), (2, 4800), (3, 9600), (4, 9600)):
        least = int(most / 1.2 * 0.8)
        page.clock.run_for(least - 1)
        page.wait_for_timeout(SETTLE * 1000)
        assert len(tries) == failures + 1, f"tried again before {least} ms"
        page.clock.run_for(most - least + 1)
        assert tried(page, tries, failures + 2), f"not tried again within {most} ms"
