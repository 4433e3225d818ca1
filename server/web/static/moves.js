// The viewer's Moves panel: move n is the n-th command the game accepted, numbered as
// GET /v1/games/{id}/moves, `delve show --move n` and the judge's report number it.
import {api} from "./api.js";
import {clear, h, seatLabel} from "./dom.js";

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

export function movesPanel(el, moves, seats, onPick) {
  clear(el, moves.map((m) => h("li", {"data-move": m.move, "data-seq": m.last_seq, title: `seq ${m.first_seq}-${m.last_seq}`,
    onclick: () => onPick(m)},
  h("span", {class: "seq"}, m.move),
  h("span", {class: "who"}, m.seat === null ? (m.actor || "table") : seatLabel(seats, m.seat)),
  h("span", {class: "data"}, m.label))));
}

export function markMove(el, move) {
  for (const li of el.children) li.classList.toggle("current", Boolean(move) && Number(li.dataset.move) === move.move);
}
