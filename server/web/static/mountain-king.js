// In the Hall of the Mountain King: the board from the catalog's map (levels,
// heart, rubble, statue and workshop spaces) under the pieces of the view
// (doors, tunnels, halls coloured by owner), statues and pedestals; then the
// horde, the spellbook and each player's storage and roster as tables.
import {clear, h, s, section, seatLabel, table} from "./dom.js";

const C = 32; // board cell, px: a 19-column board and the horde fit side by side
const LEVEL_COLOURS = {1: "#4a4a4a", 2: "#9a9a9a", 3: "#8b5a2b", 4: "#f08c1a", 5: "#f5d33a"};
const HEART = "#6d1a36";
const CLAN_COLOURS = {fire: "#e53935", ice: "#4fc3f7", moon: "#b39ddb", mud: "#795548"};
// The content pack's player colours (starters.yaml), as CSS colours.
const PLAYER_COLOURS = {magenta: "#d81b60", teal: "#00897b", amber: "#ffb300", indigo: "#3949ab", white: "#f4f4f4"};
const RESOURCE_SHORT = {stone: "St", iron: "Fe", heartstone: "Hs", coin: "Co", cart: "Ca", hammer: "Ha", rune: "Ru"};

/** "r,c" or [r, c] -> "r,c": the view uses both spellings. */
function cellOf(value) {
  if (Array.isArray(value) && value.length === 2 && value.every(Number.isInteger)) return `${value[0]},${value[1]}`;
  if (typeof value === "string" && /^\d+,\d+$/.test(value)) return value;
  return null;
}

function playerColour(view, seat) {
  const p = view.players[seat];
  return (p && PLAYER_COLOURS[p.colour]) || p?.colour || "#888";
}

/** Components by id, so views' ids ("L1-19", "magenta-2", "earth_ritual") resolve. */
function index(content) {
  const byId = (list) => Object.fromEntries((list || []).map((x) => [x.id, x]));
  return {
    trolls: {...byId(content?.horde_trolls), ...byId(content?.starter_trolls)},
    spells: byId(content?.spells),
    halls: byId(content?.halls),
  };
}

// -- the board ---------------------------------------------------------------

/** Cells the shown batch touched (dug, built, moved to or from), outlined on the board. */
function touched(batch) {
  const cells = new Set();
  for (const ev of batch) {
    const d = ev.data || {};
    for (const c of d.cells || []) if (cellOf(c)) cells.add(cellOf(c));
    for (const name of ["to", "from", "space", "cell"]) if (cellOf(d[name])) cells.add(cellOf(d[name]));
  }
  return cells;
}

/** Which piece covers each cell, so borders can be drawn where pieces meet. */
function coverage(pieces) {
  const at = new Map();
  for (const [id, piece] of Object.entries(pieces)) {
    for (const c of piece.cells) at.set(cellOf(c), id);
  }
  return at;
}

function terrain(board) {
  const parts = [];
  const heart = new Set(board.heart.map(cellOf));
  for (const [k, level] of Object.entries(board.levels)) {
    const [r, c] = k.split(",").map(Number);
    parts.push(s("rect", {x: c * C, y: r * C, width: C, height: C, fill: heart.has(k) ? HEART : LEVEL_COLOURS[level],
      stroke: "#222", "stroke-width": 0.5}, s("title", {}, heart.has(k) ? `${k}: heart of the mountain` : `${k}: level ${level}`)));
  }
  for (const k of heart) {
    if (board.levels[k] !== undefined) continue;
    const [r, c] = k.split(",").map(Number);
    parts.push(s("rect", {x: c * C, y: r * C, width: C, height: C, fill: HEART}, s("title", {}, `${k}: heart of the mountain`)));
  }
  for (const [r, c] of board.rubble) {
    parts.push(s("circle", {cx: c * C + C / 2, cy: r * C + C / 2, r: C / 3, class: "rubble"}));
  }
  for (const [r, c] of board.statue_spaces) {
    parts.push(s("rect", {x: c * C + 6, y: r * C + 6, width: C - 12, height: C - 12, class: "statue-space"}));
  }
  for (const [r, c] of board.workshop_spaces) {
    parts.push(s("text", {x: c * C + C / 2, y: r * C + C / 2 + 4, class: "ws-space"}, "W"));
  }
  for (const [k, res] of Object.entries(board.buried || {})) {
    const [r, c] = k.split(",").map(Number);
    parts.push(s("circle", {cx: c * C + C - 6, cy: r * C + C - 6, r: 3, class: "buried"}, s("title", {}, `buried: ${res.join(", ")}`)));
  }
  for (const p of board.start_points) {
    const [r, c] = p.cell;
    parts.push(s("text", {x: c * C + 5, y: r * C + 11, class: "start-point"}, p.id));
  }
  return parts;
}

