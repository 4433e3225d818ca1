// DWARF: the Mine (two with two copies) as 3x3 grids of top cards with their stack
// height and the worker standing there, the Special Action piles, the first-player
// marker and every participant's holdings with the live majority table.
import {clear, h, s, section, seatLabel, table} from "./dom.js";

const C = 92; // a location's size, px
const TYPE_COLOURS = {mine: "#c9b48a", forge: "#d98b5f", defend: "#8fa7c9", help: "#9cc59a"};
const PLAYER_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#6b6259"];

function participantName(view, ctx, index) {
  const p = view.players[index];
  return p && p.id.startsWith("actor:") ? `automaton (${view.solo_level})` : seatLabel(ctx.seats, index);
}

/** A top card's name, squeezed into the location when it is long (the tooltip has it whole). */
function locationName(name, x, y) {
  const long = name.length > 13;
  return s("text", {x: x + 6, y: y + 18, class: `dw-name${long ? " long" : ""}`,
    textLength: long ? C - 14 : null, lengthAdjust: long ? "spacingAndGlyphs" : null}, name);
}

/** A card's name as the page shows it. The content names a card in English and, in brackets, as
 * printed in Spanish ("Gold Vein (Veta de Oro)"); where the two are spelt alike the name is said
 * once: "Dragon", not "Dragon (Dragon)". */
export function cardName(name) {
  return name.replace(/^(.+) \((.+)\)$/, (whole, english, spanish) => (english === spanish ? english : whole));
}

/** An effect of the content, its name as the page shows it (cardName). */
function effectOf(effects, id) {
  const effect = effects[id];
  return effect ? {...effect, name: cardName(effect.name)} : null;
}

/** A move's label as the page shows it: the server's labels name a card as the content does (and the
 * signed record keeps them so), the page by cardName ("Place a worker on Dragon at 23"). */
export function relabel(label, command, ctx) {
  const effects = Object.values((ctx.content && ctx.content.effects) || {});
  return effects.reduce((said, e) => (cardName(e.name) === e.name ? said : said.split(e.name).join(cardName(e.name))), label);
}

function location(view, ctx, area, loc, cell, r, c) {
  const effects = (ctx.content && ctx.content.effects) || {};
  const effect = effectOf(effects, cell.effect) || {name: cell.effect || "?", type: "mine"};
  const x = (c - 1) * C;
  const y = (r - 1) * C;
  const parts = [
    s("rect", {x: x + 2, y: y + 2, width: C - 4, height: C - 4, rx: 6, fill: TYPE_COLOURS[effect.type] || "#ddd",
      stroke: "#5a4a3a", class: "dw-location"}),
    locationName(effect.name.replace(/ \(.*\)$/, ""), x, y),
    s("text", {x: x + 8, y: y + 34, class: "dw-type"}, effect.type),
    // The location's number, row then column, as the move labels name it ("at 13").
    s("text", {x: x + C - 9, y: y + 35, "text-anchor": "end", class: "dw-loc"}, loc),
    s("text", {x: x + C - 10, y: y + C - 10, "text-anchor": "end", class: "dw-stack"}, `stack ${cell.stack.length}`),
  ];
  if (effect.threat) {
    const tx = x + C / 2;
    parts.push(s("g", {class: "dw-threat"}, s("title", {}, `${effect.name}: a threat`),
      s("polygon", {points: `${tx},${y + 42} ${tx - 10},${y + 59} ${tx + 10},${y + 59}`}),
      s("text", {x: tx, y: y + 57, "text-anchor": "middle"}, "!")));
  }
  if (cell.worker) {
    const w = cell.worker;
    parts.push(s("circle", {cx: x + 22, cy: y + C - 22, r: w.extra ? 9 : 12, fill: PLAYER_COLOURS[w.player % 6],
      stroke: "#fff", "stroke-width": 2, class: "dw-worker"},
    s("title", {}, `${participantName(view, ctx, w.player)}${w.extra ? " (extra)" : ""}${w.done ? ", acted early" : ""}`)));
  }
  const tip = `${area === 0 ? "" : `Mine ${area}, `}L(${r},${c}): ${effect.name} on top; stack ${cell.stack.join(" < ")}`;
  return s("g", {"data-place": `loc:${area}:${loc}`, "aria-label": `location ${loc}${view.mines.length > 1 ? ` of Mine ${area}` : ""}: ${effect.name}`},
    s("title", {}, tip), parts);
}

