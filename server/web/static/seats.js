// The Seats panel: who holds each seat (a bot, a player with a link to their
// page, an anonymous seat, or an open seat), each seat's clock counting down
// while it is to act, and, while the game is open, a form to join it with a
// player token (POST /v1/games/{id}/join).
import {api, loadToken} from "./api.js";
import {clear, h} from "./dom.js";
import {currentPlayer} from "./session.js";

/** 83000 -> "1:23"; an hour or more -> "1:02:03". */
export function clockText(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor(total / 60) % 60, total % 60];
  const pad = (n) => String(n).padStart(2, "0");
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
}

/** Under this much time a running clock turns red ("low"): a player should move now. */
export const LOW_MS = 10000;

function holder(seat) {
  if (seat.open) {
    return h("span", {class: "open-seat"}, seat.reserved ? ["reserved for ", playerLink(seat.reserved, seat.reserved)] : "open");
  }
  if (seat.bot) return h("span", {class: "muted"}, `bot ${seat.bot}`);
  if (seat.player) return playerLink(seat.player, "player page");
  return h("span", {class: "muted"}, "seat token");
}

function playerLink(id, text) {
  return h("a", {href: `/web/players/${encodeURIComponent(id)}`, class: "player-link"}, text);
}

/** 32 random bytes as hex: this browser's share of the seed (issue 9), as a client library sends. */
function entropy() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function joinForm(gameId, summary, onJoined) {
  const open = summary.seats.filter((seat) => seat.open);
  const me = currentPlayer();
  const token = h("input", {type: "password", placeholder: "your player token", autocomplete: "off", size: 22,
    class: "join-token", value: me ? me.token : null, hidden: Boolean(me), "aria-label": "player token"});
  const seat = h("select", {class: "join-seat"}, h("option", {value: ""}, "any open seat"),
    open.map((x) => h("option", {value: x.seat}, `seat ${x.seat}`)));
  const note = h("p", {class: "muted join-note"},
    me ? "" : "Become a player (top right), or paste a player token: it is sent as the bearer token, and not kept.");
  const form = h("form", {class: "join"}, token, " ", seat, " ",
    h("button", {type: "submit", id: "join-seat"}, me ? `Join as ${me.name}` : "Join"), note);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = {entropy: entropy()};
    if (seat.value !== "") body.seat = Number(seat.value);
    // A private game's invite link (#token=<invite token>, kept for this tab by the viewer): the
    // join shows the server that invite (a public game, or a seat token in the link, leaves it unused).
    const link = loadToken(gameId);
    if (link && link !== token.value.trim()) body.invite = link;
    try {
      const taken = await api(`/v1/games/${gameId}/join`, {method: "POST", token: token.value.trim(), body});
      clear(note, `You took seat ${taken.seat}${taken.status === "active" ? "; the game has started" : ""}.`);
      onJoined(token.value.trim(), taken);
    } catch (err) {
      clear(note, h("span", {class: "bad"}, `join refused: ${err.message}`));
    }
  });
  return form;
}

/**
 * The seat this page's viewer holds in the game, or null: the seat of its token (`seat`, from
 * legal-actions), else the seat the signed-in player took. A holder may not join again (the API
 * refuses a second seat to one player), so the join form is not offered to them.
 */
export function heldSeat(summary, seat = null, player = currentPlayer()) {
  if (seat !== null && seat !== undefined) return seat;
  const taken = player ? summary.seats.find((x) => !x.open && x.player === player.id) : null;
  return taken ? taken.seat : null;
}

/**
 * Draw the panel for this summary. Clocks of the seats to act are counted down
 * here between refreshes (from when the summary was read); the server's
 * deadline job, not this page, decides when time is up.
 */
export function seatsPanel(el, gameId, summary, onJoined, seat = null) {
  const read = performance.now();
  const clocks = new Map((summary.clocks || []).map((c) => [c.seat, c.remaining_ms]));
  const running = summary.status === "active" ? new Set(summary.active_seats) : new Set();
  const cells = new Map();
  const rows = summary.seats.map((seat) => {
    const time = clocks.has(seat.seat) ? h("span", {class: `clock${running.has(seat.seat) ? " running" : ""}`}) : null;
    if (time) cells.set(seat.seat, time);
    return h("tr", {"data-seat": seat.seat}, h("td", {class: "n"}, seat.seat), h("td", {}, seat.name || "—"),
      h("td", {}, holder(seat)), h("td", {class: "n"}, time));
  });
  function tick() {
    const spent = performance.now() - read;
    for (const [seat, cell] of cells) {
      const left = clocks.get(seat) - (running.has(seat) ? spent : 0);
      cell.textContent = clockText(left);
      cell.classList.toggle("low", running.has(seat) && left < LOW_MS);
    }
  }
  tick();
  clearInterval(el._ticker);
  if (running.size && cells.size) el._ticker = setInterval(tick, 250);
  clear(el,
    h("table", {class: "compact seats"}, h("tbody", {}, rows)),
    summary.deadline ? h("p", {class: "muted"}, `deadline ${new Date(summary.deadline).toLocaleTimeString()}`) : null,
    summary.status === "open" ? openNote(gameId, summary, onJoined, heldSeat(summary, seat)) : null);
}

/** While the game waits for players: the join form, or, to who already holds a seat, which one. */
function openNote(gameId, summary, onJoined, held) {
  if (held === null) return joinForm(gameId, summary, onJoined);
  return h("p", {class: "muted held-seat", id: "held-seat"},
    `You hold seat ${held}; the game starts once every seat is taken.`);
}
