// Awkward Guests' table: the mansion map (click a room or a suspect to ask about it), your hand
// (click a card to offer, pay or discard it), the bids, the revealed pile, the other seats, and
// your notebook (the investigation sheet; the candidate count when aids are on).
"use strict";
(() => {
  const el = (...a) => window.parlourEl(...a);
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 150; // pixels per map grid cell
  const svg = (tag, attrs = {}) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  };

  function mapOf(board, asked) {
    const [gw, gh] = board.grid;
    const root = svg("svg", { class: "map", viewBox: `-${CELL / 2} -${CELL / 2} ${gw * CELL} ${gh * CELL}` });
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
      const g = svg("g", { "data-target": `ref:${r.id}`, class: "room-g" });
      const cls = ["room"];
      if (r.id === board.crime_scene) cls.push("crime");
      if (asked.includes(r.id)) cls.push("asked");
      g.append(svg("rect", {
        x: (cx - w / 2) * CELL, y: (cy - h / 2) * CELL, width: w * CELL, height: h * CELL, rx: 8,
        class: cls.join(" "),
      }));
      const t = svg("text", { x: cx * CELL, y: cy * CELL, class: "room-name" });
      t.textContent = r.name + (asked.includes(r.id) ? " (asked)" : "");
      g.append(t);
      root.append(g);
    }
    return root;
  }

  function cardBox(card, attrs = {}, extra = "") {
    return el(
      "div",
      { class: "card", ...attrs },
      el("div", { class: "card-head", text: `#${card.id} · value ${card.value}${extra}` }),
      el("div", { class: "card-text", text: card.text }),
    );
  }

  function render(root, page, ctx) {
    const v = page.view;
    const board = page.board;
    root.append(el("div", { class: "info", text:
      `Round ${v.round}/${v.max_rounds} · phase ${v.phase} · your decision: ${v.decision} · ` +
      `deck ${v.deck_size} · discard ${v.discard_size}` }));
    const top = el("div", { class: "guests-top" });
    const left = el("div", { class: "map-box" }, mapOf(board, v.asked));
    const suspects = el("div", { class: "suspects" });
    for (const s of board.suspects) {
      const chip = el("span", { class: "suspect", "data-target": `ref:${s.id}`, text: s.name });
      chip.style.borderColor = s.color;
      if (v.asked.includes(s.id)) chip.classList.add("asked");
      suspects.append(chip);
    }
    left.append(suspects);
    top.append(left);
    const side = el("div", { class: "side" });
    const seats = el("table", { class: "players" });
    for (let p = 0; p < v.num_players; p++) {
      const me = p === v.seat;
      const who = `player_${p}${me ? " (you)" : ""}${p === v.current_player ? " ◀" : ""}`;
      seats.append(el("tr", { class: me ? "me" : "" }, el("td", { text: who }),
        el("td", { text: `${v.hand_sizes[p]} cards${v.out[p] ? " · out" : ""}` })));
    }
    side.append(el("h3", { text: "Players" }), seats);
    if (v.bids.length) {
      const bids = el("ul", { class: "bids" });
      for (const b of v.bids) {
        bids.append(el("li", { class: b.answering ? "answering" : "", text:
          `${b.seat < 0 ? "the deck" : `player_${b.seat}`}: ${b.count} card(s), value ${b.value} — ${b.status}` }));
      }
      side.append(el("h3", { text: "Bids" }), bids);
    }
    if (v.owed) side.append(el("div", { class: "drawn", text: `Still to pay: value ${v.owed}` }));
    if (v.to_discard) side.append(el("div", { class: "drawn", text: `Still to discard: ${v.to_discard}` }));
    const acc = v.pending_accusation;
    if (acc) {
      const names = Object.fromEntries(board.suspects.map((x) => [x.id, x.name]));
      const parts = [acc.murderer, acc.motive, acc.weapon, acc.accomplice]
        .filter((x) => x)
        .map((x) => names[x] || x.replaceAll("_", " "));
      side.append(el("div", { class: "drawn", text: `Your accusation so far: ${parts.join(", ") || "—"}` }));
    }
    if (page.candidates !== undefined) {
      side.append(el("div", { class: "candidates", text: `Candidates your notebook allows: ${page.candidates}` }));
    }
    top.append(side);
    root.append(top);
    const hand = el("div", { class: "hand" });
    for (const h of v.hand) {
      const seen = h.seen_by.length ? ` · seen by ${h.seen_by.map((s) => `player_${s}`).join(", ")}` : "";
      const c = cardBox(h.card, { "data-target": `card:${h.slot}` }, seen);
      if (h.selected) c.classList.add("selected");
      hand.append(c);
    }
    root.append(el("h3", { text: `Your hand (${v.hand.length})` }), hand);
    if (page.revealed_cards.length) {
      const pile = el("div", { class: "hand" });
      for (const c of page.revealed_cards) pile.append(cardBox(c));
      root.append(el("h3", { text: "Revealed pile" }), pile);
    }
    const nb = el("details", { class: "notebook", open: "" },
      el("summary", { text: `Notebook (${v.notebook.length} cards seen)` }),
      el("pre", { text: page.sheet }));
    root.append(nb);
  }

  function final(root, f) {
    const s = f.solution;
    let text = `${s.murderer} killed Mr. Walton for “${s.motive}” with ${s.weapon}`;
    if (s.accomplice) text += `, helped by ${s.accomplice} (“${s.accomplice_motive}”)`;
    if (f.result !== undefined) {
      root.append(el("h3", { text: `Result: ${f.result}; winner(s): ${f.winners.join(", ") || "none"}` }));
    }
    root.append(el("div", { class: "solution", text: `The solution: ${text}.` }));
    const proof = el("div", { class: "hand" });
    for (const c of f.proof) proof.append(cardBox(c));
    root.append(el("h3", { text: "The cards that prove it" }), proof);
  }

  window.PARLOUR_GAMES = window.PARLOUR_GAMES || {};
  window.PARLOUR_GAMES.guests = { render, final };
})();
