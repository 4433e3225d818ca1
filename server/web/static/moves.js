// The viewer's Moves panel: move n is the n-th command the game accepted, numbered as
// GET /v1/games/{id}/moves, `delve show --move n` and the judge's report number it.
import {api} from "./api.js";
import {clear, h, seatLabel} from "./dom.js";
import {actorLabel, relabeled} from "./words.js";

/** The game's moves as this token may see them (another seat's command stays hidden until the end). */
export async function loadMoves(gameId, token) {
  try {
    return (await api(`/v1/games/${gameId}/moves`, {token})).moves;
  } catch {
    return []; // the panel says there are none; the event list still works
  }
}

/** The move whose events end at ``seq`` (a batch end), or null (the deal, a seat taken, the end). */
export function moveEnding(moves, seq) {
  return moves.find((m) => m.last_seq === seq) || null;
}

/** Who made a move: its seat, the game-driven actor by name (the renderer's `actorName`), or the table. */
export function moveWho(m, renderer, ctx) {
  if (m.seat !== null && m.seat !== undefined) return seatLabel(ctx.seats, m.seat);
  return m.actor ? actorLabel(m.actor, renderer, ctx) : "table";
}

/** A move's label as the page shows it (the renderer's `relabel`). */
export function moveLabel(m, renderer, ctx) {
  return relabeled(m.label, m.command, renderer, ctx);
}

/** The list of moves; `who(m)` names who made each, `label(m)` says what it was. */
export function movesPanel(el, moves, who, label, onPick) {
  clear(el, moves.map((m) => h("li", {"data-move": m.move, "data-seq": m.last_seq, title: `seq ${m.first_seq}-${m.last_seq}`,
    onclick: () => onPick(m)},
  h("span", {class: "seq"}, m.move),
  h("span", {class: "who"}, who(m)),
  h("span", {class: "data"}, label(m)))));
}

export function markMove(el, move) {
  for (const li of el.children) li.classList.toggle("current", Boolean(move) && Number(li.dataset.move) === move.move);
}