/** The places a command involves, for the play layer: a location of a Mine, or a Special Action pile. */
export function places(command) {
  if (command.type === "place") return [`loc:${command.mine || 0}:${command.location}`];
  if (command.type === "special") return [`pile:${command.pile}`];
  return [];
}

/** "2 steel + 1 iron", as the labels word a cost. */
function bag(amounts) {
  return Object.entries(amounts).map(([res, n]) => `${n} ${res}`).join(" + ");
}

/** What ``held`` lacks of ``cost``; empty when it pays. */
function shortOf(cost, held) {
  return Object.fromEntries(Object.entries(cost || {}).map(([res, n]) => [res, n - (held[res] || 0)]).filter(([, n]) => n > 0));
}

/** An order's actions in turn from ``held``, each all or nothing (DW-RES-6): "Forge Axe at 32 does nothing: short of 1 steel". */
function orderShort(command, view, effects, held) {
  const left = {...held};
  const failed = [];
  for (const where of command.locations) {
    const effect = effectOf(effects, view.mines[where.mine || 0].mine[where.location].effect);
    if (!effect) continue;
    const short = shortOf(effect.cost, left);
    if (Object.keys(short).length) {
      const second = view.mines.length > 1 ? ` in Mine ${where.mine || 0}` : "";
      failed.push(`${effect.name} at ${where.location}${second} does nothing: short of ${bag(short)}`);
      continue;
    }
    for (const [res, n] of Object.entries(effect.cost)) left[res] -= n;
    for (const [res, n] of Object.entries(effect.gain)) left[res] = (left[res] || 0) + n;
  }
  return failed.length ? failed.join("; ") : null;
}

/**
 * What the viewing seat cannot pay for a listed move, in words, from its holdings in the view; null
 * when it can. The rules list every free location and pile whatever one holds (DW-SEL-2, DW-SPEC-3):
 * a Special Action's face is paid at once, a location's action in its step of the resolution, after
 * this round's Mine actions for a Forge (DW-RES-1), and unpaid either does nothing (DW-RES-6).
 */
export function lacking(command, view, content) {
  const effects = (content && content.effects) || {};
  const held = view.players[view.you];
  if (!held) return null;
  if (command.type === "order") return orderShort(command, view, effects, held);
  let effect = null;
  if (command.type === "place") {
    effect = effects[view.mines[command.mine || 0].mine[command.location].effect];
  } else if (command.type === "special") {
    effect = effects[view.mines[Math.floor(command.pile / 3)].piles[command.pile % 3].top_special];
  }
  const short = effect ? shortOf(effect.cost, held) : {};
  if (!Object.keys(short).length) return null;
  return command.type === "special" ? `does nothing: short of ${bag(short)}`
    : `short of ${bag(short)} now (paid in the ${effect.type === "forge" ? "Forge" : "Mine"} step)`;
}

function mine(view, ctx, area, index) {
  const cells = [];
  for (let r = 1; r <= 3; r++) {
    for (let c = 1; c <= 3; c++) cells.push(location(view, ctx, index, `${r}${c}`, area.mine[`${r}${c}`], r, c));
  }
  const effects = (ctx.content && ctx.content.effects) || {};
  const piles = area.piles.map((p, i) => h("li", {"data-place": `pile:${index * 3 + i}`, "aria-label": `Special Action pile ${index * 3 + i}`},
    `pile ${index * 3 + i}: ${p.count} card(s)`, p.top_special ? `, top: ${(effectOf(effects, p.top_special) || {}).name || p.top_special}` : ""));
  return section(view.mines.length > 1 ? `Mine ${index}` : "The Mine",
    s("svg", {width: 3 * C, height: 3 * C, class: "dw-mine", viewBox: `0 0 ${3 * C} ${3 * C}`}, cells),
    h("p", {class: "muted"}, `Mountain: ${area.mountain_count} card(s) left, order hidden`),
    h("ul", {class: "dw-piles"}, piles));
}

