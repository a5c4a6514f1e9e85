"""The table page in Debian's Chromium on loopback (#24): how long its first
render takes, and how long from one seat's command to the other seat's
page redrawn by the live feed, p50 and p95, each beside its floor.

    .venv/bin/python bench/table_page.py [--rounds 30]

Starts `rk server --port 0` on a throwaway SQLite store holding one clash
(Ria and Tarn) in a home of its own, and headless Chromium at
/usr/bin/chromium through Playwright.

- first render: a new page opening Tarn's link until the table is drawn
  (``body[data-version]``); floor: the same new page opening the page's
  stylesheet (a round trip and a document, nothing to draw).
- redraw: Ria's move posted (then its undo, alternately) until Tarn's open
  page shows the new version; floor: the command's own answer (its POST).

Times are ``time.perf_counter`` around each step, a ``gc.collect()``
before each; no test asserts them (bench/README.md).
"""

from __future__ import annotations

import argparse
import gc
import json
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
SETUP = ["new", "clash", "--setup", "waystone-crossing", "--party", "Ria:nord", "--party", "Tarn:orc", "--seed", "7"]


def _rk() -> str:
    beside = Path(sys.executable).parent / "rk"
    return str(beside) if beside.exists() else "rk"


def _post(base: str, path: str, token: str, body: dict) -> dict:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"authorization": f"Bearer {token}", "content-type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def _row(figure: str, times: list[float], floors: list[float]) -> str:
    p50, p95 = statistics.median(times), _quantile(times, 0.95)
    f50, f95 = statistics.median(floors), _quantile(floors, 0.95)
    return (
        f"{figure:<28} p50 {p50 * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms   floor p50 {f50 * 1000:6.1f} ms "
        f"p95 {f95 * 1000:6.1f} ms   ratio p50 {p50 / f50:5.1f}x"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as home:
        env = {"RULEKEEPER_HOME": home, "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin"}
        store = str(Path(home) / "t.sqlite")
        subprocess.run([_rk(), "--store", store, *SETUP], env=env, check=True, capture_output=True, timeout=60)
        server = subprocess.Popen(
            [_rk(), "--store", store, "server", "--port", "0"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            lines: list[str] = []
            assert server.stdout is not None
            for line in server.stdout:
                lines.append(line)
                if line.startswith("Stop it with"):
                    break
            text = "".join(lines)
            base = re.search(r"server on (\S+)", text).group(1)
            links = dict(re.findall(r"^\s+(\w+)\s+(http\S+/table/\S+)$", text, re.M))
            game = re.search(r"/table/([^#]+)#", links["Ria"]).group(1)
            ria = links["Ria"].split("#token=")[1]
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
                context = browser.new_context()
                renders, render_floors = [], []
                for _ in range(args.rounds):
                    for kind, url in (("page", links["Tarn"]), ("floor", f"{base}/static/table.css")):
                        page = context.new_page()
                        gc.collect()
                        began = time.perf_counter()
                        page.goto(url)
                        if kind == "page":
                            page.wait_for_selector("body[data-version]", state="attached")
                        (renders if kind == "page" else render_floors).append(time.perf_counter() - began)
                        page.close()
                tarn = context.new_page()
                tarn.goto(links["Tarn"])
                tarn.wait_for_selector("body[data-version]", state="attached")
                redraws, posts = [], []
                for n in range(args.rounds):
                    version = int(tarn.get_attribute("body", "data-version"))
                    gc.collect()
                    began = time.perf_counter()
                    if n % 2 == 0:
                        _post(
                            base,
                            f"/api/games/{game}/commands",
                            ria,
                            {"command": {"type": "Move", "to": [0, 1]}, "version": version},
                        )
                    else:
                        _post(base, f"/api/games/{game}/undo", ria, {"version": version})
                    posted = time.perf_counter()
                    tarn.wait_for_function("(v) => Number(document.body.dataset.version) > v", arg=version, polling=5)
                    redraws.append(time.perf_counter() - began)
                    posts.append(posted - began)
                browser.close()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=15)
    print(f"table page on loopback, {args.rounds} rounds each (Chromium {CHROMIUM}, headless)")
    print(_row("first render", renders, render_floors))
    print(_row("command -> other's redraw", redraws, posts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
