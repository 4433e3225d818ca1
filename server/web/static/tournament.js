// A tournament: standings, every round's tables with links to their games'
// viewers, byes, and the audit facts. Live: the page follows the tournament's
// event stream and reloads the tournament when its log grows (a round paired,
// a game reported, the end), so a director can leave it on a screen.
import {api, follow} from "./api.js";
import {botChoices} from "./bots.js";
import {deskKey, directorDesk} from "./director.js";
import {clear, h, table} from "./dom.js";
import {currentPlayer, sessionBox} from "./session.js";
import {gameTitle, roundLine, streamState} from "./words.js";

const tournamentId = document.body.dataset.tournamentId;
const $ = (id) => document.getElementById(id);
const page = {tournament: null, pending: null, desk: null, titles: null, failed: false, stream: null, poll: null};

sessionBox($("session"), () => load());

function say(text) {
  $("message").hidden = !text;
  $("message").textContent = text || "";
}

const names = new WeakMap();  // a loaded tournament's entrant names by id, built once per load

function entrantLabel(t, id) {
  if (!names.has(t)) names.set(t, Object.fromEntries(t.entrants.map((e) => [e.id, e.name])));
  return names.get(t)[id] || id;
}

/** Tie-break names in the order the leader's line lists them. */
function tiebreakNames(t) {
  return t.standings.length ? Object.keys(t.standings[0].tiebreaks) : [];
}

function number(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2);
}

function standings(t) {
  if (!t.standings.length) return h("p", {class: "muted"}, "No standings before the first round.");
  const breaks = tiebreakNames(t);
  const rows = t.standings.map((line) => h("tr", {class: line.place === 1 && t.status === "finished" ? "winner" : ""},
    h("td", {class: "n"}, line.place),
    h("td", {}, entrantLabel(t, line.entrant), line.withdrawn ? h("span", {class: "muted"}, " (withdrawn)") : null),
    h("td", {class: "n total"}, number(line.points)),
    breaks.map((name) => h("td", {class: "n"}, number(line.tiebreaks[name]))),
    h("td", {class: "n"}, line.games ?? "")));
  return table(["#", "entrant", "points", ...breaks.map((b) => b.replace(/_/g, " ")), "games"], rows,
    {class: "compact standings"});
}

/** "1st 91" per seat, in seat order; an aborted table says so; a director's result names its kind and
 * reason, the latest correction's when the result was corrected (TRN-DIR-3). */
function resultCell(t, tb) {
  if (!tb.result) return h("span", {class: "muted"}, "playing");
  const last = (tb.corrections || []).at(-1) || tb.decision;
  const decided = last ? h("span", {class: "decision"}, ` — ${last.kind.replace(/_/g, " ")} by the director`,
    last === tb.decision ? ": " : ` (corrected, was ${String(last.previous.outcome).replace(/_/g, " ")}): `,
    h("q", {}, last.reason)) : null;
  if (tb.result.outcome === "aborted") return h("span", {class: "bad"}, "aborted: no places");
  if (tb.result.outcome === "double_forfeit") return [h("span", {class: "bad"}, "double forfeit: no places"), decided];
  return [tb.seats.map((e, i) => h("span", {class: `seat-result${tb.result.places[e] === 1 ? " first" : ""}`},
    i ? " · " : "", `${entrantLabel(t, e)}: #${tb.result.places[e]} (${number(tb.result.scores[e])})`)), decided];
}

function roundBlock(t, r) {
  const rows = r.tables.map((tb, i) => h("tr", {class: "table-row"},
    h("td", {class: "n"}, i),
    h("td", {}, tb.seats.map((e) => entrantLabel(t, e)).join(", ")),
    h("td", {}, resultCell(t, tb)),
    h("td", {}, h("a", {href: `/web/games/${encodeURIComponent(tb.game_id)}`, class: "game-link"},
      tb.result ? "replay" : "watch", " ", h("code", {}, tb.game_id)))));
  const state = r.completed ? "complete" : "being played";
  return h("section", {class: "round", "data-round": r.round},
    h("h4", {}, `Round ${r.round} `, h("span", {class: "muted"}, state)),
    table(["table", "seats (in seat order)", "result", "game"], rows),
    r.byes && r.byes.length ? h("p", {class: "muted"}, `bye: ${r.byes.map((e) => entrantLabel(t, e)).join(", ")}`) : null);
}

function rounds(t) {
  if (!t.rounds.length) {
    return h("p", {class: "muted"}, t.status === "registering" ? "Registration is open; no round yet."
      : "Round 1 is being paired.");
  }
  return [...t.rounds].reverse().map((r) => roundBlock(t, r));
}

