// parlour serve: watching a replay (the Replays tab). The move list (GET
// /api/replays/{id}/moves?view=V) sits in the side log, each move a button that jumps to it; the
// omniscient view (a finished game) shows one seat at a time under seat tabs, and the hidden truth.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const el = (...a) => window.parlourEl(...a);
  const api = (...a) => window.parlourApi(...a);
  const QUERY = new URLSearchParams(location.search);
  const PLAY_MS = Number(QUERY.get("play_ms") ?? 400);
  const OMNISCIENT = "omniscient";
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  let replay = null; // {id, summary, playing, seat, names, moves: {view: list}}
  let frameTicket = 0; // the latest frame asked for: an older answer arriving late is dropped

  const showError = (err) => window.parlourShowError(err);

  async function loadList() {
    const data = await api("GET", "/api/replays");
    const select = $("replay-list");
    select.replaceChildren(...data.replays.map((r) => el("option", { value: r, text: r })));
    $("open-listed").disabled = !data.replays.length;
  }

  function viewLabel(view) {
    if (view === OMNISCIENT) return "everything (every hand, the hidden truth)";
    return replay.names[view] || view;
  }

  async function open(body) {
    showError(null);
    try {
      const data = await api("POST", "/api/replays", body);
      stop();
      const s = data.summary;
      const agents = s.views.filter((v) => v !== OMNISCIENT);
      const spec = window.parlourCatalog.find((g) => g.name === s.game) || {};
      const label = (id) => (spec.labels && spec.labels[id]) || id;
      const names = {};
      agents.forEach((a, i) => (names[a] = s.agents[i] ? `${a} (${label(s.agents[i])})` : a));
      replay = { id: data.id, summary: s, playing: false, seat: agents[0], names, moves: {} };
      $("step").max = s.steps;
      $("step").value = 0;
      const select = $("replay-view");
      select.replaceChildren(...s.views.map((v) => el("option", { value: v, text: viewLabel(v) })));
      select.value = s.views[0]; // omniscient first, when offered (only for a finished game)
      $("replay-controls").classList.remove("hidden");
      $("play-area").classList.remove("hidden");
      window.parlourDrawRules(window.parlourCatalog.find((g) => g.name === s.game));
      await showStep();
    } catch (err) {
      showError(err);
    }
  }

  // the move list of a view (fetched once per view)
  async function movesOf(view) {
    const r = replay; // (another replay may be opened while this one's list loads)
    if (!r.moves[view]) {
      const data = await api("GET", `/api/replays/${r.id}/moves?view=${encodeURIComponent(view)}`);
      r.moves[view] = data.moves;
    }
    return r.moves[view];
  }

  function drawMoves(moves, step) {
    const log = $("log");
    log.classList.add("replay");
    log.replaceChildren(
      el("li", { class: "head", text: `${replay.summary.game}, seed ${replay.summary.seed}: ${replay.summary.agents.join(" vs ") || "?"}` }),
    );
    let current = null;
    for (const m of moves) {
      const who = m.agent ? `${replay.names[m.agent] || m.agent}: ` : ""; // ("": a public event)
      const b = el("button", { type: "button", class: m.agent ? "jump" : "jump event", text: `${m.step}. ${who}${m.text}` });
      b.addEventListener("click", () => {
        stop();
        $("step").value = m.step;
        showStep();
      });
      const li = el("li", { class: m.step <= step ? "done" : "" }, b);
      if (m.step <= step) current = li;
      log.append(li);
    }
    log.querySelectorAll("[aria-current]").forEach((x) => x.removeAttribute("aria-current"));
    if (current) {
      current.classList.add("current");
      current.setAttribute("aria-current", "step");
      log.scrollTop = Math.max(0, current.offsetTop - log.clientHeight / 2);
    }
  }

  function drawSeatTabs(state) {
    const tabs = $("seat-tabs");
    const omniscient = Boolean(state.seats);
    tabs.classList.toggle("hidden", !omniscient);
    if (!omniscient) return;
    tabs.replaceChildren();
    for (const agent of state.agents) {
      const b = el("button", {
        type: "button",
        role: "tab",
        class: "seat-tab",
        "aria-selected": String(agent === replay.seat),
        "data-seat": agent,
        text: replay.names[agent] || agent,
      });
      b.addEventListener("click", () => {
        replay.seat = agent;
        showStep();
      });
      tabs.append(b);
    }
  }

  async function showStep() {
    if (!replay) return;
    const ticket = ++frameTicket;
    const step = Number($("step").value);
    const view = $("replay-view").value;
    try {
      const [state, moves] = await Promise.all([
        api("GET", `/api/replays/${replay.id}/frame?step=${step}&view=${encodeURIComponent(view)}`),
        movesOf(view),
      ]);
      if (ticket !== frameTicket) return;
      drawSeatTabs(state);
      const opts = { omniscient: Boolean(state.seats) };
      let shown = state;
      if (state.seats) {
        const i = state.agents.indexOf(replay.seat);
        shown = { ...state, seat: i, agent: replay.seat };
        opts.view = state.seats[replay.seat];
      }
      window.parlourDrawTable(replay.summary.game, shown, true, () => {}, replay.names, opts);
      drawMoves(moves, step);
      $("step-label").textContent = `step ${state.step} / ${state.steps}`;
      $("turn").textContent = state.over ? "Game over." : `${replay.names[state.to_move] || state.to_move} to move`;
      $("prompt").textContent = "";
      document.body.dataset.view = view;
      document.body.dataset.seat = state.seats ? replay.seat : view;
      document.body.dataset.step = String(state.step);
    } catch (err) {
      showError(err);
    }
  }

  function stop() {
    if (replay) replay.playing = false;
    $("play-pause").textContent = "Play";
  }

  async function togglePlay() {
    if (!replay) return;
    if (replay.playing) return stop();
    replay.playing = true;
    $("play-pause").textContent = "Pause";
    const s = $("step");
    while (replay.playing && Number(s.value) < Number(s.max)) {
      s.value = Number(s.value) + 1;
      await showStep();
      await sleep(PLAY_MS);
    }
    stop();
  }

  // the Replays tab opened (true) or left
  window.parlourReplayTab = (shown) => {
    stop();
    if (shown) loadList().catch(showError);
  };

  $("open-listed").addEventListener("click", () => open({ name: $("replay-list").value }));
  $("replay-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    let doc;
    try {
      doc = JSON.parse(await file.text());
    } catch (err) {
      return showError(new Error(`${file.name} does not parse as JSON: ${err.message}`));
    }
    await open({ replay: doc });
  });
  $("step").addEventListener("input", showStep);
  $("replay-view").addEventListener("change", showStep);
  $("play-pause").addEventListener("click", togglePlay);
})();
