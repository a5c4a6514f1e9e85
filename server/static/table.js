// The table view and the host's lobby of `rk server`: plain DOM, no framework.
// Every piece of text from the server goes in through textContent (never as
// HTML): names and setups are typed by people.
"use strict";

(() => {
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";

  // -- small helpers ---------------------------------------------------------------

  /** An element with attributes and children (strings become text). */
  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    setAttrs(node, attrs);
    node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  }

  /** An SVG element with attributes. */
  function svg(tag, attrs = {}, ...children) {
    const node = document.createElementNS(SVG, tag);
    setAttrs(node, attrs);
    node.append(...children.filter((c) => c !== null && c !== undefined));
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.setAttribute("class", value);
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }

  /** A request to the API with this page's token: {ok, status, data}. */
  async function api(method, path, body) {
    const init = { method, headers: { authorization: `Bearer ${token}` }, cache: "no-store" };
    if (body !== undefined) {
      init.headers["content-type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (error) {
      return { ok: false, status: 0, data: { error: "network", reason: "the server cannot be reached" } };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = { error: "internal", reason: `the server answered ${response.status} without JSON` };
    }
    return { ok: response.ok, status: response.status, data };
  }

  /** Show a refusal's reason (or any note) where a screen reader hears it. */
  function say(text, kind = "error") {
    const box = $("message");
    box.textContent = text;
    box.dataset.kind = kind;
    box.hidden = !text;
  }

  function refusalText(answer) {
    const d = answer.data || {};
    const reason = d.reason || `refused (${answer.status})`;
    return d.rule && !reason.includes(d.rule) ? `${d.rule}: ${reason}` : reason; // the rule the refusal cites
  }

  function possessive(name) {
    return name.endsWith("s") ? `${name}'` : `${name}'s`;
  }

  if (!token) {
    say("No token: open the link the host gave you (it ends in ?token=...).");
    return;
  }

  const tableMatch = location.pathname.match(/^\/table\/([^/]+)\/?$/);
  if (tableMatch) startTable(decodeURIComponent(tableMatch[1]));
  else startLobby();

  // -- the lobby (the host's page) ------------------------------------------------

  function startLobby() {
    $("lobby").hidden = false;
    $("title").textContent = "rulekeeper: games";
    $("me").textContent = "you are: host";
    $("games-refresh").addEventListener("click", () => loadGames());
    const form = $("new-game");
    form.addEventListener("submit", createGame);
    field(form, "ruleset").addEventListener("change", showKind);
    field(form, "kind").addEventListener("change", fillSetups);
    for (const [name, list, note] of [["setup", null, "setup-note"], ["scenario", "scenarios", "scenario-note"],
      ["encounter", "encounters", "encounter-note"]]) {
      field(form, name).addEventListener("change", () => showNote(name, list, note));
    }
    field(form, "encounter").addEventListener("change", fillRareSlots);
    field(form, "passives").addEventListener("change", showPassivesNote);
    $("add-pc").addEventListener("click", () => addMember("pc"));
    $("add-ally").addEventListener("click", () => addMember("ally"));
    showKind();
    loadGames();
    loadChoices();
  }

  // -- the new game's form: one fieldset per kind of game, filled from GET /api/choices --

  let choices = null; // what each kind of game may be set up with, as the server answered

  /** A control of the form by its name. */
  function field(form, name) {
    return form.elements.namedItem(name);
  }

  /** Fill a <select> with choices ({id, name, note}), as text; keep what was chosen if still offered. */
  function fillSelect(select, items, chosen) {
    const keep = chosen ?? select.value;
    select.replaceChildren(...items.map((c) => el("option", {
      value: c.id, title: c.note || null, text: !c.name || c.name === c.id ? c.id : `${c.name} (${c.id})`,
    })));
    if (items.some((c) => c.id === keep)) select.value = keep;
  }

  const words = (list) => list.map((w) => ({ id: w, name: w }));

  async function loadChoices() {
    const answer = await api("GET", "/api/choices");
    if (!answer.ok) {
      say(`The choices of a new game cannot be read: ${refusalText(answer)}`);
      return;
    }
    choices = answer.data;
    const form = $("new-game");
    const b = choices.betrayal, q = choices.conquest, l = choices.labyrinth, c = choices.campaign;
    fillSetups();
    fillSelect(field(form, "difficulty"), words(b.difficulties), "adept");
    $("races-hint").textContent = `Races: ${b.races.map((r) => r.id).join(", ")}.`;
    fillSelect(field(form, "scenario"), q.scenarios);
    showNote("scenario", "scenarios", "scenario-note");
    fillSelect(field(form, "army1"), q.armies, q.armies[0] && q.armies[0].id);
    fillSelect(field(form, "army2"), q.armies, (q.armies[1] || q.armies[0] || {}).id);
    fillSelect(field(form, "encounter"), l.encounters);
    showNote("encounter", "encounters", "encounter-note");
    fillRareSlots();
    fillSelect(field(form, "passives"), l.passives, (l.passives[0] || {}).id); // the first is the default
    showPassivesNote();
    if (!$("pcs").children.length) addMember("pc"); // a party of one to start with
    numberMembers();
    const kinds = field(form, "ruleset");
    if (c) {
      fillSelect(field(form, "campaign_difficulty"), words(c.difficulties), "adept");
      const dial = field(form, "dial");
      dial.max = String(c.max_dial);
      dial.placeholder = String(c.dial);
      dial.title = `the pack starts the XP dial at ${c.dial}`;
    } else {
      // The pack has no campaign content: a campaign cannot begin, so it is not offered.
      const option = kinds.querySelector('option[value="betrayal-campaign"]');
      if (option) option.remove();
    }
    showKind();
    form.querySelector("button[type=submit]").disabled = false;
  }

  /** Show the fieldset of the kind of game chosen; the others are hidden and disabled (not checked, not sent). */
  function showKind() {
    const form = $("new-game");
    const kind = field(form, "ruleset").value;
    for (const set of form.querySelectorAll("fieldset[data-ruleset]")) {
      const on = set.dataset.ruleset === kind;
      set.hidden = !on;
      set.disabled = !on;
    }
    const seed = field(form, "seed");
    seed.disabled = kind === "betrayal-campaign"; // a campaign rolls no dice: NewCampaign takes no seed
    seed.closest("label").hidden = seed.disabled;
  }

  /** The setups of the Betrayal kind chosen: clash setups, dungeon diagrams or delve encounters. */
  function fillSetups() {
    if (!choices) return;
    const form = $("new-game");
    const kind = field(form, "kind").value;
    fillSelect(field(form, "setup"), choices.betrayal[kind] || []);
    showNote("setup", null, "setup-note");
  }

  /** Under a select, the note of what it has chosen. */
  function showNote(name, list, noteId) {
    if (!choices) return;
    const form = $("new-game");
    const items = name === "setup" ? choices.betrayal[field(form, "kind").value] || []
      : name === "scenario" ? choices.conquest[list] : choices.labyrinth[list];
    const chosen = items.find((c) => c.id === field(form, name).value);
    $(noteId).textContent = chosen ? chosen.note : "";
  }

  // The two tables of a labyrinth side: the party's PCs (p1, p2...) and the allied NPCs (a1, a2...).
  const MEMBERS = {
    pc: { body: "pcs", add: "add-pc", prefix: "p", who: "PC", least: 1 }, // a battle needs a party
    ally: { body: "allies", add: "add-ally", prefix: "a", who: "ally", least: 0 },
  };

  /** Every line of both tables, PCs first: they stand on one side, counted together (SCALE-1). */
  function sideLines() {
    return [...$("pcs").children, ...$("allies").children];
  }

  /** Another PC of the party or allied NPC (``kind``; at most max_party of them together, SCALE-1):
   *  class, level, name, row. */
  function addMember(kind) {
    const l = choices && choices.labyrinth;
    const m = MEMBERS[kind];
    const body = $(m.body);
    if (!l || sideLines().length >= l.max_party) return;
    const cls = el("select", { "data-field": "class", required: true });
    fillSelect(cls, l.classes.map((c) => ({ id: c.id, name: `${c.name} · ${c.row}`, note: c.note })),
      nextClass(l, sideLines()));
    const level = el("input", { "data-field": "level", type: "number", inputmode: "numeric", min: "1",
      max: String(l.max_level), value: "1", required: true });
    const name = el("input", { "data-field": "name", autocomplete: "off", placeholder: "name: the class's", maxlength: "60" });
    const row = el("select", { "data-field": "row" }, el("option", { value: "", text: "row: the class's" }),
      ...l.rows.map((r) => el("option", { value: r, text: r })));
    const remove = el("button", { type: "button", class: "quiet", "data-field": "remove", text: "Remove" });
    const line = el("tr", {}, el("td", { class: "pc-id" }), el("td", {}, cls), el("td", {}, level),
      el("td", {}, name), el("td", {}, row), el("td", {}, remove));
    remove.addEventListener("click", () => {
      line.remove();
      numberMembers();
      $(m.add).focus();
    });
    body.append(line);
    numberMembers();
  }

  /** The class a new PC starts as: the next in the list after the last row's, whose row has room
   *  (SCALE-1: at most row_limit PCs to a row), so the party as first offered can be set up. */
  function nextClass(l, lines) {
    const standing = { front: 0, back: 0 };
    const byId = new Map(l.classes.map((c) => [c.id, c]));
    for (const line of lines) {
      const row = line.querySelector('[data-field="row"]').value
        || (byId.get(line.querySelector('[data-field="class"]').value) || {}).row;
      if (row in standing) standing[row] += 1;
    }
    const last = lines.length ? lines[lines.length - 1].querySelector('[data-field="class"]').value : null;
    const from = last === null ? 0 : l.classes.findIndex((c) => c.id === last) + 1;
    for (let i = 0; i < l.classes.length; i += 1) {
      const c = l.classes[(from + i) % l.classes.length];
      if ((standing[c.row] || 0) < l.row_limit) return c.id;
    }
    return (l.classes[0] || {}).id;
  }

  /** Number the lines p1, p2... and a1, a2... as the battle will, and label each field by it; the
   *  add buttons stop at max_party PCs and allies together (SCALE-1). */
  function numberMembers() {
    const most = choices ? choices.labyrinth.max_party : 6;
    const total = sideLines().length;
    for (const [kind, m] of Object.entries(MEMBERS)) {
      const lines = [...$(m.body).children];
      lines.forEach((line, i) => {
        const n = i + 1;
        line.setAttribute("data-testid", `${kind}-${n}`);
        line.querySelector(".pc-id").textContent = `${m.prefix}${n}`;
        const at = (k) => line.querySelector(`[data-field="${k}"]`);
        at("class").setAttribute("aria-label", `Class of ${m.who} ${n}`);
        at("level").setAttribute("aria-label", `Level of ${m.who} ${n}`);
        at("name").setAttribute("aria-label", `Name of ${m.who} ${n} (optional)`);
        at("row").setAttribute("aria-label", `Row of ${m.who} ${n}`);
        at("remove").setAttribute("aria-label", `Remove ${m.who} ${n}`);
        at("remove").disabled = lines.length <= m.least;
      });
      $(m.add).disabled = total >= most;
    }
    const row = choices ? `, ${choices.labyrinth.row_limit} to a row` : "";
    const allies = $("allies").children.length;
    const together = allies ? " with the allies" : "";
    $("party-count").textContent = `(${$("pcs").children.length} of at most ${most}${together}${row}; SCALE-1)`;
    $("ally-count").textContent = allies ? `(${allies}; counted with the party)` : "(none)";
  }

  /** A checkbox for each Enemy slot of the encounter chosen: checked, it is met as its kind's rare
   *  variant; one the encounter always has rare is shown checked and cannot be unchecked. */
  function fillRareSlots() {
    if (!choices) return;
    const chosen = field($("new-game"), "encounter").value;
    const encounter = choices.labyrinth.encounters.find((e) => e.id === chosen);
    const slots = encounter ? encounter.enemies || [] : [];
    $("rare-slots").replaceChildren(...slots.map((slot) => el("label", { class: "check" },
      el("input", {
        type: "checkbox", "data-slot": slot.id, checked: slot.rare, disabled: slot.rare,
        "aria-label": `Rare ${slot.id} ${slot.name}`,
        title: slot.rare ? "this encounter always has it as its rare variant" : null,
      }),
      `${slot.id} ${slot.name}`,
      el("span", { class: "rare-name", text: `→ ${slot.rare_name}` }))));
    $("rare-slots").closest("fieldset").hidden = slots.length === 0;
  }

  /** Under the passives select, what the mode chosen means. */
  function showPassivesNote() {
    if (!choices) return;
    const mode = choices.labyrinth.passives.find((p) => p.id === field($("new-game"), "passives").value);
    $("passives-note").textContent = mode ? `Passive actions (PASSIVE-2): ${mode.note}.` : "";
  }

  /** The request POST /api/games takes for what the form says (wire.NewGame). */
  function newGameBody(form) {
    const value = (name) => String(field(form, name).value || "").trim();
    const ruleset = value("ruleset");
    let body;
    if (ruleset === "conquest") {
      body = { ruleset, scenario: value("scenario"), armies: [value("army1"), value("army2")] };
    } else if (ruleset === "labyrinth") {
      const members = (id) => [...$(id).children].map((line) => {
        const at = (k) => String(line.querySelector(`[data-field="${k}"]`).value || "").trim();
        const pc = { class: at("class"), level: Number(at("level")) };
        if (at("name")) pc.name = at("name");
        if (at("row")) pc.row = at("row");
        return pc;
      });
      body = { ruleset, encounter: value("encounter"), party: members("pcs") };
      const allies = members("allies");
      if (allies.length) body.allies = allies;
      // a slot the encounter always has rare is disabled: the rules make it rare without asking
      const rare = [...$("rare-slots").querySelectorAll("input[data-slot]:checked:not(:disabled)")]
        .map((box) => box.dataset.slot);
      if (rare.length) body.rare = rare;
      const passives = choices && choices.labyrinth.passives[0];
      if (value("passives") && (!passives || value("passives") !== passives.id)) body.passives = value("passives");
      if (value("ambush")) body.ambush = value("ambush");
      if (field(form, "gm_enemies").checked) body.gm_enemies = true;
      if (field(form, "ask_fp").checked) body.options = { ask_fp: true }; // FUMBLE-2: rk spend at the table
    } else if (ruleset === "betrayal-campaign") {
      body = { ruleset, difficulty: value("campaign_difficulty") || "adept" };
      if (value("dial")) body.dial = Number(value("dial"));
    } else {
      const party = value("party").split(/[,\n]/).map((s) => s.trim()).filter(Boolean)
        .map((member) => {
          const [name, race] = member.split(":").map((s) => s.trim());
          return race ? { name, race } : { name };
        });
      body = { ruleset: "betrayal", kind: value("kind"), setup: value("setup"), party };
      if (value("difficulty")) body.difficulty = value("difficulty");
      if (value("xp")) body.xp = Number(value("xp"));
    }
    if (ruleset !== "betrayal-campaign" && value("seed")) body.seed = Number(value("seed"));
    if (value("name")) body.name = value("name");
    return body;
  }

  async function loadGames(open) {
    const answer = await api("GET", "/api/games");
    if (!answer.ok) {
      say(refusalText(answer));
      return;
    }
    const list = $("games");
    list.replaceChildren(...answer.data.map((g) => gameItem(g, g.id === open)));
    $("games-empty").hidden = answer.data.length > 0;
  }

  function gameItem(g, open) {
    const links = el("div", { class: "links", "data-testid": `links-${g.id}`, hidden: true });
    const toggle = el("button", {
      type: "button", class: "quiet", "aria-expanded": "false", "data-testid": `show-links-${g.id}`,
      "aria-label": `Links to hand out for ${g.name}`, text: "Links",
    });
    toggle.addEventListener("click", () => showLinks(g.id, links, toggle));
    const href = `/table/${encodeURIComponent(g.id)}?token=${encodeURIComponent(token)}`;
    const item = el("li", { class: "game", "data-testid": `game-${g.id}` },
      el("div", { class: "game-head" },
        el("a", { href, class: "game-name", text: g.name }),
        el("span", { class: "muted", text: `${g.title} · ${g.setup}` }),
        toggle),
      el("div", { class: "muted", text:
        `round ${g.round} · ${g.where} · ${g.who} · version ${g.version}${g.over ? " · over" : ""}` }),
      links);
    if (open) showLinks(g.id, links, toggle);
    return item;
  }

  async function showLinks(game, box, toggle) {
    if (!box.hidden) {
      box.hidden = true;
      toggle.setAttribute("aria-expanded", "false");
      return;
    }
    const answer = await api("GET", `/api/games/${encodeURIComponent(game)}/seats`);
    if (!answer.ok) {
      say(refusalText(answer));
      return;
    }
    const rows = answer.data.seats.map((s) => linkRow(s.name, s.link));
    rows.push(linkRow("spectators", answer.data.spectator));
    box.replaceChildren(...rows);
    box.hidden = false;
    toggle.setAttribute("aria-expanded", "true");
  }

  function linkRow(who, link) {
    const input = el("input", { type: "text", readonly: true, value: link || "", "aria-label": `link for ${who}` });
    const copy = el("button", { type: "button", class: "quiet", text: "Copy", "aria-label": `Copy the link for ${who}` });
    copy.addEventListener("click", async () => {
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        copy.textContent = "Copied";
      } catch (error) {
        document.execCommand("copy"); // plain http on a LAN address has no clipboard API
        copy.textContent = "Copied";
      }
    });
    return el("div", { class: "link-row" }, el("span", { class: "who", text: who }), input, copy);
  }

  async function createGame(event) {
    event.preventDefault();
    const form = event.target;
    const body = newGameBody(form);
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    const answer = await api("POST", "/api/games", body);
    button.disabled = false;
    if (!answer.ok) {
      say(refusalText(answer));
      return;
    }
    say(`Set up ${answer.data.game}: hand out its links below.`, "note");
    await loadGames(answer.data.game);
  }

  // -- the table view ----------------------------------------------------------------

  function startTable(game) {
    const base = `/api/games/${encodeURIComponent(game)}`;
    let view = null; // the TableView drawn
    let loading = null; // the refresh under way
    let again = false; // a newer version was told while loading
    let busy = false; // a command is on its way

    $("table").hidden = false;
    $("undo").addEventListener("click", () => send(`${base}/undo`, { version: view && view.version }));
    $("redo").addEventListener("click", () => send(`${base}/redo`, { version: view && view.version }));

    /** Fetch the table and draw it; calls while one runs fold into one more. */
    function refresh() {
      if (loading) {
        again = true;
        return loading;
      }
      loading = (async () => {
        try {
          do {
            again = false;
            const answer = await api("GET", `${base}/table`);
            if (!answer.ok) {
              say(refusalText(answer));
              break;
            }
            draw(answer.data); // even at the same version: a refused command re-enables the buttons
          } while (again);
        } finally {
          loading = null; // a failed draw must not stop every later one
        }
      })();
      return loading;
    }

    async function send(path, body) {
      if (busy) return;
      busy = true;
      setEnabled(false);
      const answer = await api("POST", path, body);
      busy = false;
      if (answer.ok) say("");
      else say(refusalText(answer));
      await refresh();
      setEnabled(true);
    }

    function setEnabled(on) {
      for (const b of document.querySelectorAll("#table button")) {
        if (on) b.disabled = b.dataset.off === "1";
        else b.disabled = true;
      }
    }

    function draw(next) {
      const focused = document.activeElement && document.activeElement.dataset
        ? document.activeElement.dataset.label || document.activeElement.id : null;
      view = next;
      document.body.dataset.version = String(view.version);
      document.title = `${view.name} · rulekeeper`;
      $("title").textContent = `${view.name}`;
      drawStatus();
      drawBoard();
      drawLegal();
      drawUnits();
      drawLog();
      setEnabled(!busy);
      if (focused) {
        const back = document.querySelector(`[data-label="${CSS.escape(focused)}"]`) || $(focused);
        if (back && !back.disabled) back.focus();
      }
    }

    function seatName(key) {
      const seat = view.seats.find((s) => s.key === key);
      return seat ? seat.name : key;
    }

    function drawStatus() {
      const b = view.board || {};
      const me = view.me || {};
      $("me").textContent = `you are: ${me.role === "seat" ? me.seat_name || me.seat : me.role}`;
      $("round").textContent = String(b.round ?? view.summary.round);
      $("phase").textContent = b.phase || view.summary.where;
      let turn = "—";
      if (b.kind === "hexes" && b.turn) {
        const hero = b.heroes.find((h) => h.id === b.turn);
        turn = hero ? hero.name : b.turn;
      } else if (b.kind === "regiments" && b.turn) {
        turn = seatName(b.turn);
      } else if (b.kind === "rows") {
        turn = rowsAwaited(b);
      }
      $("turn").textContent = turn;
      const outcome = $("outcome");
      outcome.hidden = !view.summary.over;
      outcome.textContent = view.summary.over ? `over${b.outcome ? `: ${b.outcome}` : ""}` : "";
      const lobby = $("lobby-link");
      lobby.hidden = me.role !== "host";
      lobby.href = `/?token=${encodeURIComponent(token)}`;
    }

    // -- the board ------------------------------------------------------------------

    function drawBoard() {
      const holder = $("board");
      const b = view.board;
      if (!b) {
        holder.replaceChildren(el("p", { class: "muted", text: "This ruleset has no board to draw." }));
        return;
      }
      if (b.kind === "regiments") {
        holder.replaceChildren(...b.sides.map(sideTable));
        return;
      }
      if (b.kind === "rows") {
        holder.replaceChildren(rowsBoard(b));
        return;
      }
      holder.replaceChildren(hexBoard(b));
    }

    const SIZE = 30;
    const ROOT3 = Math.sqrt(3);
    const TILE_COLOURS = ["#e9dcbf", "#d5e3ee", "#efd8d0", "#dbe8cf", "#e4dcf0", "#f2e7c4", "#cfe6e2", "#ecdccb"];
    const HERO_COLOURS = ["#2f6db5", "#7a3fa0", "#2d8a5a", "#b5652f", "#2f8fa3", "#a33f6b"];

    function centre(q, r) {
      return [SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r];
    }

    function corners(x, y) {
      const points = [];
      for (let i = 0; i < 6; i++) {
        const a = (Math.PI / 180) * (60 * i - 30);
        points.push(`${(x + SIZE * Math.cos(a)).toFixed(1)},${(y + SIZE * Math.sin(a)).toFixed(1)}`);
      }
      return points.join(" ");
    }

    function tileColour(tile) {
      if (tile === "E") return "#c9e2b8";
      return TILE_COLOURS[(tile.charCodeAt(0) || 0) % TILE_COLOURS.length];
    }

    function hexBoard(b) {
      const key = (q, r) => `${q},${r}`;
      const moves = new Map(); // hex -> the allowed Move that goes there
      for (const entry of view.legal) {
        const c = entry.command;
        if (entry.allowed && c && c.type === "Move" && Array.isArray(c.to)) moves.set(key(c.to[0], c.to[1]), entry);
      }
      const caches = new Map(b.caches.map((c) => [key(c.q, c.r), c.kind]));
      const units = new Map(); // hex -> the units standing there
      const place = (pos, unit) => {
        if (!pos) return;
        const k = key(pos.q, pos.r);
        if (!units.has(k)) units.set(k, []);
        units.get(k).push(unit);
      };
      b.heroes.forEach((h, i) => { if (!h.defeated) place(h.pos, { hero: h, colour: HERO_COLOURS[i % HERO_COLOURS.length] }); });
      b.foes.forEach((f) => { if (!f.defeated) place(f.pos, { foe: f }); });

      let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
      const hexes = svg("g", { class: "hexes" });
      const outlines = svg("g", { class: "reach-outlines", "pointer-events": "none" }); // over every hex's edge
      const tokens = svg("g", { class: "tokens" });
      for (const h of b.hexes) {
        const [x, y] = centre(h.q, h.r);
        minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
        const move = moves.get(key(h.q, h.r));
        const cache = caches.get(key(h.q, h.r));
        const describe = [h.label, h.blocked ? "blocked" : `tile ${h.tile}`];
        if (h.number) describe.push(`enemy hex ${h.number}`);
        if (cache) describe.push(`${cache} cache`);
        if (h.marker === "special") describe.push("special");
        const cell = svg("g", {
          class: `hex${h.blocked ? " blocked" : ""}${move ? " reach" : ""}`,
          "data-testid": `hex-${h.label}`, "data-hex": h.label,
          role: move ? "button" : null, tabindex: move ? "0" : null,
          "aria-label": move ? `${move.label}` : null,
        },
        svg("title", { text: describe.join(" · ") }),
        svg("polygon", { points: corners(x, y), fill: h.blocked ? "#2e2a27" : tileColour(h.tile) }),
        svg("text", { x, y: y - 18.5, class: "hex-label", text: h.label }));
        if (!h.blocked) cell.append(svg("text", { x: x - 10, y: y + 22, class: "hex-tile", text: h.tile }));
        if (h.number) cell.append(svg("text", { x: x + 10, y: y + 22, class: "hex-number", text: `#${h.number}` }));
        if (h.marker === "special") cell.append(svg("text", { x: x + 10, y: y + 22, class: "hex-special", text: "★" }));
        if (cache) {
          const s = cache === "legendary" ? 7 : 6;
          cell.append(svg("polygon", {
            class: `cache ${cache}`, points: `${x + 19},${y - s} ${x + 19 + s},${y} ${x + 19},${y + s} ${x + 19 - s},${y}`,
          }));
        }
        if (move) {
          outlines.append(svg("polygon", { points: corners(x, y), class: "reach-outline" }));
          const go = () => send(`${base}/commands`, { command: move.command, version: view.version });
          cell.addEventListener("click", go);
          cell.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
        }
        hexes.append(cell);
        const here = units.get(key(h.q, h.r)) || [];
        here.forEach((unit, i) => {
          const dx = here.length > 1 ? (i - (here.length - 1) / 2) * 14 : 0;
          tokens.append(unit.hero ? heroToken(unit.hero, unit.colour, x + dx, y, b.turn) : foeToken(unit.foe, x + dx, y));
        });
      }
      const pad = SIZE + 4;
      const w = maxX - minX + 2 * pad, hgt = maxY - minY + 2 * pad;
      return svg("svg", {
        class: "board", viewBox: `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}`,
        role: "group", "aria-label": `The map: ${b.hexes.length} hexes`,
      }, hexes, outlines, tokens);
    }

    function initials(name) {
      const words = name.split(/\s+/).filter(Boolean);
      return (words.length > 1 ? words[0][0] + words[1][0] : name.slice(0, 2)).toUpperCase();
    }

    function heroToken(h, colour, x, y, turn) {
      const g = svg("g", {
        class: `token hero${h.id === turn ? " turn" : ""}`, "data-testid": `hero-${h.id}`,
        "data-hex": h.pos.label, "pointer-events": "none",
      }, svg("title", { text: `${h.name}: ${h.hp}/${h.max_hp} HP on ${h.pos.label}${h.id === turn ? ", on turn" : ""}` }));
      if (h.id === turn) g.append(svg("circle", { cx: x, cy: y, r: 16, class: "turn-ring" }));
      g.append(svg("circle", { cx: x, cy: y, r: 13, fill: colour, class: "hero-disc" }),
        svg("text", { x, y: y + 4, class: "token-text", text: initials(h.name) }));
      return g;
    }

    function foeToken(f, x, y) {
      return svg("g", { class: "token foe", "data-testid": `foe-${f.id}`, "data-hex": f.pos.label, "pointer-events": "none" },
        svg("title", { text: `${f.id} ${f.name}: ${f.hp}/${f.max_hp} HP on ${f.pos.label}` }),
        svg("rect", { x: x - 12, y: y - 12, width: 24, height: 24, rx: 5, class: "foe-box" }),
        svg("text", { x, y: y + 4, class: "token-text", text: f.id }));
    }

    function sideName(side) {
      const seat = seatName(side.key);
      return seat === side.army ? seat : `${seat} (${side.army})`;
    }

    function sideTable(side) {
      const rows = side.regiments.map((r) => el("tr", { "data-testid": `regiment-${r.id}` },
        el("td", { text: r.id }), el("td", { text: r.name }), el("td", { text: r.class }),
        el("td", { text: String(r.stands) }), el("td", { text: r.where }), el("td", { text: `${r.front}"` })));
      const turn = view.board.turn === side.key;
      return el("section", { class: `side-list${turn ? " turn" : ""}`, "data-testid": `side-${side.key}` },
        el("h3", { text: `${sideName(side)} · ${side.vp} VP${turn ? " · to decide" : ""}` }),
        el("table", {},
          el("thead", {}, el("tr", {}, ...["id", "regiment", "class", "stands", "where", "front"]
            .map((t) => el("th", { scope: "col", text: t })))),
          el("tbody", {}, ...rows)));
    }

    // A labyrinth battle: two sides facing each other, each a front and a back
    // row of cards; the Enemies on top, their front row nearest the party's.

    function rowsAwaited(b) {
      if (b.question && b.question.kind === "fp") { // FP on a Suppression defense roll (FUMBLE-2)
        return `${seatName(b.question.who)}: FP to spend on a Suppression defense roll (${b.question.check})`;
      }
      if (b.question) { // a passive action chosen by hand (PASSIVE-1 .. PASSIVE-3)
        const who = b.waits_for === "gm" ? `the GM, for ${b.question.who}` : seatName(b.question.who);
        return `${who}: a passive against ${b.question.attacker}'s attack roll (${b.question.skills.join(", ")}, or none)`;
      }
      if (b.waits_for === "standby") {
        return `Standby: ${b.awaited.map((id) => seatName(id)).join(", ") || "—"} to declare`;
      }
      const window = b.window ? ` (${b.window} window)` : "";
      if (b.waits_for === "gm") return `the GM, for ${b.acting}${window}`;
      return b.acting ? `${seatName(b.acting)}${window}` : "—";
    }

    function rowsBoard(b) {
      const sides = [...b.sides].sort((x, y) => (x.side === "enemies" ? -1 : 0) - (y.side === "enemies" ? -1 : 0));
      return el("div", { class: "rows-board", "data-testid": "rows-board" }, ...sides.map((side) => rowsSide(side, b)));
    }

    function rowsSide(side, b) {
      const ranks = ["front", "back"].map((row) => {
        const cards = (side.rows[row] || []).map((c) => fighterCard(c, b, side.side === "enemies"));
        return el("div", { class: "rank", "data-testid": `${side.side}-${row}` },
          el("span", { class: "rank-name", text: row }),
          ...(cards.length ? cards : [el("span", { class: "muted", text: "empty" })]));
      });
      if (side.side === "enemies") ranks.reverse(); // their front row faces the party's
      return el("section", { class: `rows-side ${side.side}`, "data-testid": `side-${side.side}`,
        "aria-label": side.side === "party" ? "The party" : "The Enemies" },
      el("h3", { text: side.side === "party" ? "Party" : "Enemies" }), ...ranks);
    }

    function fighterCard(c, b, foe) {
      const awaited = b.awaited.includes(c.id);
      const chips = [];
      if (c.declared) chips.push(chip("state", `declared: ${c.declared}`));
      if (c.full_defense) chips.push(chip("state", "Full defense"));
      if (c.waiting) chips.push(chip("state", "Waiting"));
      if (c.lost_turn) chips.push(chip("state", "lost this turn"));
      if (c.confused) chips.push(chip("status", "confused"));
      c.ailments.forEach((a) => chips.push(chip("status", a.depth ? `${a.kind} ${a.depth}` : a.kind,
        `ailment ${a.kind}, depth ${a.depth}`)));
      c.binds.forEach((x) => chips.push(chip("bind", `${x.kind} bind ${x.depth}`, `bind, depth ${x.depth}`)));
      c.buffs.forEach((x) => {
        const down = x.kind.endsWith("-down") || x.kind === "weak";
        const what = x.element || x.target || (x.amount ? String(x.amount) : "");
        chips.push(chip(down ? "debuff" : "buff", `${x.kind}${what ? ` ${what}` : ""} · ${x.turns}t`,
          `${down ? "debuff" : "buff"}, ${x.turns} turn(s) left`));
      });
      const notes = [`lv ${c.level}`];
      if (c.token_of) notes.push(`token of ${c.token_of}`);
      if (c.link) notes.push(`link ${c.link}`);
      if (c.incapacitated) notes.push("incapacitated");
      else if (c.out) notes.push("out");
      if (c.acting) notes.push("acting");
      else if (awaited) notes.push("to declare");
      return el("article", {
        class: `card fighter${foe ? " foe" : ""}${c.acting || awaited ? " turn" : ""}${c.out ? " defeated" : ""}`,
        "data-testid": `card-${c.id}`,
      },
      el("h3", {}, `${c.id} ${c.name}`, el("span", { class: "muted", text: ` ${notes.join(" · ")}` })),
      hpBar(`${c.id} ${c.name}`, c.hp, c.max_hp),
      el("div", { class: "row muted", text: `TP ${c.tp}/${c.max_tp}${c.fp === null ? "" : ` · FP ${c.fp}`}` }),
      chips.length ? el("div", { class: "row" }, ...chips) : null);
    }

    // -- the commands ---------------------------------------------------------------

    function drawLegal() {
      const box = $("legal");
      if (view.summary.over) {
        box.replaceChildren(el("p", { class: "muted", text: "The battle is over." }));
      } else if (!view.legal.length) {
        box.replaceChildren(el("p", { class: "muted", text: "Nothing may be done now." }));
      } else {
        const groups = new Map(); // actor -> its entries, in the order given
        for (const entry of view.legal) {
          const k = entry.actor ?? "";
          if (!groups.has(k)) groups.set(k, []);
          groups.get(k).push(entry);
        }
        box.replaceChildren(...[...groups].map(([actor, entries]) => legalGroup(actor, entries)));
      }
      const undo = $("undo"), redo = $("redo");
      undo.dataset.off = view.may_undo ? "0" : "1";
      redo.dataset.off = view.may_redo ? "0" : "1";
      undo.title = view.can_undo && !view.may_undo ? "not yours to undo (SEAT-2)" : "";
      redo.title = view.can_redo && !view.may_redo ? "not yours to redo (SEAT-2)" : "";
    }

    function legalGroup(actor, entries) {
      const whose = actor ? possessive(seatName(actor)) : "the table's";
      const yours = entries.some((e) => e.allowed);
      const mine = view.me.role === "host" ? "as host" : "yours";
      const heading = yours ? (actor ? `${whose} (${mine})` : "the table's") : `${whose}: not yours`;
      return el("div", { class: `legal-group${yours ? "" : " others"}` },
        el("h3", { text: heading }),
        el("div", { class: "buttons" }, ...entries.map((entry) => {
          const button = el("button", {
            type: "button", class: `cmd${entry.allowed ? "" : " not-mine"}`, "data-label": entry.label,
            "data-off": entry.allowed ? "0" : "1", disabled: !entry.allowed,
            title: entry.allowed ? null : `${whose}, not yours`, text: entry.label,
          });
          button.addEventListener("click", () => send(`${base}/commands`, { command: entry.command, version: view.version }));
          return button;
        })));
    }

    // -- the units ------------------------------------------------------------------

    function drawUnits() {
      const box = $("units");
      const b = view.board;
      box.closest("section").hidden = !b || b.kind !== "hexes"; // regiments are listed on the board's place
      if (!b || b.kind !== "hexes") return;
      box.replaceChildren(...b.heroes.map((h) => heroCard(h, b.turn)), ...b.foes.map(foeCard));
    }

    function hpBar(who, hp, max) {
      const share = max > 0 ? Math.max(0, Math.min(1, hp / max)) : 0;
      return el("div", {
        class: `hp${share <= 0.34 ? " low" : ""}`, role: "meter", "aria-valuemin": "0", "aria-valuemax": String(max),
        "aria-valuenow": String(hp), "aria-label": `${who} HP`,
      }, el("span", { class: "hp-fill", style: `width:${(share * 100).toFixed(0)}%` }),
      el("span", { class: "hp-text", text: `${hp}/${max} HP` }));
    }

    function chip(kind, text, extra) {
      return el("span", { class: `chip ${kind}`, title: extra || null, text });
    }

    function heroCard(h, turn) {
      const track = h.track.length
        ? h.track.map((d) => chip(d.kind, `${d.kind} ${d.face}${d.status ? ` ${d.status}` : ""}`))
        : [el("span", { class: "muted", text: "empty" })];
      const active = h.active.length
        ? h.active.map((d) => chip(d.kind, `${d.kind} ${d.face}${d.amount !== d.face ? ` (${d.amount} left)` : ""}`))
        : [el("span", { class: "muted", text: "none" })];
      return el("article", {
        class: `card hero${h.id === turn ? " turn" : ""}${h.defeated ? " defeated" : ""}`, "data-testid": `card-${h.id}`,
      },
      el("h3", {}, h.name, el("span", { class: "muted", text:
        ` ${h.race} · ${h.form}${h.pos ? ` · ${h.pos.label}` : ""}${h.defeated ? " · defeated" : ""}${h.id === turn ? " · on turn" : ""}` })),
      hpBar(h.name, h.hp, h.max_hp),
      el("div", { class: "row" }, el("span", { class: "row-name", text: "track" }), ...track),
      el("div", { class: "row" }, el("span", { class: "row-name", text: "active" }), ...active),
      el("div", { class: "row muted", text: `${h.dice} dice${h.ready.length ? ` · ready: ${h.ready.join(", ")}` : ""}` }));
    }

    function foeCard(f) {
      return el("article", { class: `card foe${f.defeated ? " defeated" : ""}`, "data-testid": `card-${f.id}` },
        el("h3", {}, `${f.id} ${f.name}`, el("span", { class: "muted", text:
          ` level ${f.level}${f.pos ? ` · ${f.pos.label}` : ""}${f.defeated ? " · defeated" : ""}` })),
        hpBar(`${f.id} ${f.name}`, f.hp, f.max_hp),
        f.marks.length ? el("div", { class: "row" }, el("span", { class: "row-name", text: "marks" }),
          ...f.marks.map((m) => chip("status", m))) : null);
    }

    // -- the log ----------------------------------------------------------------------

    function drawLog() {
      const log = $("log");
      log.replaceChildren(...view.log.map((n) => el("li", {
        class: `${n.command ? "said" : "told"}${n.undone ? " undone" : ""}`, value: String(n.version),
        title: n.undone ? "undone" : null, text: n.text,
      })));
      log.scrollTop = log.scrollHeight;
    }

    // -- live -------------------------------------------------------------------------

    refresh();
    const live = new EventSource(`${base}/live?token=${encodeURIComponent(token)}`);
    live.addEventListener("version", (event) => {
      let told;
      try {
        told = JSON.parse(event.data).version;
      } catch (error) {
        return;
      }
      if (!view || told > view.version) refresh();
    });
    live.addEventListener("open", () => document.body.classList.remove("offline"));
    live.addEventListener("error", () => {
      document.body.classList.add("offline"); // EventSource reconnects by itself, unless refused
      document.body.classList.toggle("closed", live.readyState === EventSource.CLOSED);
    });
  }
})();
