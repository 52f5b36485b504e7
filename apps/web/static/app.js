// parlour serve: the generic page. Game-specific drawing comes from each game's plug-in
// (Game.web.script(), served as /games/<name>.js), which registers
// PARLOUR_GAMES[name] = {render(el, view, ctx), final(el, final, ctx)}; a game without one is
// drawn as its JSON view with its moves as buttons. Replays: replay.js.
//
// A live game's id is kept in the address (#game=<id>): a reload resumes it with its log.
"use strict";
window.PARLOUR_GAMES = window.PARLOUR_GAMES || {};
// pause between the agents' steps and the replay autoplay speed (?frame_ms=N&play_ms=N)
const QUERY = new URLSearchParams(location.search);
const FRAME_MS = Number(QUERY.get("frame_ms") ?? 300);
const PLAY_MS = Number(QUERY.get("play_ms") ?? 400);
// after this long, "dealing…" says that the agents are being loaded
const SLOW_DEAL_MS = 600;

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
let game = null; // {id, spec, state, busy, names, setup, gone, undone}
// the move a keyboard player just played ("t:<target>" or "a:<action>"): once the table is
// drawn again, the focus goes back to it (or to the first move), not to the top of the page
let focusKey = null;

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(method, path, body) {
  const opts = { method, headers: { "Content-Type": "application/json" } };
  if (body !== undefined) opts.body = JSON.stringify(body);
  let res;
  try {
    res = await fetch(path, opts);
  } catch (err) {
    throw new ApiError("the server does not answer (is `parlour serve` still running?)", 0);
  }
  let data = {};
  try {
    data = await res.json();
  } catch (err) {
    /* (a body that is not JSON: the status says it) */
  }
  if (!res.ok) throw new ApiError(data.error || res.statusText, res.status);
  return data;
}
window.parlourApi = api;
// the seats' names of the live game (tests read what the page shows)
window.parlourGameNames = () => (game ? { ...game.names } : {});

function showError(err) {
  const box = $("error");
  box.textContent = err ? String(err.message || err) : "";
  box.classList.toggle("hidden", !err);
}

window.parlourShowError = showError;

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

const specOf = (name) => catalog.find((g) => g.name === name);
const currentSpec = () => specOf($("game").value);
const agentLabel = (spec, id) => (spec.labels && spec.labels[id]) || id;

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
  drawRules(spec);
}

