"""The public dispute page in Debian's Chromium (issue #24 point 4): a
golden log dropped and stepped through, a tampered one dropped and the
first divergence jumped to; no token anywhere. Screenshots at desktop and
390x844 (``dispute-*.png`` in the artifacts folder)."""

from __future__ import annotations

import re
from pathlib import Path

import msgspec
import pytest
from browsing import CHROMIUM, PHONE, Running

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no Chromium at {CHROMIUM}"),
]

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

LOGS = Path(__file__).resolve().parents[2] / "logs"


def dropped(page, name: str, data: bytes) -> None:
    """``data`` dropped on the page's drop zone as a file called ``name``."""
    transfer = page.evaluate_handle(
        """([name, text]) => { const t = new DataTransfer(); t.items.add(new File([text], name)); return t; }""",
        [name, data.decode()],
    )
    page.dispatch_event('[data-testid="drop"]', "drop", {"dataTransfer": transfer})


def forged(data: bytes) -> tuple[bytes, int]:
    """A golden log with one die's face changed and the hash chain made good
    again (a forger who knows the chain), and the line edited."""
    from domain.kernel.portable.chain import link

    lines = [msgspec.json.decode(text) for text in data.splitlines()]
    at = next(i for i, obj in enumerate(lines) if str(obj.get("type", "")).endswith(".DiceRolled"))
    die = lines[at]["data"]["dice"][0]
    die[2] = (die[2] + 1) % 6
    previous = ""
    for obj in lines:
        if obj.get("end"):
            obj["last_hash"] = previous
        obj["hash"] = previous = link(previous, obj)
    return b"\n".join(msgspec.json.encode(obj) for obj in lines) + b"\n", at + 1


def test_a_golden_log_dropped_is_verified_and_stepped_through(server: Running, open_page, artifacts):
    page = open_page(f"{server.base}/dispute", live=False)
    page.set_input_files('[data-testid="file"]', str(LOGS / "delve-uncover-retreat.jsonl"))
    verdict = page.get_by_test_id("verdict")
    expect(verdict).to_contain_text("Verified")
    expect(page.locator("body")).to_have_attribute("data-drawn", "0")
    expect(page.get_by_test_id("position")).to_contain_text("step 1 of")
    expect(page.locator('[data-testid="log"] li:not([hidden])')).to_have_count(1)
    page.get_by_test_id("next").click()
    expect(page.locator("body")).to_have_attribute("data-drawn", "1")
    page.keyboard.press("End")  # the keyboard steps too
    last = page.get_by_test_id("scrubber").get_attribute("max")
    expect(page.locator("body")).to_have_attribute("data-drawn", last)
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    expect(page.locator("body")).to_have_attribute("data-drawn", str(int(last) - 5))
    expect(page.locator('[data-testid="board"] svg.board')).to_be_visible()  # the delve's map, as the table draws it
    expect(page.locator('[data-testid="board"] [data-testid^="hero-"]').first).to_be_attached()
    expect(page.locator('[data-testid="log"] li:not([hidden])')).to_have_count(int(last) - 4)
    expect(page.get_by_test_id("jump")).to_be_hidden()
    page.screenshot(path=str(artifacts / "dispute-ok.png"), full_page=True)


def test_a_tampered_log_dropped_jumps_to_its_first_divergence_and_names_the_rule(server: Running, open_page, artifacts):
    data, line = forged((LOGS / "won-waystone-crossing.jsonl").read_bytes())
    for viewport, shot in ((None, "dispute-divergence.png"), (PHONE, "dispute-divergence-phone.png")):
        page = open_page(f"{server.base}/dispute", live=False, **({"viewport": viewport} if viewport else {}))
        dropped(page, "forged.jsonl", data)
        verdict = page.get_by_test_id("verdict")
        expect(verdict).to_contain_text("diverges")
        expect(page.get_by_test_id("divergence")).to_contain_text(f"line {line}")
        rule = page.get_by_test_id("rule").text_content()
        assert rule and rule not in ("CHAIN", "FORMAT")  # the rule the forged face breaks
        page.get_by_test_id("jump").click()
        current = page.locator('[data-testid="log"] li.current')
        expect(current).to_have_class(re.compile(r"\bdivergent\b"))
        assert int(current.get_attribute("title").rsplit("line ", 1)[1]) >= line
        expect(page.locator("body")).to_have_attribute("data-drawn", current.get_attribute("data-step"))
        if viewport is not None:  # nothing wider than the phone
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], width
        page.screenshot(path=str(artifacts / shot), full_page=True)


def test_the_dispute_page_refuses_a_file_that_is_not_a_log_in_words(server: Running, open_page):
    page = open_page(f"{server.base}/dispute", live=False)
    dropped(page, "notes.txt", b"hello\n")
    expect(page.get_by_test_id("verdict")).to_contain_text("FORMAT")
    expect(page.get_by_test_id("position")).to_have_text("no steps")


@pytest.mark.parametrize(
    "log, drawn",
    [("conquest-wipe-out.jsonl", '[data-testid^="regiment-"]'), ("labyrinth-won.jsonl", '[data-testid="rows-board"]')],
)
def test_every_kind_of_board_is_drawn_on_a_phone_without_running_off_it(
    server: Running, open_page, artifacts, log, drawn
):
    page = open_page(f"{server.base}/dispute", viewport=PHONE, live=False)
    page.set_input_files('[data-testid="file"]', str(LOGS / log))
    expect(page.get_by_test_id("verdict")).to_contain_text("Verified")
    page.get_by_test_id("scrubber").fill("150")  # a step well into the game, its board fetched if not yet
    expect(page.locator("body")).to_have_attribute("data-drawn", "150")
    expect(page.locator(f'[data-testid="board"] {drawn}').first).to_be_visible()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    page.screenshot(path=str(artifacts / f"dispute-{log.split('-')[0]}-phone.png"), full_page=True)
