// The viewer of one game: live (follows the SSE stream) or replay (steps
// through the versions the game rested at). Everything comes from the public
// /v1 API with the caller's token, so a seat sees exactly what the API lets
// it see, and after the end everyone sees everything.
import {api, allEvents, follow, loadToken, saveToken} from "./api.js";
import {Play} from "./play.js";
import {currentPlayer, sessionBox} from "./session.js";
import {addToBatches, batchesOf, batchOfSeq, beforeDeal} from "./batches.js";
import {auditPanel, scoresPanel} from "./panels.js";
import {heldSeat, seatsPanel} from "./seats.js";
import {loadMoves, markMove, moveEnding, moveLabel, moveWho, movesPanel} from "./moves.js";
import {eventWho, eventWords, streamState, typeWords} from "./words.js";
import {clear, h, seatLabel} from "./dom.js";
import {renderGeneric} from "./generic.js";
import {keepScroll} from "./boxes.js";

const GENERIC = {render: renderGeneric}; // a game without a renderer module: its view as JSON

const PLAY_MS = 800;

const gameId = document.body.dataset.gameId;
const $ = (id) => document.getElementById(id);

const app = {
  token: null,
  seat: null, // the token's seat; null for a spectator or the admin
  summary: null,
  title: null,
  content: null, // the catalog's public components, which views name by id
  renderer: GENERIC, // the game's renderer module (render, places), named by its catalog entry
  events: [],
  batches: [], // [{key, first, end, events}]: one per command, in order
  moves: [], // GET /moves: move n = the n-th accepted command, with its label
  rows: new Map(), // seq -> <li> of the event list
  lit: [], // <li>s highlighted as the current batch
  mode: "live",
  step: 0,
  stream: null,
  poll: null, // while the tab is hidden: the timer that reads the game instead of its stream
  over: false, // the end was handled (GameFinished, the stream's end, or a hidden tab's read)
  player: null, // replay autoplay timer
  pending: null, // debounce timer of a live refresh
  request: 0, // serial of the newest state request; older answers are dropped
};

function say(text) {
  $("message").hidden = !text;
  clear($("message"), text || "");
}

const play = new Play({gameId, board: $("board"), panel: $("turn-panel"), say, onActed: () => refreshNow()});
play.onRematch = () => rematch();

// -- loading -------------------------------------------------------------------

/**
 * A token may arrive in the URL fragment (#token=...): a fragment is never sent to
 * the server, and the page's referrer policy (no-referrer) keeps it out of any
 * Referer. Keep it for this tab and tidy the URL. Returns whether one was taken.
 */
