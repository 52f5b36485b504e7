// parlour serve: the generic page. Game-specific drawing comes from each game's plug-in
// (Game.web.script(), served as /games/<name>.js), which
// register PARLOUR_GAMES[name] = {render(el, view, ctx), final(el, final, ctx)}; a game without
// one is drawn as its JSON view with its moves as buttons.
"use strict";
window.PARLOUR_GAMES = window.PARLOUR_GAMES || {};
// pause between the agents' steps and the replay autoplay speed (?frame_ms=N&play_ms=N)
const QUERY = new URLSearchParams(location.search);
const FRAME_MS = Number(QUERY.get("frame_ms") ?? 300);
const PLAY_MS = Number(QUERY.get("play_ms") ?? 400);

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};
window.parlourEl = el;

let catalog = [];
let game = null; // {id, spec, state, busy}
let replay = null; // {id, summary, playing}

async function api(method, path, body) {
  const opts = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) opts.body = JSON.stringify(body);
  const res = await fetch(path, opts);
  const data = await res.json();
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function showError(err) {
  const box = $("error");
  box.textContent = err ? String(err.message || err) : "";
  box.classList.toggle("hidden", !err);
}

function setStatus(text) {
  $("status").textContent = text;
}

const renderer = (name) =>
  window.PARLOUR_GAMES[name] || {
    render(root, view) {
      root.append(el("pre", { text: JSON.stringify(view, null, 1) }));
    },
    final(root, final) {
      root.append(el("pre", { text: JSON.stringify(final, null, 1) }));
    },
  };

// -- the new-game form ------------------------------------------------------------------------

// labels: the text shown for a value (default: the value itself)
function fillSelect(select, values, selected, labels = {}) {
  select.replaceChildren(
    ...values.map((v) => el("option", { value: v, text: String(labels[v] ?? v) })),
  );
  if (selected !== undefined) select.value = String(selected);
}

function currentSpec() {
  return catalog.find((g) => g.name === $("game").value);
}

// a game option's value in the form, or (not in it) its unchanged default
function formValue(o, form) {
  if (o.name in form) return form[o.name];
  return o.choices === "bool" ? false : o.default;
}

// the shipped models trained for n players (each offered only at its own game and seat count)
function shippedFor(spec, n) {
  return spec.shipped.filter((m) => m.players === n);
}

// the opponent selected by default: the shipped default model for n players whose game options
// are the form's (an option it was not trained with must be at its default), else the UI's
function defaultOpponent(spec, n) {
  const form = readOptions();
  const fits = (m) =>
    spec.options.every((o) => {
      const want = o.name in m.game_options ? m.game_options[o.name] : formValue(o, {});
      return String(formValue(o, form)) === String(want);
    });
  const model = shippedFor(spec, n).find((m) => m.default && fits(m));
  return model ? model.spec : spec.default_opponent;
}

function refreshOptions(spec) {
  const box = $("game-options");
  if (box.dataset.game === spec.name) return;
  box.dataset.game = spec.name;
  box.replaceChildren();
  for (const o of spec.options) {
    let input;
    if (o.choices === "bool") input = el("input", { type: "checkbox" });
    else {
      input = el("select");
      fillSelect(input, o.choices, o.default);
    }
    input.id = `option-${o.name}`;
    input.dataset.option = o.name;
    box.append(el("label", { text: `${o.label} ` }, input));
  }
}

function refreshForm() {
  const spec = currentSpec();
  const players = Number($("players").value) || spec.default_players;
  const counts = [];
  for (let n = spec.min_players; n <= spec.max_players; n++) counts.push(n);
  fillSelect($("players"), counts, counts.includes(players) ? players : spec.default_players);
  const n = Number($("players").value);
  const seat = Math.min(Number($("seat").value) || 0, n - 1);
  fillSelect($("seat"), [...Array(n).keys()], seat);
  refreshOptions(spec);
  // the catalog's agent ids (the server accepts nothing else; the operator's models by id)
  const agents = spec.agents.concat(shippedFor(spec, n).map((m) => m.spec));
  const chosen = defaultOpponent(spec, n);
  const opp = $("opponents");
  opp.replaceChildren();
  for (let i = 0; i < n - 1; i++) {
    const s = el("select", { class: "opponent", id: `opponent-${i}` });
    fillSelect(s, agents, chosen, spec.labels);
    opp.append(el("label", { text: `Opponent ${i + 1} ` }, s));
  }
}

