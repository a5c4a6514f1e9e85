"""The browser tests' harness: Debian's Chromium, what a real `rk server`
prints (``Running``, ``read_links``: its address, the host's token and the
links) and what pages are waited on. Playwright is imported only where a
page is driven, so the fixtures built from this (tests/server/conftest.py)
load without it."""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
REPO = Path(__file__).resolve().parents[2]
WAIT_MS = 10_000  # the longest any expectation waits
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
SETUP = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc", "--seed", "7"]


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
        req = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={"authorization": f"Bearer {self.host}", "content-type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=15) as answer:
            return json.loads(answer.read())


def read_links(lines: list[str]) -> Running:
    base = re.search(r"rulekeeper server on (\S+)", "\n".join(lines)).group(1)
    host = re.search(r"host .*#token=(\S+)", "\n".join(lines)).group(1)
    game = next(line[:-1] for line in lines if re.fullmatch(r"[\w-]+:", line))
    links = {}
    for line in lines:
        found = re.fullmatch(r"\s+(\S+)\s+(http\S+/table/\S+)", line)
        if found:
            links[found.group(1)] = found.group(2)
    return Running(base=base, host=host, game=game, links=links, out=lines)


def shown(page) -> None:
    """Wait until the page has drawn the table."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-version", re.compile(r"^\d+$"))


def answer(page, yes: bool = True) -> None:
    """Answer the page's own question (a command that gives something up asks before it is sent,
    in the commands panel, not in a browser dialog): Yes sends it, No keeps it."""
    page.get_by_test_id("ask-yes" if yes else "ask-no").click()


def lobby_of(server, open_page):
    """The host's lobby, once its form has its choices (the button is enabled then)."""
    from playwright.sync_api import expect

    lobby = open_page(f"{server.base}/#token={server.host}")
    expect(lobby.get_by_test_id("me")).to_have_text("you are: host")
    form = lobby.get_by_test_id("new-game")
    expect(form.get_by_role("button", name="Set it up")).to_be_enabled()
    return lobby, form
