// The lobby: GET /v1/games with the filters the API offers, one row per game
// with a link to its viewer; below, the newest tournaments (same game filter)
// with links to their pages.
import {api} from "./api.js";
import {clear, h} from "./dom.js";

const PAGE = 25;
const form = document.getElementById("filters");
const body = document.querySelector("#games tbody");
const message = document.getElementById("message");
let offset = 0;

function say(text) {
  message.hidden = !text;
  message.textContent = text || "";
}

function seatsCell(seats) {
  return seats.map((seat) => `${seat.name}${seat.bot ? ` (${seat.bot})` : ""}`).join(", ");
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

function row(game) {
  const link = `/web/games/${encodeURIComponent(game.id)}`;
  return h("tr", {},
    h("td", {}, game.game),
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
    h("td", {}, t.game),
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
    note.textContent = page.total ? "" : "No tournaments yet (POST /v1/tournaments; see the README).";
  } catch (err) {
    note.hidden = false;
    note.textContent = `Could not list tournaments: ${err.message}`;
  }
}

async function refresh() {
  const params = new URLSearchParams({offset: String(offset), limit: String(PAGE)});
  for (const name of ["game", "status"]) {
    if (form.elements[name].value) params.set(name, form.elements[name].value);
  }
  try {
    const page = await api(`/v1/games?${params}`);
    clear(body, page.games.map(row));
    say(page.total === 0 ? "No games yet. Create one with POST /v1/games (see the README)." : "");
    const last = Math.min(page.offset + page.games.length, page.total);
    document.getElementById("page").textContent = page.total ? `${page.offset + 1}–${last} of ${page.total}` : "";
    document.getElementById("prev").disabled = page.offset === 0;
    document.getElementById("next").disabled = last >= page.total;
  } catch (err) {
    say(`Could not list games: ${err.message}`);
  }
}

/** The game filter offers the catalog's games, so a typo cannot happen. */
async function fillGames() {
  try {
    const catalog = await api("/v1/catalog");
    const select = form.elements.game;
    for (const game of catalog.games) select.append(h("option", {value: game.id}, game.title));
  } catch (err) {
    say(`Could not read the catalog: ${err.message}`);
  }
}

form.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const wanted = form.elements.open.value.trim();
  if (wanted) {
    window.location.href = `/web/games/${encodeURIComponent(wanted)}`;
    return;
  }
  offset = 0;
  refresh();
  refreshTournaments();
});
for (const name of ["game", "status"]) {
  form.elements[name].addEventListener("change", () => { offset = 0; refresh(); refreshTournaments(); });
}
document.getElementById("prev").addEventListener("click", () => { offset = Math.max(0, offset - PAGE); refresh(); });
document.getElementById("next").addEventListener("click", () => { offset += PAGE; refresh(); });

fillGames();
refresh();
refreshTournaments();
