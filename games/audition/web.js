// Audition's table, drawn in SVG: the slots as boxes holding card pictures (click one to take
// it or to place your drawn card on it), every player's collection as fanned groups of cards
// per number with a count badge (click a number of yours to give or discard one card of it),
// the drawn card, the discard row; and the end screen's score breakdown per player.
// The page data (AuditionWeb.view): {view, slot_names, points, top_number}; the final data
// (AuditionWeb.reveal): {scores, winners, breakdown} or, in a replay of a running game,
// {deck_top_first}.
"use strict";
(() => {
  const el = (...a) => window.parlourEl(...a);
  const SVG_NS = "http://www.w3.org/2000/svg";
  // a card's drawing, in SVG units; the fan's step between cards; pixels per unit
  const CARD = { w: 40, h: 56, r: 5 };
  const FAN_STEP = 9;
  const FAN_STEP_MIN = 5;
  const FAN_MAX_WIDTH = 130;
  const SLOT_STEP = CARD.w + 4;
  const SLOT_SCALE = 0.85;
  const SCALE = 0.9;
  // one colour (contrast >= 4.5:1 on white) and one motif per number, 1..13
  const COLOURS = [
    "#b3261e", "#1f5fa8", "#2e7d32", "#8e24aa", "#a84f00", "#00796b", "#6d4c41",
    "#ad1457", "#3949ab", "#4a7a28", "#006f7a", "#455a64", "#7a6000",
  ];
  const MOTIFS = ["circle", "diamond", "square", "hexagon"];
  const STYLE = `
.aud-info { color: #4e463c; margin: 0.3em 0; }
.aud-row { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: flex-end; margin: 0.3em 0; }
.aud-slots { align-items: flex-start; }
.aud-slot { border: 2px solid #b9a98a; border-radius: 8px; padding: 0.3em 0.4em; background: #fff; max-width: 100%; }
.aud-slot.taken { background: #efe9dc; }
.aud-slot-name { font-size: 0.85em; color: #4e4436; }
.aud-slot-room { font-size: 0.8em; color: #5b5042; }
.aud-player { border: 1px solid #d8ccb4; border-radius: 6px; padding: 0.3em 0.5em; margin: 0.4em 0; background: #fffdf8; }
.aud-player.me { background: #eef5e8; border-color: #8fb08f; }
.aud-player-head { font-weight: bold; color: #2b2620; }
.aud-player-head .aud-note { font-weight: normal; color: #5b5042; }
.aud-group { display: inline-flex; flex-direction: column; align-items: center; border-radius: 6px; padding: 2px; }
.aud-group-score { font-size: 0.75em; color: #1f5e2a; font-weight: bold; }
.aud-group-none { font-size: 0.75em; color: #5b5042; }
.aud-empty { color: #5b5042; font-style: italic; }
.aud-drawn { display: flex; align-items: center; gap: 0.5em; font-weight: bold; color: #7a3410; }
.aud-breakdowns { align-items: flex-start; }
table.aud-breakdown { border-collapse: collapse; font-size: 0.9em; max-width: 21em; background: #fffdf8; border: 1px solid #d8ccb4; }
table.aud-breakdown.me { background: #eef5e8; border-color: #8fb08f; }
table.aud-breakdown caption { font-weight: bold; text-align: left; padding: 0.2em 0.4em; }
table.aud-breakdown th, table.aud-breakdown td { border-top: 1px solid #e2d8c4; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
table.aud-breakdown th { font-weight: normal; color: #4e4436; white-space: nowrap; }
table.aud-breakdown tr.total td, table.aud-breakdown tr.total th { font-weight: bold; color: #2b2620; }
svg.aud-cards { display: block; max-width: 100%; height: auto; }
`;

  function addStyle() {
    if (document.getElementById("audition-style")) return;
    const style = document.createElement("style");
    style.id = "audition-style";
    style.textContent = STYLE;
    document.head.append(style);
  }

  function svg(tag, attrs = {}, ...kids) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const k of kids) e.append(k);
    return e;
  }

  const colour = (v) => COLOURS[(v - 1) % COLOURS.length];

  function motif(v, cx, cy, size) {
    const fill = colour(v);
    const kind = MOTIFS[(v - 1) % MOTIFS.length];
    if (kind === "circle") return svg("circle", { cx, cy, r: size, fill });
    if (kind === "square") {
      return svg("rect", { x: cx - size * 0.9, y: cy - size * 0.9, width: size * 1.8, height: size * 1.8, rx: 2, fill });
    }
    const corners = kind === "diamond" ? 4 : 6;
    const pts = [];
    for (let i = 0; i < corners; i++) {
      const a = (Math.PI * 2 * i) / corners - Math.PI / 2;
      pts.push(`${(cx + size * 1.1 * Math.cos(a)).toFixed(1)},${(cy + size * 1.1 * Math.sin(a)).toFixed(1)}`);
    }
    return svg("polygon", { points: pts.join(" "), fill });
  }

  // one card, its top-left corner at (x, y), turned by `angle` degrees about its centre
  function card(v, x, y, angle = 0) {
    const c = colour(v);
    const g = svg("g", {
      transform: `translate(${x} ${y}) rotate(${angle} ${CARD.w / 2} ${CARD.h / 2})`,
    });
    g.append(
      svg("rect", { x: 0.5, y: 0.5, width: CARD.w - 1, height: CARD.h - 1, rx: CARD.r, fill: "#fffdf6", stroke: c, "stroke-width": 2 }),
      svg("text", { x: 4, y: 12, "font-size": 10, "font-weight": "bold", fill: c, text: String(v) }),
      svg("text", {
        x: CARD.w - 4, y: CARD.h - 4, "font-size": 10, "font-weight": "bold", fill: c,
        "text-anchor": "end", text: String(v),
      }),
      motif(v, CARD.w / 2, CARD.h / 2, 11),
      svg("text", {
        x: CARD.w / 2, y: CARD.h / 2 + 4, "font-size": v > 9 ? 9 : 12, "font-weight": "bold", fill: "#fff",
        "text-anchor": "middle", text: String(v),
      }),
    );
    return g;
  }

  // an empty place for a card (a slot's free room)
  function gap(x, y) {
    return svg("rect", {
      x: x + 0.5, y: y + 0.5, width: CARD.w - 1, height: CARD.h - 1, rx: CARD.r,
      fill: "none", stroke: "#8a7d68", "stroke-dasharray": "4 3",
    });
  }

  function picture(width, height, label, ...kids) {
    return scaledPicture(SCALE, width, height, label, ...kids);
  }

  function scaledPicture(scale, width, height, label, ...kids) {
    const s = svg("svg", {
      class: "aud-cards", viewBox: `0 0 ${width} ${height}`, width: Math.round(width * scale),
      role: "img", "aria-label": label,
    }, svg("title", { text: label }), ...kids);
    return s;
  }

  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  // the cards of counts[1..] one by one, as a list of numbers
  function cardList(counts) {
    const out = [];
    for (let v = 1; v < counts.length; v++) for (let k = 0; k < counts[v]; k++) out.push(v);
    return out;
  }

  // k cards of number v fanned, with a count badge
  function fan(v, k) {
    const step = Math.max(FAN_STEP_MIN, Math.min(FAN_STEP, (FAN_MAX_WIDTH - CARD.w) / Math.max(1, k - 1)));
    const pad = 8;
    const width = CARD.w + step * (k - 1) + pad * 2;
    const height = CARD.h + pad * 2;
    const kids = [];
    for (let i = 0; i < k; i++) {
      const angle = k === 1 ? 0 : -6 + (12 * i) / (k - 1);
      kids.push(card(v, pad + i * step, pad, angle));
    }
    const bx = width - 10;
    kids.push(
      svg("circle", { cx: bx, cy: 10, r: 9, fill: "#2b2620" }),
      svg("text", { x: bx, y: 14, "font-size": 11, "font-weight": "bold", fill: "#fff", "text-anchor": "middle", text: `${k}` }),
    );
    return picture(width, height, `${plural(k, "card")} of number ${v}`, ...kids);
  }

  // a collection (counts per number) as fanned groups; `clickable`: data-target per number
  function collection(counts, points, clickable, emptyText) {
    const row = el("div", { class: "aud-row" });
    for (let v = 1; v < counts.length; v++) {
      const k = counts[v];
      if (!k) continue;
      const pts = points ? points[v] : 0;
      const note = !points ? null
        : pts ? el("span", { class: "aud-group-score", text: `${k === 1 ? "soloist" : "quartet"} +${pts}` })
        : el("span", { class: "aud-group-none", text: "no points" });
      const group = el("div", { class: "aud-group", "aria-label": `${plural(k, "card")} of number ${v}` }, fan(v, k));
      if (note) group.append(note);
      if (clickable) group.setAttribute("data-target", `number:${v}`);
      row.append(group);
    }
    if (!row.children.length) row.append(el("span", { class: "aud-empty", text: emptyText }));
    return row;
  }

  function slotBox(s, i, name) {
    const cards = cardList(s.cards);
    const width = CARD.w + SLOT_STEP * (s.capacity - 1) + 8;
    const kids = [];
    for (let j = 0; j < s.capacity; j++) {
      const x = 4 + j * SLOT_STEP;
      kids.push(j < cards.length ? card(cards[j], x, 4) : gap(x, 4));
    }
    const held = cards.length ? cards.join(", ") : "no cards";
    const label = `slot ${i} (${name}): ${s.taken ? "taken this round" : `holds ${held}`}`;
    const room = s.taken ? "taken this round" : `${cards.length} of ${s.capacity} cards`;
    const box = el(
      "div",
      { class: `aud-slot${s.taken ? " taken" : ""}`, "data-target": `slot:${i}`, "aria-label": label },
      el("div", { class: "aud-slot-name", text: `Slot ${i} · ${name}` }),
    );
    if (!s.taken) box.append(scaledPicture(SLOT_SCALE, width, CARD.h + 8, label, ...kids));
    box.append(el("div", { class: "aud-slot-room", text: room }));
    return box;
  }

  // the name of seat p: "You" (or "<name> (you)") for the seat drawn, never in an omniscient view
  function who(p, v, ctx) {
    const agent = (ctx.agents && ctx.agents[p]) || `player_${p}`;
    const name = (ctx.names && ctx.names[agent]) || agent;
    if (ctx.omniscient || p !== v.seat) return name;
    return name === "You" ? "You" : `${name} (you)`;
  }

  function infoLine(v) {
    const parts = [`Round ${v.round}`, `${plural(v.deck_size, "card")} left in the deck`];
    if (v.in_final) parts.push("final round: the deck is empty, a last chance to take a slot");
    if (v.num_removed) parts.push(`${plural(v.num_removed, "card")} removed unseen at the start`);
    return el("div", { class: "aud-info", text: parts.join(" · ") });
  }

  function playerPanel(p, page, ctx) {
    const v = page.view;
    const me = p === v.seat && !ctx.omniscient;
    const notes = [`${plural(v.scores[p], "point")}`, `${plural(v.quartets[p], "quartet")}`];
    if (v.taken[p] && !v.in_final) notes.push("has taken a slot this round");
    if (p === v.current_player) notes.push("to play");
    const head = el("div", { class: "aud-player-head" }, `${who(p, v, ctx)} `,
      el("span", { class: "aud-note", text: `· ${notes.join(" · ")}` }));
    const clickable = p === v.seat && !ctx.readonly;
    return el("div", { class: `aud-player${me ? " me" : ""}` }, head,
      collection(v.collections[p], page.points[p], clickable, "no cards yet"));
  }

  function render(root, page, ctx) {
    addStyle();
    const v = page.view;
    root.append(infoLine(v));
    if (v.drawn) {
      root.append(el("div", { class: "aud-drawn" }, "You drew:",
        picture(CARD.w + 4, CARD.h + 4, `the card you drew: ${v.drawn}`, card(v.drawn, 2, 2))));
    }
    const slots = el("div", { class: "aud-row aud-slots", role: "group", "aria-label": "the slots" });
    v.slots.forEach((s, i) => slots.append(slotBox(s, i, page.slot_names[i])));
    root.append(slots);
    const order = [...v.collections.keys()];
    if (!ctx.omniscient) order.sort((a, b) => (b === v.seat) - (a === v.seat));
    for (const p of order) root.append(playerPanel(p, page, ctx));
    if (v.discard.some((c) => c > 0)) {
      root.append(el("div", { class: "aud-info", text: "Discard row (never scores):" }),
        collection(v.discard, null, false, ""));
    }
  }

  function numbersText(list) {
    return list.length ? list.join(", ") : "none";
  }

  function final(root, f, ctx) {
    addStyle();
    if (f.deck_top_first) {
      const deck = f.deck_top_first;
      root.append(el("div", { class: "secret", text: `The deck from the top: ${deck.join(", ") || "empty"}` }));
      return;
    }
    const agents = f.breakdown.map((r) => r.agent);
    const mine = ctx.omniscient ? null : ctx.agent || (ctx.agents && ctx.agents[ctx.seat]);
    const rows = [...f.breakdown];
    if (mine) rows.sort((a, b) => (b.agent === mine) - (a.agent === mine));
    const blocks = el("div", { class: "aud-row aud-breakdowns" });
    for (const r of rows) {
      let name = (ctx.names && ctx.names[r.agent]) || r.agent;
      if (r.agent === mine && name !== "You") name = `${name} (you)`;
      if (f.winners.includes(r.agent)) name += " — winner";
      blocks.append(breakdownTable(r, name, r.agent === mine, agents.indexOf(r.agent)));
    }
    root.append(
      el("h3", { text: "Final scores" }),
      el("p", { class: "aud-info", text: SCORING }),
      blocks,
    );
  }

  const SCORING = "Only exact counts score: a soloist (exactly one card of a number) and a quartet (exactly four); any other count of a number scores nothing.";

  // one player's breakdown: soloists, quartets, the numbers without points, the total
  function breakdownTable(r, name, me, seat) {
    const rest = r.numbers.filter((n) => n.kind === "none").map((n) => `${n.number} (${n.count} cards)`);
    const row = (label, text, cls = "") =>
      el("tr", { class: cls }, el("th", { scope: "row", text: label }), el("td", { text }));
    return el("table", { class: `aud-breakdown${me ? " me" : ""}`, "data-seat": String(seat) },
      el("caption", { text: name }),
      row("soloists", `${numbersText(r.soloists)}: ${plural(r.soloist_points, "point")}`),
      row("quartets", `${numbersText(r.quartets)}: ${plural(r.quartet_points, "point")}`),
      row("no points", rest.join(", ") || "none"),
      row("total", plural(r.total, "point"), "total"));
  }

  window.PARLOUR_GAMES = window.PARLOUR_GAMES || {};
  window.PARLOUR_GAMES.audition = { render, final };
})();
