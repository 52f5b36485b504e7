// Audition's table: the slots (click one to take it or to place your drawn card), every
// player's collection (click a number of yours to give or discard one), scores and the deck.
"use strict";
(() => {
  const el = (...a) => window.parlourEl(...a);
  const NUMBERS = 13;

  function chips(counts, clickable) {
    const row = el("div", { class: "chips" });
    for (let v = 1; v <= NUMBERS; v++) {
      for (let k = 0; k < counts[v]; k++) {
        const c = el("span", { class: `chip n${v}`, text: String(v) });
        if (clickable && k === 0) c.setAttribute("data-target", `number:${v}`);
        row.append(c);
      }
    }
    if (!row.children.length) row.append(el("span", { class: "empty", text: "—" }));
    return row;
  }

  function render(root, page, ctx) {
    const v = page.view;
    const info = el(
      "div",
      { class: "info" },
      `Round ${v.round} · phase ${v.phase}${v.in_final ? " (final round)" : ""} · deck ${v.deck_size}` +
        (v.num_removed ? ` · ${v.num_removed} removed unseen` : ""),
    );
    root.append(info);
    if (v.drawn) root.append(el("div", { class: "drawn", text: `You drew a ${v.drawn}` }));
    const slots = el("div", { class: "slots" });
    v.slots.forEach((s, i) => {
      const box = el(
        "div",
        { class: `slot${s.taken ? " taken" : ""}`, "data-target": `slot:${i}` },
        el("div", { class: "slot-name", text: `slot ${i} · ${s.kind}${s.taken ? " (taken)" : ""}` }),
        chips(s.cards, false),
        el("div", { class: "slot-room", text: `${s.cards.reduce((a, b) => a + b, 0)}/${s.capacity}` }),
      );
      slots.append(box);
    });
    root.append(slots);
    const players = el("table", { class: "players" });
    players.append(el("tr", {}, el("th", { text: "player" }), el("th", { text: "collection" }),
      el("th", { text: "quartets" }), el("th", { text: "score" })));
    v.collections.forEach((col, p) => {
      const me = p === v.seat;
      const who = `player_${p}${me ? " (you)" : ""}${p === v.current_player ? " ◀" : ""}`;
      players.append(
        el("tr", { class: me ? "me" : "" }, el("td", { text: who }),
          el("td", {}, chips(col, me && !ctx.readonly)),
          el("td", { text: String(v.quartets[p]) }), el("td", { text: String(v.scores[p]) })),
      );
    });
    root.append(players);
    root.append(el("div", { class: "info" }, "Discard pile: ", chips(v.discard, false)));
  }

  function final(root, f) {
    if (f.deck_top_first) {
      root.append(el("div", { class: "secret", text: `Deck from the top: ${f.deck_top_first.join(", ") || "empty"}` }));
      return;
    }
    const list = el("ul", { class: "scores" });
    for (const [a, s] of Object.entries(f.scores)) {
      list.append(el("li", { text: `${a}: ${s}${f.winners.includes(a) ? " — winner" : ""}` }));
    }
    root.append(el("h3", { text: "Final scores" }), list);
  }

  window.PARLOUR_GAMES = window.PARLOUR_GAMES || {};
  window.PARLOUR_GAMES.audition = { render, final };
})();