/** One piece: its cells in the owner's colour, inset so the level stays visible, outlined where it ends. */
function piece(id, p, view, cover, names) {
  const colour = playerColour(view, p.seat);
  const parts = [];
  const inset = p.kind === "door" ? 3 : 6;
  for (const cell of p.cells) {
    const [r, c] = cell;
    parts.push(s("rect", {x: c * C + inset, y: r * C + inset, width: C - 2 * inset, height: C - 2 * inset,
      fill: colour, class: `piece ${p.kind}`}));
    // A side is a border of this piece unless the neighbour there belongs to it too.
    const sides = [[-1, 0, c * C, r * C, c * C + C, r * C], [1, 0, c * C, r * C + C, c * C + C, r * C + C],
      [0, -1, c * C, r * C, c * C, r * C + C], [0, 1, c * C + C, r * C, c * C + C, r * C + C]];
    for (const [dr, dc, x1, y1, x2, y2] of sides) {
      if (cover.get(`${r + dr},${c + dc}`) !== id) parts.push(s("line", {x1, y1, x2, y2, class: "piece-edge"}));
    }
  }
  if (p.kind === "door") {
    const [r, c] = p.cells[0];
    parts.push(s("text", {x: c * C + C / 2, y: r * C + C / 2 + 4, class: "door-mark"}, "D"));
  }
  if (p.kind === "hall" && p.altar) {
    const [r, c] = p.altar;
    parts.push(s("text", {x: c * C + C / 2, y: r * C + C / 2 + 5, class: "altar"}, "▲"));
  }
  if (p.pedestal && p.anchor) {
    const [r, c] = p.anchor;
    parts.push(s("rect", {x: c * C + 9, y: r * C + 9, width: C - 18, height: C - 18, fill: CLAN_COLOURS[p.pedestal] || "#fff",
      class: "pedestal"}, s("title", {}, `${p.pedestal} pedestal`)));
  }
  const label = p.kind === "hall" ? (names.halls[p.hall]?.name || p.hall) : p.kind === "tunnel" ? `tile ${p.tile}` : "door";
  return s("g", {class: `mk-piece ${p.kind}`}, s("title", {}, `${id}: ${label}, ${seatLabel(names.seats, p.seat)}`), parts);
}

function statues(view) {
  return Object.entries(view.statues).map(([k, clan]) => {
    const [r, c] = k.split(",").map(Number);
    return s("circle", {cx: c * C + C / 2, cy: r * C + C / 2, r: C / 4, fill: CLAN_COLOURS[clan] || "#fff", class: "statue"},
      s("title", {}, `${clan} statue at ${k}`));
  });
}

function workshops(view) {
  return Object.entries(view.workshops).map(([k, kind]) => {
    const [r, c] = k.split(",").map(Number);
    const short = kind.split("_").map((w) => w[0].toUpperCase()).join("");
    return s("g", {}, s("title", {}, `workshop: ${kind.replace(/_/g, " ")}`),
      s("rect", {x: c * C + 3, y: r * C + 8, width: C - 6, height: C - 16, rx: 3, class: "workshop"}),
      s("text", {x: c * C + C / 2, y: r * C + C / 2 + 4, class: "workshop-label"}, short));
  });
}

