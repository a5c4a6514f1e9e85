// The table view and the host's lobby of `rk server`: plain DOM, no framework.
// Every piece of text from the server goes in through textContent (never as
// HTML): names and setups are typed by people.
"use strict";

(() => {
  // The token is after '#' in the link: a browser never sends that part to a
  // server; each request carries it in its Authorization header instead.
  const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
  const $ = (id) => document.getElementById(id);
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
    let answerAsk = null; // the question open now: its answer (true: Yes)
    let asking = ""; // what it is about: "force" (the host's forced undo) or "command"
    $("ask-yes").addEventListener("click", () => answerAsk && answerAsk(true));
    $("ask-no").addEventListener("click", () => answerAsk && answerAsk(false));
    $("ask").addEventListener("keydown", (e) => {
      if (e.key === "Escape" && answerAsk) {
        e.preventDefault();
        answerAsk(false);
      }
    });
    let past = null; // the version the board shows when it is not now (the scrubber), else null
    $("scrub").addEventListener("input", (e) => lookAt(Number(e.target.value)));
    $("scrub-now").addEventListener("click", () => { lookAt(null); $("scrub").focus(); });
    let aimAt = ""; // the label of the open command whose unit or hex a click on the board chooses
    for (const holder of [$("board"), $("units")]) {
      holder.addEventListener("click", (e) => {
        const target = e.target.closest(".choosable");
        if (target && holder.contains(target)) chooseOnBoard(target);
      });
      holder.addEventListener("keydown", (e) => {
        const target = e.target.closest(".choosable");
        if (target && (e.key === "Enter" || e.key === " ")) {
          e.preventDefault();
          chooseOnBoard(target);
        }
      });
    }

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

    /** Post a command (``said``: what it is in players' words, for the question before one that
     *  gives something up; by default the listed command's own words). */
    async function send(path, body, entry, said) {
      const given = entry || givenBy(body);
      if (busy || !(await asked(given, said || (given ? spoken(given) : "")))) return;
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
     *  the player says so, on the page: what it is in players' words (``said``) and what it gives
     *  up, then Yes or No. */
    function asked(entry, said) {
      const notes = (entry && entry.gives_up) || [];
      if (!notes.length) return Promise.resolve(true);
      const what = notes.map((g) => `${g.what} (${g.rule})`).join("; ");
      return ask(`${said || spoken(entry)} gives up ${what}. Send it?`, "Send it", "No, keep it", true);
    }

    /** The page's own question (not the browser's): ``question`` said in the commands panel, then
     *  ``yes`` or ``no`` (Escape: no); resolves true on yes. Focus goes to the first answer
     *  (``yesFirst``) or to the safe one, and back to where it was once answered. */
    function ask(question, yes, no, yesFirst) {
      if (answerAsk) answerAsk(false); // one question at a time: an older one is answered no
      asking = yesFirst ? "command" : "force";
      const from = document.activeElement;
      const fromLabel = from && from.dataset ? from.dataset.label || from.id : null;
      $("ask-question").textContent = question;
      $("ask-yes").textContent = yes;
      $("ask-no").textContent = no;
      $("ask").hidden = false;
      (yesFirst ? $("ask-yes") : $("ask-no")).focus();
      return new Promise((resolve) => {
        answerAsk = (answer) => {
          answerAsk = null;
          $("ask").hidden = true;
          // back to the control that asked (redrawn meanwhile: found again by its label)
          const back = from && from.isConnected ? from : fromLabel
            ? document.querySelector(`[data-label="${CSS.escape(fromLabel)}"]`) || $(fromLabel) : null;
          if (back && !answer) back.focus();
          resolve(answer);
        };
      });
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
      drawLegal(); // first: what a click on the board chooses is known before the board is drawn
      drawScrub();
      if (past === null) {
        drawBoard();
        drawUnits();
      }
      drawLog();
      aim();
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
      $("phase").textContent = b.phase_name || b.phase || view.summary.where;
      const turn = rkBoard.turn(view.board, seatName);
      $("turn").textContent = turn;
      const outcome = $("outcome");
      outcome.hidden = !view.summary.over;
      outcome.textContent = view.summary.over ? `over${b.outcome ? `: ${b.outcome}` : ""}` : "";
      // the token after '#' (never in the address a server sees), as on this page
      $("history-link").href = `/table/${encodeURIComponent(view.game)}/history#token=${encodeURIComponent(token)}`;
      const lobby = $("lobby-link");
      lobby.hidden = me.role !== "host";
      lobby.href = `/#token=${encodeURIComponent(token)}`;
    }

    // -- the board ------------------------------------------------------------------

    function drawBoard() {
      if (past !== null) return; // the scrubber's version is drawn until "back to now"
      rkBoard.draw(view.board, $("board"), {
        none: "This ruleset has no board to draw.", seatName, reach: reachOf(), place: placeOf(),
      });
    }

    /** What a click on a hex gives: the first command this pass may give that goes there (its
     *  verb's hex, `at`), a ghost's placement aside (a ghost is clicked, not the hex under it). */
    function reachOf() {
      const moves = new Map();
      const a = aimed(); // a hex the command worked on may take is chosen by a click, not moved to
      const words = new Set(a ? a.onBoard.filter((o) => o.kind === "hex").flatMap((o) => [...o.words]) : []);
      const taken = new Set(((view.board || {}).hexes || []).filter((h) => words.has(h.label)).map((h) => `${h.q},${h.r}`));
      for (const entry of view.legal) {
        if (entry.allowed && Array.isArray(entry.at) && !ghostly(entry) && !moves.has(`${entry.at[0]},${entry.at[1]}`)) {
          moves.set(`${entry.at[0]},${entry.at[1]}`, entry);
        }
      }
      return (q, r) => {
        if (taken.has(`${q},${r}`)) return null;
        const move = moves.get(`${q},${r}`);
        return move ? { label: spoken(move), go: () => send(`${base}/commands`, { command: move.command, version: view.version }) } : null;
      };
    }

    /** The ghosts of the board, each way to place a waiting tile (its ``verb`` and ``args``). */
    function ways() {
      const b = view.board || {};
      return (b.delve && b.delve.placing && b.delve.placing.ways) || [];
    }

    /** The legal command a ghost's way is: the same verb, and each of its ``args`` the same. */
    function legalOf(way) {
      return view.legal.find((e) => e.verb === way.verb
        && Object.entries(way.args).every(([k, v]) => JSON.stringify(e.command[k]) === JSON.stringify(v)));
    }

    function ghostly(entry) {
      return ways().some((way) => legalOf(way) === entry);
    }

    /** A ghost chosen: its command, when this pass may give it (else the ghosts are only to look at). */
    function placeOf() {
      if (!ways().some((way) => { const e = legalOf(way); return e && e.allowed; })) return null;
      return (way) => {
        const entry = legalOf(way);
        if (entry && entry.allowed) send(`${base}/commands`, { command: entry.command, version: view.version });
      };
    }


    // -- the scrubber: the board at an earlier version, on this page ----------------------

    // the versions read as the history page reads them (board.js): a late answer is dropped
    const steps = rkBoard.versions(
      async (at) => {
        const answer = await api("GET", `${base}/table?at=${at}`);
        if (!answer.ok) throw new Error(refusalText(answer));
        return answer.data;
      },
      (then) => {
        rkBoard.draw(then.board, $("board"), { none: "No board at this version.", seatName });
        drawUnits(then.board);
      },
      (error) => say(error.message),
    );

    /** The scrubber's range, the first version with a game to now, and what it shows. */
    function drawScrub() {
      const scrub = $("scrub");
      scrub.min = String(rkBoard.firstVersion(view.version));
      scrub.max = String(view.version);
      if (past === null) scrub.value = String(view.version);
      $("scrub-position").textContent = past === null ? `now (version ${view.version})`
        : `version ${past} of ${view.version}: the past, nothing can be given from it`;
      $("scrub-now").hidden = past === null;
      document.body.classList.toggle("looking-back", past !== null);
      $("legal").inert = past !== null; // commands are given at now, never at a version looked at
      $("board").dataset.at = String(past ?? view.version);
    }

    /** Draw the board (and the units) as they stood at version ``at``, as this pass may see
     *  them now (GET .../table?at=N masks as now does); null or the newest: now, live again. */
    async function lookAt(at) {
      if (!view) return;
      past = at === null || at >= view.version ? null : Math.max(Number($("scrub").min), at);
      drawScrub();
      if (past === null) {
        steps.drop(); // an answer still on its way is not drawn over now
        drawBoard();
        drawUnits();
        aim();
        return;
      }
      aim();
      await steps.go(past);
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
        aims.clear();
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
      if (!forced && asking === "force" && answerAsk) answerAsk(false); // nothing left to force
      undo.dataset.off = view.may_undo && !forced ? "0" : "1";
      redo.dataset.off = view.may_redo ? "0" : "1";
      for (const [button, note, refusal, words, doing] of [[undo, $("undo-note"), view.undo_note, view.undo_words, "Undo"],
        [redo, $("redo-note"), view.redo_note, view.redo_words, "Redo"]]) {
        // the reason in players' words (a verb's title, not the `rk ...` line the CLI quotes)
        const reason = refusal ? words || refusal.reason : "";
        const text = refusal ? `${doing}: ${refusal.rule && !reason.includes(refusal.rule)
          ? `${refusal.rule}: ` : ""}${reason}` : "";
        button.title = text;
        note.textContent = text;
        note.hidden = !text || (view.me || {}).role === "spectator"; // a spectator is told once: it watches
      }
    }

    async function askForceUndo() {
      const what = view.force_undo_title ? `the last ${view.force_undo_title}` : view.force_undo;
      const sure = await ask(`Undo ${what}? It revealed dice or a draw: undoing it `
        + "passes that barrier (UNDO-2), and the audit marks the undo as forced.", "Force undo", "Keep it", false);
      if (sure && view.force_undo) send(`${base}/undo`, { force: true, version: view && view.version });
    }

    /** Whose move it is when none of the commands open now is this pass's: who is acting, what
     *  they may do (their verbs), and what this seat or spectator may do meanwhile. */
    function waitingFor(others) {
      const names = others.map(([actor]) => (actor ? seatName(actor) : "the table"));
      const who = `${listOf(names, "and")} ${names.length > 1 ? "are" : "is"}`;
      const verbs = [...new Set(others.flatMap(([, entries]) => entries.map((e) => titleOf(e))))];
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

    /** The commands open to ``actor`` (a seat, or the table): one group per verb, in the order
     *  first listed (``verbGroup``). */
    function legalGroup(actor, entries) {
      const whose = actor ? possessive(seatName(actor)) : "the table's";
      const yours = entries.some((e) => e.allowed);
      const mine = view.me.role === "host" ? "as host" : "yours";
      const heading = yours ? (actor ? `${whose} (${mine})` : "the table's") : `${whose}: not yours`;
      const verbs = new Map(); // verb -> its entries, in the order given
      for (const entry of entries) {
        const k = entry.verb || entry.label;
        if (!verbs.has(k)) verbs.set(k, []);
        verbs.get(k).push(entry);
      }
      return el("div", { class: `legal-group${yours ? "" : " others"}` },
        el("h3", { text: heading }),
        ...[...verbs.values()].map((list) => verbGroup(list, whose)));
    }

    // -- commands in players' words ----------------------------------------------------
    //
    // A command is shown by its verb's title (``title``: "Move", "End turn") and its values'
    // labels ("b1", "e2 Road Lookout", "heavy form"), never as the line `rk` types: that line
    // stays in each button's title and in an open command's "command line" disclosure.

    /** A verb's name in players' words: the server's ``title``, else its words capitalised. */
    function titleOf(entry) {
      if (entry.title) return entry.title;
      const words = String(entry.verb || "").replace(/-/g, " ");
      return words.charAt(0).toUpperCase() + words.slice(1);
    }

    /** What a parameter is called at the table: the server's ``title``, else its option's word. */
    function legendOf(p) {
      return p.title || (p.option ? p.option.replace(/^--/, "").replace(/-/g, " ") : String(p.metavar || p.name).toLowerCase());
    }

    /** One sentence a player reads: a summary without what only the command line needs (a clause
     *  naming `rk legal` or an option such as --gm-enemies), a value's name (HEX) as "the hex". */
    function forPlayers(entry) {
      let text = entry.summary || "";
      const keep = (part) => !/`|(^|[\s(])--[a-z]/.test(part);
      text = text.replace(/\s*\(([^()]*)\)/g, (_, inside) => {
        const parts = inside.split(/;\s*/).filter(keep);
        return parts.length ? ` (${parts.join("; ")})` : "";
      });
      text = text.split(/;\s+/).filter(keep).join("; ").trim();
      for (const p of entry.params || []) { // "to HEX" as "to the hex"; an abbreviation players use (PC) stays
        if (!/^[A-Z]{3,}$/.test(p.metavar || "")) continue;
        text = text.replace(new RegExp(`\\b(the |a |an )?${p.metavar}\\b`, "g"), (_, article) => `${article || "the "}${legendOf(p)}`);
      }
      return text && !/[.!?]$/.test(text) ? `${text}.` : text;
    }

    /** A value in players' words: its label (which may name it whole: "Rallying Shout · 2 TP" for
     *  rallying-shout), else the unit the board draws by that id ("e1 Ash Imp"), else its word.
     *  ``named``: whether anything more than the word was found. */
    function valueWords(p, word, names) {
      const v = (p.values || []).find((x) => x.word === word);
      const label = (v && v.label) || "";
      const flat = (t) => String(t).toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
      if (label && label !== word) {
        return { text: flat(label).includes(flat(word)) ? label : `${word} ${label}`, named: true };
      }
      const unit = p.what === "hex" ? "" : names.get(String(word).toLowerCase()); // hex e2 is no enemy e2
      if (unit && unit.toLowerCase() !== String(word).toLowerCase()) return { text: `${word} ${unit}`, named: true };
      return { text: String(word), named: false };
    }

    /** A parameter's fixed value as a phrase: its words when it has a name ("Rallying Shout · 2 TP"),
     *  a word and what it is ("heavy form", "front row"), or what it is and a number or hex
     *  ("rotation 2", "hex b1"); a flag by its name. "" at its default (not given). */
    function phrase(p, names) {
      if (!(p.words || []).length) return "";
      if (p.flag) return legendOf(p);
      const v = (p.values || [])[0];
      const word = v ? v.word : (p.words || []).join(" ").replace(/^--\S+\s*/, "");
      const { text, named } = valueWords(p, word, names);
      if (named) return text;
      return /^[a-z][a-z-]*$/i.test(word) ? `${word} ${legendOf(p)}` : `${legendOf(p)} ${word}`;
    }

    /** The fixed parameters worth saying of ``entry``: given (not at their default), and not the
     *  one naming who gives it (the group's heading says so). */
    function said(entry, only) {
      return (entry.params || []).filter((p) => p.fixed && (p.words || []).length
        && !(entry.actor && (p.values || [])[0] && String(p.values[0].word) === String(entry.actor))
        && (!only || only.has(p.name)));
    }

    /** What tells ``entry`` from the other commands of its verb (the parameters in ``varying``),
     *  in players' words: one value alone ("b1", "e2 Road Lookout"), or each as a phrase. */
    function choiceWords(entry, varying, names = unitNames()) {
      const ps = said(entry, varying);
      if (!ps.length && varying) {
        // a value left at its default is typed as nothing, but among its siblings it is a choice
        // too: said by the label its ruleset gives it ("None (all roll)"), if any
        const quiet = (entry.params || []).filter((p) => p.fixed && varying.has(p.name) && ((p.values || [])[0] || {}).label);
        if (quiet.length) return quiet.map((p) => p.values[0].label).join(", ");
      }
      if (ps.length === 1) return valueWords(ps[0], ps[0].values[0].word, names).text;
      return ps.map((p) => phrase(p, names)).filter(Boolean).join(", ");
    }

    /** A listed command in players' words: its verb's title and what it is given ("Move b2",
     *  "End turn", "Engage · heavy form" for an open command). */
    function spoken(entry) {
      if (entry.open) return [titleOf(entry), ...said(entry).map((p) => phrase(p, unitNames()))].filter(Boolean).join(" · ");
      const rest = choiceWords(entry, null);
      return rest ? `${titleOf(entry)} ${rest}` : titleOf(entry);
    }

    /** One verb's commands: headed by its title and what it does; its finished commands as small
     *  choices labelled by what tells them apart (a move's hex), its open commands each with its
     *  controls. A verb with one finished command and nothing open is one button, its title. */
    function verbGroup(entries, whose) {
      const first = entries[0];
      const title = titleOf(first);
      const names = unitNames();
      const placed = entries.filter(ghostly); // chosen by clicking its ghost on the map
      const finished = entries.filter((e) => !e.open && !placed.includes(e));
      const opened = entries.filter((e) => e.open);
      const summary = forPlayers(first);
      const lone = finished.length === 1 && !opened.length && !placed.length;
      // one open command alone: its own heading is the verb's ("Order the Command Stack"), said once
      const single = opened.length === 1 && !finished.length && !placed.length;
      // the parameters whose values differ between the finished commands: what a choice says
      const varying = new Set();
      for (const e of finished) {
        for (const p of said(e)) {
          if (finished.some((o) => !(o.params || []).some((q) => q.name === p.name
            && JSON.stringify(q.words) === JSON.stringify(p.words)))) varying.add(p.name);
        }
      }
      const choice = (entry) => (lone ? spoken(entry) : choiceWords(entry, varying, names) || spoken(entry));
      // what the choices give up: said once for the verb when they all give up the same
      const ups = new Map();
      for (const e of finished) {
        const g = givesUp(e);
        if (!ups.has(g)) ups.set(g, []);
        ups.get(g).push(e);
      }
      const shared = ups.size === 1 && !lone ? [...ups.keys()][0] : "";
      const notes = lone || ups.size === 1 ? [] : [...ups].filter(([g]) => g).map(([g, list]) =>
        el("p", { class: "gives-up", text: `${list.map(choice).join(", ")}: gives up ${g}` }));
      const buttons = finished.map((entry) => {
        const words = choice(entry);
        const up = givesUp(entry);
        const button = el("button", {
          type: "button", class: `cmd${entry.allowed ? "" : " not-mine"}${up ? " gives-up" : ""}${lone ? "" : " choice"}`,
          "data-label": entry.label, "data-verb": entry.verb || null, "data-gives-up": up || null,
          "data-off": entry.allowed ? "0" : "1", disabled: !entry.allowed,
          // the command line, for whoever types it (the README teaches it)
          title: `${entry.label}${entry.allowed ? "" : ` · ${notYours(whose)}`}`,
          // a choice said whole (its verb's title first, when nothing tells it from the others) keeps one title
          "aria-label": lone ? null : `${words.startsWith(title) ? "" : `${title} `}${words}${up ? ` (gives up: ${up})` : ""}`,
          text: lone && up ? `${words}  (gives up: ${up})` : words,
        });
        button.addEventListener("click", () => send(`${base}/commands`, { command: entry.command, version: view.version },
          entry, lone ? words : `${title} ${words}`));
        return button;
      });
      const onMap = finished.some((e) => e.allowed && Array.isArray(e.at));
      const many = finished.length > 6;
      return el("div", { class: `verb-group${lone ? " lone" : ""}`, "data-verb": first.verb || null,
        "data-testid": `verb-${first.verb || ""}` },
        lone || single ? null : el("h4", { class: "verb-title", text: title }),
        summary && !lone && !single ? el("p", { class: "verb-summary", text: summary }) : null,
        placed.length ? el("p", { class: "hint", "data-testid": "place-on-map", text: `${placed.length} way`
          + `${placed.length === 1 ? "" : "s"} to place the tile: click a ghost's letter on the map to see it, then again`
          + " to place it there." }) : null,
        shared ? el("p", { class: "gives-up", text: `${finished.length > 1 ? "Each gives" : "Gives"} up ${shared}` }) : null,
        ...notes,
        buttons.length ? el("div", { class: `buttons${lone ? "" : " choices"}${many ? " many" : ""}` }, ...buttons) : null,
        summary && lone ? el("p", { class: "verb-summary", text: summary }) : null, // the button says its title
        onMap && !lone ? el("p", { class: "hint", "data-testid": `on-map-${first.verb}`,
          text: `Or click a hex marked on the map to ${title.toLowerCase()} there.` }) : null,
        ...opened.map((entry) => openCommand(entry, whose, single ? summary : "")));
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
     *  list, dice to toggle, cards to put in order by dragging them or with their up and down
     *  buttons, numbers, faces to type), a line that says what the command will do and what it
     *  gives up, then Give, which posts the line those choices build (the server's grammar reads it
     *  back). A parameter whose values are units drawn on the board, or hexes, is also chosen by
     *  clicking the unit (or its card) or the hex: ``aims`` keeps what such a click does. */
    function openCommand(entry, whose, summary = "") {
      const off = entry.allowed ? "0" : "1";
      const chosen = new Map(); // parameter name -> () => its words, or [] when left out
      const shownAs = new Map(); // parameter name -> () => its chosen values in players' words
      const onBoard = []; // the parameters chosen by a click on the board: {p, kind, words, choose, has}
      const names = unitNames();
      const labelOf = (p, word) => valueWords(p, word, names).text;
      const title = titleOf(entry);
      let update = () => {};
      const controls = entry.params.filter((p) => !p.fixed).map((p) => {
        const said = (word) => (p.flag ? [p.option] : p.option ? [`${p.option} ${word}`] : [word]);
        const legend = el("span", { class: "param-name", text: legendOf(p) });
        const named = `${title} ${legendOf(p)}`; // what a screen reader calls its control
        const kind = p.how === "one" || p.how === "some" ? boardKind(p) : "";
        if (p.how === "one") {
          const select = el("select", { "data-param": p.name, "aria-label": named, disabled: !entry.allowed, "data-off": off },
            p.optional ? el("option", { value: "", text: p.flag ? "no" : "—" }) : null,
            ...p.values.map((v) => el("option", { value: p.flag ? "yes" : v.word, text: p.flag ? "yes" : labelOf(p, v.word) })));
          select.addEventListener("change", () => update());
          chosen.set(p.name, () => (select.value ? said(select.value) : []));
          shownAs.set(p.name, () => (!select.value ? "" : p.flag ? "yes" : labelOf(p, select.value)));
          if (kind) {
            onBoard.push({ p, kind, words: new Set(p.values.map((v) => v.word)), has: (w) => select.value === w,
              choose: (w) => { select.value = w; update(); } });
          }
          return el("label", { class: "param" }, legend, select);
        }
        if (p.how === "order") return orderControl(entry, p, off, legend, chosen, shownAs, labelOf, () => update());
        if (p.how === "some") {
          const picked = []; // words, in the order clicked
          const count = el("span", { class: "muted picked", "data-param-picked": p.name });
          const items = p.values.map((v) => {
            const b = el("button", {
              type: "button", class: "pick", "data-param": p.name, "data-value": v.word, "data-off": off,
              disabled: !entry.allowed, "aria-pressed": "false", title: [v.label, v.group].filter(Boolean).join(" · ") || null,
              text: labelOf(p, v.word),
            });
            b.addEventListener("click", () => {
              const at = picked.indexOf(v.word);
              if (at >= 0) picked.splice(at, 1);
              else {
                const group = p.values.filter((x) => x.group === v.group && picked.includes(x.word)).length;
                if (picked.length >= p.high || (v.group in p.limits && group >= p.limits[v.group])) return;
                picked.push(v.word);
              }
              for (const other of items) {
                other.setAttribute("aria-pressed", picked.includes(other.dataset.value) ? "true" : "false");
              }
              count.textContent = `${picked.length} of ${p.low === p.high ? p.low : `${p.low}–${p.high}`}`;
              update();
            });
            return b;
          });
          count.textContent = `0 of ${p.low === p.high ? p.low : `${p.low}–${p.high}`}`;
          chosen.set(p.name, () => (picked.length ? said(picked.join(p.sep || ",")) : []));
          shownAs.set(p.name, () => picked.map((w) => labelOf(p, w)).join(", "));
          if (kind) {
            onBoard.push({ p, kind, words: new Set(p.values.map((v) => v.word)), has: (w) => picked.includes(w),
              choose: (w) => { const b = items.find((x) => x.dataset.value === w); if (b) b.click(); } });
          }
          return el("div", { class: "param" }, legend, ...items, count);
        }
        if (p.how === "range") {
          const inputs = Array.from({ length: Math.max(p.size, 1) }, () => el("input", {
            type: "number", min: String(p.low), max: String(p.high), value: String(p.low), "data-param": p.name,
            disabled: !entry.allowed, "aria-label": named,
            oninput: () => update(),
          }));
          // an optional number left at its least is its "none" (no FP spent): left out of the line
          // and of the preview, as if not given
          const none = () => p.optional && inputs.every((i) => Number(i.value) === p.low);
          chosen.set(p.name, () => (none() ? [] : said(inputs.map((i) => i.value).join(","))));
          shownAs.set(p.name, () => (none() ? "" : inputs.map((i) => i.value).join(", ")));
          return el("label", { class: "param" }, legend, ...inputs, p.note ? el("span", { class: "muted", text: p.note }) : null);
        }
        const input = el("input", { type: "text", "data-param": p.name, placeholder: "faces, 1 to 6: 3,5", disabled: !entry.allowed,
          "aria-label": named,
          oninput: () => update() });
        chosen.set(p.name, () => (input.value.trim() ? said(input.value.trim()) : []));
        shownAs.set(p.name, () => input.value.trim());
        return el("label", { class: "param" }, legend, input);
      });
      const give = el("button", {
        type: "button", class: "cmd give", "data-give": entry.verb, "data-off": off, disabled: !entry.allowed,
        title: entry.allowed ? null : notYours(whose), text: "Give",
      });
      const line = () => {
        const words = [entry.verb];
        for (const p of entry.params) words.push(...(p.fixed ? p.words : chosen.get(p.name)()));
        return words.join(" ");
      };
      give.addEventListener("click", () => {
        send(`${base}/commands`, { line: line(), version: view.version }, entry, doingText(entry, shownAs));
      });
      const preview = el("p", { class: "preview", "data-testid": `preview-${entry.verb}`, "aria-live": "polite" });
      // The command line these choices make, and the usage it comes from, for whoever types it.
      const typed = el("code", { "data-testid": `cmdline-${entry.verb}` });
      const cmdline = el("details", { class: "cmdline" }, el("summary", { text: "command line" }), typed,
        el("p", { class: "usage", text: entry.label }));
      update = () => {
        preview.textContent = previewText(entry, shownAs);
        typed.textContent = `rk ${line()}`;
        if (aimAt === entry.label) aim();
      };
      update();
      const box = el("div", { class: `open-cmd${entry.allowed ? "" : " not-mine"}`, "data-label": entry.label, "data-verb": entry.verb,
                              "data-gives-up": givesUp(entry) || null },
        el("div", { class: "open-label", text: spoken(entry) }),
        summary ? el("p", { class: "verb-summary", text: summary }) : null,
        givesUp(entry) ? el("div", { class: "gives-up", text: `gives up: ${givesUp(entry)}` }) : null, ...controls,
        onBoard.length && entry.allowed ? aimHint(onBoard) : null,
        preview, give, cmdline);
      if (onBoard.length && entry.allowed) {
        aims.set(entry.label, { entry, onBoard, box });
        // the command a player works on is the one a click on the board serves
        box.addEventListener("focusin", () => aimOn(entry.label));
        box.addEventListener("pointerdown", () => aimOn(entry.label));
      }
      return box;
    }

    /** What a click on the board chooses for ``p``: "unit" when its values are units drawn on the
     *  board (their ids, or names), "hex" when they are hexes of the map, else "". */
    function boardKind(p) {
      const words = p.values.map((v) => String(v.word).toLowerCase()).filter(Boolean);
      if (!words.length) return "";
      if (p.what === "hex") return "hex";
      const units = unitNames(); // a unit's id may read as a hex's label (e1): a unit first
      if (words.some((w) => units.has(w))) return "unit";
      return words.every((w) => hexLabels().has(w)) ? "hex" : "";
    }

    function aimHint(onBoard) {
      const what = [...new Set(onBoard.map((o) => (o.kind === "hex" ? "a hex" : "a unit")))].join(" or ");
      // one sentence, whichever shows: before the command is worked on, how to start; after, what a click does
      return el("p", { class: "hint aim-hint" },
        el("span", { class: "aim-off", text: `To choose ${what} by clicking the board, first click or tab into this command.` }),
        el("span", { class: "aim-on", text: `You may also click ${what} marked on the board (dashed: may be chosen, ✓: chosen).` }));
    }

    /** An open command with the values chosen so far, in players' words: its title, its fixed
     *  values, then each chosen one by what it is ("Engage · heavy form · target e1 Ash Imp, c3"). */
    function doingText(entry, shownAs) {
      const parts = entry.params.filter((p) => !p.fixed).map((p) => {
        const text = shownAs.get(p.name)();
        return text ? `${legendOf(p)} ${text}` : "";
      }).filter(Boolean);
      return [spoken(entry), ...parts].join(" · ");
    }

    /** The line under an open command's controls: what it will do, with the values chosen in
     *  players' words, and what it gives up (what the verb does is said above, by its group). */
    function previewText(entry, shownAs) {
      const gives = (entry.gives_up || []).map((g) => `${g.what} (${g.rule})`).join("; ");
      return `Will: ${doingText(entry, shownAs)}. ` + (gives ? `Gives up: ${gives}.` : "Gives up nothing.");
    }

    /** A parameter that takes every value in an order (a Command Stack): a numbered list of the
     *  values' labels, first to last, put in order by dragging an item onto another (desktop) or
     *  with each item's up and down buttons (a phone, the keyboard). */
    function orderControl(entry, p, off, legend, chosen, shownAs, labelOf, changed) {
      const order = p.values.map((v) => v.word);
      const list = el("ol", { class: "order-list", "data-param": p.name, "data-testid": `order-${p.name}`,
        "aria-label": `${titleOf(entry)} ${legendOf(p)}: first to last` });
      const status = el("span", { class: "muted picked", "data-param-picked": p.name, "aria-live": "polite" });
      let dragged = null;
      const move = (word, to, focus) => {
        const from = order.indexOf(word);
        if (from < 0 || to < 0 || to >= order.length || to === from) return;
        order.splice(from, 1);
        order.splice(to, 0, word);
        drawList();
        status.textContent = `${labelOf(p, word)} now ${to + 1} of ${order.length}`;
        if (focus) {
          const again = list.querySelector(`li[data-value="${CSS.escape(word)}"] [data-move="${focus}"]`);
          const other = list.querySelector(`li[data-value="${CSS.escape(word)}"] [data-move="${focus === "up" ? "down" : "up"}"]`);
          (again && !again.disabled ? again : other).focus();
        }
        changed();
      };
      const drawList = () => {
        list.replaceChildren(...order.map((word, i) => {
          const name = labelOf(p, word);
          const up = el("button", { type: "button", class: "quiet move", "data-move": "up", "data-off": i === 0 ? "1" : off,
            disabled: i === 0 || !entry.allowed, "aria-label": `Move ${name} up`, text: "▲" });
          const down = el("button", { type: "button", class: "quiet move", "data-move": "down",
            "data-off": i === order.length - 1 ? "1" : off, disabled: i === order.length - 1 || !entry.allowed,
            "aria-label": `Move ${name} down`, text: "▼" });
          up.addEventListener("click", () => move(word, i - 1, "up"));
          down.addEventListener("click", () => move(word, i + 1, "down"));
          const item = el("li", { class: "order-item", "data-value": word, draggable: entry.allowed ? "true" : null,
            "data-testid": `order-item-${word}` },
          el("span", { class: "order-n", "aria-hidden": "true", text: `${i + 1}.` }),
          el("span", { class: "order-name", text: name }), up, down);
          item.addEventListener("dragstart", (e) => {
            dragged = word;
            e.dataTransfer.effectAllowed = "move";
            e.dataTransfer.setData("text/plain", word);
            item.classList.add("dragging");
          });
          item.addEventListener("dragend", () => { dragged = null; item.classList.remove("dragging"); });
          item.addEventListener("dragover", (e) => {
            if (dragged === null) return;
            e.preventDefault(); // a drop is allowed here
            e.dataTransfer.dropEffect = "move";
          });
          item.addEventListener("drop", (e) => {
            e.preventDefault();
            const word2 = dragged || e.dataTransfer.getData("text/plain");
            dragged = null;
            move(word2, order.indexOf(word), null);
          });
          return item;
        }));
      };
      drawList();
      status.textContent = "drag the cards into order, or move them with ▲ ▼";
      chosen.set(p.name, () => (order.length ? [p.option ? `${p.option} ${order.join(p.sep || ",")}` : order.join(p.sep || ",")] : []));
      shownAs.set(p.name, () => order.map((w, i) => `${i + 1}. ${labelOf(p, w)}`).join(", "));
      return el("div", { class: "param order-param" }, legend, list, status);
    }

    // -- choosing a command's unit or hex on the board -------------------------------------

    const aims = new Map(); // open command's label -> {entry, onBoard, box}: what a board click may choose for it

    /** Unit ids and names drawn on the board (lower case) -> the unit's name. */
    function unitNames() {
      const b = view.board || {};
      const names = new Map();
      const add = (id, name) => {
        if (id) names.set(String(id).toLowerCase(), name || "");
        if (name) names.set(String(name).toLowerCase(), name);
      };
      for (const h of b.heroes || []) add(h.id, h.name);
      for (const f of b.foes || []) add(f.id, f.name);
      for (const a of b.companions || []) add(a.id, a.name);
      for (const side of b.sides || []) {
        for (const r of side.regiments || []) add(r.id, r.name);
        for (const row of Object.values(side.rows || {})) for (const c of row) add(c.id, c.name);
      }
      return names;
    }

    function hexLabels() {
      return new Set(((view.board || {}).hexes || []).map((h) => String(h.label).toLowerCase()));
    }

    function aimOn(label) {
      if (aimAt === label) return;
      aimAt = label;
      drawBoard(); // a hex this command may take is chosen, not moved to
      aim();
    }

    /** The command a click on the board serves (the one last worked on, else the first). */
    function aimed() {
      if (!aims.has(aimAt)) aimAt = aims.size ? aims.keys().next().value : "";
      return aims.get(aimAt) || null;
    }

    /** Mark what the aimed command may take on the board and the cards: dashed, a button, and
     *  solid with a ✓ once chosen. */
    function aim() {
      for (const node of document.querySelectorAll(".choosable")) {
        node.classList.remove("choosable", "chosen");
        for (const a of ["role", "tabindex", "aria-label", "aria-pressed", "data-choose"]) node.removeAttribute(a);
        if (node.dataset.wasRole) node.setAttribute("role", node.dataset.wasRole);
        delete node.dataset.wasRole;
      }
      for (const mark of document.querySelectorAll(".chosen-mark")) mark.remove();
      for (const [label, a] of aims) a.box.classList.toggle("aiming", label === aimAt && past === null);
      const a = aimed();
      if (!a || past !== null) return;
      a.box.classList.add("aiming");
      const units = [...document.querySelectorAll("#board [data-unit], #units [data-unit]")];
      for (const o of a.onBoard) {
        for (const word of o.words) {
          const w = String(word).toLowerCase();
          const nodes = o.kind === "hex"
            ? [...document.querySelectorAll(`#board .hex[data-hex="${CSS.escape(word)}"]`)]
            : units.filter((n) => n.dataset.unit.toLowerCase() === w || (n.dataset.unitName || "").toLowerCase() === w);
          for (const node of nodes) {
            const on = o.has(word);
            if (node.getAttribute("role")) node.dataset.wasRole = node.getAttribute("role");
            node.classList.add("choosable");
            node.classList.toggle("chosen", on);
            node.setAttribute("role", "button");
            node.setAttribute("tabindex", "0");
            node.setAttribute("aria-pressed", on ? "true" : "false");
            node.setAttribute("aria-label", `${on ? "Chosen" : "Choose"} ${word} for ${titleOf(a.entry)} ${legendOf(o.p)}`);
            node.dataset.choose = `${o.p.name}=${word}`;
            if (on && node instanceof SVGElement) { // a ✓ beside the token or hex: chosen, not by colour alone
              const box = node.getBBox();
              node.append(rkBoard.svg("text", { class: "chosen-mark", x: box.x + box.width - 2, y: box.y + 9, text: "✓" }));
            }
          }
        }
      }
    }

    /** A unit, card or hex clicked (or Enter on it) while the aimed command may take it. */
    function chooseOnBoard(node) {
      const a = aimed();
      if (!a || !node.dataset.choose) return;
      const [name, ...rest] = node.dataset.choose.split("=");
      const word = rest.join("=");
      const o = a.onBoard.find((x) => x.p.name === name);
      if (!o) return;
      o.choose(word);
      aim();
      const again = document.querySelector(`[data-choose="${CSS.escape(node.dataset.choose)}"]`);
      if (again) again.focus();
    }

    // -- the units ------------------------------------------------------------------

    function drawUnits(b = view.board) {
      const box = $("units");
      box.closest("section").hidden = !b || b.kind !== "hexes"; // regiments are listed on the board's place
      if (!b || b.kind !== "hexes") return;
      box.replaceChildren(...(b.heroes || []).map((h) => heroCard(h, b.turn)), ...(b.companions || []).map(allyCard),
        ...(b.foes || []).map(foeCard));
    }

    const { hpBar, chip } = rkBoard; // the board's cards and the units' alike
    /** A unit of the players: its name and what it is (``race``, ``form`` when the board gives them),
     *  HP, and its track, active slots, dice and ready items when the board has them. */
    function heroCard(h, turn) {
      const chips = (list, text, none) => list.length ? list.map((d) => chip(d.kind, text(d)))
        : [el("span", { class: "muted", text: none })];
      const what = [h.race, h.form].filter(Boolean).join(" · ");
      return el("article", {
        class: `card hero${h.id === turn ? " turn" : ""}${h.defeated ? " defeated" : ""}`, "data-testid": `card-${h.id}`,
        "data-unit": h.id, "data-unit-name": h.name,
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
        "data-testid": `card-ally-${a.id}`, "data-unit": a.id, "data-unit-name": a.name,
      },
      el("h3", {}, `${a.mark} ${a.name}`, el("span", { class: "muted", text:
        ` ${possessive(a.controller_name)} · ${where}${a.acted ? " · acted" : ""}${a.turn ? " · on turn" : ""}` })),
      hpBar(a.name, a.hp, a.max_hp),
      a.statuses && a.statuses.length ? el("div", { class: "row" }, el("span", { class: "row-name", text: "status" }),
        ...a.statuses.map((m) => chip("status", m))) : null);
    }

    function foeCard(f) {
      return el("article", { class: `card foe${f.defeated ? " defeated" : ""}`, "data-testid": `card-${f.id}`,
        "data-unit": f.id, "data-unit-name": f.name },
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
