// The public dispute page: a dropped log posted to /api/dispute (no token,
// nothing stored), verify's verdict shown, and the game stepped through event
// by event, the board drawn as it stood after each (window.rkBoard). Every
// text from the server goes in through textContent.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  let data = null; // the dropped log's bytes, kept to fetch later pages of boards
  let answer = null; // the first answer: verdict, steps
  let boards = []; // the board after each step, once fetched (undefined: not yet)
  let step = 0;
  let fetching = null; // the step whose page is being fetched

  function say(text) {
    const m = $("message");
    m.hidden = !text;
    m.textContent = text || "";
  }

  async function post(start) {
    const response = await fetch(`/api/dispute?start=${start}`, {
      method: "POST", body: data, headers: { "content-type": "application/x-ndjson" },
      credentials: "omit", referrerPolicy: "no-referrer",
    });
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    if (!response.ok) throw new Error((body && body.reason) || `refused (${response.status})`);
    return body;
  }

  /** The boards of one answer's page, the nulls (the same as the step before) filled in. */
  function keep(page) {
    page.boards.forEach((b, i) => {
      const at = page.first + i;
      boards[at] = b !== null ? b : (i > 0 || at === 0 ? (boards[at - 1] ?? null) : null);
    });
  }

  async function load(file) {
    say("");
    $("drop-text").textContent = `Checking ${file.name}…`;
    document.body.dataset.state = "loading";
    try {
      data = await file.arrayBuffer();
      answer = await post(0);
    } catch (e) {
      $("drop-text").textContent = "Drop a log here, or choose one";
      document.body.dataset.state = "refused";
      say(e.message);
      return;
    }
    boards = [];
    keep(answer);
    $("drop-text").textContent = `${file.name}: drop another to replace it`;
    $("game").hidden = false;
    $("title").textContent = `Settle a dispute: ${answer.game}`;
    drawVerdict();
    drawLog();
    const scrubber = $("scrubber");
    scrubber.max = String(Math.max(0, answer.steps.length - 1));
    $("jump").hidden = answer.divergence_step === null;
    document.body.dataset.state = "shown";
    go(0);
  }

  function drawVerdict() {
    const v = answer.verdict;
    const box = $("verdict");
    box.className = `verdict ${v.ok ? "ok" : "diverges"}`;
    const lines = [el("h2", { text: v.ok ? "Verified: the log agrees with today's rules" : "The log diverges" })];
    const checked = v.ok ? `${v.lines} lines, ${v.commands} commands checked`
      : `checked as far as line ${v.divergence ? v.divergence.line : v.lines}`;
    lines.push(el("p", { class: "title", text: `${answer.title || "a log"} · ${answer.game || "no game"} · ${checked}` }));
    if (v.divergence) {
      const d = v.divergence;
      lines.push(el("p", { "data-testid": "divergence" },
        el("b", { text: `line ${d.line}` }), ", rule ", el("b", { class: "rule", "data-testid": "rule", text: d.rule }),
        d.command ? `, in ${d.command}` : ""));
      lines.push(el("p", { class: "muted", text: `expected ${d.expected}` }), el("p", { class: "muted", text: `found ${d.found}` }));
    } else {
      lines.push(el("p", { class: "muted summary", text: v.summary }));
    }
    if (answer.stopped) lines.push(el("p", { class: "muted", "data-testid": "stopped", text: `The replay stops: ${answer.stopped}` }));
    box.replaceChildren(...lines);
  }

  function drawLog() {
    const log = $("log");
    log.replaceChildren(...answer.steps.map((s, i) => {
      const item = el("li", {
        class: `${s.command ? "command" : ""}${s.undone ? " undone" : ""}${i === answer.divergence_step ? " divergent" : ""}`,
        "data-step": String(i), title: `version ${s.version}, line ${s.line}`,
      }, el("span", { class: "v", text: String(s.version) }), el("span", { text: s.text }));
      item.addEventListener("click", () => go(i));
      return item;
    }));
  }

  async function go(to) {
    if (!answer || !answer.steps.length) {
      $("position").textContent = "no steps";
      rkBoard.draw(null, $("board"));
      return;
    }
    step = Math.max(0, Math.min(answer.steps.length - 1, to));
    const s = answer.steps[step];
    $("scrubber").value = String(step);
    $("position").textContent = `step ${step + 1} of ${answer.steps.length} · version ${s.version} · line ${s.line}`;
    $("prev").disabled = $("first").disabled = step === 0;
    $("next").disabled = $("last").disabled = step === answer.steps.length - 1;
    for (const item of $("log").children) {
      const i = Number(item.dataset.step);
      item.hidden = i > step;
      item.classList.toggle("current", i === step);
    }
    const current = $("log").children[step];
    if (current) current.scrollIntoView({ block: "nearest" });
    document.body.dataset.step = String(step);
    document.body.dataset.version = String(s.version);
    const here = step;
    if (boards[here] === undefined) {
      $("status").textContent = "loading the board…";
      if (fetching !== null) return; // the page on its way goes on to the step shown once it comes
      fetching = here;
      let refused = false;
      try {
        keep(await post(here));
      } catch (e) {
        refused = true;
        say(e.message);
      } finally {
        fetching = null;
      }
      if (step !== here) { // moved on meanwhile: draw where the page is now
        if (!refused) go(step);
        return;
      }
      if (boards[here] === undefined) return;
    }
    $("status").textContent = rkBoard.status(boards[step]);
    rkBoard.draw(boards[step], $("board"));
    document.body.dataset.drawn = String(step);
  }

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined && c !== "") node.append(c);
    return node;
  }

  // -- wiring ---------------------------------------------------------------------------

  $("file").addEventListener("change", (e) => { if (e.target.files[0]) load(e.target.files[0]); });
  const drop = $("drop");
  drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("over");
    const file = e.dataTransfer && e.dataTransfer.files[0];
    if (file) load(file);
  });
  $("first").addEventListener("click", () => go(0));
  $("prev").addEventListener("click", () => go(step - 1));
  $("next").addEventListener("click", () => go(step + 1));
  $("last").addEventListener("click", () => go(Infinity));
  $("jump").addEventListener("click", () => go(answer.divergence_step));
  $("scrubber").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (!answer || e.target === $("scrubber") || e.altKey || e.ctrlKey || e.metaKey) return; // the slider steps itself
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: Infinity };
    if (e.key in moves) {
      e.preventDefault();
      go(moves[e.key]);
    }
  });
})();