function boardSvg(view, ctx, names) {
  const board = ctx.content?.boards?.[view.board];
  if (!board) return h("p", {class: "message"}, `The catalog has no map for board "${view.board}".`);
  const cover = coverage(view.pieces);
  const lit = [...touched(ctx.batch)].map((k) => {
    const [r, c] = k.split(",").map(Number);
    return s("rect", {x: c * C, y: r * C, width: C, height: C, class: "lit"});
  });
  startPoints = Object.fromEntries(board.start_points.map((p) => [p.id, cellOf(p.cell)]));
  // On top, one transparent square per space: what the play layer makes clickable (places()).
  const hits = Object.keys(board.levels).map((k) => {
    const [r, c] = k.split(",").map(Number);
    return s("rect", {x: c * C + 1, y: r * C + 1, width: C - 2, height: C - 2, class: "hit", "data-place": `space:${k}`,
      "aria-label": `space ${k}, level ${board.levels[k]}`});
  });
  return s("svg", {class: "mk-board", width: board.cols * C, height: board.rows * C,
    viewBox: `0 0 ${board.cols * C} ${board.rows * C}`, "aria-label": `the ${view.board} board`},
  terrain(board),
  Object.entries(view.pieces).map(([id, p]) => piece(id, p, view, cover, names)),
  workshops(view), statues(view), lit, hits);
}

let startPoints = {}; // start point id -> "r,c" of the board drawn last

/** The board places a command involves, for the play layer: spaces, a horde slot, a spell. */
export function places(command) {
  const space = (v) => `space:${cellOf(v)}`;
  switch (command.type) {
    case "dig": case "build_hall": return command.cells.map(space);
    case "establish_workshop": case "use_workshop": return [space(command.space)];
    case "move_statue": return [space(command.from), space(command.to)];
    case "place_door": return startPoints[command.point] ? [`space:${startPoints[command.point]}`] : [];
    case "recruit": return [`slot:${command.slot}`];
    case "cast": return [`spell:${command.spell}`];
    default: return [];
  }
}

/**
 * The move list's order, for the play layer: ending the step or the turn first and always shown
 * (below 0), trades (often hundreds of 4-for-1 combinations) after every other move.
 */
export function order(command) {
  if (command.type === "end_step" || command.type === "end_turn") return -1;
  if (command.type !== "trade") return 0;
  return command.get in (command.give || {}) ? 2 : 1; // paying with what it gets: legal, seldom wise, listed last
}

/** What the board's colours and marks mean. */
function legend() {
  const swatch = (fill, text) => h("span", {class: "legend-item"}, h("span", {class: "swatch", style: `background:${fill}`}), text);
  return h("details", {class: "legend", id: "legend"}, h("summary", {}, "Legend"),
    h("p", {}, Object.entries(LEVEL_COLOURS).map(([lv, c]) => swatch(c, `level ${lv}`)), swatch(HEART, "heart of the mountain")),
    h("p", {}, "Pieces in the owner's colour: D door, tunnels outlined where a tile ends, ▲ a great hall's altar; ",
      "a small square on a piece: its pedestal (clan colour); a circle: a statue; dashed square: a statue space; ",
      "W: a workshop space; a labelled box: a workshop (initials); grey dot: rubble; small dot: buried resources; ",
      "letters A–F: start points; red outline: touched by the shown step."),
    h("p", {}, Object.entries(CLAN_COLOURS).map(([clan, c]) => swatch(c, clan))));
}

// -- tables ------------------------------------------------------------------

/** A symbol as a small chip; a clan cart ("cart:fire") gets its clan's colour as a border. */
function chip(symbol, filled = true) {
  const [res, clan] = symbol.split(":");
  return h("span", {class: `res ${res}${filled ? "" : " empty"}`, title: symbol,
    style: clan ? `border-color:${CLAN_COLOURS[clan]}` : null}, RESOURCE_SHORT[res] || res);
}

function resources(counts) {
  const entries = Object.entries(counts || {}).filter(([, n]) => n);
  return entries.length ? entries.map(([res, n]) => [chip(res), `×${n} `]) : "—";
}

function seatCell(view, ctx, seat) {
  return [h("span", {class: "dot", style: `background:${playerColour(view, seat)}`}), seatLabel(ctx.seats, seat)];
}

function status(view, ctx) {
  const bits = [ctx.over ? "game over" : `phase: ${view.phase}`, `round ${view.round}`];
  if (!ctx.over && view.current !== null && view.current !== undefined) bits.push(`current: ${seatLabel(ctx.seats, view.current)}`);
  if (!ctx.over && view.turn) bits.push(`step: ${view.turn.step}`);
  if (view.turns_left !== null && view.turns_left !== undefined) bits.push(`turns left: ${view.turns_left}`);
  bits.push(`board: ${view.board}`);
  if (view.teams) {
    bits.push(`teams: ${view.teams.map((team) => team.map((seat) => seatLabel(ctx.seats, seat)).join(" + ")).join(" vs ")}`);
  }
  return h("p", {class: "status-line"}, bits.join(" · "));
}

