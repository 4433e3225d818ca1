// The side panels: the score breakdown (with whether the game moved ratings) and the audit record
// with its verifier.
import {api} from "./api.js";
import {clear, h, seatLabel, table} from "./dom.js";
import {actorLabel} from "./words.js";

/** Categories in the order the first seat lists them, then any others. */
function categories(board) {
  const seen = [];
  for (const seat of board.seats) {
    for (const name of Object.keys(seat.breakdown)) if (!seen.includes(name)) seen.push(name);
  }
  return seen;
}

// Why an ended game moved no rating, and why a seat is left out (the scores' `rating`), in words.
const NOT_RATED = {
  aborted: "an aborted game has no result",
  solo: "a solo game: the game's own automaton or monsters are not rated, so there is no other side",
  one_rated_side: "fewer than two seats could be rated",
};
const LEFT_OUT = {anonymous: "joined without a player", shared: "the same player or bot holds another seat"};

/** Whether an ended game moved ratings, in words ("Not rated: ..."); null while it runs. */
export function ratingSaid(rating) {
  if (!rating) return null;
  if (rating.status === "skipped") return `Not rated: ${NOT_RATED[rating.reason] || rating.reason}`;
  return rating.status === "rated" ? "Rated: the game moved its seats' ratings"
    : "Rating pending: ratings move moments after the end";
}

/**
 * A seat's place in a scoreboard, "#2 of 2", counting what the scores rank: the seats and the
 * participants that hold a place (a solo game's automaton ranks beside its seat; Indagar's monsters
 * are scored but hold no place, so they count in neither). Null when the seat holds no place.
 */
export function placeText(board, seat) {
  const line = board.seats.find((x) => x.seat === seat);
  if (!line || line.place === null || line.place === undefined) return null;
  const ranked = board.participants ? board.participants.filter((p) => p.place !== null && p.place !== undefined).length
    : board.seats.length;
  return `#${line.place} of ${ranked}`;
}

/** Why a seat no rating counts is left out, in words, or null. */
export function leftOutSaid(rating, seat) {
  const out = rating && rating.left_out.find((x) => x.seat === seat);
  return out ? LEFT_OUT[out.why] || out.why : null;
}

/** The rating line under the final scores: the game's, then each seat left out. */
function ratingLine(rating, seats) {
  const said = ratingSaid(rating);
  if (!said) return null;
  const out = rating.left_out.map((x) => `${seatLabel(seats, x.seat)} is not rated: ${leftOutSaid(rating, x.seat)}`);
  return h("p", {class: "muted rating-line", id: "rating-line"}, [said, ...out].join("; ") + ".");
}

/**
 * The game's scoreboard. Its renderer may say what live scores mean (``liveScores``: Saboteur's
 * gold is face down until the end, so they are zeros) and name its categories
 * (``scoreCategory(name)``: DWARF's are majorities won).
 */
export async function scoresPanel(el, gameId, seats, renderer = {}, content = null) {
  let board;
  try {
    board = await api(`/v1/games/${gameId}/scores`);
  } catch (err) {
    return clear(el, h("p", {class: "muted"}, `scores unavailable: ${err.message}`));
  }
  const cats = categories(board);
  const name = (cat) => (renderer.scoreCategory ? renderer.scoreCategory(cat) : null) || cat.replace(/_/g, " ");
  // Seats, and the game's own scored participants (a solo game's automaton, which may win).
  const actors = (board.participants || []).filter((p) => !p.id.startsWith("seat:")).map((p) => ({
    name: actorLabel(p.id.replace(/^actor:/, ""), renderer, {seats, content}), total: p.total, breakdown: p.breakdown, place: p.place,
    winner: board.final && p.place === 1 && !board.winners.length, order: Infinity}));
  const lines = [...board.seats.map((seat) => ({name: seatLabel(seats, seat.seat), total: seat.total,
    breakdown: seat.breakdown, place: seat.place, winner: board.winners.includes(seat.seat), order: seat.seat})), ...actors];
  // The breakdown is one wrapping cell, so a game with many categories still fits the panel.
  const rows = lines.sort((a, b) => a.place - b.place || a.order - b.order).map((line) =>
    h("tr", {class: line.winner ? "winner" : ""},
      h("td", {class: "n"}, line.place),
      h("td", {}, line.name),
      h("td", {class: "n total"}, line.total),
      h("td", {class: "breakdown"}, [...cats, ...Object.keys(line.breakdown).filter((c) => !cats.includes(c))]
        .filter((cat) => cat in line.breakdown)
        .map((cat) => h("span", {}, `${name(cat)} `, h("b", {}, line.breakdown[cat]))))));
  clear(el,
    h("p", {class: "muted"}, board.final ? "final scores"
      : renderer.liveScores || "scores now (live: the current position's, whichever replay step is shown)"),
    table(["#", "player", "total", "breakdown"], rows),
    ratingLine(board.rating, seats));
}

/** sha256(seed) in the browser, when it offers WebCrypto (secure contexts only). */
async function seedMatches(seedHex, commitment) {
  if (!seedHex || !(window.crypto && crypto.subtle)) return null;
  const bytes = new Uint8Array(seedHex.match(/../g).map((b) => parseInt(b, 16)));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex === commitment;
}

function field(name, value, note) {
  return [h("dt", {}, name), h("dd", {}, value, note ? h("span", {class: "muted"}, ` ${note}`) : null)];
}

function mark(ok) {
  return h("span", {class: ok ? "ok" : "bad"}, ok ? "✓" : "✗");
}