function refreshForm() {
  const spec = currentSpec();
  const players = Number($("players").value) || spec.default_players;
  const counts = [];
  for (let n = spec.min_players; n <= spec.max_players; n++) counts.push(n);
  fillSelect($("players"), counts, counts.includes(players) ? players : spec.default_players);
  const n = Number($("players").value);
  const seat = Math.min(Number($("seat").value) || 0, n - 1);
  const seatLabels = Object.fromEntries(
    [...Array(n).keys()].map((i) => [i, `${i + 1}${i === 0 ? " (plays first)" : ""}`]),
  );
  fillSelect($("seat"), [...Array(n).keys()], seat, seatLabels);
  refreshOptions(spec);
  // the catalog's agent ids (the server accepts nothing else; the operator's models by id)
  const fits = (id) => !(spec.players_of && id in spec.players_of) || spec.players_of[id].includes(n);
  const agents = spec.agents.filter(fits).concat(shippedFor(spec, n).map((m) => m.spec));
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

function readSettings() {
  const body = {
    game: currentSpec().name,
    players: Number($("players").value),
    seat: Number($("seat").value),
    opponents: [...document.querySelectorAll(".opponent")].map((s) => s.value),
    options: readOptions(),
    hints: $("hints").checked,
  };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  return body;
}

// the seats' names: "You" for the person, the agent name and its opponent's label for the others
// (setup: what the person chose, as the server's catalog ids)
function seatNames(setup, agents) {
  const spec = specOf(setup.game);
  const names = {};
  const opponents = setup.opponents && setup.opponents.length ? setup.opponents : [spec.default_opponent];
  let k = 0;
  agents.forEach((agent, i) => {
    if (i === setup.seat) names[agent] = "You";
    else {
      const id = opponents[k++ % opponents.length];
      names[agent] = `${agent} (${agentLabel(spec, id)})`;
    }
  });
  return names;
}

// -- starting, resuming, closing --------------------------------------------------------------

async function startGame(ev) {
  if (ev) ev.preventDefault();
  await newGame(readSettings());
}

async function newGame(body) {
  showError(null);
  const spec = specOf(body.game);
  document.body.dataset.phase = "loading";
  $("start").disabled = true;
  setStatus("dealing…");
  const slow = setTimeout(
    () => setStatus("dealing… loading the opponents (the first game can take a few seconds)"),
    SLOW_DEAL_MS,
  );
  try {
    // the old game is closed first: it would count against this address's games
    if (game && !game.gone) await api("DELETE", `/api/games/${game.id}`).catch(() => {});
    game = null; // (its moves still on their way are dropped: see send)
    const data = await api("POST", "/api/games", body);
    const setup = { ...body };
    game = { id: data.id, spec, state: data.state, busy: false, setup };
    game.names = seatNames(setup, data.state.agents);
    history.replaceState(null, "", `${location.pathname}${location.search}#game=${data.id}`);
    showBoard(spec);
    setLog([]);
    await playFrames(game, data.frames);
    if (game && game.id === data.id) draw(data.state, false);
  } catch (err) {
    game = null;
    $("play-area").classList.add("hidden"); // (the old game was closed: nothing to play)
    history.replaceState(null, "", location.pathname + location.search);
    document.body.dataset.phase = "refused";
    setStatus(err.status === 503 || err.status === 429 ? "server full" : "not started");
    showError(err);
  } finally {
    clearTimeout(slow);
    $("start").disabled = false;
  }
}

function showBoard(spec) {
  $("setup").open = false;
  $("play-area").classList.remove("hidden");
  drawRules(spec);
}

// the log from the server's entries (a reload, an undo)
function setLog(entries) {
  $("log").replaceChildren();
  $("log").classList.remove("replay");
  $("latest").textContent = "";
  for (const e of entries) addLog(e.agent, e.text, e.mine);
}

// a game's id: what the server hands out (anything else in the address is not asked for)
const GAME_ID = /^[0-9a-f]{32}$/;

// a reload, or the address opened again: the game it names, with its log and its setup
async function resume(id) {
  let data;
  try {
    if (!GAME_ID.test(id)) throw new ApiError("not a game's address", 404);
    data = await api("GET", `/api/games/${encodeURIComponent(id)}`);
  } catch (err) {
    history.replaceState(null, "", location.pathname + location.search);
    showError(
      err.status === 404
        ? new Error("That game is no longer on the server (it was closed or timed out): start a new one.")
        : err,
    );
    return;
  }
  const spec = specOf(data.setup.game);
  if (!spec) return showError(new Error("this game is not offered by the server any more"));
  game = { id, spec, state: data.state, busy: false, setup: data.setup };
  game.names = seatNames(data.setup, data.state.agents);
  showBoard(spec);
  setLog(data.log);
  draw(data.state, false);
}

// -- playing ----------------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// a move of the log (agent "": an event of the table); a text's later lines are the public
// events it set off (an accusation settled...), each a line of its own
function addLog(agent, text, mine) {
  const log = $("log");
  const who = mine ? "You" : (game && game.names[agent]) || agent;
  text.split("\n").forEach((part, i) => {
    const event = !agent || i > 0;
    const line = event ? part : `${who}: ${part}`;
    log.append(el("li", { class: mine && !event ? "mine" : event ? "event" : "", text: line }));
    if (!mine || event) $("latest").textContent = line;
  });
  log.scrollTop = log.scrollHeight; // the log follows the game
}

// the agents' steps of the game g, one by one (stopped when another game replaced g)
async function playFrames(g, frames) {
  for (const f of frames) {
    if (game !== g) return;
    addLog(f.agent, f.text, false);
    draw(f.state, true);
    await sleep(FRAME_MS);
  }
}

async function send(path, body, what) {
  const g = game;
  if (!g || g.busy || g.gone) return;
  g.busy = true;
  showError(null);
  document.body.dataset.phase = "sent";
  try {
    const data = await api("POST", `/api/games/${g.id}/${path}`, body);
    if (game !== g) return; // (a new game was started meanwhile)
    what(data);
    await playFrames(g, data.frames);
    if (game === g) draw(data.state, false);
  } catch (err) {
    if (game === g) await failed(err);
  } finally {
    g.busy = false;
  }
}

function makeMove(action) {
  if (!game) return;
  const move = game.state.moves.find((m) => m.action === action);
  // logged once the server took it (a refused move is not played)
  send("move", { action, version: game.state.version }, () =>
    addLog(game.state.agent, move ? move.name : String(action), true),
  );
}

function undo() {
  if (!game) return;
  send("undo", { version: game.state.version }, (data) => {
    setLog(data.log);
    game.undone = data.undone;
  });
}

// a refused move: a game the server no longer has ends here; otherwise show it as it is
async function failed(err) {
  showError(err);
  if (err.status === 404) {
    game.gone = true;
    history.replaceState(null, "", location.pathname + location.search);
    $("turn").textContent = "This game is closed: it timed out or was closed. Start a new one.";
    $("prompt").textContent = "";
    setStatus("game closed");
    document.body.dataset.phase = "gone";
    drawTable(game.spec.name, { ...game.state, moves: [] }, true, () => {}, game.names);
    $("new-game-button").classList.remove("hidden");
    $("undo").classList.add("hidden");
    return;
  }
  try {
    const data = await api("GET", `/api/games/${game.id}`); // (another tab may have moved)
    setLog(data.log);
    draw(data.state, false);
  } catch (e) {
    showError(e);
  }
}

// a legal target of the table: outlined, named, clickable and reachable by the keyboard
function armTarget(target, move, onMove) {
  target.classList.add("legal");
  target.setAttribute("tabindex", "0");
  target.setAttribute("role", "button");
  target.setAttribute("aria-label", move.name);
  target.setAttribute("title", move.name);
  target.addEventListener("click", () => onMove(move.action));
  target.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") {
      ev.preventDefault();
      focusKey = `t:${target.dataset.target}`;
      onMove(move.action);
    }
  });
}