/** The game an entrant is playing now: its table of the latest round without a result. */
function currentGame(t, entrant) {
  for (const r of [...t.rounds].reverse()) {
    const tb = r.tables.find((x) => x.seats.includes(entrant));
    if (tb) return tb.result ? null : tb.game_id;
  }
  return null;
}

function entrants(t) {
  const me = currentPlayer();
  const manage = me && (t.organizer === me.id) && t.status !== "finished";
  const rows = t.entrants.map((e) => {
    const game = currentGame(t, e.id);
    return h("tr", {class: `entrant${e.withdrawn ? " withdrawn" : ""}`, "data-entrant": e.id},
      h("td", {}, e.id),
      h("td", {}, e.player ? h("a", {href: `/web/players/${encodeURIComponent(e.player)}`}, e.name) : e.name,
        e.withdrawn ? h("span", {class: "bad withdrawn-mark"}, " withdrawn") : null),
      h("td", {}, e.bot ? `bot ${e.bot}` : "player"),
      h("td", {}, game ? h("a", {href: `/web/games/${encodeURIComponent(game)}`, class: "current-game"}, "current game") : ""),
      h("td", {}, manage && !e.withdrawn ? h("button", {type: "button", class: "withdraw-entrant",
        onclick: () => post(`/entrants/${encodeURIComponent(e.id)}/withdraw`, undefined, `${e.name} withdrew.`)}, "Withdraw") : null));
  });
  return table(["id", "name", "plays as", "now", ""], rows);
}

/** A POST to this tournament with the signed-in player's token, then a reload; what came of it is
 * said after the reload and stays until the next POST (the live log's reloads leave it). */
async function post(path, body, done) {
  const me = currentPlayer();
  let outcome;
  try {
    await api(`/v1/tournaments/${encodeURIComponent(tournamentId)}${path}`, {method: "POST", token: me && me.token, body});
    outcome = done;
  } catch (err) {
    outcome = `Refused (${err.code}): ${err.message}`;
  }
  if (await load()) say(outcome);
}

let bots = null; // the catalog's bots of this tournament's game

/** Register or withdraw yourself; as its organizer, add bots and start it. */
async function manage(t) {
  const me = currentPlayer();
  const el = $("manage");
  if (t.status === "finished") return clear(el, h("p", {class: "muted"}, "The tournament has finished."));
  if (!me) return clear(el, h("p", {class: "muted"}, "Become a player (top right) to register."));
  const entry = t.entrants.find((e) => e.player === me.id && !e.withdrawn);
  const parts = [];
  if (entry) {
    const game = currentGame(t, entry.id);
    parts.push(h("p", {}, `You play in it as ${entry.name} (entrant ${entry.id} in the table below). `,
      game ? h("a", {href: `/web/games/${encodeURIComponent(game)}`, id: "my-current-game"}, "Play your current game") : null));
    parts.push(h("button", {type: "button", id: "withdraw", onclick: () => post(`/entrants/${encodeURIComponent(entry.id)}/withdraw`,
      undefined, "You withdrew.")}, "Withdraw"));
  } else if (t.status === "registering") {
    parts.push(h("button", {type: "button", id: "register", onclick: () => post("/entrants", {player: me.id}, "You are registered.")},
      "Register"));
  }
  if (t.organizer === me.id) {
    if (!bots) {
      try {
        bots = botChoices(await api(`/v1/catalog/${encodeURIComponent(t.game)}`));
      } catch {
        bots = [];
      }
    }
    if (t.status === "registering") {
      const choice = h("select", {id: "bot-choice", "aria-label": "bot"},
        bots.map((b) => h("option", {value: b.value}, b.text)));
      parts.push(h("p", {class: "organizer"}, "Organizer: ", choice, " ",
        h("button", {type: "button", id: "add-bot", onclick: () => post("/entrants",
          {bot: choice.value, name: `${choice.value} ${t.entrants.length + 1}`}, "Bot added.")}, "Add bot"), " ",
        h("button", {type: "button", id: "start", onclick: () => post("/start", undefined, "Started: round 1 is being paired.")},
          "Start the tournament")));
    }
  }
  clear(el, parts);
}

/** The organizer's desk (director.js), redrawn only when what it offers changes. */
function director(t) {
  const me = currentPlayer();
  const mine = Boolean(me && t.organizer === me.id && t.status !== "finished");
  $("director-panel").hidden = !mine;
  const key = mine ? deskKey(t) : null;
  if (key === page.desk) return;
  page.desk = key;
  clear($("director"), mine ? directorDesk(t, entrantLabel, post) : []);
}