function takeTokenFromFragment() {
  const match = window.location.hash.match(/token=([^&]+)&?/);
  if (!match) return false;
  saveToken(gameId, decodeURIComponent(match[1]));
  const rest = window.location.hash.replace(match[0], "").replace(/^#$/, "");
  history.replaceState(null, "", window.location.pathname + window.location.search + rest);
  return true;
}

/** This game's seat token (pasted or from a link), else the signed-in player's token. */
function tokenToUse() {
  const seatToken = loadToken(gameId);
  if (seatToken) return seatToken;
  const player = currentPlayer();
  return player ? player.token : null;
}

async function whoAmI() {
  if (!app.token) return null;
  const legal = await api(`/v1/games/${gameId}/legal-actions`, {token: app.token});
  return legal.seat;
}

async function catalogEntry(game) {
  try {
    return await api(`/v1/catalog/${encodeURIComponent(game)}`);
  } catch {
    return null; // a renderer copes without components; the JSON fallback needs none
  }
}

/** The renderer module the catalog names (``renderer``: ./<name>.js, exporting ``render`` to draw a
 * view and ``places`` to name the board places of a command); a game without one is shown as JSON. */
async function rendererOf(entry) {
  if (!entry || !entry.renderer) return GENERIC;
  try {
    return await import(`./${encodeURIComponent(entry.renderer)}.js`);
  } catch (err) {
    console.error(err);
    return GENERIC; // the JSON view, rather than nothing
  }
}

async function loadGame() {
  stopStream();
  stopPoll();
  stopPlay();
  app.over = false;
  setLiveState("");
  app.token = tokenToUse();
  try {
    app.summary = await api(`/v1/games/${gameId}`, {token: app.token});
    app.seat = await whoAmI();
  } catch (err) {
    if (err.status === 401 && app.token && loadToken(gameId)) {
      saveToken(gameId, null);
      say(`That token is not a seat of this game (${err.message}); showing the spectator view.`);
      return loadGame();
    }
    $("status").textContent = "error";
    return say(err.status === 404 ? `There is no game ${gameId}.` : `Could not load the game: ${err.message}`);
  }
  const entry = await catalogEntry(app.summary.game);
  app.content = entry ? entry.content : null;
  app.renderer = await rendererOf(entry);
  app.title = entry ? entry.title : app.summary.game;
  app.events = await allEvents(gameId, app.token);
  app.batches = batchesOf(app.events);
  await refreshMoves();
  const last = app.events.length ? app.events[app.events.length - 1].seq : 0;
  // The stream follows from the last event read: a move made between the two reads would
  // otherwise never redraw the position (the page would wait for a turn it already has).
  if (last > app.summary.version) app.summary = await api(`/v1/games/${gameId}`, {token: app.token});
  renderHeader();
  renderEventList();
  delete $("audit").dataset.status; // the token may have changed: rebuild the verify controls too
  refreshPanels();
  if (following()) follows();
  const wanted = linkedVersion();
  const linked = wanted === null ? -1 : batchOfSeq(app.batches, wanted);
  if (wanted !== null) setMode("replay", linked < 0 ? app.batches.length - 1 : linked);
  else setMode(following() ? "live" : "replay", app.batches.length - 1);
}

/** An open game (waiting for players) or an active one is followed live; an ended one is replayed. */
function following() {
  return app.summary.status === "active" || app.summary.status === "open";
}

/** A link may name a move (#move=30) or a version (#v=120), so a disputed position can be shared. */
function linkedVersion() {
  const move = window.location.hash.match(/move=(\d+)/);
  if (move && app.moves[Number(move[1]) - 1]) return app.moves[Number(move[1]) - 1].last_seq;
  const match = window.location.hash.match(/v=(\d+)/);
  return match ? Number(match[1]) : null;
}

async function refreshMoves() {
  app.moves = await loadMoves(gameId, app.token);
  $("move-count").textContent = `(${app.moves.length})`;
  movesPanel($("move-list"), app.moves, (m) => moveWho(m, app.renderer, names()), (m) => moveLabel(m, app.renderer, names()),
    (m) => setMode("replay", batchOfSeq(app.batches, m.last_seq)));
}

// -- live ----------------------------------------------------------------------

function startStream() {
  const after = app.events.length ? app.events[app.events.length - 1].seq : 0;
  app.stream = follow(`/v1/games/${gameId}/events/stream`, {
    token: app.token,
    after,
    onEvent: (ev) => {
      addEvent(ev);
      // GameFinished is always the log's last event: end here rather than
      // wait for the stream's own `end`, which a dropped connection can lose.
      if (ev.type === "GameFinished") gameEnded();
      else scheduleRefresh();
    },
    onEnd: () => gameEnded(),
    onError: (err) => setLiveState(`stream stopped: ${err.message}`),
    onStatus: (status, detail) => setLiveState(streamState(status, detail)),
  });
}

function stopStream() {
  if (app.stream) app.stream.stop();
  app.stream = null;
}

// -- a hidden tab ----------------------------------------------------------------
// A browser opens at most six connections to one server (HTTP/1.1), and a followed stream holds one
// for as long as its page is open: with six Delve tabs following games, a seventh page did not even
// load. A hidden tab lets its stream go and reads the game every HIDDEN_POLL_MS instead (a short
// request, so "your turn" still reaches it: the title, a notification); shown again, it catches up
// and follows the stream.
const HIDDEN_POLL_MS = 10000;

/** Follow the game: its stream while the tab is shown, a slow read while it is hidden. */
function follows() {
  if (document.hidden) startPoll();
  else startStream();
}

function startPoll() {
  stopPoll();
  setLiveState("this tab is hidden: the game is read every few seconds");
  app.poll = setInterval(catchUp, HIDDEN_POLL_MS);
}

function stopPoll() {
  if (app.poll) clearInterval(app.poll);
  app.poll = null;
}

/** Read the events after the last one shown, as the stream would have brought them. */
async function catchUp() {
  const after = app.events.length ? app.events[app.events.length - 1].seq : 0;
  let fresh;
  try {
    fresh = await allEvents(gameId, app.token, after);
  } catch {
    return; // the next read, or the stream once the tab is shown, tries again
  }
  for (const ev of fresh) addEvent(ev);
  if (fresh.some((ev) => ev.type === "GameFinished")) return gameEnded();
  if (fresh.length) scheduleRefresh();
}

document.addEventListener("visibilitychange", async () => {
  if (!app.summary || app.over || !following()) return;
  if (document.hidden) {
    stopStream();
    startPoll();
  } else if (!app.stream) {
    stopPoll();
    await catchUp();
    if (!app.over && following() && !app.stream && !document.hidden) startStream();
  }
});

function setLiveState(text) {
  $("live-state").textContent = text;
}

function addEvent(ev) {
  const last = app.events[app.events.length - 1];
  if (last && ev.seq <= last.seq) return; // a resumed stream never repeats, but be safe
  app.events.push(ev);
  addToBatches(app.batches, ev);
  appendRow(ev);
  if (app.mode === "replay") updateSlider();
}

/** Bots can append dozens of events a second: redraw at most every 300 ms. */
function scheduleRefresh() {
  if (app.pending) return;
  app.pending = setTimeout(async () => {
    app.pending = null;
    await refreshSummary();
    await refreshMoves();
    refreshPanels();
  }, 300);
}

async function refreshSummary() {
  try {
    app.summary = await api(`/v1/games/${gameId}`, {token: app.token});
  } catch (err) {
    return say(`Could not refresh the game: ${err.message}`);
  }
  renderHeader();
  if (app.mode === "live") showLive();
}

/**
 * The stream's `end`: the game is over, so everything is public now. The
 * events are read again, with the command ids and secrets the redaction hid,
 * so the replay steps are exact.
 */
async function gameEnded() {
  if (app.over) return; // already handled (GameFinished, then the stream's end)
  app.over = true;
  setLiveState("the game has finished");
  stopStream();
  stopPoll();
  app.events = await allEvents(gameId, app.token);
  app.batches = batchesOf(app.events);
  renderEventList();
  await refreshMoves();
  await refreshSummary();
  refreshPanels();
  if (app.mode === "replay") updateSlider();
}

function showLive() {
  highlight(app.batches[app.batches.length - 1]);
  if (app.summary.status === "open") {
    showWaiting();
  } else {
    renderView(app.summary.view, app.batches[app.batches.length - 1], app.summary.version);
  }
  updatePlay();
}

/** The play panel follows the live position only; a replay step is for looking. */
function updatePlay() {
  const live = app.mode === "live" || !following();
  const summary = live ? app.summary : {...app.summary, status: "replaying", active_seats: []};
  const {places, order, figure, alike, lacking, relabel} = app.renderer;
  play.update({token: app.token, seat: app.seat, summary, placesOf: places, orderOf: order, figureOf: figure, alikeOf: alike,
    lackingOf: lacking, relabelOf: relabel, content: app.content, title: document.title});
}

/** After a move of ours (or a refusal): read the game again now, not at the stream's pace. */
async function refreshNow() {
  await refreshSummary();
  refreshPanels();
}

/** Nothing is dealt before the last seat is taken (issue 9): say who is missing instead of a board. */
function showWaiting() {
  const open = app.summary.seats.filter((seat) => seat.open).length;
  const held = heldSeat(app.summary, app.seat);
  clear($("board"), h("p", {class: "status waiting"},
    `Waiting for players: ${open} open seat(s). Nothing is dealt until every seat is taken; `,
    held === null ? "join in the Seats panel." : `you hold seat ${held}: others join from this page or the lobby.`));
  $("board").dataset.version = String(app.summary.version);
}

// -- replay --------------------------------------------------------------------

function updateSlider() {
  const slider = $("slider");
  slider.max = String(Math.max(0, app.batches.length - 1));
  slider.value = String(app.step);
  const batch = app.batches[app.step];
  if (!batch) return;
  const types = [...new Set(batch.events.map((ev) => typeWords(ev.type)))].join(", ");
  const move = moveEnding(app.moves, batch.end);
  markMove($("move-list"), move);
  const what = move
    ? `move ${move.move} of ${app.moves.length} · ${moveWho(move, app.renderer, names())}: ${moveLabel(move, app.renderer, names())}`
    : `${eventWho(batch.events[0], app.renderer, names())}: ${types}`;
  $("position").textContent = `step ${app.step + 1} of ${app.batches.length} · version ${batch.end} · ${what}`;
}

/**
 * The view at a batch end. When redaction hid the batch's last events from
 * this seat, the version seen is not where the game rested: step on to it.
 */
async function stateAt(index) {
  const batch = app.batches[index];
  const next = app.batches[index + 1];
  const limit = next ? next.first - 1 : app.summary.version;
  for (let version = batch.end; ; version += 1) {
    try {
      return await api(`/v1/games/${gameId}/states/${version}`, {token: app.token});
    } catch (err) {
      if (err.code !== "not_a_held_version" || version >= limit) throw err;
    }
  }
}

async function showStep(index) {
  if (!app.batches.length) return;
  app.step = Math.max(0, Math.min(index, app.batches.length - 1));
  updateSlider();
  const batch = app.batches[app.step];
  highlight(batch);
  history.replaceState(null, "", `#v=${batch.end}`);
  const serial = ++app.request;
  if (app.step < beforeDeal(app.batches)) { // no position yet: say so rather than ask for what cannot exist
    clear($("board"), h("p", {class: "status waiting"},
      `Version ${batch.end}: the game was waiting for players; nothing is dealt before the last seat is taken.`));
    $("board").dataset.version = String(batch.end);
    updatePlay();
    return;
  }
  try {
    const at = await stateAt(app.step);
    if (serial === app.request && app.mode === "replay") {
      renderView(at.view, batch, at.version, at.state);
      updatePlay();
    }
  } catch (err) {
    if (serial === app.request) clear($("board"), h("p", {class: "message"}, `Version ${batch.end}: ${err.message}`));
  }
}

function stopPlay() {
  if (app.player) clearInterval(app.player);
  app.player = null;
  $("play").textContent = "play";
}

function togglePlay() {
  if (app.player) return stopPlay();
  if (app.step >= app.batches.length - 1) showStep(0);
  $("play").textContent = "pause";
  app.player = setInterval(() => {
    if (app.step >= app.batches.length - 1) return stopPlay();
    showStep(app.step + 1);
  }, PLAY_MS);
}

function setMode(mode, step) {
  app.mode = mode;
  stopPlay();
  $("mode-live").classList.toggle("on", mode === "live");
  $("mode-replay").classList.toggle("on", mode === "replay");
  $("replay-controls").hidden = mode !== "replay";
  if (mode === "live") {
    history.replaceState(null, "", window.location.pathname);
    showLive();
  } else showStep(step === undefined ? app.step : step);
}

// -- rendering -----------------------------------------------------------------

/** Draw a view; the board's data-version names the version drawn (a bookmark for readers and tests). */
function renderView(view, batch, version, state = null) {
  const board = $("board");
  const render = app.renderer.render;
  const ctx = {
    seats: app.summary.seats,
    me: typeof app.seat === "number" ? app.seat : null, // the viewing seat, if any
    content: app.content,
    batch: batch ? batch.events : [], // the shown step's events, to outline what they touched
    state, // the full state: only after the end (or for the admin)
    over: !following() && version >= app.summary.version, // the last position of an ended game: nobody is to act
  };
  keepScroll(board, () => {
    try {
      render(board, view, ctx);
    } catch (err) {
      // A view the renderer does not understand still shows, as JSON.
      console.error(err);
      renderGeneric(board, view, ctx);
      board.prepend(h("p", {class: "message"}, `The ${app.summary.game} renderer failed (${err.message}); raw view below.`));
    }
  });
  if (state) {
    board.append(h("details", {class: "full-state"}, h("summary", {}, "Full state at this version"),
      h("pre", {class: "json"}, JSON.stringify(state, null, 1))));
  }
  board.dataset.version = String(version);
}

function renderHeader() {
  const sum = app.summary;
  document.title = `Delve — ${app.title} ${gameId}`;
  clear($("title"), `${app.title} `, h("code", {}, gameId), ` · version ${sum.version} · `,
    h("a", {href: `/rules/${encodeURIComponent(sum.game)}`, target: "_blank", rel: "noopener"}, "rules"),
    sum.tournament ? [" · ", h("a", {href: `/web/tournaments/${encodeURIComponent(sum.tournament.id)}`, id: "tournament-link"},
      `round ${sum.tournament.round} of its tournament`)] : null);
  $("status").textContent = sum.status;
  $("status").className = `badge ${sum.status}`;
  const acting = sum.active_seats.map((seat) => seatLabel(sum.seats, seat)).join(", ");
  $("acting").textContent = acting ? `to act: ${acting}` : "";
  const end = endLine();
  $("result").hidden = !end;
  $("result").textContent = end;
  $("mode-live").textContent = following() ? "Live" : "Final";
  const who = !app.token ? "spectator" : app.seat === null ? (loadToken(gameId) ? "admin" : "spectator")
    : `you play seat ${app.seat}: ${seatLabel(sum.seats, app.seat)}`;
  $("who").textContent = who;
  $("forget").hidden = !loadToken(gameId);
  // Playing a seat already (a link's token, or the signed-in player's), nothing is left to paste.
  for (const el of [$("token"), $("token-form").querySelector("button[type=submit]")]) el.hidden = app.seat !== null;
}

const CONCEDED = {resign: "resigned", timeout: "ran out of time", forfeit: "forfeited"};

/** "a", "a and b", "a, b and c". */
function listed(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** A participant id of an outcome ("seat:1", "actor:automaton") by name; the renderer may name its actors. */
function participantName(id, ctx) {
  const seat = id.match(/^seat:(\d+)$/);
  if (seat) return seatLabel(app.summary.seats, Number(seat[1]));
  const actor = id.replace(/^actor:/, "");
  return (app.renderer.actorName && app.renderer.actorName(actor, ctx)) || actor.replace(/[-_]/g, " ");
}

/**
 * How an ended game ended, in words, from the summary's outcome, the log (a seat that resigned,
 * ran out of time or forfeited) and the game's own reason (the renderer's `ended(view, ctx)`).
 */
function endLine() {
  const sum = app.summary;
  if (sum.status === "aborted") return "Game aborted: no result.";
  if (sum.status !== "finished" || !sum.outcome) return "";
  const ctx = {seats: sum.seats, content: app.content};
  const conceded = app.events.filter((ev) => ev.type === "SeatConceded")
    .map((ev) => `${seatLabel(sum.seats, ev.data.seat)} ${CONCEDED[ev.data.reason] || ev.data.reason}`);
  let why = conceded.join("; ");
  if (!why && app.renderer.ended) {
    try {
      why = app.renderer.ended(sum.view, ctx) || "";
    } catch (err) {
      console.warn(err);
    }
  }
  const {kind, winners} = sum.outcome;
  const names = listed(winners.map((id) => participantName(id, ctx)));
  const who = kind === "shared" ? `${names} share the win` : winners.length ? `${names} win${winners.length > 1 ? "" : "s"}`
    : "nobody wins";
  return `Game over: ${why ? `${why}; ` : ""}${who}.`;
}

/** What the renderers name seats and actors by: the summary's seats and the catalog's components. */
function names() {
  return {seats: app.summary.seats, content: app.content};
}

function eventRow(ev) {
  const who = eventWho(ev, app.renderer, names());
  const row = h("li", {"data-seq": ev.seq, title: `${ev.type} ${JSON.stringify(ev.data, null, 1)}`},
    h("span", {class: "seq"}, ev.seq),
    h("span", {class: "who"}, who),
    h("span", {class: "data"}, eventWords(ev)));
  row.addEventListener("click", () => {
    const index = batchOfSeq(app.batches, ev.seq);
    if (index >= 0) setMode("replay", index);
  });
  return row;
}

function renderEventList() {
  app.rows = new Map();
  app.lit = [];
  clear($("events"), app.events.map((ev) => {
    const row = eventRow(ev);
    app.rows.set(ev.seq, row);
    return row;
  }));
  $("event-count").textContent = `(${app.events.length})`;
}

function appendRow(ev) {
  const row = eventRow(ev);
  app.rows.set(ev.seq, row);
  $("events").append(row);
  $("event-count").textContent = `(${app.events.length})`;
}

function highlight(batch) {
  for (const row of app.lit) row.classList.remove("current");
  app.lit = batch ? batch.events.map((ev) => app.rows.get(ev.seq)).filter(Boolean) : [];
  for (const row of app.lit) row.classList.add("current");
  if (app.lit.length) scrollWithin($("events"), app.lit[0]);
}

/** Scroll the list, not the page, so the board stays where the reader put it. */
function scrollWithin(list, row) {
  const top = row.offsetTop; // the list is the rows' offsetParent (position: relative)
  if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - row.offsetHeight) {
    list.scrollTop = top - list.clientHeight / 3;
  }
}

/** A player who joined from the Seats panel watches as their seat: the player token stands for it. */
function joined(playerToken) {
  saveToken(gameId, playerToken);
  loadGame();
}

function refreshPanels() {
  seatsPanel($("seats"), gameId, app.summary, joined, app.seat);
  if (app.summary.status === "open") clear($("scores"), h("p", {class: "muted"}, "No scores before the deal."));
  else scoresPanel($("scores"), gameId, app.summary.seats, app.renderer, app.content);
  auditPanel($("audit"), gameId, app.token);
}

// -- controls ------------------------------------------------------------------

function bindControls() {
  $("mode-live").addEventListener("click", () => setMode("live"));
  $("mode-replay").addEventListener("click", () => setMode("replay", app.mode === "replay" ? app.step : app.batches.length - 1));
  $("first").addEventListener("click", () => { stopPlay(); showStep(0); });
  $("prev").addEventListener("click", () => { stopPlay(); showStep(app.step - 1); });
  $("next").addEventListener("click", () => { stopPlay(); showStep(app.step + 1); });
  $("last").addEventListener("click", () => { stopPlay(); showStep(app.batches.length - 1); });
  $("play").addEventListener("click", togglePlay);
  $("slider").addEventListener("input", (ev) => { stopPlay(); showStep(Number(ev.target.value)); });
  document.addEventListener("keydown", (ev) => {
    const typing = ev.target instanceof Element && ev.target.closest("input, textarea, select");
    if (app.mode !== "replay" || typing) return;
    const moves = {ArrowLeft: app.step - 1, ArrowRight: app.step + 1, Home: 0, End: app.batches.length - 1};
    if (ev.key in moves) {
      ev.preventDefault();
      stopPlay();
      showStep(moves[ev.key]);
    } else if (ev.key === " ") {
      ev.preventDefault();
      togglePlay();
    }
  });
  $("token-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const token = $("token").value.trim();
    $("token").value = "";
    saveToken(gameId, token || null);
    say("");
    loadGame();
  });
  $("forget").addEventListener("click", () => {
    saveToken(gameId, null);
    say("");
    loadGame();
  });
}

