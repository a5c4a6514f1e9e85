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
import urllib.request

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
    assert page.evaluate("() => getComputedStyle(document.querySelector('.status'), '::after').content") \
        == '"reconnecting…"'
    # While it is down, Ria moves from the command line: the page learns of it once back.
    subprocess.run([rk_script(), "--store", str(store), "move", "a2"], env=environment(home), check=True, timeout=60,
                   capture_output=True)
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
