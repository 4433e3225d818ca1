// Replay steps: the versions a game rested at.
//
// Events of one command share a command_id and land together, so the game
// never rests inside a batch: only batch ends are replayable versions
// (GET /states/{version} refuses the others). Before the end the API
// withholds other seats' command_ids; then consecutive events of one seat
// are grouped, which may merge two commands of a seat into one step but
// never splits a command. Pure functions, so node can test them.

/** What ties an event to its batch. */
export function batchKey(ev) {
  if (ev.command_id) return ev.command_id;
  return ev.seat === null ? "platform" : `seat:${ev.seat}`;
}

/** Extend `batches` (in place) with the next event of the log. */
export function addToBatches(batches, ev) {
  const key = batchKey(ev);
  const last = batches[batches.length - 1];
  if (last && last.key === key) {
    last.end = ev.seq;
    last.events.push(ev);
  } else {
    batches.push({key, first: ev.seq, end: ev.seq, events: [ev]});
  }
  return batches;
}

/** [{key, first, end, events}] for a list of events in seq order. */
export function batchesOf(events) {
  const batches = [];
  for (const ev of events) addToBatches(batches, ev);
  return batches;
}

/** The index of the batch holding `seq`, or -1. */
export function batchOfSeq(batches, seq) {
  return batches.findIndex((b) => b.first <= seq && seq <= b.end);
}

/** Events of a game waiting for players: the table is not set until the last seat is taken. */
const WAITING = new Set(["GameCreated", "SeatTaken", "SeatLeft", "GameCancelled"]);

/** How many batches come before the deal (nothing to show but who sat down): a game created with
 * every seat taken deals in its first batch (0), one that waited for players in the batch that took
 * the last seat; a game cancelled before the deal never deals (all of them). The API answers
 * not_dealt_yet for their versions, so the replay does not ask for them. */
export function beforeDeal(batches) {
  const dealt = batches.findIndex((b) => b.events.some((ev) => !WAITING.has(ev.type)));
  return dealt < 0 ? batches.length : dealt;
}