function playersTable(view, ctx) {
  const rows = view.players.map((p) => h("tr", {class: view.current === p.seat ? "turn" : ""},
    h("td", {}, seatCell(view, ctx, p.seat)),
    h("td", {}, p.door ?? "—"),
    h("td", {class: "n total"}, p.honor),
    h("td", {}, ["fire", "ice", "moon"].map((clan) => p.pedestals[clan]
      ? h("span", {class: "clan", style: `background:${CLAN_COLOURS[clan]}`, title: `${clan} pedestals`}, p.pedestals[clan]) : null)),
    h("td", {}, p.pedestal_tokens.join(", ") || "—"),
    h("td", {class: "n"}, p.recruited_levels),
    h("td", {}, resources(p.storage))));
  return table(["player", "door", "honor", "pedestals", "ped. tokens", "levels", "storage"], rows);
}

/** During the starter draft: the hand (its cards for its owner, a count for others) and the deck left,
 * worded alike for every roster: "hand empty" whoever's it is, "2 cards in hand" when another's. */
export function draftLine(draft) {
  if (!draft) return null;
  const cards = (n) => `${n} card${n === 1 ? "" : "s"}`;
  const held = Array.isArray(draft.hand) ? draft.hand.length : draft.hand;
  const hand = !held ? "hand empty" : Array.isArray(draft.hand) ? `hand: ${draft.hand.join(", ")}` : `${cards(held)} in hand`;
  return h("p", {class: "muted draft-line"}, `draft: ${hand}, ${cards(draft.deck)} in deck`);
}

/** A roster: position, troll, clan/level and its top-row symbols with tokens held (filled) or not. */
function roster(p, names) {
  const entries = Object.entries(p.roster).sort(([a], [b]) => a.localeCompare(b, "en", {numeric: true}));
  if (!entries.length) return h("p", {class: "muted"}, "no trolls yet");
  const rows = entries.map(([pos, troll]) => {
    const card = names.trolls[troll.card] || {};
    const symbols = card.symbols || card.top || [];
    return [pos, troll.card, card.clan ? `${card.clan}${card.level ? ` L${card.level}` : ""}` : "starter",
      h("span", {}, symbols.map((sym, i) => chip(sym, troll.held[i])))];
  });
  return table(["pos", "troll", "clan", "tokens"], rows, {class: "compact roster"});
}

function rosters(view, ctx, names) {
  return h("div", {class: "rosters"}, view.players.map((p) =>
    h("div", {class: "roster-box"}, h("h4", {}, seatCell(view, ctx, p.seat)), roster(p, names), draftLine(p.draft))));
}

function horde(view, names) {
  const rows = Object.entries(view.horde.slots).map(([slot, sp]) => {
    const card = names.trolls[sp.card] || {};
    const troll = sp.card ? h("span", {class: "nowrap"}, sp.card, h("br"),
      h("small", {class: "muted"}, card.clan ? `${card.clan} L${card.level}` : "")) : "—";
    return h("tr", {"data-place": `slot:${slot}`, "aria-label": `horde slot ${slot}`},
      [slot, troll, h("span", {}, (card.symbols || []).map((sym) => chip(sym))), resources(sp.bribes),
        sp.pedestal ? h("span", {class: "clan", style: `background:${CLAN_COLOURS[sp.pedestal]}`}, sp.pedestal)
          : sp.choose_pedestal ? "choose" : ""].map((cell) => h("td", {}, cell)));
  });
  const decks = Object.entries(view.horde.decks).map(([lv, n]) => `L${lv}: ${n}`).join(", ");
  return [table(["slot", "troll", "symbols", "bribes", "ped."], rows), h("p", {class: "muted"}, `decks — ${decks}`)];
}

function spellbook(view, names) {
  const rows = view.spellbook.map((sp) => {
    const spell = names.spells[sp.id];
    return h("tr", {title: spell ? spell.text : sp.id, "data-place": `spell:${sp.id}`,
      "aria-label": `spell ${spell ? spell.name : sp.id}`}, h("td", {}, spell ? spell.name : sp.id), h("td", {class: "n"}, sp.runes));
  });
  return [table(["spell", "runes"], rows), h("p", {class: "muted"}, `spell deck: ${view.spell_deck}`)];
}

