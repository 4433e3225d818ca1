// The organizer's desk on a tournament page: decide a table of the round being played
// (forfeit, walkover, double forfeit or an adjudicated result, each with its reason:
// POST /v1/tournaments/{id}/rounds/{n}/tables/{i}/result, TRN-DIR-1), correct a table's recorded
// result with the same fields (POST .../correction, TRN-DIR-3), and withdraw an entrant
// from the round being played (its game there is forfeited) or from the next (TRN-WD-2).
// The server decides what is allowed; a refusal is shown as its problem's code and message.
import {h} from "./dom.js";

const KINDS = [
  ["forfeit", "forfeit: the checked entrants lose"],
  ["walkover", "walkover: the checked entrants never came"],
  ["double_forfeit", "double forfeit: nobody scores"],
  ["adjudicated", "adjudicate: set every place"],
];

/** The round being played, or null (none yet, or between rounds). */
function playing(t) {
  const r = t.rounds[t.rounds.length - 1];
  return t.status === "running" && r && !r.completed ? r : null;
}

/** Tables the director may decide: undecided, and without a result (or, in a knockout, an aborted game). */
function open(t, r) {
  const aborted = (tb) => tb.result && tb.result.outcome === "aborted" && t.format === "knockout";
  return r.tables.map((tb, i) => ({tb, i})).filter(({tb}) => !tb.decision && (!tb.result || aborted(tb)));
}

/** Tables whose recorded result the director may correct (TRN-DIR-3): those with a result, in
 * any round but a completed knockout one, less the aborted knockout games waiting for a decision. */
function correctable(t) {
  if (t.status !== "running") return [];
  return t.rounds.filter((r) => !(t.format === "knockout" && r.completed)).flatMap((r) => {
    const waiting = open(t, r).map(({i}) => i);
    return r.tables.map((tb, i) => ({r, tb, i})).filter(({tb, i}) => tb.result && !waiting.includes(i));
  });
}

/** What the desk shows; the page redraws the desk only when this changes, so a form being
 * filled in survives the live reloads of unrelated log entries. */
export function deskKey(t) {
  const r = playing(t);
  return JSON.stringify([t.status, r && r.round, r && open(t, r).map(({i}) => i),
    correctable(t).map(({r: c, tb, i}) => [c.round, i, (tb.corrections || []).length]),
    t.entrants.map((e) => e.withdrawn)]);
}

const DECIDE = {path: "result", verb: "Decide", done: "decided"};
const CORRECT = {path: "correction", verb: "Correct", done: "corrected"};

function decideForm(t, r, {tb, i}, label, post, action = DECIDE) {
  const kind = h("select", {name: "kind", "aria-label": "decision"},
    KINDS.map(([value, text]) => h("option", {value}, text)));
  const losers = h("fieldset", {class: "losers"}, h("legend", {}, "losers"),
    tb.seats.map((e) => h("label", {}, h("input", {type: "checkbox", name: "loser", value: e}), ` ${label(t, e)} `)));
  const places = h("fieldset", {class: "places", hidden: true}, h("legend", {}, "places"),
    tb.seats.map((e, seat) => h("label", {}, `${label(t, e)} `,
      h("input", {type: "number", name: `place-${e}`, min: 1, max: tb.seats.length, value: seat + 1, required: true}),
      " ")));
  const reason = h("input", {type: "text", name: "reason", required: true, maxlength: 300, placeholder: "reason",
    "aria-label": "reason"});
  kind.addEventListener("change", () => {
    losers.hidden = !["forfeit", "walkover"].includes(kind.value);
    places.hidden = kind.value !== "adjudicated";
  });
  const submit = (event) => {
    event.preventDefault();
    const body = {kind: kind.value, reason: reason.value};
    if (!losers.hidden) body.losers = [...losers.querySelectorAll("input:checked")].map((x) => x.value);
    if (!places.hidden) {
      body.places = Object.fromEntries(tb.seats.map((e) => [e, Number(places.querySelector(`[name="place-${e}"]`).value)]));
    }
    post(`/rounds/${r.round}/tables/${i}/${action.path}`, body, `Table ${i} of round ${r.round} ${action.done}.`);
  };
  const note = action === CORRECT ? h("span", {class: "muted"}, ` (now: ${String(tb.result.outcome).replace(/_/g, " ")})`)
    : tb.result ? h("span", {class: "bad"}, " (game aborted)") : null;
  return h("form", {class: action === CORRECT ? "correct" : "decide", "data-table": i, "data-round": r.round,
    onsubmit: submit},
    h("p", {}, h("strong", {}, `Table ${i}: `), tb.seats.map((e) => label(t, e)).join(", "), note),
    kind, losers, places, reason, " ", h("button", {type: "submit"}, action.verb));
}

/** One table chosen among those with a result, then the decide form's fields to correct it with. */
function correctForm(t, label, post) {
  const tables = correctable(t);
  if (!tables.length) return null;
  const pick = h("select", {name: "correct-table", "aria-label": "table to correct"},
    tables.map(({r, tb, i}, n) => h("option", {value: n},
      `round ${r.round}, table ${i}: ${tb.seats.map((e) => label(t, e)).join(", ")}`)));
  const slot = h("div", {class: "correct-slot"});
  const show = () => slot.replaceChildren(decideForm(t, tables[pick.value].r, tables[pick.value], label, post, CORRECT));
  pick.addEventListener("change", show);
  show();
  return h("div", {class: "correct-result"}, h("strong", {}, "Correct a result "), pick, slot);
}

function withdrawForm(t, r, label, post) {
  const here = t.entrants.filter((e) => !e.withdrawn);
  if (!here.length) return null;
  const who = h("select", {name: "entrant", "aria-label": "entrant"},
    here.map((e) => h("option", {value: e.id}, label(t, e.id))));
  const next = t.rounds.length + 1;
  const when = h("select", {name: "from_round", "aria-label": "from round"},
    r ? h("option", {value: r.round}, `from round ${r.round}, forfeiting their game`) : null,
    h("option", {value: next}, `from round ${next}`));
  const submit = (event) => {
    event.preventDefault();
    post(`/entrants/${encodeURIComponent(who.value)}/withdraw`, {from_round: Number(when.value)},
      `${label(t, who.value)} withdrew from round ${when.value}.`);
  };
  return h("form", {class: "withdraw-from", onsubmit: submit},
    h("strong", {}, "Withdraw "), who, " ", when, " ", h("button", {type: "submit"}, "Withdraw"));
}

/** The desk's content for the tournament ``t``; ``label(t, id)`` names an entrant, ``post(path,
 * body, done)`` sends a director's request to this tournament and reloads the page. */
export function directorDesk(t, label, post) {
  const r = playing(t);
  const tables = r ? open(t, r) : [];
  return [
    r ? h("p", {class: "muted"}, `Round ${r.round} is being played.`)
      : h("p", {class: "muted"}, "No round is being played: tables are decided while their round is."),
    tables.length ? tables.map((x) => decideForm(t, r, x, label, post))
      : r ? h("p", {class: "muted"}, "Every table of this round has its result.") : null,
    correctForm(t, label, post),
    withdrawForm(t, r, label, post),
  ];
}