function readOptions() {
  const options = {};
  for (const input of $("game-options").querySelectorAll("[data-option]")) {
    if (input.type === "checkbox") {
      if (input.checked) options[input.dataset.option] = true;
    } else {
      const v = input.value;
      options[input.dataset.option] = /^-?\d+$/.test(v) ? Number(v) : v;
    }
  }
  return options;
}

async function startGame(ev) {
  ev.preventDefault();
  showError(null);
  const spec = currentSpec();
  const body = {
    game: spec.name,
    players: Number($("players").value),
    seat: Number($("seat").value),
    opponents: [...document.querySelectorAll(".opponent")].map((s) => s.value),
    options: readOptions(),
    hints: $("hints").checked,
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    setStatus("dealing…");
    // the old game is closed first: it would count against this address's games
    if (game) await api("DELETE", `/api/games/${game.id}`).catch(() => {});
    const data = await api("POST", "/api/games", body);
    game = { id: data.id, spec, state: data.state, busy: false };
    $("setup").open = false;
    $("log").replaceChildren();
    $("board").classList.remove("hidden");
    await playFrames(data.frames);
    draw(data.state, false);
  } catch (err) {
    showError(err);
  }
}

// -- playing ----------------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function playFrames(frames) {
  for (const f of frames) {
    $("log").append(el("li", { text: `${f.agent}: ${f.text}` }));
    draw(f.state, true);
    await sleep(FRAME_MS);
  }
}

async function makeMove(action) {
  if (!game || game.busy) return;
  game.busy = true;
  showError(null);
  try {
    const move = game.state.moves.find((m) => m.action === action);
    $("log").append(el("li", { class: "mine", text: `you: ${move ? move.name : action}` }));
    const data = await api("POST", `/api/games/${game.id}/move`, {
      action,
      version: game.state.version,
    });
    await playFrames(data.frames);
    draw(data.state, false);
  } catch (err) {
    showError(err);
    try {
      draw((await api("GET", `/api/games/${game.id}`)).state, false);
    } catch (e) {
      showError(e);
    }
  } finally {
    game.busy = false;
  }
}

function drawTable(name, state, readonly, onMove) {
  const table = $("table");
  table.replaceChildren();
  const r = renderer(name);
  const ctx = { seat: state.seat, agents: state.agents, toMove: state.to_move, readonly };
  if (state.seats) {
    for (const [agent, view] of Object.entries(state.seats)) {
      const part = el("div", { class: "seat-view" }, el("h3", { text: `${agent}'s view` }));
      r.render(part, view, { ...ctx, seat: state.agents.indexOf(agent) });
      table.append(part);
    }
  } else {
    r.render(table, state.view, ctx);
  }
  const moves = $("moves");
  moves.replaceChildren();
  for (const m of state.moves) {
    const target = m.target && table.querySelector(`[data-target="${m.target}"]`);
    if (target && !readonly) {
      target.classList.add("legal");
      target.addEventListener("click", () => onMove(m.action));
      target.setAttribute("title", m.name);
    }
    if (!target) {
      const b = el("button", { class: "move", "data-action": m.action, text: m.name });
      b.disabled = readonly;
      b.addEventListener("click", () => onMove(m.action));
      moves.append(b);
    }
  }
  const fin = $("final");
  fin.replaceChildren();
  if (state.final) r.final(fin, state.final, ctx);
}

function draw(state, animating) {
  game.state = state;
  drawTable(game.spec.name, state, animating, makeMove);
  let turn;
  if (state.over) turn = "Game over.";
  else if (state.to_move === state.agent && !animating) turn = `Your turn (${state.agent}).`;
  else turn = `${state.to_move} is thinking…`;
  $("turn").textContent = turn;
  setStatus(state.over ? "game over" : animating ? "agents moving" : "your turn");
  document.body.dataset.phase = state.over ? "over" : animating ? "agents" : "mine";
}