/** The game id an export records (its first line is the GameCreated of command "create:<id>"), or null. */
function recordedGame(text) {
  try {
    const first = JSON.parse(text.split("\n", 1)[0]);
    const id = typeof first.command_id === "string" && first.command_id.match(/^create:(.+)$/);
    return id ? id[1] : null;
  } catch {
    return null;
  }
}

function showVerdict(el, verdict, expectedHead, other) {
  // Comparing heads means something only for an intact chain.
  const headNote = expectedHead && verdict.chain_ok
    ? (verdict.chain_head === expectedHead ? "matches this server's chain head" : "differs from this server's chain head")
    : "";
  const headline = !verdict.ok ? "✗ Not verified."
    : other ? `That file verifies, but it is the record of another game (${verdict.game || "a game"} ${other}), ` +
      "not of this one: open that game's page to check it against this server."
      : "✓ Verified: the chain is intact and a replay reproduces every event.";
  clear(el,
    h("p", {class: `verdict ${verdict.ok && !other ? "ok" : "bad"}`}, headline),
    h("dl", {class: "facts"},
      field("events", verdict.events),
      field("chain intact", mark(verdict.chain_ok)),
      field("replay identical", mark(verdict.replay_ok)),
      field("chain head", h("code", {}, verdict.chain_head ?? "—"), headNote)),
    verdict.problems.length
      ? h("ul", {class: "problems"}, verdict.problems.map((p) => h("li", {}, p.seq === null ? "" : `seq ${p.seq}: `, p.problem)))
      : null);
}

async function verifyText(el, text, expectedHead, gameId) {
  clear(el, h("p", {class: "muted"}, "verifying…"));
  const recorded = recordedGame(text);
  try {
    const verdict = await api("/v1/audit/verify", {method: "POST", body: text, type: "application/x-ndjson"});
    showVerdict(el, verdict, expectedHead, recorded && gameId && recorded !== gameId ? recorded : null);
  } catch (err) {
    clear(el, h("p", {class: "bad"}, `verify refused: ${err.message}`));
  }
}

/** Download this game's export and have the server verify it: chain and replay. */
async function verifyGame(el, gameId, token, expectedHead) {
  clear(el, h("p", {class: "muted"}, "downloading the export…"));
  let text;
  try {
    text = await api(`/v1/games/${gameId}/export`, {token, as: "text"});
  } catch (err) {
    return clear(el, h("p", {class: "bad"}, `export refused: ${err.message}`));
  }
  await verifyText(el, text, expectedHead, gameId);
}

/** A file a player saved earlier (their copy of the record) can be checked too. */
function fileVerifier(verdictEl, expectedHead, gameId) {
  const input = h("input", {type: "file", accept: ".ndjson,.json,.txt,application/x-ndjson"});
  input.addEventListener("change", async () => {
    if (input.files.length) await verifyText(verdictEl, await input.files[0].text(), expectedHead, gameId);
  });
  return h("label", {class: "file"}, "Verify a saved export: ", input);
}

// The commitment is over the server seed; the game's seed is that seed itself when every seat was
// taken at creation, else HMAC-SHA256(server seed, the seats' entropy) (openapi.yaml, Audit).
function auditFacts(audit, match) {
  const seedNote = match === null ? "" : match ? "✓ sha256(server seed) = commitment" : "✗ sha256(server seed) ≠ commitment";
  const secret = h("span", {class: "muted"}, "secret until the end");
  const derived = audit.seed && audit.seed !== audit.server_seed ? "HMAC-SHA256(server seed, the seats' entropy)" : "";
  return h("dl", {class: "facts"},
    field("rules", audit.rules_version),
    field("events", audit.events),
    field("seed commitment", h("code", {}, audit.seed_commitment)),
    field("server seed", audit.server_seed ? h("code", {}, audit.server_seed) : secret, seedNote),
    field("game seed", audit.seed ? h("code", {}, audit.seed) : h("span", {class: "muted"}, "secret until the end"), derived),
    field("chain head", audit.chain_head ? h("code", {}, audit.chain_head) : h("span", {class: "muted"}, "withheld until the end")));
}

function auditActions(audit, gameId, token) {
  const verdict = h("div", {class: "verdict-box"});
  const verify = audit.status === "finished"
    ? h("p", {class: "actions"},
      h("button", {type: "button", onclick: () => verifyGame(verdict, gameId, token, audit.chain_head)}, "Verify this game"),
      " ",
      h("a", {href: `/v1/games/${gameId}/export`, download: `${gameId}.ndjson`}, "download the export"))
    : h("p", {class: "muted"}, "The export is public, and verifiable here, once the game has finished.");
  return [verify, fileVerifier(verdict, audit.chain_head, gameId), verdict];
}

/**
 * The audit record. While the game runs only the facts are redrawn (the
 * chain head moves with every event); the verify controls are rebuilt only
 * when the status changes, so a verdict or a chosen file is not wiped.
 */
export async function auditPanel(el, gameId, token) {
  let audit;
  try {
    audit = await api(`/v1/games/${gameId}/audit`);
  } catch (err) {
    delete el.dataset.status;
    return clear(el, h("p", {class: "muted"}, `audit unavailable: ${err.message}`));
  }
  const facts = auditFacts(audit, await seedMatches(audit.server_seed, audit.seed_commitment));
  if (el.dataset.status === audit.status && el.firstChild) {
    el.firstChild.replaceWith(facts);
    return;
  }
  el.dataset.status = audit.status;
  clear(el, facts, auditActions(audit, gameId, token));
}