// after a keyboard move: the focus on the same target if it can be played again, else on the
// first move of the table
function restoreFocus(table, moves) {
  if (!focusKey) return;
  const [kind, key] = [focusKey.slice(0, 1), focusKey.slice(2)];
  const same =
    kind === "t"
      ? table.querySelector(`.legal[data-target="${CSS.escape(key)}"]`)
      : moves.querySelector(`button.move[data-action="${CSS.escape(key)}"]`);
  const first = table.querySelector(".legal") || moves.querySelector("button.move:enabled");
  const to = same || first;
  focusKey = null;
  if (to) to.focus();
}

function drawTable(name, state, readonly, onMove, names, opts = {}) {
  const table = $("table");
  table.replaceChildren();
  const r = renderer(name);
  const ctx = {
    seat: state.seat,
    agent: state.agent,
    agents: state.agents,
    names,
    toMove: state.to_move,
    readonly,
    omniscient: Boolean(opts.omniscient),
    gameKey: opts.gameKey ?? null,
    hints: Boolean(opts.hints),
  };
  r.render(table, opts.view ?? state.view, ctx);
  const moves = $("moves");
  moves.replaceChildren();
  for (const m of state.moves) {
    const target = m.target && table.querySelector(`[data-target="${CSS.escape(m.target)}"]`);
    if (target && !readonly) armTarget(target, m, onMove);
    if (!target) {
      const b = el("button", { type: "button", class: "move", "data-action": m.action, text: m.name });
      b.disabled = readonly;
      b.addEventListener("click", (ev) => {
        if (ev.detail === 0) focusKey = `a:${m.action}`; // (Enter or Space, not a pointer)
        onMove(m.action);
      });
      moves.append(b);
    }
  }
  if (!readonly) restoreFocus(table, moves);
  const fin = $("final");
  fin.replaceChildren();
  if (state.final) {
    if (state.over) fin.append(outcome(state, names, opts.omniscient));
    r.final(fin, state.final, ctx);
  }
}
window.parlourDrawTable = drawTable;