/** What the Mines' colours and marks mean, as mine() and location() draw them. */
function legend(view) {
  const swatch = (fill, text) => h("span", {class: "legend-item"}, h("span", {class: "swatch", style: `background:${fill}`}), text);
  return h("details", {class: "legend", id: "legend"}, h("summary", {}, "Legend"),
    h("p", {}, "A location's colour: the type of the card on top, ", Object.entries(TYPE_COLOURS).map(([type, c]) => swatch(c, type))),
    h("p", {}, "On each location: the name of the card on top and its type; at the right, the location's number, row then column ",
      "(13: row 1, column 3), as the moves name it (\"at 13\"", view.mines.length > 1 ? ", \"in Mine 1\" for the Mine so headed" : "",
      "); stack n: how many cards lie there (the tooltip lists them). ",
      "A circle: a worker, in its player's colour (the dots of Participants; smaller: an extra worker). ",
      "Red triangle with !: a threat on top; left without a worker, it strikes every player. ",
      "Pile n: a Special Action pile, its number of cards and the Special Action on top. ",
      "Yellow outline: a place you may pick now."));
}

function players(view, ctx) {
  const rows = view.players.map((p, i) => [
    h("span", {style: `color:${PLAYER_COLOURS[i % 6]}`}, "●"),
    [participantName(view, ctx, i), view.first_player === i
      ? h("span", {class: "first-marker", title: "holds the first-player marker (DW-FP)"}, "first player") : null],
    p.iron, p.gold, p.steel, p.object, p.medal,
    Object.entries(p.majorities).filter(([, v]) => v).map(([k]) => k).join(", ") || "—",
  ]);
  return table(["", "who", "iron", "gold", "steel", "objects", "medals", "majorities"], rows, {class: "compact dw-players"});
}

// Why a game ended (GameEnded's reason, the view's ``ended``), in words (DW-END-1 to DW-END-5).
const END_REASONS = {
  four_objects: "a player created a fourth Object",
  mountain_empty: "the Mountain ran out",
  automaton_medals: "the automaton passed its Medal threshold (knock-out)",
  round_limit: "the round limit was reached",
};

const OBJECTS_TO_END = 4; // DW-END-1

