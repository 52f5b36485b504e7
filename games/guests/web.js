// Awkward Guests' table: the mansion map (click a room or a suspect to ask about it), the players,
// the bids, your hand and the revealed pile (cards drawn in SVG: value, clue text, an icon for the
// kind of speaker), your notebook (the investigation sheet as a grid with your own marks, and with
// the deduction aids the candidates that remain); at the end your accusation beside the solution,
// every accusation made and the cards that prove the solution.
"use strict";
(() => {
  const el = (...a) => window.parlourEl(...a);
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 150; // viewBox units per map grid cell
  const CARD_W = 200; // viewBox units of a card's width
  const CARD_LINE = 13; // viewBox units per line of clue text
  const CARD_CHARS = 36; // characters per line of clue text
  const MARKS = ["", "✓", "✗", "?"]; // a notebook mark cycles through these
  const MARK_WORDS = { "": "blank", "✓": "yes", "✗": "no", "?": "unsure" };
  const svg = (tag, attrs = {}, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  };

  const STYLE = `
.gx-info { margin: 0.3em 0; }
.gx-top { display: flex; flex-wrap: wrap; gap: 1em; }
.gx-map-box { flex: 1 1 320px; max-width: 560px; min-width: 0; }
svg.gx-map { width: 100%; height: auto; background: #ece2c8; border: 1px solid #7a6a4a; border-radius: 8px; }
.gx-map .passage { fill: none; stroke: #5c4a30; stroke-width: 4; }
.gx-map .passage.one-way { stroke-dasharray: 10 7; }
.gx-map .room { fill: #faf4e4; stroke: #6b5838; stroke-width: 2; }
.gx-map .room.crime { fill: #f3d6cb; stroke: #8f2f28; }
.gx-map .room.asked { stroke: #8a6200; stroke-width: 6; }
.gx-map text { font-size: 17px; text-anchor: middle; dominant-baseline: middle; fill: #1d1d1d; pointer-events: none; }
.gx-suspects { display: flex; flex-wrap: wrap; gap: 0.3em; margin-top: 0.4em; }
.gx-suspect { border: 2px solid; border-left-width: 0.8em; border-radius: 4px; padding: 0.1em 0.4em; background: #fff; color: #1d1d1d; }
.gx-suspect.asked { font-weight: bold; background: #fff1c9; }
.gx-side { flex: 1 1 240px; min-width: 0; }
.gx-side table { border-collapse: collapse; }
.gx-side td { padding: 0.1em 0.5em 0.1em 0; }
.gx-side tr.me td { font-weight: bold; }
.gx-note { margin: 0.3em 0; padding: 0.3em 0.5em; background: #f4efe2; border-radius: 4px; color: #1d1d1d; }
.gx-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 0.5em; max-width: 100%; }
.gx-card.card { width: auto; min-width: 0; padding: 0; border: none; border-radius: 8px; background: none; font-size: inherit; }
.gx-card svg { width: 100%; height: auto; display: block; }
.gx-card.selected svg .frame { fill: #dcefd6; stroke: #1f5e2a; stroke-width: 4; }
.gx-card .frame { fill: #fffaf0; stroke: #6b5838; stroke-width: 2; }
.gx-card .band { fill: #e9dcc0; }
.gx-card .clue { font-size: 10.5px; fill: #1d1d1d; }
.gx-card .head { font-size: 11px; font-weight: bold; fill: #4a3414; }
.gx-card .small { font-size: 9.5px; fill: #3d3d3d; }
.gx-card .coin { fill: #8a6200; }
.gx-card .coin-text { font-size: 14px; font-weight: bold; fill: #fff; text-anchor: middle; dominant-baseline: central; }
.gx-grid-wrap { overflow-x: auto; max-width: 100%; }
table.gx-grid { border-collapse: collapse; font-size: 0.85em; margin-bottom: 0.8em; }
.gx-grid th, .gx-grid td { border: 1px solid #b9a98a; padding: 0.15em 0.35em; text-align: left; vertical-align: top; }
.gx-grid th[scope=col] { background: #efe6d2; }
.gx-grid td.yes { background: #d7ecd2; }
.gx-grid td.no { background: #f3d6cb; text-decoration: line-through; }
.gx-grid button.mark { min-width: 2.2em; min-height: 1.8em; font-size: 1em; }
.gx-left { columns: 2 12em; margin: 0.2em 0 0.6em; padding-left: 1.2em; }
.gx-final table { border-collapse: collapse; margin: 0.4em 0; }
.gx-final th, .gx-final td { border: 1px solid #b9a98a; padding: 0.2em 0.5em; text-align: left; }
.gx-final .right { color: #1f5e2a; font-weight: bold; }
.gx-final .wrong { color: #8f2f28; font-weight: bold; }
`;

  function addStyle() {
    if (document.getElementById("gx-style")) return;
    document.head.append(el("style", { id: "gx-style", text: STYLE }));
  }

  const nameOf = (ctx, agent) => (ctx.names && ctx.names[agent]) || agent;
  const seatName = (ctx, seat) => (seat < 0 ? "the deck" : nameOf(ctx, `player_${seat}`));
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

  // -- the map --------------------------------------------------------------------------------

  function mapOf(board, asked) {
    const [gw, gh] = board.grid;
    const root = svg("svg", {
      class: "gx-map",
      viewBox: `-${CELL / 2} -${CELL / 2} ${gw * CELL} ${gh * CELL}`,
      role: "group",
      "aria-label": "The mansion: rooms and passages (dashed: one way into the Study)",
    });
    root.append(svg("title", {}, "The mansion map"));
    const centre = {};
    for (const r of board.rooms) centre[r.id] = [r.box[0] * CELL, r.box[1] * CELL];
    for (const p of board.passages) {
      const points = [centre[p.from], ...p.bends.map(([x, y]) => [x * CELL, y * CELL]), centre[p.to]];
      root.append(svg("polyline", {
        points: points.map((xy) => xy.join(",")).join(" "),
        class: p.one_way ? "passage one-way" : "passage",
      }));
    }
    for (const r of board.rooms) {
      const [cx, cy, w, h] = r.box;
      const isAsked = asked.includes(r.id);
      const label = r.name + (r.id === board.crime_scene ? " (the crime scene)" : "") + (isAsked ? " (asked)" : "");
      const g = svg("g", { "data-target": `ref:${r.id}`, class: "room-g", "aria-label": label });
      const cls = ["room"];
      if (r.id === board.crime_scene) cls.push("crime");
      if (isAsked) cls.push("asked");
      g.append(svg("rect", {
        x: (cx - w / 2) * CELL, y: (cy - h / 2) * CELL, width: w * CELL, height: h * CELL, rx: 8,
        class: cls.join(" "),
      }));
      g.append(svg("text", { x: cx * CELL, y: cy * CELL }, r.name + (isAsked ? " ✓" : "")));
      root.append(g);
    }
    return root;
  }

  // -- cards ----------------------------------------------------------------------------------

  function wrap(text, width) {
    const lines = [];
    let line = "";
    for (const word of text.split(/\s+/)) {
      if (line && (line + " " + word).length > width) {
        lines.push(line);
        line = word;
      } else line = line ? line + " " + word : word;
    }
    if (line) lines.push(line);
    return lines;
  }

  // the icon of a card's kind of speaker: a guest (in their colour), the staff (a service bell),
  // an official (a badge)
  function icon(kind, color) {
    const g = svg("g", { transform: "translate(16 16)", "aria-hidden": "true" });
    if (kind === "guest") {
      g.append(svg("circle", { cx: 0, cy: -4, r: 5, fill: color || "#555" }));
      g.append(svg("path", { d: "M -9 9 Q 0 -3 9 9 Z", fill: color || "#555" }));
    } else if (kind === "staff") {
      g.append(svg("path", { d: "M -9 5 A 9 9 0 0 1 9 5 Z", fill: "#6b5838" }));
      g.append(svg("rect", { x: -11, y: 5, width: 22, height: 3, fill: "#6b5838" }));
      g.append(svg("circle", { cx: 0, cy: -5, r: 1.8, fill: "#6b5838" }));
    } else {
      g.append(svg("path", { d: "M 0 -10 L 9 -6 L 8 4 Q 5 9 0 11 Q -5 9 -8 4 L -9 -6 Z", fill: "#1f3f73" }));
      g.append(svg("path", { d: "M 0 -4 L 1.8 0 L 6 0 L 2.6 2.6 L 3.8 6.6 L 0 4.2 L -3.8 6.6 L -2.6 2.6 L -6 0 L -1.8 0 Z", fill: "#f2d27a" }));
    }
    return g;
  }

  function cardOf(card, board, attrs = {}, note = "") {
    const speaker = (board.speakers && board.speakers[card.speaker]) || { name: card.speaker, kind: "official" };
    const suspect = board.suspects.find((s) => s.id === card.speaker);
    const lines = wrap(card.text, CARD_CHARS);
    const refs = wrap("About: " + card.refs.map((r) => board.names[r] || r).join(", "), CARD_CHARS + 4);
    const extra = note ? wrap(note, CARD_CHARS + 4) : [];
    const top = 38;
    const h = top + lines.length * CARD_LINE + 8 + (refs.length + extra.length) * 12 + 8;
    const label = `Card ${card.id}, value ${card.value}: ${card.text}${note ? " (" + note + ")" : ""}`;
    const pic = svg("svg", { viewBox: `0 0 ${CARD_W} ${h}`, role: "img", "aria-label": label });
    pic.append(svg("title", {}, label));
    pic.append(svg("rect", { x: 1, y: 1, width: CARD_W - 2, height: h - 2, rx: 10, class: "frame" }));
    pic.append(svg("rect", { x: 5, y: 5, width: CARD_W - 10, height: 26, rx: 6, class: "band" }));
    pic.append(icon(speaker.kind, suspect && suspect.color));
    pic.append(svg("text", { x: 32, y: 22, class: "head" }, `#${card.id} · ${speaker.name}`));
    pic.append(svg("circle", { cx: CARD_W - 18, cy: 18, r: 12, class: "coin" }));
    pic.append(svg("text", { x: CARD_W - 18, y: 18, class: "coin-text" }, String(card.value)));
    let y = top + 8;
    for (const line of lines) {
      pic.append(svg("text", { x: 9, y, class: "clue" }, line));
      y += CARD_LINE;
    }
    y += 4;
    for (const line of [...refs, ...extra]) {
      pic.append(svg("text", { x: 9, y, class: "small" }, line));
      y += 12;
    }
    return el("div", { class: "gx-card card", ...attrs }, pic);
  }

  function pileOf(cards, board) {
    const pile = el("div", { class: "gx-cards" });
    for (const c of cards) pile.append(cardOf(c, board));
    return pile;
  }

  // -- the notebook -----------------------------------------------------------------------------

  function marksStore(ctx) {
    const key = ctx.gameKey ? `parlour:guests:${ctx.gameKey}:marks:${ctx.seat}` : null;
    let marks = {};
    if (key) {
      try {
        marks = JSON.parse(localStorage.getItem(key) || "{}") || {};
      } catch (e) {
        marks = {};
      }
    }
    const save = () => {
      if (!key) return;
      try {
        localStorage.setItem(key, JSON.stringify(marks));
      } catch (e) {
        /* storage full or off: the marks last for this page only */
      }
    };
    return { marks, save };
  }

  function markButton(row, store) {
    const b = el("button", { type: "button", class: "mark" });
    const show = () => {
      const m = store.marks[row.key] || "";
      b.textContent = m || "·";
      b.setAttribute("aria-label", `your mark for ${row.name}: ${MARK_WORDS[m]}`);
    };
    show();
    b.addEventListener("click", () => {
      const m = store.marks[row.key] || "";
      const next = MARKS[(MARKS.indexOf(m) + 1) % MARKS.length];
      if (next) store.marks[row.key] = next;
      else delete store.marks[row.key];
      store.save();
      show();
    });
    return b;
  }

  // the table is drawn again at every move: a panel the person opened or closed stays so
  const opened = new Map();
  function keptOpen(details, key, byDefault) {
    details.open = opened.has(key) ? opened.get(key) : byDefault;
    details.dataset.panel = key;
    details.addEventListener("toggle", () => opened.set(key, details.open));
    return details;
  }

  function notebookOf(page, v, ctx) {
    const nb = page.notebook;
    const box = keptOpen(el("details", { class: "gx-notebook" },
      el("summary", { text: `Notebook (${plural(v.notebook.length, "card")} seen)` })), "notebook", true);
    if (page.remaining) box.append(remainingOf(page));
    const store = marksStore(ctx);
    const ownMarks = !ctx.omniscient;
    for (const sec of nb.sections) {
      const table = el("table", { class: "gx-grid" });
      const head = el("tr", {}, el("th", { scope: "col", text: sec.title.replace(/s$/, "") }));
      for (const c of sec.columns) head.append(el("th", { scope: "col", text: c }));
      if (ownMarks) head.append(el("th", { scope: "col", text: "your mark" }));
      table.append(head);
      for (const row of sec.rows) {
        const tr = el("tr", {}, el("th", { scope: "row", text: row.name }));
        for (const cell of row.cells) {
          const td = el("td", { text: cell.text + (cell.state === "yes" ? " ✓" : cell.state === "no" ? " ✗" : "") });
          if (cell.state) td.classList.add(cell.state);
          tr.append(td);
        }
        if (ownMarks) tr.append(el("td", {}, markButton(row, store)));
        table.append(tr);
      }
      box.append(keptOpen(el("details", { class: "gx-section" }, el("summary", { text: sec.title }),
        el("div", { class: "gx-grid-wrap" }, table)), `section:${sec.title}`, false));
    }
    if (nb.notes.length) {
      const ul = el("ul");
      for (const n of nb.notes) ul.append(el("li", { text: n }));
      box.append(el("h4", { text: "Who was seen together or apart" }), ul);
    }
    return box;
  }

  const REMAINING = [
    ["murderers", "Murderer"],
    ["motives", "Motive"],
    ["weapons", "Weapon"],
    ["accomplices", "Accomplice"],
    ["accomplice_motives", "Accomplice's motive"],
  ];

  function remainingOf(page) {
    const box = el("div", { class: "gx-remaining" },
      el("h4", { text: `What your notebook still allows (${plural(page.candidates, "possible solution")})` }));
    for (const [key, title] of REMAINING) {
      const names = page.remaining[key];
      if (!names || !names.length) continue;
      const ul = el("ul", { class: "gx-left", "aria-label": title });
      for (const n of names) ul.append(el("li", { text: n }));
      box.append(el("div", { text: `${title} (${names.length}):` }), ul);
    }
    return box;
  }

  // -- the table --------------------------------------------------------------------------------

  function playersOf(v, ctx) {
    const seats = el("table", { class: "players" });
    for (let p = 0; p < v.num_players; p++) {
      const me = p === v.seat && !ctx.omniscient;
      const turn = p === v.current_player ? " ◀ deciding" : "";
      const start = p === v.start_player ? " (starts the round)" : "";
      seats.append(el("tr", { class: me ? "me" : "" },
        el("td", { text: seatName(ctx, p) + start + turn }),
        el("td", { text: v.out[p] ? "out (accused wrongly)" : plural(v.hand_sizes[p], "card") })));
    }
    return seats;
  }

  function bidsOf(v, ctx) {
    const ul = el("ul", { class: "bids" });
    const status = { pending: "waiting", accepted: "accepted", declined: "declined" };
    for (const b of v.bids) {
      ul.append(el("li", { class: b.answering ? "answering" : "", text:
        `${seatName(ctx, b.seat)} offers ${plural(b.count, "card")} worth ${b.value} — ` +
        `${status[b.status] || b.status}${b.answering ? " (being answered)" : ""}` }));
    }
    return ul;
  }

  function accusationSoFar(acc, board) {
    const parts = [];
    for (const [label, x] of [["murderer", acc.murderer], ["motive", acc.motive],
      ["weapon", acc.weapon], ["accomplice", acc.accomplice]]) {
      if (x) parts.push(`${label}: ${x === "none" ? "no accomplice" : board.names[x] || x}`);
    }
    return parts.join(", ") || "nothing named yet";
  }

  function render(root, page, ctx) {
    addStyle();
    const v = page.view;
    const board = page.board;
    const whose = v.current_player >= 0 ? ` · ${seatName(ctx, v.current_player)} to decide` : "";
    root.append(el("div", { class: "gx-info", text:
      `Round ${v.round} of ${v.max_rounds}${whose} · ${plural(v.deck_size, "card")} in the deck · ` +
      `${v.discard_size} on the discard pile` }));
    const top = el("div", { class: "gx-top" });
    const left = el("div", { class: "gx-map-box" }, mapOf(board, v.asked));
    const suspects = el("div", { class: "gx-suspects", role: "group", "aria-label": "Suspects" });
    for (const s of board.suspects) {
      const isAsked = v.asked.includes(s.id);
      const chip = el("span", { class: "gx-suspect", "data-target": `ref:${s.id}`, text: s.name + (isAsked ? " ✓" : ""),
        "aria-label": s.name + (isAsked ? " (asked)" : "") });
      chip.style.borderColor = s.color;
      if (isAsked) chip.classList.add("asked");
      suspects.append(chip);
    }
    left.append(suspects);
    top.append(left);
    const side = el("div", { class: "gx-side" });
    side.append(el("h3", { text: "Players" }), playersOf(v, ctx));
    if (v.asked.length && v.active_player >= 0) {
      side.append(el("div", { class: "gx-note", text:
        `${seatName(ctx, v.active_player)} asked about ${v.asked.map((r) => board.names[r] || r).join(", ")}.` }));
    }
    if (v.bids.length) side.append(el("h3", { text: "Offers" }), bidsOf(v, ctx));
    if (v.owed) side.append(el("div", { class: "gx-note", text: `Still to pay: cards worth ${v.owed}.` }));
    if (v.to_discard) side.append(el("div", { class: "gx-note", text: `Still to discard: ${plural(v.to_discard, "card")}.` }));
    if (v.pending_accusation) {
      side.append(el("div", { class: "gx-note", text: `Accusation so far: ${accusationSoFar(v.pending_accusation, board)}.` }));
    }
    top.append(side);
    root.append(top);
    const hand = el("div", { class: "gx-cards" });
    for (const h of v.hand) {
      const seen = h.seen_by.length ? `seen by ${h.seen_by.map((s) => seatName(ctx, s)).join(", ")}` : "";
      const note = [h.selected ? "chosen" : "", seen].filter((x) => x).join("; ");
      const c = cardOf(h.card, board, { "data-target": `card:${h.slot}` }, note);
      if (h.selected) c.classList.add("selected");
      hand.append(c);
    }
    const handTitle = ctx.omniscient ? `${nameOf(ctx, `player_${v.seat}`)}'s hand` : "Your hand";
    root.append(el("h3", { text: `${handTitle} (${plural(v.hand.length, "card")})` }), hand);
    if (page.revealed_cards.length) {
      root.append(el("h3", { text: `Revealed pile (${plural(page.revealed_cards.length, "card")}, seen by everybody)` }),
        pileOf(page.revealed_cards, board));
    }
    root.append(notebookOf(page, v, ctx));
  }

  // -- the end ----------------------------------------------------------------------------------

  const PARTS = [
    ["murderer", "Murderer"],
    ["motive", "Motive"],
    ["weapon", "Weapon"],
    ["accomplice", "Accomplice"],
    ["accomplice_motive", "Accomplice's motive"],
  ];

  function solutionText(s) {
    let text = `${s.murderer} killed Mr. Walton for “${s.motive}” with ${s.weapon}`;
    if (s.accomplice) text += `, helped by ${s.accomplice} (“${s.accomplice_motive}”)`;
    return text;
  }

  function besideSolution(acc, sol, who) {
    const table = el("table", {}, el("caption", { text: `${who} accusation beside the solution` }));
    table.append(el("tr", {}, el("th", { scope: "col", text: "" }), el("th", { scope: "col", text: "the solution" }),
      el("th", { scope: "col", text: `${who} accusation` }), el("th", { scope: "col", text: "" })));
    for (const [key, label] of PARTS) {
      if (key.startsWith("accomplice") && !sol.accomplice && !acc.accomplice) continue;
      const ok = acc[key] === sol[key];
      table.append(el("tr", {}, el("th", { scope: "row", text: label }),
        el("td", { text: sol[key] || "none" }), el("td", { text: acc[key] || "none" }),
        el("td", { class: ok ? "right" : "wrong", text: ok ? "✓" : "✗", "aria-label": ok ? "right" : "wrong" })));
    }
    return table;
  }

  function final(root, f, ctx = {}) {
    addStyle();
    const box = el("div", { class: "gx-final" });
    const s = f.solution;
    box.append(el("div", { class: "solution", text: `The solution: ${solutionText(s)}.` }));
    const accs = f.accusations || [];
    const me = ctx.omniscient ? null : ctx.agent || (ctx.agents && ctx.agents[ctx.seat]);
    if (me) {
      const mine = accs.filter((a) => a.agent === me);
      if (mine.length) for (const a of mine) box.append(besideSolution(a, s, "Your"));
      else box.append(el("p", { text: "You made no accusation." }));
    }
    const others = accs.filter((a) => a.agent !== me);
    if (others.length) {
      const ul = el("ul");
      for (const a of others) {
        const named = [a.murderer, `“${a.motive}”`, a.weapon];
        if (a.accomplice) named.push(`helped by ${a.accomplice} (“${a.accomplice_motive}”)`);
        ul.append(el("li", {},
          document.createTextNode(`${nameOf(ctx, a.agent)} accused in round ${a.round}: ${named.join(", ")} — `),
          el("span", { class: a.correct ? "right" : "wrong", text: a.correct ? "right" : "wrong" })));
      }
      box.append(el("h3", { text: me ? "The other accusations" : "The accusations" }), ul);
    } else if (!accs.length) {
      box.append(el("p", { text: "Nobody accused." }));
    }
    box.append(el("h3", { text: "The cards that prove it" }), pileOf(f.proof, f.board));
    root.append(box);
  }

  window.PARLOUR_GAMES = window.PARLOUR_GAMES || {};
  window.PARLOUR_GAMES.guests = { render, final };
})();
