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
