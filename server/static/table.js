// The table view and the host's lobby of `rk server`: plain DOM, no framework.
// Every piece of text from the server goes in through textContent (never as
// HTML): names and setups are typed by people.
"use strict";

(() => {
  // The token is after '#' in the link: a browser never sends that part to a
  // server; each request carries it in its Authorization header instead.
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  // The live feed's pauses between tries when it breaks: doubled each time up to the most,
  // each drawn within ±RETRY_JITTER of it so that pages do not all come back at once.
  const RETRY_FIRST_MS = 1000;
  const RETRY_MOST_MS = 8000;
  const RETRY_JITTER = 0.2;

  // -- small helpers ---------------------------------------------------------------

  /** The pause before the live feed's next try, after `failures` tries in a
   * row have failed: 1 s, 2 s, 4 s, then 8 s each time, times a jitter of
   * ±20 % drawn from `random` (a number from 0 to 1). */
  function retryDelay(failures, random = Math.random()) {
    const ms = Math.min(RETRY_FIRST_MS * 2 ** failures, RETRY_MOST_MS);
    return ms * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random);
  }

  /** Wait `ms`, or until the browser says it is back online (then at once). */
  function pause(ms) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        window.removeEventListener("online", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      window.addEventListener("online", done);
    });
  }

  // The schedule as the page keeps it, for the browser tests to pin down.
  window.rulekeeperRetry = Object.freeze({ delay: retryDelay, pause });

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
    say("No token: open the link the host gave you (it ends in #token=...).");
    return;
  }

  const tableMatch = location.pathname.match(/^\/table\/([^/]+)\/?$/);
  if (tableMatch) startTable(decodeURIComponent(tableMatch[1]));
  else startLobby();

  // -- the lobby (the host's page) ------------------------------------------------

  function startLobby() {
    $("lobby").hidden = false;
    // What the form's click says goes beside its button, where a phone shows it (not above the form).
    $("new-game").insertBefore($("message"), $("new-game").querySelector("button[type=submit]"));
    $("message").classList.add("wide");
    $("title").textContent = "rulekeeper: games";
    $("me").textContent = "you are: host";
    $("games-refresh").addEventListener("click", () => loadGames());
    const form = $("new-game");
    form.addEventListener("submit", createGame);
    form.elements.namedItem("new").addEventListener("change", showSetup);
    loadGames();
    loadChoices();
  }

  // -- the new game's form, made from what each setup declares (GET /api/choices) --------
  //
  // A setup comes with its parameters (label, help, what each is), the JSON Schema of its
  // request and what the packs offer for its fields. Each field of the request gets a control
  // by its schema: a checkbox for a yes/no, a number, a select where the packs offer values
  // (or the schema lists them), a text otherwise; a list gets rows to add and remove, and a list
  // whose values depend on another field's (an encounter's Enemies) gets a checkbox each.
  // Nothing here knows a ruleset: a new ruleset's setups appear as they are declared.

  let choices = null; // every setup, as the server answered
  const SKIPPED = new Set(["file"]); // a file's text comes from the command line, not from this form

  async function loadChoices() {
    const answer = await api("GET", "/api/choices");
    if (!answer.ok) {
      say(`The choices of a new game cannot be read: ${refusalText(answer)}`);
      return;
    }
    choices = answer.data;
    const select = $("new-game").elements.namedItem("new");
    const groups = new Map();
    for (const setup of choices.setups) {
      if (!groups.has(setup.title)) groups.set(setup.title, el("optgroup", { label: setup.title }));
      groups.get(setup.title).append(el("option", { value: setup.name, text: setup.name }));
    }
    select.replaceChildren(...groups.values());
    showSetup();
    $("new-game").querySelector("button[type=submit]").disabled = choices.setups.length === 0;
  }

  function chosenSetup() {
    const name = $("new-game").elements.namedItem("new").value;
    return choices ? choices.setups.find((s) => s.name === name) : null;
  }

  /** The fields of the setup chosen. */
  function showSetup() {
    const setup = chosenSetup();
    $("setup-summary").textContent = setup ? setup.summary : "";
    const box = $("setup-fields");
    box.replaceChildren();
    if (!setup) return;
    const params = new Map(setup.params.map((p) => [p.name, p]));
    const required = new Set(setup.schema.required || []);
    for (const [name, schema] of Object.entries(setup.schema.properties || {})) {
      const param = params.get(name) || { name, what: "", help: "" };
      if (SKIPPED.has(param.what)) continue;
      box.append(fieldFor(setup, name, schema, param, required.has(name)));
    }
    const start = Object.entries(setup.start || {});
    for (const [name, value] of start) if (!Array.isArray(value)) startWith(setup, name, value);
    for (const control of box.querySelectorAll("[data-after]")) refill(setup, control);
    for (const [name, value] of start) if (Array.isArray(value)) startWith(setup, name, value);
  }

  /** A field as the setup's form starts it (``start``: its first example's required fields), so
   *  that the first click sets a game up: a value chosen or typed, a list's rows made and filled. */
  function startWith(setup, name, value) {
    const wrap = $("setup-fields").querySelector(`.setup-field[data-name="${CSS.escape(name)}"]`);
    if (!wrap) return;
    const put = (control, v) => {
      if (!control || v === undefined || v === null) return;
      if (control.type === "checkbox") control.checked = v === true;
      else control.value = String(v);
    };
    if (wrap.dataset.kind !== "list") {
      put(wrap.querySelector("[data-name]"), value);
      return;
    }
    const checks = wrap.querySelector(".checks");
    if (checks) {
      for (const box of checks.querySelectorAll("input[data-item]")) box.checked = box.checked || value.includes(box.dataset.item);
      return;
    }
    const rows = wrap.querySelector(".rows");
    const items = shape(setup, shape(setup, setup.schema.properties[name]).items || {});
    rows.replaceChildren();
    for (const item of value) {
      const row = rowFor(setup, name, items, rows);
      rows.append(row);
      if (item !== null && typeof item === "object") {
        for (const [key, v] of Object.entries(item)) put(row.querySelector(`[data-key="${CSS.escape(key)}"]`), v);
      } else {
        put(row.querySelector('[data-key=""]'), item);
      }
    }
  }

  /** The schema a $ref names, else the schema itself. */
  function resolve(setup, schema) {
    if (schema && schema.$ref) return setup.schema.$defs[schema.$ref.split("/").pop()];
    return schema || {};
  }

  /** What a schema is, past a union with null (an optional value) and a choice of shapes (the richest). */
  function shape(setup, schema) {
    schema = resolve(setup, schema);
    const ways = schema.anyOf || schema.oneOf;
    if (!ways) return schema;
    const real = ways.map((w) => resolve(setup, w)).filter((w) => w.type !== "null");
    return real.find((w) => w.type === "object" && w.properties) || real.find((w) => w.type === "array") || real[0] || {};
  }

  const label = (name) => name.replace(/_/g, " ");

  /** The control of one request field, labelled, with its help. */
  function fieldFor(setup, name, schema, param, required) {
    const s = shape(setup, schema);
    const wrap = el("div", { class: "setup-field", "data-testid": `field-${name}`, "data-name": name });
    if (s.type === "array") {
      wrap.dataset.kind = "list";
      wrap.append(listFor(setup, name, s, param, required));
    } else {
      const control = control_(setup, name, s, resolve(setup, schema).default, required);
      control.setAttribute("data-name", name);
      wrap.append(s.type === "boolean" ? el("label", { class: "check" }, control, ` ${label(name)}`)
        : el("label", {}, `${label(name)}${required ? "" : " (optional)"} `, control));
    }
    if (param.help) wrap.append(el("p", { class: "hint", text: param.help }));
    return wrap;
  }

  /** One value's control: a checkbox, a number, a select of what is offered, a text. */
  function control_(setup, path, s, fallback, required) {
    const offered = setup.offers[path];
    if (s.type === "boolean") return el("input", { type: "checkbox", checked: fallback === true, "data-value": "bool" });
    if (s.type === "integer") {
      return el("input", { type: "number", inputmode: "numeric", "data-value": "int", required: required || null,
        value: fallback === undefined || fallback === null ? null : String(fallback),
        min: s.minimum ?? null, max: s.maximum ?? null });
    }
    const values = Array.isArray(offered) ? offered : (s.enum || []).map((v) => ({ id: v, name: v }));
    if (values.length || (offered && offered.after)) {
      const select = el("select", { "data-value": "text" });
      if (!required) select.append(el("option", { value: "", text: "—" }));
      if (offered && offered.after) select.dataset.after = offered.after;
      fillOptions(select, values, fallback);
      return select;
    }
    return el("input", { autocomplete: "off", "data-value": "text", required: required || null,
      value: typeof fallback === "string" ? fallback : null });
  }

  function fillOptions(select, values, chosen) {
    const keep = chosen ?? select.value;
    const blank = select.querySelector('option[value=""]');
    select.replaceChildren(...(blank ? [blank] : []), ...values.map((c) => el("option", {
      value: c.id, title: c.note || null, text: !c.name || c.name === c.id ? c.id : `${c.name} (${c.id})`,
    })));
    if (values.some((c) => c.id === keep)) select.value = keep;
  }

  /** A list field: rows to add and remove, or, when what it may hold depends on another field, a
   *  checkbox for each value offered then. */
  function listFor(setup, name, s, param, required) {
    const offered = setup.offers[name];
    const legend = el("legend", { text: `${label(name)}${required ? "" : " (optional)"}` });
    if (offered && offered.after) {
      return el("fieldset", { class: "setup-list", "data-after": offered.after, "data-name": name }, legend,
        el("div", { class: "checks" }));
    }
    const items = shape(setup, s.items || {});
    const rows = el("div", { class: "rows" });
    const add = el("button", { type: "button", class: "quiet", "data-testid": `add-${name}`,
      text: `Add ${param.option ? param.option.replace(/^--/, "") : label(name)}` });
    add.addEventListener("click", () => {
      const row = rowFor(setup, name, items, rows);
      rows.append(row);
      const first = row.querySelector("select, input");
      if (first) first.focus();
    });
    if (required) rows.append(rowFor(setup, name, items, rows)); // a list that must hold one starts with one
    return el("fieldset", { class: "setup-list" }, legend, rows, add);
  }

  /** One row of a list: an object's properties side by side, or one value. A select starts at the
   *  value offered after the previous row's (a second army, the next class), so the rows as first
   *  offered differ. */
  function rowFor(setup, name, items, rows) {
    const row = el("div", { class: "row" });
    const after = (control, key) => {
      const before = rows.lastElementChild && rows.lastElementChild.querySelector(`[data-key="${key}"]`);
      if (control.tagName !== "SELECT" || !before || !before.value) return;
      const values = [...control.options].map((o) => o.value).filter(Boolean);
      const next = values[(values.indexOf(before.value) + 1) % values.length];
      if (next) control.value = next;
    };
    if (items.type === "object" && items.properties) {
      const needed = new Set(items.required || []);
      for (const [key, sub] of Object.entries(items.properties)) {
        const s = shape(setup, sub);
        if (s.type === "object" || s.type === "array") continue; // a sheet: the command line's or the API's
        const control = control_(setup, `${name}.${key}`, s, resolve(setup, sub).default, needed.has(key));
        control.setAttribute("data-key", key);
        if (needed.has(key)) after(control, key);
        row.append(el("label", {}, `${label(key)} `, control));
      }
    } else {
      const control = control_(setup, name, items, undefined, true);
      control.setAttribute("data-key", "");
      after(control, "");
      row.append(control);
    }
    const remove = el("button", { type: "button", class: "quiet", "data-remove": "", text: "Remove" });
    remove.addEventListener("click", () => {
      row.remove();
      renumber(rows, name);
    });
    row.append(remove);
    renumber(rows, name, row);
    return row;
  }

  /** Name each row's controls by the row's number ("party 2 class"), for people using a screen reader
   *  and for tests; ``extra``: a row about to be appended. */
  function renumber(rows, name, extra) {
    [...rows.children, ...(extra ? [extra] : [])].forEach((row, i) => {
      const n = i + 1;
      row.dataset.testid = `row-${name}-${n}`;
      for (const control of row.querySelectorAll("[data-key]")) {
        const key = control.dataset.key;
        control.setAttribute("aria-label", `${label(name)} ${n}${key ? ` ${label(key)}` : ""}`);
      }
      row.querySelector("[data-remove]").setAttribute("aria-label", `Remove ${label(name)} ${n}`);
    });
  }

  /** Refill a control whose values depend on another field's, and follow that field's changes. */
  function refill(setup, control) {
    const box = $("setup-fields");
    const source = box.querySelector(`[data-name="${control.dataset.after}"] select, [data-name="${control.dataset.after}"] input`);
    const name = control.dataset.name || control.closest("[data-name]").dataset.name;
    const fill = () => {
      const by = (setup.offers[name] || {}).by || {};
      const values = by[source ? source.value : ""] || [];
      if (control.tagName === "SELECT") {
        fillOptions(control, values);
        return;
      }
      control.querySelector(".checks").replaceChildren(...values.map((v) => el("label", { class: "check" },
        el("input", { type: "checkbox", "data-item": v.id, checked: !!v.fixed, disabled: !!v.fixed,
          "aria-label": `${label(name)} ${v.id} ${v.name || ""}`.trim(), title: v.note || null }),
        ` ${v.id} ${v.name || ""}`, v.note ? el("span", { class: "muted", text: ` ${v.note}` }) : null)));
    };
    if (source) source.addEventListener("change", fill);
    fill();
  }

  /** A control's value as the request takes it; undefined when left empty. */
  function valueOf(control) {
    const raw = control.type === "checkbox" ? control.checked : String(control.value || "").trim();
    if (control.dataset.value === "bool") return raw === true ? true : undefined;
    if (raw === "") return undefined;
    return control.dataset.value === "int" ? Number(raw) : raw;
  }

  /** The request POST /api/games takes for what the form says: the setup's fields, each left out
   *  when left empty (the builder's defaults then hold). */
  function newGameBody(form) {
    const body = { new: form.elements.namedItem("new").value };
    for (const wrap of $("setup-fields").children) {
      const name = wrap.dataset.name;
      let value;
      if (wrap.dataset.kind === "list") {
        const checks = wrap.querySelector(".checks");
        if (checks) {
          value = [...checks.querySelectorAll("input[data-item]:checked:not(:disabled)")].map((c) => c.dataset.item);
        } else {
          value = [...wrap.querySelectorAll(".row")].map((row) => {
            const controls = [...row.querySelectorAll("[data-key]")];
            if (controls.length === 1 && controls[0].dataset.key === "") return valueOf(controls[0]);
            const item = {};
            for (const c of controls) {
              const v = valueOf(c);
              if (v !== undefined) item[c.dataset.key] = v;
            }
            return item;
          }).filter((v) => v !== undefined);
        }
        if (!value.length) value = undefined;
      } else {
        value = valueOf(wrap.querySelector("[data-name]"));
      }
      if (value !== undefined) body[name] = value;
    }
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
    const href = `/table/${encodeURIComponent(g.id)}#token=${encodeURIComponent(token)}`;
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
    say(`Set up ${answer.data.game}: its links are listed under Games.`, "note");
    await loadGames(answer.data.game);
    // The new game with its links open, in sight (on a phone the list is far above the button).
    const item = document.querySelector(`[data-testid="game-${CSS.escape(answer.data.game)}"]`);
    if (item) item.scrollIntoView({ block: "start" });
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
    $("force-undo").addEventListener("click", () => askForceUndo());
    $("force-undo-no").addEventListener("click", () => {
      $("force-undo-confirm").hidden = true;
      $("force-undo").focus();
    });
    $("force-undo-yes").addEventListener("click", () => {
      $("force-undo-confirm").hidden = true;
      send(`${base}/undo`, { force: true, version: view && view.version });
    });

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

    async function send(path, body, entry) {
      if (busy || !asked(entry || givenBy(body))) return;
      busy = true;
      setEnabled(false);
      const answer = await api("POST", path, body);
      busy = false;
      if (answer.ok) say("");
      else say(refusalText(answer));
      await refresh();
      setEnabled(true);
    }

    /** The listed finished command a body posts, if any (a button's, a hex's). */
    function givenBy(body) {
      if (!body || !body.command || !view) return null;
      const wanted = JSON.stringify(body.command);
      return view.legal.find((e) => !e.open && JSON.stringify(e.command) === wanted) || null;
    }

    /** A command that gives something up (``gives_up``, each with its rule) is sent only once
     *  the player says so: what it gives up, then OK or Cancel. */
    function asked(entry) {
      const notes = (entry && entry.gives_up) || [];
      if (!notes.length) return true;
      const what = notes.map((g) => `${g.what} (${g.rule})`).join("; ");
      return window.confirm(`${entry.example || entry.label}\ngives up ${what}.\nSend it?`);
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
      if (key === "@host") return "the host"; // a command the host alone gives (a GM's)
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
      if (b.kind === "hexes" && b.ally_step) { // the allies' own step: whose ally acts, or the players choose
        const ally = (b.companions || []).find((a) => a.id === b.ally_turn);
        turn = ally ? `${ally.name} (${possessive(ally.controller_name)})` : "allies: choose who acts next";
      } else if (b.kind === "hexes" && b.turn) {
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
      lobby.href = `/#token=${encodeURIComponent(token)}`;
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
        holder.replaceChildren(...(b.field ? [fieldBoard(b), fieldLegend(b)] : []), ...b.sides.map(sideTable));
        return;
      }
      if (b.kind === "rows") {
        holder.replaceChildren(rowsBoard(b));
        return;
      }
      const waiting = (b.companions || []).filter((a) => !a.pos && !a.defeated);
      holder.replaceChildren(hexBoard(b), ...(waiting.length ? [waitingList(waiting)] : []));
    }

    /** The allies not on the map yet (waiting to be placed), listed beside it. */
    function waitingList(waiting) {
      return el("div", { class: "waiting", "data-testid": "waiting" },
        el("span", { class: "row-name", text: "waiting" }),
        ...waiting.map((a) => el("span", {
          class: "chip ally", "data-testid": `waiting-${a.id}`,
          title: `${a.name} (${possessive(a.controller_name)}): ${a.hp}/${a.max_hp} HP, not yet placed`,
          text: `${a.mark} ${a.name} ${a.hp}/${a.max_hp}`,
        })));
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
      const moves = new Map(); // hex -> the first allowed command that goes there (its verb's hex, `at`)
      for (const entry of view.legal) {
        if (entry.allowed && Array.isArray(entry.at) && !moves.has(key(entry.at[0], entry.at[1]))) {
          moves.set(key(entry.at[0], entry.at[1]), entry);
        }
      }
      const caches = new Map((b.caches || []).map((c) => [key(c.q, c.r), c.kind]));
      const units = new Map(); // hex -> the units standing there
      const place = (pos, unit) => {
        if (!pos) return;
        const k = key(pos.q, pos.r);
        if (!units.has(k)) units.set(k, []);
        units.get(k).push(unit);
      };
      (b.heroes || []).forEach((h, i) => { if (!h.defeated) place(h.pos, { hero: h, colour: HERO_COLOURS[i % HERO_COLOURS.length] }); });
      (b.foes || []).forEach((f) => { if (!f.defeated) place(f.pos, { foe: f }); });
      (b.companions || []).forEach((a) => { if (!a.defeated) place(a.pos, { ally: a }); });

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
          tokens.append(unit.hero ? heroToken(unit.hero, unit.colour, x + dx, y, b.turn)
            : unit.ally ? allyToken(unit.ally, x + dx, y) : foeToken(unit.foe, x + dx, y));
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

    /** An ally the players control (a companion): a small diamond with its mark and HP; its name,
     *  HP and controller in its title. */
    function allyToken(a, x, y) {
      const s = 11;
      const g = svg("g", {
        class: `token ally${a.turn ? " turn" : ""}`, "data-testid": `ally-${a.id}`, "data-hex": a.pos.label,
        "pointer-events": "none",
      }, svg("title", { text: `${a.name} (${possessive(a.controller_name)}): ${a.hp}/${a.max_hp} HP on ${a.pos.label}`
        + `${a.turn ? ", on turn" : ""}` }));
      if (a.turn) g.append(svg("circle", { cx: x, cy: y, r: 15, class: "turn-ring" }));
      g.append(svg("polygon", { class: "ally-diamond", points: `${x},${y - s} ${x + s},${y} ${x},${y + s} ${x - s},${y}` }),
        svg("text", { x, y: y + 3.5, class: "token-text ally-mark", text: a.mark }),
        svg("text", { x, y: y + s + 8, class: "ally-hp", "data-testid": `ally-${a.id}-hp`, text: `${a.hp}/${a.max_hp}` }));
      return g;
    }

    function sideName(side) {
      const seat = seatName(side.key);
      return seat === side.army ? seat : `${seat} (${side.army})`;
    }

    // The battlefield of a "regiments" board with a ``field``: the axis between the two table edges,
    // measured in whole units (inches) from each side's own edge, one lane per regiment: on the field a
    // bar from its rear edge to its front rank (the part still off the table dashed), in its side's
    // tray while it arrives or waits; each side's Reinforcement Line across its own lanes.
    const FIELD_W = 400, TRAY = 60, LANE = 26, HEAD = 28, AXIS = 22, SIDE_GAP = 10;

    function fieldBoard(b) {
      const depth = b.field.depth, unit = b.field.unit || "";
      const scale = (FIELD_W - 2 * TRAY) / depth;
      const at = (i, inches) => (i === 0 ? TRAY + inches * scale : FIELD_W - TRAY - inches * scale);
      const lanes = []; // [side index, regiment]
      b.sides.forEach((side, i) => side.regiments.forEach((r) => lanes.push([i, r])));
      const laneY = (n) => HEAD + n * LANE + (lanes[n][0] === 1 ? SIDE_GAP : 0);
      const height = HEAD + lanes.length * LANE + SIDE_GAP + AXIS;
      const parts = [
        svg("rect", { x: TRAY, y: HEAD - 6, width: FIELD_W - 2 * TRAY, height: height - HEAD - AXIS + 12, class: "field-ground" }),
        svg("rect", { x: 0, y: HEAD - 6, width: TRAY, height: height - HEAD - AXIS + 12, class: "field-tray" }),
        svg("rect", { x: FIELD_W - TRAY, y: HEAD - 6, width: TRAY, height: height - HEAD - AXIS + 12, class: "field-tray" }),
      ];
      for (let inches = 0; inches <= depth; inches += 6) { // the axis, from the first side's edge
        const x = at(0, inches);
        parts.push(svg("line", { x1: x, x2: x, y1: height - AXIS, y2: height - AXIS + 4, class: "field-tick" }),
          svg("text", { x, y: height - AXIS + 14, class: "field-axis", text: `${inches}${unit}` }));
        if (inches > 0 && inches < depth) {
          parts.push(svg("line", { x1: x, x2: x, y1: HEAD - 6, y2: height - AXIS, class: "field-grid" }));
        }
      }
      b.sides.forEach((side, i) => {
        const mine = lanes.map((l, n) => [l, n]).filter(([l]) => l[0] === i);
        const top = mine.length ? laneY(mine[0][1]) : HEAD;
        const bottom = mine.length ? laneY(mine[mine.length - 1][1]) + LANE : HEAD;
        const turn = b.turn === side.key;
        parts.push(svg("text", { x: i === 0 ? 3 : FIELD_W - 3, y: 12, class: `field-edge${turn ? " turn" : ""}`,
          "text-anchor": i === 0 ? "start" : "end", text: `${side.key} edge${turn ? " ◆" : ""}` }));
        if (side.line !== undefined && side.line !== null) {
          const x = at(i, side.line);
          parts.push(svg("g", { class: `rline side-${i}`, "data-testid": `rline-${side.key}`, "data-inches": side.line },
            svg("title", { text: `${sideName(side)}: Reinforcement Line at ${side.line}${unit} from its edge`
              + `${side.entry === false ? " (no entry: an enemy stands on its edge)" : ""}` }),
            svg("line", { x1: x, x2: x, y1: top - 4, y2: bottom + 2 }),
            svg("text", { x: i === 0 ? x + 3 : x - 3, y: i === 0 ? HEAD - 9 : height - AXIS - 2,
              "text-anchor": i === 0 ? "start" : "end", text: `RL ${side.line}${unit}` })));
        }
      });
      lanes.forEach(([i, r], n) => parts.push(regimentLane(b, i, r, laneY(n), at, unit)));
      const summary = b.sides.map((side) => `${sideName(side)}: ${side.regiments.filter((r) => r.where === "field").length}`
        + " regiments on the field").join("; ");
      return svg("svg", { class: "field", viewBox: `0 0 ${FIELD_W} ${height}`, role: "img", "data-testid": "battlefield",
        "aria-label": `The battlefield, ${depth}${unit} between the edges. ${summary}` }, ...parts);
    }

    function fieldLegend(b) {
      const unit = b.field.unit || "";
      return el("p", { class: "hint field-legend", "data-testid": "field-legend", text:
        `A lane per regiment, "id ×stands". On the field: a bar from its rear edge to its front rank (the dark line), `
        + `measured from its own edge (axis in ${unit || "units"} from ${b.sides[0].key}'s edge); dashed behind the edge: `
        + "not all on yet. Beside the field: ▸ arriving this Round, dashed: waiting in reinforcements, ✕ destroyed. "
        + "RL: each side's Reinforcement Line." });
    }

    function regimentLane(b, i, r, y, at, unit) {
      const mid = y + LANE / 2;
      const g = svg("g", { class: `regiment side-${i} ${r.where}${r.activated ? " activated" : ""}`,
        "data-testid": `field-${r.id}`, "data-where": r.where, "data-front": r.front, "data-rear": r.rear });
      const label = `${r.id} ×${r.stands}`;
      const where = { field: `front rank ${r.front}${unit} from its edge, rear ${r.rear}${unit}`,
        arriving: "arriving this Round", waiting: "waiting in reinforcements", destroyed: "destroyed" }[r.where] || r.where;
      g.append(svg("title", { text: `${r.id} ${r.name} (${r.class}), ${r.stands} stands: ${where}` }));
      if (r.where === "field") {
        const x1 = at(i, Math.max(r.rear, 0)), x2 = at(i, r.front);
        const left = Math.min(x1, x2), width = Math.max(Math.abs(x2 - x1), 3);
        if (r.rear < 0) { // still partly off the table: the rest behind its edge
          const x0 = at(i, r.rear);
          g.append(svg("rect", { x: Math.min(x0, x1), y: y + 4, width: Math.abs(x1 - x0), height: LANE - 8, class: "off-table" }));
        }
        g.append(svg("rect", { x: left, y: y + 4, width, height: LANE - 8, rx: 2, class: "bar" }),
          svg("line", { x1: x2, x2: x2, y1: y + 2, y2: y + LANE - 2, class: "front-rank" }));
        const behind = at(i, Math.max(r.rear, 0)) + (i === 0 ? -3 : 3);
        const inFront = x2 + (i === 0 ? 3 : -3);
        const room = i === 0 ? behind - TRAY : FIELD_W - TRAY - behind;
        // the label behind the rear edge where there is room, else ahead of the front rank
        const [x, anchor] = room >= 34 ? [behind, i === 0 ? "end" : "start"] : [inFront, i === 0 ? "start" : "end"];
        g.append(svg("text", { x, y: mid + 4, "text-anchor": anchor, class: "lane-label", text: label }));
      } else {
        const x = i === 0 ? 3 : FIELD_W - TRAY + 3;
        g.append(svg("rect", { x, y: y + 3, width: TRAY - 6, height: LANE - 6, rx: 3, class: "tray-box" }),
          svg("text", { x: x + (TRAY - 6) / 2, y: mid + 4, "text-anchor": "middle", class: "lane-label",
            text: `${r.where === "arriving" ? "▸ " : r.where === "destroyed" ? "✕ " : ""}${label}` }));
      }
      return g;
    }

    function sideTable(side) {
      const rows = side.regiments.map((r) => el("tr", { "data-testid": `regiment-${r.id}` },
        el("td", { text: r.id }), el("td", { text: r.name }), el("td", { text: r.class }),
        el("td", { class: "num", text: String(r.stands) }), el("td", { text: r.where }),
        el("td", { class: "num", text: `${r.front}"` })));
      const turn = view.board.turn === side.key;
      return el("section", { class: `side-list${turn ? " turn" : ""}`, "data-testid": `side-${side.key}` },
        el("h3", { text: `${sideName(side)} · ${side.vp} VP${turn ? " · to decide" : ""}` }),
        el("table", {},
          el("thead", {}, el("tr", {}, ...["id", "regiment", "class", "stands", "where", "front"]
            .map((t) => el("th", { scope: "col", class: t === "stands" || t === "front" ? "num" : null, text: t })))),
          el("tbody", {}, ...rows)));
    }

    // A "rows" board: two sides facing each other, each a front and a back
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
          el("div", { class: "rank-cards" }, ...(cards.length ? cards : [el("span", { class: "muted", text: "empty" })])));
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

    let drawnLegal = ""; // the commands last drawn: the same ones again keep what the player chose on them
    function drawLegal() {
      const box = $("legal");
      // A second draw of the same version (the live feed after a command's own answer) leaves the
      // controls as they are: dice toggled or cards ordered there are not thrown away.
      const key = JSON.stringify([view.version, view.summary.over, view.legal]);
      if (key !== drawnLegal) {
        drawnLegal = key;
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
          const mine = [...groups].filter(([, entries]) => entries.some((e) => e.allowed));
          const others = [...groups].filter(([, entries]) => !entries.some((e) => e.allowed));
          box.replaceChildren(...(mine.length ? [] : waitingFor(others)),
            ...mine.map(([actor, entries]) => legalGroup(actor, entries)),
            ...(others.length ? [othersCommands(others, mine.length > 0)] : []));
        }
      }
      drawTakeBack();
    }

    /** Undo and redo as this pass may use them: off with the refusal it would get (its rule and
     *  reason) said under them; the host's undo past revealed dice or a draw is "Force undo",
     *  confirmed first (UNDO-2). */
    function drawTakeBack() {
      const undo = $("undo"), redo = $("redo"), force = $("force-undo");
      const forced = Boolean(view.force_undo);
      undo.hidden = forced;
      force.hidden = !forced;
      force.dataset.off = forced ? "0" : "1";
      if (!forced) $("force-undo-confirm").hidden = true;
      undo.dataset.off = view.may_undo && !forced ? "0" : "1";
      redo.dataset.off = view.may_redo ? "0" : "1";
      for (const [button, note, refusal, doing] of [[undo, $("undo-note"), view.undo_note, "Undo"],
        [redo, $("redo-note"), view.redo_note, "Redo"]]) {
        const text = refusal ? `${doing}: ${refusal.rule && !refusal.reason.includes(refusal.rule)
          ? `${refusal.rule}: ` : ""}${refusal.reason}` : "";
        button.title = text;
        note.textContent = text;
        note.hidden = !text || (view.me || {}).role === "spectator"; // a spectator is told once: it watches
      }
    }

    function askForceUndo() {
      $("force-undo-question").textContent = `Undo ${view.force_undo}? It revealed dice or a draw: undoing it `
        + "passes that barrier (UNDO-2), and the audit marks the undo as forced.";
      $("force-undo-confirm").hidden = false;
      $("force-undo-no").focus();
    }

    /** Whose move it is when none of the commands open now is this pass's: who is acting, what
     *  they may do (their verbs), and what this seat or spectator may do meanwhile. */
    function waitingFor(others) {
      const names = others.map(([actor]) => (actor ? seatName(actor) : "the table"));
      const who = `${listOf(names, "and")} ${names.length > 1 ? "are" : "is"}`;
      const verbs = [...new Set(others.flatMap(([, entries]) => entries.map((e) => e.verb || e.label)))];
      const role = (view.me || {}).role;
      const meanwhile = role === "spectator"
        ? "You are watching: the board, the units and the log redraw by themselves as they act."
        : `Meanwhile: follow the board and the log, which redraw by themselves as they act${view.may_undo
          ? "; you may still undo your last command" : ""}. Your commands appear here when it is your turn.`;
      return [el("div", { class: "waiting-for", "data-testid": "waiting-for", role: "status" },
        el("p", {}, el("b", { text: `${who} acting.` }), ` Open to ${listOf(names, "and")} now: `
          + `${listOf(verbs, "or")}.`),
        el("p", { class: "muted", "data-testid": "meanwhile", text: meanwhile }))];
    }

    function listOf(words, last) {
      return words.length > 1 ? `${words.slice(0, -1).join(", ")} ${last} ${words[words.length - 1]}` : words[0] || "";
    }

    /** The commands open to others, folded away: there to read, not a wall of greyed buttons. */
    function othersCommands(others, mineToo) {
      const count = others.reduce((n, [, entries]) => n + entries.length, 0);
      const names = others.map(([actor]) => (actor ? possessive(seatName(actor)) : "the table's")).join(", ");
      return el("details", { class: "others-commands", "data-testid": "others-commands" },
        el("summary", { text: `${mineToo ? "Others' commands" : "Their commands"}: ${names} (${count})` }),
        ...others.map(([actor, entries]) => legalGroup(actor, entries)));
    }

    function legalGroup(actor, entries) {
      const whose = actor ? possessive(seatName(actor)) : "the table's";
      const yours = entries.some((e) => e.allowed);
      const mine = view.me.role === "host" ? "as host" : "yours";
      const heading = yours ? (actor ? `${whose} (${mine})` : "the table's") : `${whose}: not yours`;
      return el("div", { class: `legal-group${yours ? "" : " others"}` },
        el("h3", { text: heading }),
        el("div", { class: "buttons" }, ...entries.filter((e) => !e.open).map((entry) => {
          const button = el("button", {
            type: "button", class: `cmd${entry.allowed ? "" : " not-mine"}${givesUp(entry) ? " gives-up" : ""}`,
            "data-label": entry.label, "data-gives-up": givesUp(entry) || null,
            "data-off": entry.allowed ? "0" : "1", disabled: !entry.allowed,
            title: entry.allowed ? null : notYours(whose),
            text: givesUp(entry) ? `${entry.label}  (gives up: ${givesUp(entry)})` : entry.label,
          });
          button.addEventListener("click", () => send(`${base}/commands`, { command: entry.command, version: view.version }));
          return button;
        })),
        ...entries.filter((e) => e.open).map((entry) => openCommand(entry, whose)));
    }

    /** What a command gives up, as its control says it ("your Engage this turn, MOVE-3"), or "". */
    function givesUp(entry) {
      return (entry.gives_up || []).map((g) => `${g.what}, ${g.rule}`).join("; ");
    }

    /** Why a command is off for this pass, with the rule that says so: a spectator only reads
     *  (SEAT-3), a seat commands its own (SEAT-1). */
    function notYours(whose) {
      return (view.me || {}).role === "spectator" ? "SEAT-3: a spectator only reads"
        : `SEAT-1: ${whose}, not this seat's`;
    }

    /** An open command: a control per open parameter, built from its domain (a select for one of a
     *  list, dice to toggle, cards to order by clicking them in sequence, numbers, faces to type),
     *  then Give, which posts the line those choices build (the server's grammar reads it back). */
    function openCommand(entry, whose) {
      const off = entry.allowed ? "0" : "1";
      const chosen = new Map(); // parameter name -> () => its words, or [] when left out
      const controls = entry.params.filter((p) => !p.fixed).map((p) => {
        const said = (word) => (p.flag ? [p.option] : p.option ? [`${p.option} ${word}`] : [word]);
        const legend = el("span", { class: "param-name", text: p.option || p.metavar });
        if (p.how === "one") {
          const select = el("select", { "data-param": p.name, "aria-label": `${entry.verb} ${p.option || p.metavar}`, disabled: !entry.allowed, "data-off": off },
            p.optional ? el("option", { value: "", text: p.flag ? "no" : "—" }) : null,
            ...p.values.map((v) => el("option", { value: p.flag ? "yes" : v.word, text: v.label && v.label !== v.word ? `${v.word} · ${v.label}` : (p.flag ? "yes" : v.word) })));
          chosen.set(p.name, () => (select.value ? said(select.value) : []));
          return el("label", { class: "param" }, legend, select);
        }
        if (p.how === "some" || p.how === "order") {
          const picked = []; // words, in the order clicked
          const count = el("span", { class: "muted picked", "data-param-picked": p.name });
          const items = p.values.map((v) => {
            const b = el("button", {
              type: "button", class: "pick", "data-param": p.name, "data-value": v.word, "data-off": off,
              disabled: !entry.allowed, "aria-pressed": "false", title: [v.label, v.group].filter(Boolean).join(" · ") || null,
              text: v.label && v.label !== v.word ? `${v.word}:${v.label}` : v.word,
            });
            b.addEventListener("click", () => {
              const at = picked.indexOf(v.word);
              if (at >= 0) picked.splice(at, 1);
              else {
                const group = p.values.filter((x) => x.group === v.group && picked.includes(x.word)).length;
                if (p.how === "some" && (picked.length >= p.high || (v.group in p.limits && group >= p.limits[v.group]))) return;
                picked.push(v.word);
              }
              for (const other of items) {
                const n = picked.indexOf(other.dataset.value);
                other.setAttribute("aria-pressed", n >= 0 ? "true" : "false");
                other.dataset.order = n >= 0 ? String(n + 1) : "";
              }
              count.textContent = p.how === "order" ? picked.join(", ") : `${picked.length} of ${p.low === p.high ? p.low : `${p.low}–${p.high}`}`;
            });
            return b;
          });
          count.textContent = p.how === "order" ? "click the cards in order" : `0 of ${p.low === p.high ? p.low : `${p.low}–${p.high}`}`;
          chosen.set(p.name, () => (picked.length ? said(picked.join(p.sep || ",")) : []));
          return el("div", { class: "param" }, legend, ...items, count);
        }
        if (p.how === "range") {
          const inputs = Array.from({ length: Math.max(p.size, 1) }, () => el("input", {
            type: "number", min: String(p.low), max: String(p.high), value: String(p.low), "data-param": p.name,
            disabled: !entry.allowed, "aria-label": `${entry.verb} ${p.option || p.metavar}`,
          }));
          chosen.set(p.name, () => said(inputs.map((i) => i.value).join(",")));
          return el("label", { class: "param" }, legend, ...inputs, p.note ? el("span", { class: "muted", text: p.note }) : null);
        }
        const input = el("input", { type: "text", "data-param": p.name, placeholder: "faces, 1 to 6: 3,5", disabled: !entry.allowed });
        chosen.set(p.name, () => (input.value.trim() ? said(input.value.trim()) : []));
        return el("label", { class: "param" }, legend, input);
      });
      const give = el("button", {
        type: "button", class: "cmd give", "data-give": entry.verb, "data-off": off, disabled: !entry.allowed,
        title: entry.allowed ? null : notYours(whose), text: "Give",
      });
      give.addEventListener("click", () => {
        const words = [entry.verb];
        for (const p of entry.params) words.push(...(p.fixed ? p.words : chosen.get(p.name)()));
        send(`${base}/commands`, { line: words.join(" "), version: view.version }, entry);
      });
      return el("div", { class: `open-cmd${entry.allowed ? "" : " not-mine"}`, "data-label": entry.label, "data-verb": entry.verb,
                         "data-gives-up": givesUp(entry) || null },
        el("div", { class: "open-label", text: entry.label }),
        givesUp(entry) ? el("div", { class: "gives-up", text: `gives up: ${givesUp(entry)}` }) : null, ...controls, give);
    }

    // -- the units ------------------------------------------------------------------

    function drawUnits() {
      const box = $("units");
      const b = view.board;
      box.closest("section").hidden = !b || b.kind !== "hexes"; // regiments are listed on the board's place
      if (!b || b.kind !== "hexes") return;
      box.replaceChildren(...(b.heroes || []).map((h) => heroCard(h, b.turn)), ...(b.companions || []).map(allyCard),
        ...(b.foes || []).map(foeCard));
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

    /** A unit of the players: its name and what it is (``race``, ``form`` when the board gives them),
     *  HP, and its track, active slots, dice and ready items when the board has them. */
    function heroCard(h, turn) {
      const chips = (list, text, none) => list.length ? list.map((d) => chip(d.kind, text(d)))
        : [el("span", { class: "muted", text: none })];
      const what = [h.race, h.form].filter(Boolean).join(" · ");
      return el("article", {
        class: `card hero${h.id === turn ? " turn" : ""}${h.defeated ? " defeated" : ""}`, "data-testid": `card-${h.id}`,
      },
      el("h3", {}, h.name, el("span", { class: "muted", text:
        ` ${what}${h.pos ? `${what ? " · " : ""}${h.pos.label}` : ""}${h.defeated ? " · defeated" : ""}${h.id === turn ? " · on turn" : ""}` })),
      hpBar(h.name, h.hp, h.max_hp),
      h.track ? el("div", { class: "row", "data-row": "track" }, el("span", { class: "row-name", text: "track" }),
        ...chips(h.track, (d) => d.text || dieWords(d), "empty")) : null,
      h.active ? el("div", { class: "row", "data-row": "active" }, el("span", { class: "row-name", text: "active" }),
        ...chips(h.active, (d) => d.text || `${dieWords(d)} (${d.amount} left)`, "none"))
        : null,
      h.dice !== undefined ? el("div", { class: "row muted",
        text: `${h.dice} dice${h.ready && h.ready.length ? ` · ready: ${h.ready.join(", ")}` : ""}` }) : null);
    }

    /** A die as its board gives it when it names it no further: its kind, and its face (1 to 6) when it has one. */
    function dieWords(d) {
      return [d.kind.replace(/-/g, " "), d.face ?? null, d.status || null].filter((w) => w !== null).join(" ");
    }

    /** An ally (a companion): its mark and name, its controller, its hex or "waiting" while it is not
     *  on the map yet, its HP and statuses. */
    function allyCard(a) {
      const where = a.defeated ? "gone" : a.pos ? a.pos.label : "waiting";
      return el("article", {
        class: `card ally${a.turn ? " turn" : ""}${a.defeated ? " defeated" : ""}${!a.pos && !a.defeated ? " waiting" : ""}`,
        "data-testid": `card-ally-${a.id}`,
      },
      el("h3", {}, `${a.mark} ${a.name}`, el("span", { class: "muted", text:
        ` ${possessive(a.controller_name)} · ${where}${a.acted ? " · acted" : ""}${a.turn ? " · on turn" : ""}` })),
      hpBar(a.name, a.hp, a.max_hp),
      a.statuses && a.statuses.length ? el("div", { class: "row" }, el("span", { class: "row-name", text: "status" }),
        ...a.statuses.map((m) => chip("status", m))) : null);
    }

    function foeCard(f) {
      return el("article", { class: `card foe${f.defeated ? " defeated" : ""}`, "data-testid": `card-${f.id}` },
        el("h3", {}, `${f.id} ${f.name}`, el("span", { class: "muted", text:
          ` level ${f.level}${f.pos ? ` · ${f.pos.label}` : ""}${f.defeated ? " · defeated" : ""}` })),
        hpBar(`${f.id} ${f.name}`, f.hp, f.max_hp),
        f.marks && f.marks.length ? el("div", { class: "row" }, el("span", { class: "row-name", text: "marks" }),
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
    listen();

    /** The live feed (server-sent events), read with fetch so that the token
     * goes in the Authorization header, not in the address. When it breaks
     * (the server stopped, the network went) the page says "reconnecting…"
     * and reads it again after a pause that grows (`retryDelay`: 1 s, 2 s,
     * 4 s, then 8 s), at once when the browser says it is back online; once
     * back, the table is fetched anew. A refusal (4xx) stops it for good. */
    async function listen() {
      let failures = 0;
      for (;;) {
        let refused = false;
        try {
          const response = await fetch(`${base}/live`, {
            headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" }, cache: "no-store",
          });
          if (!response.ok || !response.body) {
            refused = response.status >= 400 && response.status < 500;
            throw new Error(`live feed: ${response.status}`);
          }
          if (document.body.classList.contains("offline")) refresh(); // what happened while away
          document.body.classList.remove("offline");
          failures = 0;
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value.replace(/\r\n?/g, "\n");
            let end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              told(buffer.slice(0, end));
              buffer = buffer.slice(end + 2);
            }
          }
        } catch (error) {
          // offline until it is read again
        }
        document.body.classList.add("offline");
        document.body.classList.toggle("closed", refused);
        if (refused) return;
        await pause(retryDelay(failures));
        failures += 1;
      }
    }

    /** One event of the feed: a `version` newer than the one drawn redraws. */
    function told(block) {
      let event = "message";
      const data = [];
      for (const row of block.split("\n")) {
        if (row.startsWith("event:")) event = row.slice(6).trim();
        else if (row.startsWith("data:")) data.push(row.slice(5).trimStart());
      }
      if (event !== "version" || !data.length) return;
      let version;
      try {
        version = JSON.parse(data.join("\n")).version;
      } catch (error) {
        return;
      }
      if (!view || version > view.version) refresh();
    }
  }
})();