// -- replays ----------------------------------------------------------------------------------

async function loadReplayList() {
  const data = await api("GET", "/api/replays");
  fillSelect($("replay-list"), data.replays);
}

async function openReplay(body) {
  showError(null);
  try {
    const data = await api("POST", "/api/replays", body);
    stopReplay();
    replay = { id: data.id, summary: data.summary, playing: false };
    $("step").max = data.summary.steps;
    $("step").value = 0;
    // omniscient first, when offered (only for a finished game)
    fillSelect($("replay-view"), data.summary.views, data.summary.views[0]);
    $("replay-controls").classList.remove("hidden");
    $("board").classList.remove("hidden");
    $("log").replaceChildren(
      el("li", { text: `${data.summary.game}, seed ${data.summary.seed}: ${data.summary.agents.join(" vs ")}` }),
    );
    await showStep();
  } catch (err) {
    showError(err);
  }
}

let frameTicket = 0; // the latest frame asked for: an older answer arriving late is dropped

async function showStep() {
  if (!replay) return;
  const ticket = ++frameTicket;
  const step = Number($("step").value);
  const view = $("replay-view").value;
  try {
    const state = await api("GET", `/api/replays/${replay.id}/frame?step=${step}&view=${view}`);
    if (ticket !== frameTicket) return;
    drawTable(replay.summary.game, state, true, () => {});
    $("step-label").textContent = `step ${state.step} / ${state.steps}`;
    $("turn").textContent = state.over ? "Game over." : `${state.to_move} to move`;
    document.body.dataset.view = view;
    document.body.dataset.step = String(state.step);
  } catch (err) {
    showError(err);
  }
}

function stopReplay() {
  if (replay) replay.playing = false;
  $("play-pause").textContent = "Play";
}

async function togglePlay() {
  if (!replay) return;
  if (replay.playing) return stopReplay();
  replay.playing = true;
  $("play-pause").textContent = "Pause";
  const s = $("step");
  while (replay.playing && Number(s.value) < Number(s.max)) {
    s.value = Number(s.value) + 1;
    await showStep();
    await sleep(PLAY_MS);
  }
  stopReplay();
}

// -- wiring -----------------------------------------------------------------------------------

function showTab(which) {
  const playing = which === "play";
  $("tab-play").classList.toggle("active", playing);
  $("tab-replay").classList.toggle("active", !playing);
  $("setup").classList.toggle("hidden", !playing);
  $("replay-setup").classList.toggle("hidden", playing);
  $("board").classList.add("hidden");
  stopReplay();
  if (!playing) loadReplayList().catch(showError);
}

// a game's drawing comes from its plug-in (Game.web.script), served as /games/<name>.js
function loadScript(src) {
  return new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = src;
    tag.onload = resolve;
    tag.onerror = () => reject(new Error(`${src} did not load`));
    document.body.append(tag);
  });
}

async function init() {
  catalog = (await api("GET", "/api/catalog")).games;
  await Promise.all(
    catalog.filter((g) => g.script).map((g) => loadScript(`/games/${encodeURIComponent(g.name)}.js`)),
  );
  fillSelect($("game"), catalog.map((g) => g.name));
  $("game").addEventListener("change", refreshForm);
  $("players").addEventListener("change", refreshForm);
  $("game-options").addEventListener("change", refreshForm);
  refreshForm();
  $("new-game").addEventListener("submit", startGame);
  $("tab-play").addEventListener("click", () => showTab("play"));
  $("tab-replay").addEventListener("click", () => showTab("replay"));
  $("open-listed").addEventListener("click", () => openReplay({ name: $("replay-list").value }));
  $("replay-file").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    let doc;
    try {
      doc = JSON.parse(await file.text());
    } catch (err) {
      return showError(new Error(`${file.name} does not parse as JSON: ${err.message}`));
    }
    await openReplay({ replay: doc });
  });
  $("step").addEventListener("input", showStep);
  $("replay-view").addEventListener("change", showStep);
  $("play-pause").addEventListener("click", togglePlay);
  setStatus("ready");
  document.body.dataset.ready = "1";
}

init().catch(showError);