/** 32 random bytes as hex: this browser's share of a joined game's seed. */
function entropy() {
  return [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The same game again: its options, clock and visibility (from GameCreated, the
 * public first event), bots in their seats, players invited back (their seats
 * reserved), a seat token's holder a named seat. The signed-in player takes
 * their seat at once; a seat-token player gets the new seat's token in the link.
 */
async function rematch() {
  const player = currentPlayer();
  try {
    const [created] = (await api(`/v1/games/${gameId}/events?limit=1`, {token: app.token})).events;
    const {game, options, seats, clock} = created.data;
    const mine = app.seat;
    const spec = seats.map((seat) => {
      if (seat.bot) return {name: seat.name, bot: seat.bot};
      if (seat.seat === mine && player) return {player: player.id};
      if (seat.seat === mine) return {name: seat.name || "you"};
      const holder = app.summary.seats[seat.seat];
      return holder && holder.player ? {player: holder.player} : {open: true};
    });
    const body = {game, seats: spec, options, visibility: app.summary.visibility || "public"};
    if (clock) body.clock = clockRequest(clock);
    const made = await api("/v1/games", {method: "POST", token: player ? player.token : null, body});
    let link = `/web/games/${encodeURIComponent(made.id)}`;
    if (player) {
      if (made.status === "open") {
        await api(`/v1/games/${made.id}/join`, {method: "POST", token: player.token, body: {entropy: entropy(), seat: mine}});
      }
    } else {
      const token = made.seats[mine] && made.seats[mine].token;
      if (token) link += `#token=${encodeURIComponent(token)}`;
    }
    window.location.assign(link);
  } catch (err) {
    say(`Rematch refused: ${err.message}`);
  }
}

/** A recorded clock control as the create request takes it. */
function clockRequest(ctl) {
  const out = {};
  for (const key of ["initial_s", "increment_s", "per_move_s", "on_timeout"]) if (ctl[key] !== undefined) out[key] = ctl[key];
  return out;
}

/** Editing the fragment in an open tab: a new #token= is used, a new #v= opens that version. */
function onHashChange() {
  if (takeTokenFromFragment()) return loadGame();
  const wanted = linkedVersion();
  if (wanted === null || !app.batches.length) return;
  const index = batchOfSeq(app.batches, wanted);
  setMode("replay", index < 0 ? app.batches.length - 1 : index);
}

takeTokenFromFragment();
bindControls();
window.addEventListener("hashchange", onHashChange);
sessionBox($("session"), () => {
  if (!loadToken(gameId)) loadGame();
});
loadGame();
