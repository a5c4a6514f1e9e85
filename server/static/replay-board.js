// A board document (the one a ruleset declares, `Surface.board`) drawn to be
// looked at, never played on: the dispute page's replay. Plain DOM and SVG;
// every text goes in through textContent. Markers differ by shape and letter
// (heroes a disc with initials, foes a square with their id, allies a diamond
// with their mark), never by colour alone.
"use strict";

window.rkBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const SIZE = 30;
  const ROOT3 = Math.sqrt(3);
  const TILE_COLOURS = ["#e9dcbf", "#d5e3ee", "#efd8d0", "#dbe8cf", "#e4dcf0", "#f2e7c4", "#cfe6e2", "#ecdccb"];
  const HERO_COLOURS = ["#2f6db5", "#7a3fa0", "#2d8a5a", "#b5652f", "#2f8fa3", "#a33f6b"];

  function make(ns, tag, attrs, children) {
    const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }
  const el = (tag, attrs, ...children) => make(null, tag, attrs, children);
  const svg = (tag, attrs, ...children) => make(SVG, tag, attrs, children);

  /** Round, phase and who acts, in a line. */
  function status(b) {
    if (!b) return "";
    const parts = [];
    if (b.round !== undefined && b.round !== null) parts.push(`Round ${b.round}`);
    if (b.phase) parts.push(`Phase ${b.phase}`);
    let turn = "";
    if (b.kind === "hexes" && b.turn) {
      const hero = (b.heroes || []).find((h) => h.id === b.turn);
      turn = hero ? hero.name : String(b.turn);
    } else if (b.kind === "rows") {
      turn = b.acting || (b.awaited || []).join(", ");
    } else if (b.kind === "regiments" && b.turn) {
      const side = (b.sides || []).find((x) => x.key === b.turn);
      turn = side && side.army ? side.army : String(b.turn);
    } else if (b.turn) {
      turn = String(b.turn);
    }
    if (turn) parts.push(`Turn ${turn}`);
    if (b.outcome) parts.push(`over: ${b.outcome}`);
    return parts.join(" · ");
  }

  /** Draw board document `b` into `holder` (none: say so). */
  function draw(b, holder) {
    if (!b) {
      holder.replaceChildren(el("p", { class: "muted", text: "No board to draw at this step." }));
      return;
    }
    if (b.kind === "hexes") holder.replaceChildren(hexBoard(b));
    else if (b.kind === "rows") holder.replaceChildren(rowsBoard(b));
    else if (b.kind === "regiments") holder.replaceChildren(...(b.sides || []).map((s) => sideTable(s, b)));
    else holder.replaceChildren(el("p", { class: "muted", text: `A board of kind ${b.kind} (not drawn here).` }));
  }

  // -- a hex map ----------------------------------------------------------------------

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
    if (!tile) return TILE_COLOURS[0];
    if (tile === "E") return "#c9e2b8";
    return TILE_COLOURS[(String(tile).charCodeAt(0) || 0) % TILE_COLOURS.length];
  }

  function initials(name) {
    const words = String(name).split(/\s+/).filter(Boolean);
    return (words.length > 1 ? words[0][0] + words[1][0] : String(name).slice(0, 2)).toUpperCase();
  }

  function hexBoard(b) {
    const key = (q, r) => `${q},${r}`;
    const units = new Map();
    const place = (pos, unit) => {
      if (!pos) return;
      const k = key(pos.q, pos.r);
      if (!units.has(k)) units.set(k, []);
      units.get(k).push(unit);
    };
    (b.heroes || []).forEach((h, i) => { if (!h.defeated) place(h.pos, { hero: h, colour: HERO_COLOURS[i % HERO_COLOURS.length] }); });
    (b.foes || []).forEach((f) => { if (!f.defeated) place(f.pos, { foe: f }); });
    (b.companions || []).forEach((a) => { if (!a.defeated) place(a.pos, { ally: a }); });
    const caches = new Map((b.caches || []).map((c) => [key(c.q, c.r), c.kind]));
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    const hexes = svg("g", { class: "hexes" });
    const tokens = svg("g", { class: "tokens" });
    for (const h of b.hexes || []) {
      const [x, y] = centre(h.q, h.r);
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
      const cache = caches.get(key(h.q, h.r));
      const describe = [h.label, h.blocked ? "blocked" : `tile ${h.tile}`];
      if (h.number) describe.push(`enemy hex ${h.number}`);
      if (cache) describe.push(`${cache} cache`);
      const cell = svg("g", { class: `hex${h.blocked ? " blocked" : ""}`, "data-testid": `hex-${h.label}` },
        svg("title", { text: describe.join(" · ") }),
        svg("polygon", { points: corners(x, y), fill: h.blocked ? "#2e2a27" : tileColour(h.tile) }),
        svg("text", { x, y: y - 18.5, class: "hex-label", text: h.label }));
      if (!h.blocked && h.tile) cell.append(svg("text", { x: x - 10, y: y + 22, class: "hex-tile", text: h.tile }));
      if (h.number) cell.append(svg("text", { x: x + 10, y: y + 22, class: "hex-number", text: `#${h.number}` }));
      if (cache) cell.append(svg("text", { x: x + 19, y: y + 4, class: "hex-cache", text: "◆" }));
      hexes.append(cell);
      const here = units.get(key(h.q, h.r)) || [];
      here.forEach((unit, i) => {
        const dx = here.length > 1 ? (i - (here.length - 1) / 2) * 14 : 0;
        tokens.append(unit.hero ? heroToken(unit.hero, unit.colour, x + dx, y, b.turn)
          : unit.ally ? allyToken(unit.ally, x + dx, y) : foeToken(unit.foe, x + dx, y));
      });
    }
    if (minX === Infinity) return el("p", { class: "muted", text: "No map yet." });
    const pad = SIZE + 4;
    return svg("svg", {
      class: "board", role: "group", "aria-label": `The map: ${(b.hexes || []).length} hexes`,
      viewBox: `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ${(maxX - minX + 2 * pad).toFixed(1)} ${(maxY - minY + 2 * pad).toFixed(1)}`,
    }, hexes, tokens);
  }

  function heroToken(h, colour, x, y, turn) {
    const g = svg("g", { class: `token hero${h.id === turn ? " turn" : ""}`, "data-testid": `hero-${h.id}`, "data-hex": h.pos.label },
      svg("title", { text: `${h.name}: ${h.hp}/${h.max_hp} HP on ${h.pos.label}${h.id === turn ? ", on turn" : ""}` }));
    if (h.id === turn) g.append(svg("circle", { cx: x, cy: y, r: 16, class: "turn-ring" }));
    g.append(svg("circle", { cx: x, cy: y, r: 13, fill: colour, class: "hero-disc" }),
      svg("text", { x, y: y + 4, class: "token-text", text: initials(h.name) }));
    return g;
  }

  function foeToken(f, x, y) {
    return svg("g", { class: "token foe", "data-testid": `foe-${f.id}`, "data-hex": f.pos.label },
      svg("title", { text: `${f.id} ${f.name}: ${f.hp}/${f.max_hp} HP on ${f.pos.label}` }),
      svg("rect", { x: x - 12, y: y - 12, width: 24, height: 24, rx: 5, class: "foe-box" }),
      svg("text", { x, y: y + 4, class: "token-text", text: f.id }));
  }

  function allyToken(a, x, y) {
    const s = 11;
    return svg("g", { class: "token ally", "data-testid": `ally-${a.id}`, "data-hex": a.pos.label },
      svg("title", { text: `${a.name}: ${a.hp}/${a.max_hp} HP on ${a.pos.label}` }),
      svg("polygon", { class: "ally-diamond", points: `${x},${y - s} ${x + s},${y} ${x},${y + s} ${x - s},${y}` }),
      svg("text", { x, y: y + 3.5, class: "token-text ally-mark", text: a.mark || "A" }));
  }

  // -- two sides in rows ---------------------------------------------------------------

  function rowsBoard(b) {
    const sides = [...(b.sides || [])].sort((x, y) => (x.side === "enemies" ? -1 : 0) - (y.side === "enemies" ? -1 : 0));
    return el("div", { class: "rows-board", "data-testid": "rows-board" }, ...sides.map((side) => {
      const ranks = ["front", "back"].map((row) => {
        const cards = ((side.rows || {})[row] || []).map((c) => fighterCard(c, b));
        return el("div", { class: "rank", "data-testid": `${side.side}-${row}` },
          el("span", { class: "rank-name", text: row }),
          ...(cards.length ? cards : [el("span", { class: "muted", text: "empty" })]));
      });
      if (side.side === "enemies") ranks.reverse();
      return el("section", { class: `rows-side ${side.side}`, "data-testid": `side-${side.side}` },
        el("h3", { text: side.side === "party" ? "Party" : side.side === "enemies" ? "Enemies" : side.side }), ...ranks);
    }));
  }

  function fighterCard(c, b) {
    const acting = c.acting || (b.awaited || []).includes(c.id);
    const notes = [];
    if (c.level !== undefined) notes.push(`lv ${c.level}`);
    if (c.incapacitated) notes.push("incapacitated");
    else if (c.out) notes.push("out");
    if (c.acting) notes.push("acting");
    const hp = Math.max(0, c.hp);
    return el("article", { class: `card${acting ? " turn" : ""}${c.out ? " defeated" : ""}`, "data-testid": `card-${c.id}` },
      el("h4", { text: `${c.id} ${c.name}` }),
      el("div", { class: "muted", text: notes.join(" · ") }),
      el("div", { text: `HP ${hp}/${c.max_hp}${c.tp !== undefined ? ` · TP ${c.tp}/${c.max_tp}` : ""}`
        + `${c.fp === null || c.fp === undefined ? "" : ` · FP ${c.fp}`}` }));
  }

  // -- regiments, side by side ---------------------------------------------------------

  function sideTable(side, b) {
    const turn = b.turn === side.key;
    const rows = (side.regiments || []).map((r) => el("tr", { "data-testid": `regiment-${r.id}` },
      el("td", { text: r.id }), el("td", { text: r.name }), el("td", { text: r.class }),
      el("td", { text: String(r.stands) }), el("td", { text: r.where }), el("td", { text: `${r.front}"` })));
    return el("section", { class: `side-list${turn ? " turn" : ""}`, "data-testid": `side-${side.key}` },
      el("h3", { text: `${side.army || side.key} · ${side.vp ?? 0} VP${turn ? " · to decide" : ""}` }),
      el("div", { class: "scroll" }, el("table", {},
        el("thead", {}, el("tr", {}, ...["id", "regiment", "class", "stands", "where", "front"]
          .map((t) => el("th", { scope: "col", text: t })))),
        el("tbody", {}, ...rows))));
  }

  return { draw, status };
})();
