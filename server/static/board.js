// The board a ruleset declares (its board document, `Surface.board`), drawn
// for every page that shows one: the table (to play on), its history and the
// dispute page (to look at). One drawer, so that every page draws every board
// alike: a hex map (a delve with its tiles, icons, skyshards and, while a tile
// waits, each legal placement as a ghost), a battlefield of lanes, two sides
// in rows of cards. Plain DOM and SVG; every text goes in through textContent.
// Markers differ by shape and letter, never by colour alone: heroes a disc with
// initials, foes a square with their id, allies a diamond with their mark,
// ghosts a dashed outline with their letter.
//
// rkBoard.draw(board, holder, options) draws; what makes it a table to play on
// comes in `options`, the read-only pages pass none:
//   seatName(key)  a seat's name (default: the key itself);
//   reach(q, r)    the command a click on hex (q, r) gives: {label, go()}, or null;
//   place(way)     a ghost placement chosen (clicked twice, or clicked and
//                  confirmed): the page gives its command; without it the
//                  ghosts are there to look at.
"use strict";

window.rkBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const SIZE = 30;
  const LETTER_R = 9; // a ghost's letter: the radius of its disc
  const ROOT3 = Math.sqrt(3);
  const TILE_COLOURS = ["#e9dcbf", "#d5e3ee", "#efd8d0", "#dbe8cf", "#e4dcf0", "#f2e7c4", "#cfe6e2", "#ecdccb"];
  const HERO_COLOURS = ["#2f6db5", "#7a3fa0", "#2d8a5a", "#b5652f", "#2f8fa3", "#a33f6b"];
  // The six neighbours of a hex (axial), in the order of its corners' edges as `corners` draws them.
  const EDGES = [[1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1], [1, -1]];

  let seatName = (key) => key; // the options of the draw under way
  let reach = () => null;
  let place = null;
  let chosenWay = null; // the ghost chosen last ("A"), kept across redraws of the same placements

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
    node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
    return node;
  }

  function setAttrs(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.setAttribute("class", value);
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : String(value));
    }
  }

  function possessive(name) {
    return String(name).endsWith("s") ? `${name}'` : `${name}'s`;
  }

  /** Who acts now on board `b`, in players' words ("—": nobody). */
  function turn(b, names) {
    if (names) seatName = names;
    if (!b) return "—";
    if (b.kind === "hexes" && b.ally_step) { // the allies' own step: whose ally acts, or the players choose
      const ally = (b.companions || []).find((a) => a.id === b.ally_turn);
      return ally ? `${ally.name} (${possessive(ally.controller_name)})` : "allies: choose who acts next";
    }
    if (b.kind === "hexes" && b.turn) {
      const hero = (b.heroes || []).find((h) => h.id === b.turn);
      return hero ? hero.name : String(b.turn);
    }
    if (b.kind === "regiments" && b.turn) return seatName(b.turn);
    if (b.kind === "rows") return rowsAwaited(b);
    return b.turn ? String(b.turn) : "—";
  }

  /** Round, phase and who acts, in a line (the read-only pages' status). */
  function status(b, names) {
    if (!b) return "";
    const parts = [];
    if (b.round !== undefined && b.round !== null) parts.push(`Round ${b.round}`);
    if (b.phase) parts.push(`Phase ${b.phase_name || b.phase}`);
    const who = turn(b, names);
    if (who && who !== "—") parts.push(`Turn ${who}`);
    if (b.outcome) parts.push(`over: ${b.outcome}`);
    return parts.join(" · ");
  }

  /** Draw board document `b` into `holder` (none: say so), with `options` (see above). */
  function draw(b, holder, options = {}) {
    seatName = options.seatName || ((key) => key);
    reach = options.reach || (() => null);
    place = options.place || null;
    if (!b) {
      holder.replaceChildren(el("p", { class: "muted", text: options.none || "No board to draw at this step." }));
      return;
    }
    if (b.kind === "regiments") {
      holder.replaceChildren(...(b.field ? [fieldBoard(b), fieldLegend(b)] : []),
        ...(b.sides || []).map((s) => sideTable(s, b)));
    } else if (b.kind === "rows") {
      holder.replaceChildren(rowsBoard(b));
    } else if (b.kind === "hexes") {
      const waiting = (b.companions || []).filter((a) => !a.pos && !a.defeated);
      holder.replaceChildren(...(b.delve ? [delveProgress(b.delve)] : []), hexBoard(b),
        ...(b.delve && b.delve.placing ? [ghostNote(b.delve.placing)] : []),
        ...(waiting.length ? [waitingList(waiting)] : []));
    } else {
      holder.replaceChildren(el("p", { class: "muted", text: `A board of kind ${b.kind} (not drawn here).` }));
    }
  }

  // -- a hex map ----------------------------------------------------------------------

  function centre(q, r) {
    return [SIZE * ROOT3 * (q + r / 2), SIZE * 1.5 * r];
  }

  function cornerAt(x, y, i, size = SIZE) {
    const a = (Math.PI / 180) * (60 * i - 30);
    return [x + size * Math.cos(a), y + size * Math.sin(a)];
  }

  function corners(x, y, size = SIZE) {
    const points = [];
    for (let i = 0; i < 6; i++) {
      const [cx, cy] = cornerAt(x, y, i, size);
      points.push(`${cx.toFixed(1)},${cy.toFixed(1)}`);
    }
    return points.join(" ");
  }

  function tileColour(tile) {
    if (!tile) return TILE_COLOURS[0];
    if (tile === "E") return "#c9e2b8";
    const s = String(tile);
    let n = 0;
    for (const c of s) n = (n * 31 + c.charCodeAt(0)) % 9973;
    return TILE_COLOURS[n % TILE_COLOURS.length];
  }

  const ICON_WORDS = { connection: "Connection hex", common: "Common item hex", enemy: "enemy hex" };

  /** A delve's icon on a hex, drawn by shape: a Connection a ring with a bar across, an
   *  item hex a small box, an enemy hex a small triangle. */
  function iconMark(icon, x, y) {
    if (icon === "connection") {
      return svg("g", { class: "icon connection" }, svg("circle", { cx: x, cy: y + 18, r: 5 }),
        svg("line", { x1: x - 5, y1: y + 18, x2: x + 5, y2: y + 18 }));
    }
    if (icon === "common") return svg("rect", { class: "icon common", x: x - 4, y: y + 14, width: 8, height: 8 });
    if (icon === "enemy") return svg("polygon", { class: "icon enemy", points: `${x},${y + 13} ${x + 5},${y + 22} ${x - 5},${y + 22}` });
    return null;
  }

  /** The edges of each hex that are a tile's border (a neighbour of another tile, or none):
   *  drawn thick, so the tiles are told apart by their outline. */
  function tileBorders(b, key) {
    const tileAt = new Map((b.hexes || []).map((h) => [key(h.q, h.r), h.tile]));
    const lines = svg("g", { class: "tile-borders", "pointer-events": "none" });
    for (const h of b.hexes || []) {
      const [x, y] = centre(h.q, h.r);
      EDGES.forEach(([dq, dr], i) => {
        const other = tileAt.get(key(h.q + dq, h.r + dr));
        if (other === h.tile) return;
        const [x1, y1] = cornerAt(x, y, i);
        const [x2, y2] = cornerAt(x, y, (i + 1) % 6);
        lines.append(svg("line", { x1: x1.toFixed(1), y1: y1.toFixed(1), x2: x2.toFixed(1), y2: y2.toFixed(1) }));
      });
    }
    return lines;
  }

  function hexBoard(b) {
    const key = (q, r) => `${q},${r}`;
    const caches = new Map((b.caches || []).map((c) => [key(c.q, c.r), c.kind]));
    const units = new Map(); // hex -> the units standing there
    const stand = (pos, unit) => {
      if (!pos) return;
      const k = key(pos.q, pos.r);
      if (!units.has(k)) units.set(k, []);
      units.get(k).push(unit);
    };
    (b.heroes || []).forEach((h, i) => { if (!h.defeated) stand(h.pos, { hero: h, colour: HERO_COLOURS[i % HERO_COLOURS.length] }); });
    (b.foes || []).forEach((f) => { if (!f.defeated) stand(f.pos, { foe: f }); });
    (b.companions || []).forEach((a) => { if (!a.defeated) stand(a.pos, { ally: a }); });

    const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    const grow = (x, y) => {
      box.minX = Math.min(box.minX, x); box.maxX = Math.max(box.maxX, x);
      box.minY = Math.min(box.minY, y); box.maxY = Math.max(box.maxY, y);
    };
    const hexes = svg("g", { class: "hexes" });
    const outlines = svg("g", { class: "reach-outlines", "pointer-events": "none" }); // over every hex's edge
    const tokens = svg("g", { class: "tokens" });
    const delve = !!b.delve;
    for (const h of b.hexes || []) {
      const [x, y] = centre(h.q, h.r);
      grow(x, y);
      const move = h.blocked ? null : reach(h.q, h.r);
      const cache = caches.get(key(h.q, h.r));
      const tag = h.tag || h.tile;
      const describe = [h.label, h.blocked ? "blocked" : `tile ${tag}`];
      if (h.icon) describe.push(ICON_WORDS[h.icon] || h.icon);
      if (h.explorable) describe.push("explorable now");
      if (h.exploring) describe.push("being explored");
      if (h.shards) describe.push(`${h.shards} skyshard${h.shards === 1 ? "" : "s"} to take on this tile`);
      if (h.number) describe.push(`enemy hex ${h.number}`);
      if (cache) describe.push(`${cache} cache`);
      if (h.marker === "special") describe.push("special");
      const cell = svg("g", {
        class: `hex${h.blocked ? " blocked" : ""}${move ? " reach" : ""}${h.explorable ? " explorable" : ""}`
          + `${h.exploring ? " exploring" : ""}`,
        "data-testid": `hex-${h.label}`, "data-hex": h.label, "data-tile": tag || null, "data-icon": h.icon || null,
        role: move ? "button" : null, tabindex: move ? "0" : null,
        "aria-label": move ? `${move.label}` : null,
      },
      svg("title", { text: describe.join(" · ") }),
      svg("polygon", { points: corners(x, y), fill: h.blocked ? "#2e2a27" : tileColour(h.tile) }),
      svg("text", { x, y: y - 18.5, class: "hex-label", text: h.label }));
      if (!h.blocked && tag) cell.append(svg("text", { x: x - 11, y: y + 22, class: "hex-tile", text: tag }));
      if (h.number) cell.append(svg("text", { x: x + 10, y: y + 22, class: "hex-number", text: `#${h.number}` }));
      if (h.marker === "special") cell.append(svg("text", { x: x + 10, y: y + 22, class: "hex-special", text: "★" }));
      if (delve) cell.append(iconMark(h.icon, x, y));
      if (h.explorable || h.exploring) {
        cell.append(svg("text", { x: x + 13, y: y - 2, class: h.explorable ? "hex-open" : "hex-exploring",
          "data-testid": h.explorable ? `explorable-${h.label}` : `exploring-${h.label}`, text: h.explorable ? "?" : "!" }));
      }
      if (h.shards) {
        cell.append(svg("text", { x: x - 14, y: y - 2, class: "hex-shard", "data-testid": `shard-${h.label}`, text: "✦" }));
      }
      if (cache) {
        const s = cache === "legendary" ? 7 : 6;
        cell.append(svg("polygon", {
          class: `cache ${cache}`, points: `${x + 19},${y - s} ${x + 19 + s},${y} ${x + 19},${y + s} ${x + 19 - s},${y}`,
        }));
      }
      if (move) {
        outlines.append(svg("polygon", { points: corners(x, y), class: "reach-outline" }));
        cell.addEventListener("click", move.go);
        cell.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); move.go(); } });
      }
      hexes.append(cell);
      const here = units.get(key(h.q, h.r)) || [];
      here.forEach((unit, i) => {
        const dx = here.length > 1 ? (i - (here.length - 1) / 2) * 14 : 0;
        tokens.append(unit.hero ? heroToken(unit.hero, unit.colour, x + dx, y, b.turn)
          : unit.ally ? allyToken(unit.ally, x + dx, y) : foeToken(unit.foe, x + dx, y));
      });
    }
    if (box.minX === Infinity) return el("p", { class: "muted", text: "No map yet." });
    const layers = [hexes, tileBorders(b, key), outlines, tokens];
    if (b.delve && b.delve.placing) layers.push(...ghosts(b.delve.placing, grow));
    const pad = SIZE + 4;
    const w = box.maxX - box.minX + 2 * pad, hgt = box.maxY - box.minY + 2 * pad;
    return svg("svg", {
      class: "board", viewBox: `${(box.minX - pad).toFixed(1)} ${(box.minY - pad).toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}`,
      role: "group", "aria-label": `The map: ${(b.hexes || []).length} hexes`,
    }, ...layers);
  }

  // -- a delve: its progress, and the tile waiting drawn where it may go ---------------------

  /** The objective and its skyshards: one ◆ per skyshard gained, ◇ per one still needed. */
  function delveProgress(d) {
    const held = Math.min(d.gained, d.required);
    return el("div", { class: "delve-progress", "data-testid": "delve-progress" },
      el("b", { text: d.objective }),
      el("span", { class: "shards", "aria-hidden": "true", text: "◆".repeat(held) + "◇".repeat(Math.max(0, d.required - held)) }),
      el("span", { "data-testid": "skyshards", text: `skyshards ${d.gained}/${d.required} held` }),
      el("span", { class: "muted", text: `· ${d.drawn}/${d.required} drawn · deck ${d.deck}` }),
      d.over ? el("b", { text: `· over: ${d.over}` }) : null);
  }

  /** Every legal placement of the tile waiting, each a ghost: its hexes dashed, its icons, and its
   *  letter on its origin (letters sharing a hex side by side). A click on a letter shows that ghost
   *  whole; a second click (on the letter or the ghost) places it, where the page may. */
  function ghosts(placing, grow) {
    const shapes = svg("g", { class: "ghosts" });
    const letters = svg("g", { class: "ghost-letters" });
    const ways = placing.ways || [];
    if (!ways.some((w) => w.mark === chosenWay)) chosenWay = null;
    const byOrigin = new Map();
    for (const way of ways) {
      const [ox, oy] = way.hexes.length ? centre(way.hexes[0].q, way.hexes[0].r) : [0, 0];
      const at = `${ox.toFixed(0)},${oy.toFixed(0)}`;
      if (!byOrigin.has(at)) byOrigin.set(at, []);
      byOrigin.get(at).push(way);
    }
    for (const way of ways) {
      const g = svg("g", {
        class: `ghost${way.mark === chosenWay ? " chosen" : ""}`, "data-testid": `ghost-${way.mark}`, "data-way": way.mark,
      }, svg("title", { text: `${placing.tile}, placement ${way.mark}: rotation ${way.rotation}, origin ${way.origin}` }));
      for (const c of way.hexes) {
        const [x, y] = centre(c.q, c.r);
        grow(x, y);
        g.append(svg("polygon", { class: "ghost-hex", points: corners(x, y, SIZE - 1.5) }), iconMark(c.icon, x, y));
      }
      g.addEventListener("click", () => { if (g.classList.contains("chosen")) choose(way, placing); });
      shapes.append(g);
    }
    for (const { way, x, y: oy } of letterPlaces(byOrigin)) {
      {
        grow(x, oy);
        const button = svg("g", {
          class: `ghost-pick${way.mark === chosenWay ? " chosen" : ""}`, "data-testid": `ghost-pick-${way.mark}`,
          "data-way": way.mark, role: "button", tabindex: "0",
          "aria-label": `Placement ${way.mark}: ${placing.tile} turned ${way.rotation}, origin ${way.origin}`,
        }, svg("circle", { cx: x.toFixed(1), cy: oy.toFixed(1), r: LETTER_R }),
        svg("text", { x: x.toFixed(1), y: (oy + 4).toFixed(1), text: way.mark }));
        const pick = () => choose(way, placing);
        button.addEventListener("click", pick);
        button.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
        letters.append(button);
      }
    }
    return [shapes, letters];
  }

  /** Where each ghost's letter goes: alone, on its origin; several on one origin, on a ring
   *  around it, far enough apart to be read and clicked; then letters of neighbouring origins that
   *  still touch are pushed apart (a few rounds of nudging) so that none covers another. */
  function letterPlaces(byOrigin) {
    const GAP = 2 * LETTER_R + 3; // centre to centre: two letters and a little air
    const places = [];
    for (const [, here] of byOrigin) {
      const [ox, oy] = centre(here[0].hexes[0].q, here[0].hexes[0].r);
      const n = here.length;
      const ring = n > 1 ? Math.max(LETTER_R + 3, GAP / (2 * Math.sin(Math.PI / n))) : 0;
      here.forEach((way, i) => {
        const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
        places.push({ way, x: ox + ring * Math.cos(a), y: oy + ring * Math.sin(a) });
      });
    }
    for (let round = 0; round < 40; round++) {
      let moved = false;
      for (let i = 0; i < places.length; i++) {
        for (let j = i + 1; j < places.length; j++) {
          const p = places[i], q = places[j];
          let dx = q.x - p.x, dy = q.y - p.y;
          const d = Math.hypot(dx, dy);
          if (d >= GAP) continue;
          if (d < 0.01) { dx = 1; dy = 0; }
          const push = (GAP - d) / 2 + 0.1, len = Math.hypot(dx, dy);
          p.x -= (dx / len) * push; p.y -= (dy / len) * push;
          q.x += (dx / len) * push; q.y += (dy / len) * push;
          moved = true;
        }
      }
      if (!moved) break;
    }
    return places;
  }

  /** A ghost clicked: the first click shows it (and says what a second does), the second places it. */
  function choose(way, placing) {
    if (chosenWay === way.mark && place) {
      place(way);
      return;
    }
    chosenWay = way.mark;
    for (const node of document.querySelectorAll(".ghost, .ghost-pick")) {
      node.classList.toggle("chosen", node.dataset.way === way.mark);
    }
    const chosen = document.querySelector(`.ghost[data-way="${CSS.escape(way.mark)}"]`);
    if (chosen) chosen.parentNode.append(chosen); // drawn over the other ghosts
    const note = document.querySelector("[data-testid=ghost-note]");
    if (note) note.replaceWith(ghostNote(placing));
  }

  /** What the tile waiting is and what a click does, under the map; with a chosen ghost, a
   *  button that places it (the same as clicking it again). */
  function ghostNote(placing) {
    const way = (placing.ways || []).find((w) => w.mark === chosenWay);
    const head = `${placing.tile}${placing.shape ? ` (${placing.shape})` : ""} waits to be placed against `
      + `${placing.against}, explored by ${placing.by}: ${placing.ways.length} way${placing.ways.length === 1 ? "" : "s"}`
      + " (EXPLORATION-9b), each a dashed ghost with its letter.";
    const next = way ? ` ${way.mark}: turned ${way.rotation}, origin ${way.origin}.`
      + (place ? " Click it again to place the tile there." : "")
      : (place ? " Click a letter to see its tile, then again to place it." : " Click a letter to see its tile.");
    // The same letters as a list beside the map: each readable and clickable however crowded the map.
    const list = el("div", { class: "ghost-list", "data-testid": "ghost-list", role: "group",
      "aria-label": "The placements by letter" }, ...(placing.ways || []).map((w) => el("button", {
      type: "button", class: `quiet ghost-item${w.mark === chosenWay ? " chosen" : ""}`, "data-testid": `ghost-list-${w.mark}`,
      "aria-pressed": w.mark === chosenWay ? "true" : "false", title: `turned ${w.rotation}, origin ${w.origin}`,
      text: `${w.mark} · ${w.origin} ↻${w.rotation}`, onclick: () => choose(w, placing),
    })));
    return el("div", { class: "ghost-note", "data-testid": "ghost-note", role: "status" },
      el("p", {}, head, next, way && place ? el("button", { type: "button", class: "primary", "data-testid": "place-ghost",
        text: `Place it (${way.mark})`, onclick: () => place(way) }) : null), list);
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


  function initials(name) {
    const words = name.split(/\s+/).filter(Boolean);
    return (words.length > 1 ? words[0][0] + words[1][0] : name.slice(0, 2)).toUpperCase();
  }

  function heroToken(h, colour, x, y, turn) {
    const g = svg("g", {
      class: `token hero${h.id === turn ? " turn" : ""}`, "data-testid": `hero-${h.id}`, "data-unit": h.id, "data-unit-name": h.name,
      "data-hex": h.pos.label, "pointer-events": "none",
    }, svg("title", { text: `${h.name}: ${h.hp}/${h.max_hp} HP on ${h.pos.label}${h.id === turn ? ", on turn" : ""}` }));
    if (h.id === turn) g.append(svg("circle", { cx: x, cy: y, r: 16, class: "turn-ring" }));
    g.append(svg("circle", { cx: x, cy: y, r: 13, fill: colour, class: "hero-disc" }),
      svg("text", { x, y: y + 4, class: "token-text", text: initials(h.name) }));
    return g;
  }

  function foeToken(f, x, y) {
    return svg("g", { class: "token foe", "data-testid": `foe-${f.id}`, "data-hex": f.pos.label, "pointer-events": "none",
      "data-unit": f.id, "data-unit-name": f.name },
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
      "data-unit": a.id, "data-unit-name": a.name,
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
      "data-testid": `field-${r.id}`, "data-where": r.where, "data-front": r.front, "data-rear": r.rear,
      "data-unit": r.id, "data-unit-name": r.name });
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

  function sideTable(side, b) {
    const rows = side.regiments.map((r) => el("tr", { "data-testid": `regiment-${r.id}`, "data-unit": r.id, "data-unit-name": r.name },
      el("td", { text: r.id }), el("td", { text: r.name }), el("td", { text: r.class }),
      el("td", { class: "num", text: String(r.stands) }), el("td", { text: r.where }),
      el("td", { class: "num", text: `${r.front}"` })));
    const turn = b.turn === side.key;
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
      "data-testid": `card-${c.id}`, "data-unit": c.id, "data-unit-name": c.name,
    },
    el("h3", {}, `${c.id} ${c.name}`, el("span", { class: "muted", text: ` ${notes.join(" · ")}` })),
    hpBar(`${c.id} ${c.name}`, c.hp, c.max_hp),
    el("div", { class: "row muted", text: `TP ${c.tp}/${c.max_tp}${c.fp === null ? "" : ` · FP ${c.fp}`}` }),
    chips.length ? el("div", { class: "row" }, ...chips) : null);
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

  // -- a game's earlier versions, for the pages that step through them ---------------------------

  /** The first version worth showing of a game at version ``newest``: version 1 is the setup's
   *  command alone, no game yet. */
  function firstVersion(newest) {
    return Math.min(2, newest);
  }

  /** Reading earlier versions (the history page, the table's scrubber): ``read(at)`` resolves to
   *  the table view at version ``at``, ``show(view, at)`` draws it, ``fail(error)`` says why it
   *  cannot be read. Asking again before an answer comes drops the older answer, so a quick slide
   *  draws only the version it stops on; ``drop()`` drops the one awaited. */
  function versions(read, show, fail) {
    let wanted = null;
    return {
      async go(at) {
        wanted = at;
        try {
          const view = await read(at);
          if (wanted === at) show(view, at);
        } catch (error) {
          if (wanted === at) fail(error);
        }
      },
      drop() {
        wanted = null;
      },
    };
  }

  return { draw, status, turn, hpBar, chip, possessive, svg, firstVersion, versions };
})();