/** The pedestal bag's counts by clan, as chips: "fire 4, ice 5, moon 4". */
function bag(counts) {
  const entries = Object.entries(counts || {});
  if (!entries.length) return "empty";
  return entries.map(([clan, n], i) => [i ? ", " : "", h("span", {class: "clan", style: `background:${CLAN_COLOURS[clan] || "#ccc"}`,
    title: `${clan} pedestals in the bag`}, clan), ` ${n}`]);
}

function tableware(view, names) {
  const halls = view.halls.map((id) => names.halls[id]?.name || id).join(", ") || "—";
  const tiles = Object.entries(view.tiles).filter(([, n]) => n).map(([t, n]) => `${t}×${n}`).join(" ") || "—";
  const coronation = Object.entries(view.coronation.taken || {})
    .map(([pts, seat]) => `the ${pts}-honor token by ${seatLabel(names.seats, Number(seat))}`).join(", ");
  const left = (view.coronation.left || []).map((pts) => `${pts} honor`).join(", ") || "none";
  return h("dl", {class: "facts"},
    h("dt", {}, "supply"), h("dd", {}, resources(view.supply)),
    h("dt", {}, "tiles"), h("dd", {}, tiles),
    h("dt", {}, "great halls"), h("dd", {}, halls),
    h("dt", {}, "workshops to come"), h("dd", {}, view.workshop_supply.map((w) => w.replace(/_/g, " ")).join(", ") || "—"),
    h("dt", {}, "pedestal bag"), h("dd", {}, bag(view.pedestal_bag)),
    h("dt", {}, "coronation"), h("dd", {}, `tokens left: ${left}${coronation ? `; taken: ${coronation}` : ""}`));
}

function finalScores(view, ctx) {
  if (!view.final) return null;
  const cats = Object.keys(Object.values(view.final)[0] || {});
  const rows = Object.entries(view.final).map(([seat, cat]) =>
    [seatCell(view, ctx, Number(seat)), ...cats.map((c) => cat[c]), Object.values(cat).reduce((a, b) => a + b, 0)]);
  return section("Final scoring", table(["player", ...cats.map((c) => c.replace(/_/g, " ")), "total"], rows));
}

export function renderMountainKing(el, view, ctx) {
  if (!view.phase) return clear(el, h("p", {class: "muted"}, "The table is not set yet."));
  const names = {...index(ctx.content), seats: ctx.seats};
  clear(el,
    status(view, ctx),
    h("div", {class: "mk-top"},
      h("div", {class: "board-wrap"}, boardSvg(view, ctx, names), legend()),
      h("div", {class: "mk-aside"},
        section("Horde", horde(view, names)),
        section("Spellbook", spellbook(view, names)))),
    finalScores(view, ctx),
    section("Players", playersTable(view, ctx)),
    section("Rosters", rosters(view, ctx, names)),
    section("On the table", tableware(view, names)));
}

/** Why the game ended by its rules, in words, for the viewer's header (null: not by them). */
export function ended(view) {
  return view.phase === "over" ? "the last rounds after the coronation were played" : null;
}

/** The viewer loads this module by the game's catalog ``renderer`` name and calls ``render``. */
export const render = renderMountainKing;

/** What the table does by the rules (a turn or phase begun, the horde refilled, the end triggered):
 * the Events panel credits these to the table, not to the seat whose move led to them. */
const TABLE_EVENTS = new Set(["TurnStarted", "PhaseBegan", "HordeRefilled", "DraftFinished", "EndTriggered", "GameEnded"]);

/** Who an event is credited to in the Events panel: the table (null), the seat it names, else the viewer's default. */
export function eventActor(ev, ctx) {
  if (TABLE_EVENTS.has(ev.type)) return null;
  return Number.isInteger(ev.data?.seat) ? seatLabel(ctx.seats, ev.data.seat) : undefined;
}

/** The new-game form's words for the options (create.js): a label per option, words per choice. */
export const optionWords = {
  board: {label: "board side"},
  teams: {label: "2 versus 2 teams"},
  clan_carts_generic_payment: {label: "clan carts pay any cost"},
  unlimited_supply: {label: "the supply never runs out"},
  hall_mirroring: {label: "great halls may be flipped"},
  start_player: {label: "seat of the start player"},
  replace_duplicate_workshops: {label: "duplicate workshops are replaced when revealed"},
};