// the end of the game for the person: won, lost to whom, or nobody won (omniscient: who won)
function outcome(state, names, omniscient) {
  const winners = (state.final && state.final.winners) || [];
  const name = (a) => names[a] || a;
  let text;
  if (!winners.length) text = "Nobody won.";
  else if (omniscient) text = `${winners.map(name).join(", ")} won.`;
  else if (winners.includes(state.agent)) {
    const others = winners.filter((w) => w !== state.agent);
    text = others.length ? `You won, tied with ${others.map(name).join(", ")}!` : "You won!";
  } else text = `You lost: ${winners.map(name).join(", ")} won.`;
  const won = !omniscient && winners.includes(state.agent);
  return el("h2", { id: "outcome", class: won ? "won" : "lost", text });
}

function draw(state, animating) {
  game.state = state;
  drawTable(game.spec.name, state, animating, makeMove, game.names, {
    gameKey: game.id,
    hints: game.setup.hints,
  });
  let turn;
  const mine = state.to_move === state.agent && !animating;
  if (state.over) turn = "Game over.";
  else if (mine) turn = "Your turn.";
  else turn = `${game.names[state.to_move] || state.to_move} is thinking…`;
  $("turn").textContent = turn;
  $("prompt").textContent = mine ? state.prompt || "Your move: the gold outlines and buttons are what you may do." : "";
  $("undo").classList.toggle("hidden", !(mine && state.undo));
  $("play-again").classList.toggle("hidden", !state.over);
  $("new-game-button").classList.toggle("hidden", !state.over);
  if (game.undone && !animating) setStatus(`your ${game.undone} choice was taken back`);
  else setStatus(state.over ? "game over" : animating ? "agents moving" : "your turn");
  game.undone = null;
  document.body.dataset.phase = state.over ? "over" : animating ? "agents" : "mine";
}

function drawRules(spec) {
  const box = $("rules-text");
  box.replaceChildren();
  const rules = (spec && spec.rules) || [];
  $("rules").classList.toggle("hidden", !rules.length);
  for (const section of rules) {
    box.append(el("h3", { text: section.heading }));
    for (const para of section.text.split(/\n\s*\n/)) box.append(el("p", { text: para.trim() }));
  }
}
window.parlourDrawRules = drawRules;

// -- wiring -----------------------------------------------------------------------------------

function showTab(which) {
  const playing = which === "play";
  $("tab-play").classList.toggle("active", playing);
  $("tab-replay").classList.toggle("active", !playing);
  $("tab-play").setAttribute("aria-pressed", String(playing));
  $("tab-replay").setAttribute("aria-pressed", String(!playing));
  $("setup").classList.toggle("hidden", !playing);
  $("replay-setup").classList.toggle("hidden", playing);
  $("play-area").classList.add("hidden");
  document.body.dataset.tab = which;
  window.parlourReplayTab(!playing);
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
  // the side column sticks just under the bar, whatever the bar's height
  new ResizeObserver(([entry]) =>
    document.documentElement.style.setProperty("--bar-h", `${entry.target.offsetHeight}px`),
  ).observe($("bar"));
  catalog = (await api("GET", "/api/catalog")).games;
  window.parlourCatalog = catalog;
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
  $("undo").addEventListener("click", undo);
  $("play-again").addEventListener("click", () => {
    const again = { ...game.setup };
    delete again.seed; // a new deal
    newGame(again);
  });
  $("new-game-button").addEventListener("click", () => {
    $("setup").open = true;
    $("game").focus();
  });
  const id = new URLSearchParams(location.hash.slice(1)).get("game");
  if (id) await resume(id);
  if (!game) setStatus("ready");
  document.body.dataset.ready = "1";
}

init().catch((err) => {
  showError(err);
  document.body.dataset.ready = "1";
});
