// A game's leaderboard (GET /v1/ratings/<game>): players and bots by their
// conservative rating (ordinal = mu - 3 sigma), each linked to their page.
import {api} from "./api.js";
import {clear, h, table} from "./dom.js";
import {sessionBox} from "./session.js";
import {ratedName} from "./words.js";

const $ = (id) => document.getElementById(id);
const game = document.body.dataset.game;
const fixed = (x) => Number(x).toFixed(2);

async function load() {
  let catalog;
  try {
    catalog = await api("/v1/catalog");
  } catch (err) {
    $("message").hidden = false;
    $("message").textContent = `Could not read the catalog: ${err.message}`;
    return;
  }
  clear($("games"), catalog.games.map((g) => h("a", {href: `/web/ratings/${encodeURIComponent(g.id)}`,
    class: g.id === game ? "on" : "", "aria-current": g.id === game ? "page" : null}, g.title)));
  if (!game) return clear($("board"), h("p", {class: "muted"}, "Choose a game."));
  const entry = catalog.games.find((g) => g.id === game);
  clear($("title"), `Leaderboard: ${entry ? entry.title : game}`);
  document.title = `Delve — ${entry ? entry.title : game} leaderboard`;
  try {
    const board = await api(`/v1/ratings/${encodeURIComponent(game)}`);
    const rows = board.players.map((p, i) => [i + 1,
      p.player.startsWith("bot-") ? ratedName(p)
        : h("a", {href: `/web/players/${encodeURIComponent(p.player)}`}, ratedName(p)),
      fixed(p.ordinal), fixed(p.mu), fixed(p.sigma), p.games]);
    clear($("board"), rows.length ? table(["#", "player", "rating", "mu", "sigma", "games"], rows, {class: "compact leaderboard"})
      : h("p", {class: "muted"}, "Nobody is rated in this game yet."));
  } catch (err) {
    clear($("board"), h("p", {class: "bad"}, err.status === 422 ? `There is no game ${game}.` : err.message));
  }
}

sessionBox($("session"));
load();
