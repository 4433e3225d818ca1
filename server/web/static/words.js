// Words the pages share, as pure functions of what the API answered (node tests run them).
import {seatLabel} from "./dom.js";

/** A planned number of rounds worth saying: a positive whole number. A knockout's is null, a field of
 * fewer than two entrants plans 0 (servers before that said -1 for a round robin of none). */
function plannedRounds(t) {
  return Number.isInteger(t.planned_rounds) && t.planned_rounds > 0 && t.entrants.length >= 2 ? t.planned_rounds : null;
}

/** A tournament's progress for its page: "round 2 of 3", "no round yet (3 planned)"; never "round 0 of -1". */
export function roundLine(t) {
  const planned = plannedRounds(t);
  if (!t.rounds.length) {
    if (t.status === "finished") return "no round was played";
    return `no round yet${planned ? ` (${planned} planned for ${t.entrants.length} entrants)` : ""}`;
  }
  return `round ${t.rounds.length}${planned ? ` of ${planned}` : ""}`;
}

/** What a renderer's optional hook answers, or undefined where the renderer has no such hook or the
 * hook throws: a renderer's slip never breaks the page. Each caller says what it falls back on, and
 * which answers it takes: any but null or undefined (`?? null`), any truthy one (`|| []`, `|| label`),
 * or every answer but undefined (eventActor's null means the table). */
export function askRenderer(hook, ...args) {
  if (typeof hook !== "function") return undefined;
  try {
    return hook(...args);
  } catch {
    return undefined;
  }
}

/** A game-driven actor ("automaton", "monster-tijian") by name: the renderer's (its `actorName(actor,
 * ctx)`), else the id in words. */
export function actorLabel(actor, renderer, ctx) {
  return askRenderer(renderer?.actorName, actor, ctx) || actor.replace(/[-_]/g, " ");
}

/**
 * Who an event of the log is credited to in the Events panel. A seat's command is that seat's, an
 * actor's step that actor's; what followed in the same batch is the game's to say (its renderer's
 * `eventActor(ev, ctx)`: a name, null for the table, undefined to leave it), since a seat's move
 * may set the table (a turn passing on, a round dealt) or a monster going; left unsaid, the event
 * is the seat's whose batch it is, or the table's.
 */
export function eventWho(ev, renderer, ctx) {
  const command = ev.command;
  if (command && command.type === "actor_step") return actorLabel(command.actor, renderer, ctx);
  if (command && ev.seat !== null && ev.seat !== undefined) return seatLabel(ctx.seats, ev.seat);
  const said = askRenderer(renderer?.eventActor, ev, ctx);
  if (said !== undefined) return said === null ? "table" : said;
  return ev.seat === null || ev.seat === undefined ? "table" : seatLabel(ctx.seats, ev.seat);
}

/** Who made a move of a saved record (the offline replay), named as the live pages name players: a
 * seat by its player's name in the record, with the seat's number, which the record's events use
 * ("ann (seat 0)"), or the number alone where the record names no one ("seat 2": an open seat); a
 * game-driven actor by the renderer's name for it (actorLabel: "Tijian the Scoundrel", "automaton");
 * else the table. `ctx.seats` is the record's roster (record.js seatsOf). */
export function recordWho(m, renderer, ctx) {
  if (m.seat === null || m.seat === undefined) return m.actor ? actorLabel(m.actor, renderer, ctx) : "the table";
  const found = (ctx.seats || []).find((x) => x.seat === m.seat);
  return found && found.name ? `${found.name} (seat ${m.seat})` : `seat ${m.seat}`;
}

/** A move's label as the page shows it: the renderer's rewording (its `relabel(label, command, ctx)`:
 * Saboteur names seats by their players), else the API's label as it is. */
export function relabeled(label, command, renderer, ctx) {
  if (!label) return label;
  return askRenderer(renderer?.relabel, label, command, ctx) || label;
}

/** A leaderboard's name for a rated player or bot: a bot's rating is named "greedy (bot)" by the
 * server already, so it is shown once, never "greedy (bot) (bot)". */
export function ratedName(line) {
  const name = line.name || line.player;
  if (!line.player.startsWith("bot-")) return name;
  return / \(bot\)$/.test(name) ? name : `${name} (bot)`;
}

/** A game's title from the catalog ("In the Hall of the Mountain King"), else its id. */
export function gameTitle(titles, game) {
  return (titles && titles[game]) || game;
}

/** A followed stream's state in words (api.js follow's `onStatus(status, detail)`): "following the
 * game live", "reconnecting…", or a busy server's refusal and when the page tries again by itself
 * ("the server is busy (this token holds 8 open streams already…); trying again by itself in 7 s"). */
export function streamState(status, detail, what = "game") {
  if (status === "following") return `following the ${what} live`;
  if (status === "retrying" && detail) {
    const why = String(detail.message || "").replace(/[;,]? ?(close one, or )?retry in \d+ s\.?$/, "");
    return `the server is busy${why ? ` (${why})` : ""}; trying again by itself in ${detail.seconds} s`;
  }
  return "reconnecting…";
}

/** An event's kind in words: "PathPlaced" -> "path placed". */
export function typeWords(type) {
  return String(type).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A field's value as a few words: a number or a word as it is, a short list or record spelled out
 * ("iron -3, object 1"), anything longer cut with "…" (the row's tooltip holds the whole data). */
function valueWords(value, max = 48) {
  let text;
  if (value === null || typeof value !== "object") text = String(value);
  else if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) text = value.join(", ");
  else if (!Array.isArray(value) && Object.values(value).every((v) => v === null || typeof v !== "object")) {
    text = Object.entries(value).map(([k, v]) => `${k.replace(/_/g, " ")} ${v}`).join(", ");
  } else text = JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * An event of the log as a line of words: its kind and its fields ("path placed: card P07, rotated
 * false, seat 1, shape tee-new, x 1, y 0"). Every plain field is said, so a cell is never named by
 * its x alone (the Events panel once kept the first five fields and dropped Saboteur's y); with
 * `nested`, lists and records are said too (the offline replay, which has nothing else to show),
 * else left to the row's tooltip (a shuffled deck, a whole board).
 */
export function eventWords(ev, {nested = false} = {}) {
  const fields = fieldWords(ev, {nested});
  return fields ? `${typeWords(ev.type)}: ${fields}` : typeWords(ev.type);
}

/** An event's fields alone, in words ("card P07, rotated false, seat 1, x 1, y 0"); "" when none. */
export function fieldWords(ev, {nested = false} = {}) {
  return Object.entries(ev.data || {})
    .filter(([, v]) => v !== null && (nested || typeof v !== "object"))
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${valueWords(v)}`).join(", ");
}