/** "A", "A and B", "A, B and C". */
function listed(names) {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Why the game ended by its rules, in words, for the viewer's header (null: not by them). A fourth
 * Object names who created it ("Ann created a fourth Object"), not "a player", when the view counts
 * each participant's Objects created and the page knows the names (ctx). */
export function ended(view, ctx) {
  if (!view.ended) return null;
  if (view.ended === "four_objects" && ctx && Array.isArray(view.players)) {
    const makers = view.players.map((p, i) => (Number(p.created) >= OBJECTS_TO_END ? participantName(view, ctx, i) : null))
      .filter(Boolean);
    if (makers.length) return `${listed(makers)} ${makers.length > 1 ? "each " : ""}created a fourth Object`;
  }
  return END_REASONS[view.ended] || view.ended.replace(/_/g, " ");
}

// A round's phases (view.phase), in words.
const PHASES = {mining: "the Mine is dealt", select: "workers are placed", help: "Receive Help: extra workers are placed",
  order: "actions are ordered", resolve: "actions resolve", round_end: "the round ends"};
// What the participant to act places (view.to_place.slot): each places two workers a round (DW-SETUP-4).
const SLOTS = {first: "places worker 1 of 2", second: "places worker 2 of 2", extra: "places an extra worker",
  instant: "places a worker that acts at once"};

/** Who acts next and how, in words: "Alice places worker 1 of 2" (not "(first)", which read as the
 * first-player marker), "Alice orders the actions of the mine step". */
function nextUp(view, ctx) {
  const next = view.to_place;
  if (!next) return "";
  const who = participantName(view, ctx, next.player);
  if (next.slot === "order") return `${who} orders the actions of the ${next.step || "current"} step`;
  return `${who} ${SLOTS[next.slot] || `places a worker (${next.slot})`}`;
}

/** The board's status line: the round, its phase, who acts next, and who holds the first-player marker. */
export function statusLine(view, ctx) {
  if (view.phase === "over") return `game over: ${ended(view, ctx)}, round ${view.round}`;
  if (ctx.over) return `game over in round ${view.round}`;
  const next = nextUp(view, ctx);
  const first = Number.isInteger(view.first_player) ? ` · first player: ${participantName(view, ctx, view.first_player)}` : "";
  return `round ${view.round}, ${PHASES[view.phase] || view.phase}${next ? `; ${next}` : ""}${first}`;
}

export function renderDwarf(el, view, ctx) {
  clear(el,
    h("p", {class: "status"}, statusLine(view, ctx)),
    view.banned ? h("p", {class: "message"}, `Orc Raiders: no ${view.banned} actions this round`) : null,
    h("div", {class: "dw-mines"}, view.mines.map((area, i) => mine(view, ctx, area, i))),
    legend(view),
    section("Participants", players(view, ctx)));
}

/** The viewer loads this module by the game's catalog ``renderer`` name and calls ``render``. */
export const render = renderDwarf;

/** The scores' categories are majorities won (DW-SCORE-2): 1 means this player holds it. */
export function scoreCategory(name) {
  return `${name.replace(/_/g, " ")} majority`;
}

/** What the table does by the rules (rounds and steps begun, the Mountain's cards mined, a threat
 * striking, a placement skipped): the Events panel credits these to the table. */
const TABLE_EVENTS = new Set(["RoundStarted", "RoundEnded", "StepStarted", "SelectionStarted", "ResolutionStarted",
  "HelpStarted", "ThreatApplied", "CardMined", "OrderRequested", "PlacementSkipped", "ActionsBanned", "MarkerPassed",
  "EndTriggered", "GameEnded", "MineLaid", "MountainShuffled", "PilesDealt"]);

/** Who an event is credited to in the Events panel: the table (null), else the player whose worker or
 * action it is (the automaton's in a solo game, its events carrying the automaton's index), else the default. */
export function eventActor(ev, ctx) {
  if (TABLE_EVENTS.has(ev.type)) return null;
  const player = ev.data?.player;
  if (!Number.isInteger(player)) return undefined;
  return player < (ctx.seats || []).length ? seatLabel(ctx.seats, player) : "automaton";
}

/** The new-game form's words for the options (create.js): a label per option, words per choice. */
export const optionWords = {
  solo_level: {label: "solo automaton", values: {eldhusfifl: "Eldhusfifl", andvettr: "Andvettr", "andvettr-fadir": "Andvettr-Fadir"}},
  alternative_mountain: {label: "the less random Mountain"},
  first_player: {label: "seat with the first-player marker"},
  special_action_cost_resource: {label: "a one-worker Special Action costs"},
  special_action_cost_amount: {label: "how many of it"},
  orc_raiders_forbids: {label: "Orc Raiders stop", values: {forge: "Forge actions", mine: "Mine actions"}},
  orc_raiders_timing: {label: "Orc Raiders strike", values: {this_round: "this round", next_round: "next round"}},
  round_limit: {label: "end after this many rounds"},
  empty_mountain_end: {label: "an empty Mountain ends the game", values: {immediate: "at once", finish_round: "at the end of the round"}},
  andvettr_second_worker_rule: {label: "Andvettr's second worker goes to", values: {receive_help: "the first free Receive Help",
    defend: "the first free Defend", any_empty: "the first free location"}},
  andvettr_double_actions: {label: "Andvettr carries out twice", values: {forge: "his Forge actions", all: "every action"}},
  andvettr_medal_win_threshold: {label: "Medals at which Andvettr wins"},
};
