// Time travel at a live table: the table view as it stood at any earlier
// version (GET /api/games/{game}/table?at=N), read with this token's rights
// now, the board drawn by window.rkBoard. Every text from the server goes in
// through textContent. The token is after '#' and sent in a header only.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const match = location.pathname.match(/^\/table\/([^/]+)\/history\/?$/);
  const game = match ? decodeURIComponent(match[1]) : "";
  const base = `/api/games/${encodeURIComponent(game)}`;
  let newest = 1; // the game's version when last asked

  function say(text) {
    const m = $("message");
    m.hidden = !text;
    m.textContent = text || "";
  }

  async function get(path) {
    const response = await fetch(path, { headers: { authorization: `Bearer ${token}` }, credentials: "omit" });
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) {
      const reason = (body && body.reason) || `refused (${response.status})`;
      throw new Error(body && body.rule && !reason.includes(body.rule) ? `${body.rule}: ${reason}` : reason);
    }
    return body;
  }

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c) node.append(c);
    return node;
  }

  function draw(view, at) {
    $("title").textContent = `Time travel: ${view.name}`;
    $("status").textContent = rkBoard.status(view.board) || view.summary.where;
    rkBoard.draw(view.board, $("board"));
    $("log").replaceChildren(...view.log.map((line) => el("li", {
      class: `${line.command ? "command" : ""}${line.undone ? " undone" : ""}${line.version === at ? " current" : ""}`,
    }, el("span", { class: "v", text: String(line.version) }), el("span", { text: line.text }))));
    const last = $("log").lastElementChild;
    if (last) last.scrollIntoView({ block: "nearest" });
    document.body.dataset.version = String(at);
  }

  async function go(to) {
    const first = Number($("scrubber").min);
    const at = Math.max(first, Math.min(newest, to));
    $("scrubber").value = String(at);
    $("position").textContent = `version ${at} of ${newest}${at === newest ? " (now)" : ""}`;
    $("prev").disabled = $("first").disabled = at === first;
    $("next").disabled = $("last").disabled = at === newest;
    await steps.go(at);
  }

  // the versions read as the table's scrubber reads them (board.js): a late answer is dropped
  const steps = rkBoard.versions(
    (at) => get(at === newest ? `${base}/table` : `${base}/table?at=${at}`),
    (view, at) => {
      if (at === newest && view.version > newest) { // the game moved on meanwhile: now is later
        newest = view.version;
        $("scrubber").max = String(newest);
      }
      say("");
      draw(view, at === newest ? view.version : at);
    },
    (e) => say(e.message),
  );

  async function start() {
    if (!token || !game) {
      say("No token: open this from the link the host gave you (it ends in #token=...).");
      return;
    }
    $("back").href = `/table/${encodeURIComponent(game)}#token=${encodeURIComponent(token)}`;
    try {
      const now = await get(`${base}/table`);
      newest = now.version;
    } catch (e) {
      say(e.message);
      return;
    }
    const scrubber = $("scrubber");
    scrubber.min = String(rkBoard.firstVersion(newest));
    scrubber.max = String(newest);
    $("game").hidden = false;
    go(newest);
  }

  $("first").addEventListener("click", () => go(-Infinity));
  $("prev").addEventListener("click", () => go(Number($("scrubber").value) - 1));
  $("next").addEventListener("click", () => go(Number($("scrubber").value) + 1));
  $("last").addEventListener("click", async () => {
    try { newest = (await get(`${base}/table`)).version; $("scrubber").max = String(newest); } catch (e) { say(e.message); }
    go(newest);
  });
  $("scrubber").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target === $("scrubber") || e.altKey || e.ctrlKey || e.metaKey || $("game").hidden) return;
    const at = Number($("scrubber").value);
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: -Infinity, End: Infinity };
    if (e.key in moves) {
      e.preventDefault();
      go(moves[e.key]);
    }
  });
  start();
})();
