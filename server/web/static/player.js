// A player's page: name, ratings per game, latest rating changes and public games (with each
// ended game's place and whether it moved the rating, or why not).
import {api} from "./api.js";
import {clear, h, table} from "./dom.js";
import {leftOutSaid, placeText, ratingSaid} from "./panels.js";
import {sessionBox} from "./session.js";
import {gameTitle} from "./words.js";

const playerId = document.body.dataset.playerId;
const $ = (id) => document.getElementById(id);
const fixed = (x) => Number(x).toFixed(2);
let titles = {}; // game id -> its title, from the catalog

/** When, short: "27/11, 20:35" in the reader's own way of writing dates. */
function shortWhen(iso) {
  return new Date(iso).toLocaleString(undefined, {dateStyle: "short", timeStyle: "short"});
}

function ratings(profile) {
  const rows = Object.entries(profile.ratings).map(([game, r]) => [h("a", {href: `/web/ratings/${encodeURIComponent(game)}`},
    gameTitle(titles, game)), fixed(r.ordinal), fixed(r.mu), fixed(r.sigma), r.games]);
  return rows.length ? table(["game", "rating (ordinal)", "mu", "sigma", "games"], rows, {class: "compact ratings"})
    : h("p", {class: "muted"}, "No rated game yet.");
}

/**
 * Each rating change against the one before it in the same game (newest first; a first game starts at 0),
 * narrow enough for the side panel: the game by its title, linked to the game it followed (its id in the
 * tooltip), the rating, the change, the place and when.
 */
function history(profile) {
  const list = profile.rating_history;
  const rows = list.map((r, i) => {
    const before = list.slice(i + 1).find((x) => x.game === r.game);
    const change = r.ordinal - (before ? before.ordinal : 0);
    return [h("a", {href: `/web/games/${encodeURIComponent(r.game_id)}`, title: `after game ${r.game_id}`, class: "after-game",
      "data-game-id": r.game_id}, gameTitle(titles, r.game)), fixed(r.ordinal),
    h("span", {class: `rating-change ${change >= 0 ? "ok" : "bad"}`}, `${change >= 0 ? "+" : ""}${fixed(change)}`),
    places.get(r.game_id) ?? "", shortWhen(r.at)];
  });
  return rows.length ? table(["after game", "rating", "change", "place", "when"], rows, {class: "compact history"})
    : h("p", {class: "muted"}, "No rating changes yet.");
}

const places = new Map(); // game id -> the player's place in it, for finished games
const rated = new Map(); // game id -> whether it moved the player's rating, in words

/** The player's place in each of their latest ended games, and whether it moved their rating
 * (or why not), from the public scores. */
async function readPlaces(profile) {
  const done = profile.games.filter((g) => ["finished", "aborted"].includes(g.status) && g.seat !== null).slice(0, 20);
  await Promise.all(done.map(async (g) => {
    try {
      const board = await api(`/v1/games/${encodeURIComponent(g.id)}/scores`);
      const place = placeText(board, g.seat);
      if (place && g.status === "finished") places.set(g.id, place);
      const out = leftOutSaid(board.rating, g.seat);
      rated.set(g.id, out ? `Not rated: ${out}` : ratingSaid(board.rating));
    } catch {
      // a game the scores cannot be read for (cancelled before the deal) shows no place
    }
  }));
}

function games(profile) {
  const rows = profile.games.map((g) => h("tr", {class: "game-row"},
    h("td", {"data-game": g.game}, gameTitle(titles, g.game)),
    h("td", {}, h("a", {href: `/web/games/${encodeURIComponent(g.id)}`}, h("code", {}, g.id))),
    h("td", {}, h("span", {class: `badge ${g.status}`}, g.status)),
    h("td", {class: "n"}, g.seat ?? "—"),
    h("td", {}, places.get(g.id) || ""),
    h("td", {class: "rating-said"}, rated.get(g.id) || ""),
    h("td", {}, new Date(g.created_at).toLocaleString())));
  const headers = ["game", "id", "status", "seat", "place", "rating", "created"];
  return rows.length ? table(headers, rows, {class: "compact games"})
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
  try {
    titles = Object.fromEntries((await api("/v1/catalog")).games.map((g) => [g.id, g.title]));
  } catch {
    titles = {}; // ids, then
  }
  document.title = `Delve — ${profile.name}`;
  clear($("title"), `${profile.name} `, h("code", {}, profile.id));
  clear($("joined"), `player since ${new Date(profile.created_at).toLocaleDateString()}`);
  await readPlaces(profile);
  clear($("ratings"), ratings(profile));
  clear($("history"), history(profile));
  clear($("player-games"), games(profile));
}

sessionBox($("session"));
load();
