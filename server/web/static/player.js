// A player's page: name, ratings per game, latest rating changes and public games.
import {api} from "./api.js";
import {clear, h, table} from "./dom.js";

const playerId = document.body.dataset.playerId;
const $ = (id) => document.getElementById(id);
const fixed = (x) => Number(x).toFixed(2);

function ratings(profile) {
  const rows = Object.entries(profile.ratings).map(([game, r]) => [game, fixed(r.ordinal), fixed(r.mu), fixed(r.sigma), r.games]);
  return rows.length ? table(["game", "rating (ordinal)", "mu", "sigma", "games"], rows, {class: "compact ratings"})
    : h("p", {class: "muted"}, "No rated game yet.");
}

function history(profile) {
  const rows = profile.rating_history.map((r) => [r.game, h("a", {href: `/web/games/${encodeURIComponent(r.game_id)}`},
    h("code", {}, r.game_id)), fixed(r.ordinal), new Date(r.at).toLocaleString()]);
  return rows.length ? table(["game", "after game", "rating", "when"], rows) : h("p", {class: "muted"}, "No rating changes yet.");
}

function games(profile) {
  const rows = profile.games.map((g) => h("tr", {class: "game-row"},
    h("td", {}, g.game),
    h("td", {}, h("a", {href: `/web/games/${encodeURIComponent(g.id)}`}, h("code", {}, g.id))),
    h("td", {}, h("span", {class: `badge ${g.status}`}, g.status)),
    h("td", {class: "n"}, g.seat ?? "—"),
    h("td", {}, new Date(g.created_at).toLocaleString())));
  return rows.length ? table(["game", "id", "status", "seat", "created"], rows, {class: "compact games"})
    : h("p", {class: "muted"}, "No public games yet.");
}

async function load() {
  let profile;
  try {
    profile = await api(`/v1/players/${encodeURIComponent(playerId)}`);
  } catch (err) {
    $("message").hidden = false;
    $("message").textContent = err.status === 404 ? `There is no player ${playerId}.` : `Could not load the player: ${err.message}`;
    return;
  }
  document.title = `Delve — ${profile.name}`;
  clear($("title"), `${profile.name} `, h("code", {}, profile.id));
  clear($("joined"), `player since ${new Date(profile.created_at).toLocaleDateString()}`);
  clear($("ratings"), ratings(profile));
  clear($("history"), history(profile));
  clear($("player-games"), games(profile));
}

load();
