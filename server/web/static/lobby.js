// The lobby: the signed-in player's games ("your turn" first), the games
// waiting for players (join, leave, cancel), the forms to create a game or a
// tournament, then GET /v1/games with the filters the API offers (kept in the
// URL: /web?game=dwarf&status=open) and the newest tournaments.
import {api} from "./api.js";
import {entropy, gameForm, tournamentForm} from "./create.js";
import {clear, h} from "./dom.js";
import {currentPlayer, sessionBox} from "./session.js";

const PAGE = 25;
const form = document.getElementById("filters");
const body = document.querySelector("#games tbody");
const message = document.getElementById("message");
let offset = 0;

function say(text) {
  message.hidden = !text;
  message.textContent = text || "";
}

/** Who holds each seat: a name and bot, a player, or an open (or reserved) seat. */
function seatText(seat) {
  if (seat.open) return seat.reserved ? `reserved for ${seat.reserved}` : "open seat";
  return `${seat.name || seat.player || `seat ${seat.seat}`}${seat.bot ? ` (${seat.bot})` : ""}`;
}

function seatsCell(seats) {
  return seats.map(seatText).join(", ");
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

function row(game) {
  const link = `/web/games/${encodeURIComponent(game.id)}`;
  return h("tr", {},
    h("td", {"data-game-id": game.game}, titles[game.game] || game.game),
    h("td", {}, h("a", {href: link}, h("code", {}, game.id))),
    h("td", {}, h("span", {class: `badge ${game.status}`}, game.status)),
    h("td", {class: "n"}, game.version),
    h("td", {}, seatsCell(game.seats)),
    h("td", {}, when(game.created_at)),
    h("td", {}, h("a", {href: link}, {open: "join", active: "watch"}[game.status] || "replay")));
}

function tournamentRow(t) {
  const link = `/web/tournaments/${encodeURIComponent(t.id)}`;
  return h("tr", {},
    h("td", {}, h("a", {href: link}, t.name || t.id), " ", h("code", {class: "muted"}, t.id)),
    h("td", {"data-game-id": t.game}, titles[t.game] || t.game),
    h("td", {}, t.format || ""),
    h("td", {}, h("span", {class: `badge ${t.status}`}, t.status)),
    h("td", {}, when(t.created_at)),
    h("td", {}, h("a", {href: link}, t.status === "finished" ? "results" : "follow")));
}

async function refreshTournaments() {
  const note = document.getElementById("tournaments-message");
  const params = new URLSearchParams({limit: "20"});
  if (form.elements.game.value) params.set("game", form.elements.game.value);
  try {
    const page = await api(`/v1/tournaments?${params}`);
    clear(document.querySelector("#tournaments tbody"), page.tournaments.map(tournamentRow));
    note.hidden = page.total > 0;
    note.textContent = page.total ? "" : "No tournaments yet: create one with New tournament above.";
  } catch (err) {
    note.hidden = false;
    note.textContent = `Could not list tournaments: ${err.message}`;
  }
}

/** The filters in the URL, so a filtered lobby can be bookmarked or shared. */
function filtersToUrl() {
  const params = new URLSearchParams();
  for (const name of ["game", "status"]) if (form.elements[name].value) params.set(name, form.elements[name].value);
  history.replaceState(null, "", `/web${params.toString() ? `?${params}` : ""}`);
}

function filtersFromUrl() {
  const params = new URLSearchParams(window.location.search);
  for (const name of ["game", "status"]) if (params.get(name)) form.elements[name].value = params.get(name);
}

async function refresh() {
  const params = new URLSearchParams({offset: String(offset), limit: String(PAGE)});
  for (const name of ["game", "status"]) {
    if (form.elements[name].value) params.set(name, form.elements[name].value);
  }
  try {
    const page = await api(`/v1/games?${params}`);
    clear(body, page.games.map(row));
    say("");
    if (page.total === 0) clear(body, h("tr", {}, h("td", {colspan: 7, class: "muted"}, "No games here yet: create one with New game above.")));
    const last = Math.min(page.offset + page.games.length, page.total);
    document.getElementById("page").textContent = page.total ? `${page.offset + 1}–${last} of ${page.total}` : "";
    document.getElementById("prev").disabled = page.offset === 0;
    document.getElementById("next").disabled = last >= page.total;
  } catch (err) {
    say(`Could not list games: ${err.message}`);
  }
}

/** The game filter offers the catalog's games, so a typo cannot happen; the forms are built from it too. */
async function fillGames() {
  try {
    catalog = await api("/v1/catalog");
    titles = Object.fromEntries(catalog.games.map((g) => [g.id, g.title]));
    const select = form.elements.game;
    for (const game of catalog.games) select.append(h("option", {value: game.id}, game.title));
    filtersFromUrl();
    buildForms();
  } catch (err) {
    say(`Could not read the catalog: ${err.message}`);
  }
}

function buildForms() {
  if (!catalog) return;
  gameForm(document.getElementById("create"), catalog, say);
  tournamentForm(document.getElementById("create-tournament"), catalog, say);
}

let titles = {};
let catalog = null;

function gameLink(g, text) {
  return h("a", {href: `/web/games/${encodeURIComponent(g.id)}`}, text || titles[g.game] || g.game);
}

async function act(path, token, body, done) {
  try {
    await api(path, {method: "POST", token, body});
    say(done);
  } catch (err) {
    say(`Refused (${err.code}): ${err.message}`);
  }
  refreshLists();
}

/** Cancel an open game, after asking once more (as Resign does): it cannot be undone. */
function cancelBox(g, me) {
  const box = h("span", {class: "cancel-box"});
  const ask = h("button", {type: "button", class: "cancel"}, "Cancel");
  ask.addEventListener("click", () => {
    const yes = h("button", {type: "button", class: "cancel-confirm danger"}, "Yes, cancel it");
    const no = h("button", {type: "button", class: "cancel-keep"}, "Keep it");
    yes.addEventListener("click", () => act(`/v1/games/${g.id}/cancel`, me.token, undefined, "The game was cancelled."));
    no.addEventListener("click", () => clear(box, ask));
    clear(box, "Cancel this game for every seat? ", yes, " ", no);
    yes.focus();
  });
  return clear(box, ask);
}

/** A finished game's result never changes: each is read once (gameId -> "you won", ...). */
const results = new Map();

/** How the game ended for the seat: "you won", "you shared the win", "you lost", or its status. */
async function resultFor(g, token) {
  if (g.status !== "finished") return g.status;
  if (!results.has(g.id)) {
    try {
      const {outcome} = await api(`/v1/games/${g.id}`, {token});
      const winners = outcome ? outcome.winners : [];
      results.set(g.id, !winners.includes(`seat:${g.seat}`) ? "finished: you lost"
        : winners.length > 1 ? "finished: you shared the win" : "finished: you won");
    } catch (err) {
      return g.status; // said again at the next refresh
    }
  }
  return results.get(g.id);
}

/** The player's games: whose turn (from each active game's summary), waiting ones with leave/cancel, finished. */
async function refreshMine() {
  const me = currentPlayer();
  const panel = document.getElementById("mine-panel");
  panel.hidden = !me;
  if (!me) return;
  let profile;
  try {
    profile = await api("/v1/players/me", {token: me.token});
  } catch (err) {
    return clear(document.getElementById("mine"), h("p", {class: "bad"}, `Could not read your games: ${err.message}`));
  }
  const active = profile.games.filter((g) => g.status === "active").slice(0, 20);
  const turns = await Promise.all(active.map((g) => api(`/v1/games/${g.id}`, {token: me.token})
    .then((s) => s.active_seats.includes(g.seat)).catch(() => false)));
  const yours = active.filter((_, i) => turns[i]);
  const theirs = active.filter((_, i) => !turns[i]);
  const open = profile.games.filter((g) => g.status === "open");
  const done = profile.games.filter((g) => g.status === "finished" || g.status === "aborted").slice(0, 10);
  const ended = await Promise.all(done.map((g) => resultFor(g, me.token)));
  const item = (g, extra, cls) => h("li", {class: cls || "", "data-game": g.id}, gameLink(g), " ", h("code", {class: "muted"}, g.id),
    ` seat ${g.seat}`, extra || "");
  clear(document.getElementById("mine"),
    h("ul", {id: "my-games"},
      yours.map((g) => item(g, h("b", {}, " · your turn"), "your-turn-game")),
      theirs.map((g) => item(g, " · waiting for the others")),
      open.map((g) => item(g, [" · waiting for players ",
        h("button", {type: "button", class: "leave", onclick: () => act(`/v1/games/${g.id}/leave`, me.token, undefined, "You left the game.")}, "Leave"),
        " ", cancelBox(g, me)])),
      done.map((g, i) => item(g, ` · ${ended[i]}`))),
    profile.games.length ? null : h("p", {class: "muted"}, "No games yet: create one below, or join one."));
}

/** Games waiting for players, with a Join button for the signed-in player. */
async function refreshWaiting() {
  const me = currentPlayer();
  const params = new URLSearchParams({status: "open", limit: "20"});
  if (form.elements.game.value) params.set("game", form.elements.game.value);
  let page;
  try {
    page = await api(`/v1/games?${params}`);
  } catch (err) {
    return clear(document.getElementById("waiting"), h("p", {class: "bad"}, err.message));
  }
  const rows = page.games.map((g) => {
    const mine = me && g.seats.some((s) => s.player === me.id);
    const reservedElse = g.seats.filter((s) => s.open).every((s) => s.reserved && (!me || s.reserved !== me.id));
    const join = me && !mine && !reservedElse ? h("button", {type: "button", class: "join",
      onclick: async () => {
        try {
          await api(`/v1/games/${g.id}/join`, {method: "POST", token: me.token, body: {entropy: entropy()}});
          window.location.assign(`/web/games/${encodeURIComponent(g.id)}`);
        } catch (err) {
          say(`Join refused (${err.code}): ${err.message}`);
        }
      }}, "Join") : null;
    return h("li", {"data-game": g.id}, gameLink(g), ` · ${seatsCell(g.seats)} `, join,
      !me ? h("span", {class: "muted"}, " (become a player to join)") : mine ? h("span", {class: "muted"}, " (you are in)") : "");
  });
  clear(document.getElementById("waiting"), rows.length ? h("ul", {id: "open-games"}, rows)
    : h("p", {class: "muted"}, "No game is waiting for players."));
}

function refreshLists() {
  refreshMine();
  refreshWaiting();
  refresh();
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const wanted = form.elements.open.value.trim();
  if (wanted) {
    window.location.href = `/web/games/${encodeURIComponent(wanted)}`;
    return;
  }
  offset = 0;
  filtersToUrl();
  refreshLists();
  refreshTournaments();
});
for (const name of ["game", "status"]) {
  form.elements[name].addEventListener("change", () => { offset = 0; filtersToUrl(); refreshLists(); refreshTournaments(); });
}
document.getElementById("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); refresh(); });
document.getElementById("next").addEventListener("click", () => { offset += PAGE; refresh(); });

sessionBox(document.getElementById("session"), () => {
  refreshLists();
  buildForms();
});
await fillGames();
refreshLists();
refreshTournaments();

// Your games and the games waiting for players follow the site without a reload: read again every
// FOLLOW_MS while the tab is in sight, and as soon as it is back in sight. A list being used (a
// focused Leave, Cancel or Join, a question asked) is left as it is until the next read.
const FOLLOW_MS = 10000;
function follow() {
  if (document.hidden) return;
  for (const [id, read] of [["mine-panel", refreshMine], ["waiting", refreshWaiting]]) {
    if (!document.getElementById(id).contains(document.activeElement)) read();
  }
}
setInterval(follow, FOLLOW_MS);
document.addEventListener("visibilitychange", follow);