function audit(t) {
  const field = (name, value) => [h("dt", {}, name), h("dd", {}, value)];
  return [
    h("dl", {class: "facts"},
      field("seed commitment", h("code", {}, t.seed_commitment)),
      field("seed", t.seed ? h("code", {}, t.seed) : h("span", {class: "muted"}, "secret until the end")),
      field("chain head", h("code", {}, t.chain_head))),
    t.status === "finished"
      ? h("p", {class: "actions"}, h("a", {href: `/v1/tournaments/${encodeURIComponent(t.id)}/bundle`,
        download: `${t.id}.ndjson`}, "download the bundle"), " (verify it with ", h("code", {}, "delve verify FILE"), ")")
      : h("p", {class: "muted"}, "The bundle (every game and the log, verifiable offline) is published at the end."),
  ];
}

function render(t) {
  document.title = `Delve — ${t.name || t.id}`;
  clear($("title"), `${t.name || "tournament"} `, h("code", {}, t.id), ` · ${gameTitle(page.titles, t.game)} · ${t.format}`);
  $("status").textContent = t.status;
  $("status").className = `badge ${t.status}`;
  clear($("facts"), [`${t.entrants.length} entrants`, `${t.table_size}-seat tables`,
    roundLine(t), t.finished_at ? `finished ${new Date(t.finished_at).toLocaleString()}` : null]
    .filter(Boolean).join(" · "));
  clear($("standings"), standings(t));
  clear($("rounds"), rounds(t));
  clear($("entrants"), entrants(t));
  director(t);
  manage(t);
  clear($("audit"), audit(t));
}

/** The catalog's game titles, read once (the header names the game by its title, not its id). */
async function readTitles() {
  if (page.titles) return;
  try {
    page.titles = Object.fromEntries((await api("/v1/catalog")).games.map((g) => [g.id, g.title]));
  } catch {
    page.titles = {}; // ids, then
  }
}

async function load() {
  await readTitles();
  try {
    page.tournament = await api(`/v1/tournaments/${encodeURIComponent(tournamentId)}`);
  } catch (err) {
    $("status").textContent = "error";
    say(err.status === 404 ? `There is no tournament ${tournamentId}.` : `Could not load the tournament: ${err.message}`);
    page.failed = true;
    return false;
  }
  if (page.failed) say(""); // only a load's own error is cleared by the next load
  page.failed = false;
  render(page.tournament);
  return true;
}

/** A round's results arrive as bursts of log entries: reload at most every 300 ms. */
function scheduleLoad() {
  if (page.pending) return;
  page.pending = setTimeout(async () => {
    page.pending = null;
    await load();
  }, 300);
}

// A hidden tab lets its stream go (a browser opens six connections to one server, and each followed
// stream holds one: with six tabs following, a seventh page did not load) and reloads the tournament
// every few seconds instead; shown again, it reloads and follows the stream.
const HIDDEN_POLL_MS = 10000;

function pollWhileHidden() {
  $("live-state").textContent = "this tab is hidden: the tournament is read every few seconds";
  page.poll = page.poll || setInterval(async () => {
    if (!(await load()) || page.tournament.status !== "finished") return;
    clearInterval(page.poll);
    page.poll = null;
    $("live-state").textContent = "the tournament has finished";
  }, HIDDEN_POLL_MS);
}

document.addEventListener("visibilitychange", async () => {
  if (!page.tournament || page.tournament.status === "finished") return;
  if (document.hidden) {
    if (page.stream) page.stream.stop();
    page.stream = null;
    pollWhileHidden();
  } else if (!page.stream) {
    clearInterval(page.poll);
    page.poll = null;
    if (await load() && page.tournament.status !== "finished" && !document.hidden && !page.stream) followLog();
  }
});

function followLog() {
  if (document.hidden) return pollWhileHidden();
  page.stream = follow(`/v1/tournaments/${encodeURIComponent(tournamentId)}/events/stream`, {
    after: page.tournament.version,
    onEvent: () => scheduleLoad(),
    onEnd: async () => {
      await load();
      $("live-state").textContent = "the tournament has finished";
    },
    onError: (err) => { $("live-state").textContent = `stream stopped: ${err.message}`; },
    onStatus: (status, detail) => {
      $("live-state").textContent = streamState(status, detail, "tournament");
    },
  });
}

if (await load() && page.tournament.status !== "finished") followLog();
