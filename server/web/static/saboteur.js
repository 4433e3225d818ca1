// Saboteur: the maze as a grid of cards drawn from their open edges and
// segments, the goals (face down until revealed or seen), the players'
// tools, roles and gold, and the viewer's own hand.
import {clear, h, s, section, seatLabel, table} from "./dom.js";

const W = 50; // card width in the maze, px
const H = 70; // card height: Saboteur cards are portrait
const TUNNEL = 13; // tunnel width
const AXIS = 18; // the band above and left of the maze where its coordinates are written
const TOOLS = ["pick", "lantern", "cart"];
// One colour per seat (up to 10 players), for the dot on the cards they laid.
const SEAT_COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4",
  "#42d4f4", "#f032e6", "#9a6324", "#469990", "#000075"];

const cellKey = (x, y) => `${x},${y}`;

/** Where a tunnel leaves the card through edge d, relative to the card's corner. */
function edgePoint(d, w, hgt) {
  return {N: [w / 2, 0], S: [w / 2, hgt], E: [w, hgt / 2], W: [0, hgt / 2]}[d];
}

/**
 * The tunnels of one card: a segment of two or more edges joins them in the
 * middle; a one-edge segment is a dead end, drawn as a stub ending in rock
 * (SAB-CONN-2: it interrupts the path).
 */
function tunnels(segments, w, hgt, colour) {
  const cx = w / 2;
  const cy = hgt / 2;
  const parts = [];
  for (const seg of segments) {
    const dirs = seg.split("");
    if (dirs.length > 1) {
      for (const d of dirs) {
        const [x, y] = edgePoint(d, w, hgt);
        parts.push(s("line", {x1: x, y1: y, x2: cx, y2: cy, stroke: colour, "stroke-width": TUNNEL}));
      }
      parts.push(s("circle", {cx, cy, r: TUNNEL / 2, fill: colour}));
    } else {
      const [x, y] = edgePoint(dirs[0], w, hgt);
      const ex = x + (cx - x) * 0.5;
      const ey = y + (cy - y) * 0.5;
      parts.push(s("line", {x1: x, y1: y, x2: ex, y2: ey, stroke: colour, "stroke-width": TUNNEL}));
      parts.push(s("circle", {cx: ex, cy: ey, r: TUNNEL / 2 + 2, fill: "#6b6259", stroke: "#3a332c"}));
    }
  }
  return parts;
}

/** One face-up card (path, start or a revealed goal) as an SVG group at (px, py). */
function faceUp(card, px, py, tooltip, placerColour) {
  const goal = card.card.startsWith("goal-");
  const treasure = card.shape === "treasure";
  const bg = treasure ? "#f2cf4a" : goal ? "#b9b4ad" : "#d8b98a";
  const parts = [
    s("rect", {x: 0, y: 0, width: W - 2, height: H - 2, rx: 4, fill: bg, stroke: "#7a5c35"}),
    tunnels(card.segments, W - 2, H - 2, "#4a2f17"),
  ];
  if (card.card === "start") parts.push(ladder((W - 2) / 2, (H - 2) / 2));
  if (treasure) parts.push(s("text", {x: (W - 2) / 2, y: (H - 2) / 2 + 5, class: "gold-mark"}, "$"));
  if (placerColour) parts.push(s("circle", {cx: W - 9, cy: 7, r: 4, fill: placerColour, stroke: "#fff"}));
  return s("g", {transform: `translate(${px},${py})`, class: "maze-card"}, s("title", {}, tooltip), parts);
}

function ladder(cx, cy) {
  const rungs = [-8, -2, 4, 10].map((dy) => s("line", {x1: cx - 6, y1: cy + dy, x2: cx + 6, y2: cy + dy}));
  return s("g", {class: "ladder"},
    s("line", {x1: cx - 6, y1: cy - 13, x2: cx - 6, y2: cy + 13}),
    s("line", {x1: cx + 6, y1: cy - 13, x2: cx + 6, y2: cy + 13}), rungs);
}

/** A goal still face down: its back, or its face dimmed when this viewer knows it (a map, or the end). */
function goalCard(name, goal, px, py) {
  const parts = [s("rect", {x: 0, y: 0, width: W - 2, height: H - 2, rx: 4, fill: "#2f3a4a", stroke: "#111"})];
  let tip = `goal ${name}: face down`;
  if (goal.shape) {
    tip += ` (you know it: ${goal.shape})`;
    const bg = goal.shape === "treasure" ? "#f2cf4a" : "#b9b4ad";
    parts.push(s("rect", {x: 5, y: 14, width: W - 12, height: H - 26, rx: 3, fill: bg, opacity: 0.85}));
    parts.push(s("text", {x: (W - 2) / 2, y: H / 2 + 4, class: "goal-known"}, goal.shape === "treasure" ? "$" : "stone"));
  } else {
    parts.push(s("text", {x: (W - 2) / 2, y: H / 2 + 6, class: "goal-back"}, "?"));
  }
  parts.push(s("text", {x: (W - 2) / 2, y: 12, class: "goal-name"}, name));
  return s("g", {transform: `translate(${px},${py})`}, s("title", {}, tip), parts);
}

/** Cells the shown batch touched, outlined so a replay step is easy to follow. */
function touched(batch, goals) {
  const cells = new Set();
  for (const ev of batch) {
    const d = ev.data || {};
    if (typeof d.x === "number" && typeof d.y === "number") cells.add(cellKey(d.x, d.y));
    if (ev.type === "GoalPeeked" && d.goal && goals[d.goal]) cells.add(cellKey(goals[d.goal].x, goals[d.goal].y));
  }
  return cells;
}

/** The maze's extent: every card and goal, plus a free row/column around it where cards may go. */
function bounds(view) {
  const xs = [0];
  const ys = [0];
  for (const k of Object.keys(view.maze)) {
    const [x, y] = k.split(",").map(Number);
    xs.push(x);
    ys.push(y);
  }
  for (const g of Object.values(view.goals)) {
    xs.push(g.x);
    ys.push(g.y);
  }
  return {x0: Math.min(...xs) - 1, x1: Math.max(...xs) + 1, y0: Math.min(...ys) - 1, y1: Math.max(...ys) + 1};
}

function maze(view, ctx) {
  const b = bounds(view);
  const cols = b.x1 - b.x0 + 1;
  const rows = b.y1 - b.y0 + 1;
  const lit = touched(ctx.batch, view.goals);
  const parts = [];
  const at = (x, y) => [(x - b.x0) * W + 1 + AXIS, (y - b.y0) * H + 1 + AXIS];
  // The coordinates the move labels use ("at (3,-1)"): x along the top, y down the left.
  for (let x = b.x0; x <= b.x1; x++) {
    parts.push(s("text", {x: at(x, 0)[0] + (W - 2) / 2, y: AXIS - 5, class: "axis"}, x));
  }
  for (let y = b.y0; y <= b.y1; y++) {
    parts.push(s("text", {x: AXIS / 2, y: at(0, y)[1] + (H - 2) / 2 + 4, class: "axis"}, y));
  }
  for (let y = b.y0; y <= b.y1; y++) {
    for (let x = b.x0; x <= b.x1; x++) {
      const [px, py] = at(x, y);
      parts.push(s("rect", {x: px, y: py, width: W - 2, height: H - 2, rx: 4, class: "slot"}));
    }
  }
  for (const [k, card] of Object.entries(view.maze)) {
    const [x, y] = k.split(",").map(Number);
    const [px, py] = at(x, y);
    const by = card.by === null || card.by === undefined ? null : card.by;
    const tip = `${card.card} (${card.shape}${card.rotated ? ", rotated" : ""}) at ${k}` +
      (by === null ? "" : `, laid by ${seatLabel(ctx.seats, by)}`);
    parts.push(faceUp(card, px, py, tip, by === null ? null : SEAT_COLOURS[by % SEAT_COLOURS.length]));
  }
  for (const [name, goal] of Object.entries(view.goals)) {
    if (view.maze[cellKey(goal.x, goal.y)]) continue; // revealed: it is in the maze now
    const [px, py] = at(goal.x, goal.y);
    parts.push(goalCard(name, goal, px, py));
  }
  for (const k of lit) {
    const [x, y] = k.split(",").map(Number);
    if (x < b.x0 || x > b.x1 || y < b.y0 || y > b.y1) continue;
    const [px, py] = at(x, y);
    parts.push(s("rect", {x: px - 1, y: py - 1, width: W, height: H, rx: 5, class: "lit"}));
  }
  // On top, one transparent card-sized box per cell: what the play layer makes clickable (places()).
  for (let y = b.y0; y <= b.y1; y++) {
    for (let x = b.x0; x <= b.x1; x++) {
      const [px, py] = at(x, y);
      const card = view.maze[cellKey(x, y)];
      parts.push(s("rect", {x: px, y: py, width: W - 2, height: H - 2, rx: 4, class: "hit", "data-place": `cell:${x},${y}`,
        "aria-label": `cell (${x},${y})${card ? `: ${card.card}` : ""}`}));
    }
  }
  goalCells = Object.fromEntries(Object.entries(view.goals).map(([g, goal]) => [g, cellKey(goal.x, goal.y)]));
  const width = cols * W + 2 + AXIS;
  const height = rows * H + 2 + AXIS;
  return s("svg", {class: "maze", width, height, viewBox: `0 0 ${width} ${height}`,
    "aria-label": "the maze"}, parts);
}

let goalCells = {}; // goal name -> "x,y" of the maze drawn last

/** The places a command involves, for the play layer: the hand card, then a cell or a player. */
export function places(command) {
  const card = command.card ? [`card:${command.card}`] : [];
  if ("x" in command) return [...card, `cell:${command.x},${command.y}`];
  if (command.goal) return [...card, `cell:${goalCells[command.goal]}`];
  if ("target" in command) return [...card, `seat:${command.target}`];
  return card;
}

const OPPOSITE = {N: "S", S: "N", E: "W", W: "E"};

/** A path card's segments turned 180 degrees, each edge list kept in N, E, S, W order. */
function turned(segments) {
  return segments.map((seg) => seg.split("").map((d) => OPPOSITE[d]).sort((a, b) => "NESW".indexOf(a) - "NESW".indexOf(b)).join(""));
}

/**
 * What a path play lays, as a key for the play layer: the card's segments as they would lie, and
 * the cell. Two copies of one card (P24, P26) lay alike, and so does a card that reads the same
 * turned (a cross, a straight) upright or rotated: the move list offers each lie once per cell
 * (every command stays legal).
 */
export function alike(command, view) {
  const laid = laidCard(command, view);
  return laid && `${[...laid.segments].sort().join("|")}@${command.x},${command.y}`;
}

/** The hand card a path play lays, with its segments as it would lie (upright or rotated); else null. */
function laidCard(command, view) {
  if (command.type !== "play_path" || !view || !view.you) return null;
  const card = view.you.hand.find((c) => c.card === command.card);
  if (!card || !card.segments) return null;
  return command.rotated ? {...card, segments: turned(card.segments)} : card;
}

/**
 * A small drawing of what a command lays, for the play layer's move list: a path card of the hand
 * as it would lie (upright or rotated), so "at (3,-1)" and "at (3,-1) rotated" are told apart by eye.
 */
export function figure(command, view) {
  const laid = laidCard(command, view);
  if (!laid) return null;
  const open = [..."NESW"].filter((d) => laid.segments.some((seg) => seg.includes(d))).join(", ");
  return s("svg", {class: "move-card", width: W * 0.6, height: H * 0.6, viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true"},
    faceUp(laid, 1, 1, `${laid.card}${command.rotated ? " rotated" : ""}: open ${open}`, null));
}

function toolChips(broken) {
  return h("span", {class: "tools"}, TOOLS.map((tool) => {
    const hit = broken[tool];
    return h("span", {class: `chip ${hit ? "broken" : "ok"}`, title: hit ? `broken with ${hit.card}` : `${tool} intact`}, tool);
  }));
}

/** "1 nugget", "5 nuggets". */
function nuggets(n) {
  return `${n} nugget${n === 1 ? "" : "s"}`;
}

/** Gold by round, in words: "5 nuggets: round 1: 1; round 2: 3 + 1" (rounds without gold left out). */
function goldWords(gold) {
  const total = gold.flat().reduce((a, b) => a + b, 0);
  const rounds = gold.map((cards, i) => (cards.length ? `round ${i + 1}: ${cards.join(" + ")}` : null)).filter(Boolean);
  return rounds.length ? `${nuggets(total)}: ${rounds.join("; ")}` : nuggets(total);
}

function goldCell(player) {
  return player.gold ? goldWords(player.gold) : String(player.gold_cards);
}

function players(view, ctx) {
  const rows = view.players.map((p) => {
    const turn = view.turn === p.seat;
    return h("tr", {class: turn ? "turn" : "", "data-place": `seat:${p.seat}`, "aria-label": `player ${seatLabel(ctx.seats, p.seat)}`},
      h("td", {class: "n"}, p.seat),
      h("td", {}, h("span", {class: "dot", style: `background:${SEAT_COLOURS[p.seat % SEAT_COLOURS.length]}`}),
        seatLabel(ctx.seats, p.seat), turn ? " ◀" : ""),
      h("td", {}, p.role || "?"),
      h("td", {class: "n"}, p.hand_count),
      view.omniscient ? h("td", {}, h("div", {class: "hand-row"}, p.hand.map((card) => handCard(card, 0.5)))) : null,
      h("td", {}, toolChips(p.broken_tools)),
      h("td", {}, goldCell(p)));
  });
  const headers = ["seat", "player", "role", "hand", view.omniscient ? "cards" : null, "tools", view.phase === "over" ? "gold" : "gold cards"];
  return table(headers.filter(Boolean), rows);
}

/** An action card's face in words; `short` (tool initials) fits the half-size cards of a table. */
function actionLabel(card, short = false) {
  const tools = short ? card.tools?.map((t) => t[0].toUpperCase()).join("/") : card.tools?.join(" / ");
  if (card.kind === "break") return short ? `✗ ${tools}` : `break ${tools}`;
  if (card.kind === "repair") return short ? `✓ ${tools}` : `repair ${tools}`;
  return short && card.kind === "rockfall" ? "rock" : card.kind;
}

/** A card of a hand: a small path card, or a labelled action card; `scale` shrinks it for tables. */
function handCard(card, scale = 1) {
  if (card.kind === "path") {
    return s("svg", {class: "hand-card", width: W * scale, height: H * scale, viewBox: `0 0 ${W} ${H}`},
      faceUp(card, 1, 1, `${card.card} (${card.shape})`, null));
  }
  const tip = `${card.card}: ${actionLabel(card)}`;
  return h("span", {class: `action-card ${card.kind}${scale < 1 ? " small" : ""}`, title: tip}, actionLabel(card, scale < 1));
}

/**
 * After the end the replay endpoint adds the full state: show every role,
 * hand and goal of that moment, which is what settles a dispute. Hands are
 * card ids there, resolved through the catalog.
 */
function reveal(view, state, content) {
  if (!state) return view;
  const cards = Object.fromEntries((content?.cards || []).map((c) => [c.card, c]));
  const goals = Object.fromEntries(Object.entries(view.goals).map(([g, goal]) =>
    [g, {...goal, shape: state.goals?.[g]?.shape ?? goal.shape}]));
  const players = view.players.map((p) => ({
    ...p,
    role: state.roles?.[p.seat] ?? p.role,
    hand: (state.hands?.[p.seat] || []).map((id) => cards[id] || {card: id, kind: "?"}),
  }));
  return {...view, goals, players, omniscient: true};
}

function you(view, ctx) {
  const me = view.you;
  const peeks = Object.entries(me.peeks || {}).map(([g, shape]) => `${g}: ${shape}`).join(", ");
  return section(`Your seat — ${seatLabel(ctx.seats, me.seat)}, ${me.role || "no role yet"}`,
    h("div", {class: "hand"}, me.hand.length ? me.hand.map((card) => h("span", {class: "hand-slot", "data-place": `card:${card.card}`,
      "aria-label": `card ${card.card} (${card.kind === "path" ? card.shape : actionLabel(card)})`}, handCard(card)))
      : h("span", {class: "muted"}, "no cards in hand")),
    blocked(view, me),
    h("p", {class: "muted"},
      peeks ? `Goals you have seen: ${peeks}. ` : "",
      me.gold.flat().length ? `Your gold: ${goldWords(me.gold)}.` : ""));
}

/** Why no path card of the hand is offered: a broken tool in front of you blocks every path card until it
 * is repaired (SAB-TOOL-4), which the move list alone left to guess (only passes and actions in it). */
function blocked(view, me) {
  const mine = (view.players || []).find((p) => p.seat === me.seat);
  const broken = TOOLS.filter((tool) => mine && mine.broken_tools && mine.broken_tools[tool]);
  if (!broken.length || view.phase === "over") return null;
  const what = broken.length > 1 ? `${broken.slice(0, -1).join(", ")} and ${broken[broken.length - 1]} are` : `${broken[0]} is`;
  return h("p", {class: "blocked", id: "tools-blocked"}, `Your ${what} broken: you may not lay a path card until `,
    broken.length > 1 ? "every one is repaired" : "it is repaired", " (a repair card of that tool, yours or another player's). ",
    "Action cards and passing stay open (", h("a", {href: "/rules/saboteur#SAB-TOOL-4", target: "_blank", rel: "noopener"}, "SAB-TOOL-4"), ").");
}

function status(view, ctx) {
  const bits = [`Round ${view.round} of ${view.rounds}`, ctx.over ? "game over" : `phase: ${view.phase}`];
  if (!ctx.over && view.turn !== null && view.turn !== undefined) bits.push(`turn: ${seatLabel(ctx.seats, view.turn)}`);
  bits.push(`deck ${view.deck_count}`, `discard ${view.discard_count}`);
  if (view.gold_choice) {
    const g = view.gold_choice;
    bits.push(`gold: ${seatLabel(ctx.seats, g.seat)} chooses (${g.kind}${g.bundle_count ? `, ${g.bundle_count} cards` : ""})`);
  }
  if (view.treasure_goal) bits.push(`the treasure was under ${view.treasure_goal}`);
  return h("p", {class: "status-line"}, bits.join(" · "));
}

function history(view, ctx) {
  if (!view.history.length) return null;
  // The roles are revealed when the round ends (SAB-OVW-1): who was the saboteur says why the round went as it did.
  const saboteurs = (r) => !r.roles ? "—"
    : r.roles.map((role, seat) => (role === "saboteur" ? seatLabel(ctx.seats, seat) : null)).filter(Boolean).join(", ")
      || "none (the saboteur card was left aside)";
  return section("Rounds played", table(["round", "winner", "how", "finder", "saboteurs"], view.history.map((r) => [
    r.round, r.winner, r.reason.replace(/_/g, " "), r.finder === null ? "—" : seatLabel(ctx.seats, r.finder), saboteurs(r)])));
}

export function renderSaboteur(el, shown, ctx) {
  const view = reveal(shown, ctx.state, ctx.content);
  clear(el,
    status(view, ctx),
    view.omniscient ? h("p", {class: "muted"}, "The game has ended: every role, hand and goal of this moment is shown.") : null,
    h("div", {class: "maze-wrap"}, maze(view, ctx)),
    h("details", {class: "legend", id: "legend"}, h("summary", {}, "Legend"),
      h("p", {}, "Ladder: the start card. Dark card with ?: a goal, face down (dimmed face: you know it). $: the treasure. ",
        "A tunnel ending in a grey knob is a dead end. The dot on a card: who laid it (the player's colour below). ",
        "Red outline: touched by the shown step. ",
        "The numbers along the top and the left: each cell's x and y, as the moves name it (\"at (x,y)\").")),
    view.you ? you(view, ctx) : null,
    section("Players", players(view, ctx)),
    history(view, ctx));
}

/** Why the game ended by its rules, in words, for the viewer's header (null: not by them). */
export function ended(view) {
  return view.phase === "over" ? `after round ${view.rounds}, the most gold` : null;
}

/** The viewer loads this module by the game's catalog ``renderer`` name and calls ``render``. */
export const render = renderSaboteur;

/** The scores panel's line while playing: gold cards stay face down until the end (SAB-GOLD-10). */
export const liveScores = "Gold cards stay face down until the end (SAB-GOLD-10): these live scores are zeros, " +
  "not the gold anyone holds; the players table counts each player's gold cards.";

/** What the table does by the rules (a turn passing on, a round dealt, ended and paid out), though a
 * seat's move led to it: the Events panel credits these to the table, not to that seat. */
const TABLE_EVENTS = new Set(["TurnStarted", "RoundStarted", "RoundEnded", "RolesRevealed", "RoleDealt", "RoleSetAside",
  "HandDealt", "DeckShuffled", "GoalsShuffled", "GoalRevealed", "GoldBundleDrawn", "GoldBundlePassed", "GoldPayoutDue",
  "GoldPaid", "GoldRevealed"]);

/** Who an event is credited to in the Events panel: the table (null), the seat that keeps gold, else the viewer's default. */
export function eventActor(ev, ctx) {
  if (TABLE_EVENTS.has(ev.type) || (ev.type === "TurnPassed" && ev.data?.auto)) return null;
  if (ev.type === "GoldKept" && Number.isInteger(ev.data?.seat)) return seatLabel(ctx.seats, ev.data.seat);
  return undefined;
}

/** A move's label as the page shows it: the API's labels name a seat by number ("Break seat 3's pick
 * (A03)"), the page by its player's name, as everywhere else on it ("Break Bob's pick (A03)"); a
 * name two seats share keeps the number, so no two moves read alike. */
export function relabel(label, command, ctx) {
  const seats = ctx.seats || [];
  return label.replace(/\bseat (\d+)'s\b/g, (said, seat) => {
    const found = seats.find((x) => x.seat === Number(seat));
    const unique = found && found.name && seats.filter((x) => x.name === found.name).length === 1;
    return unique ? `${found.name}'s` : said;
  });
}

/** The new-game form's words for the options (create.js): a label per option, words per choice. */
export const optionWords = {
  first_player: {label: "seat that starts round 1"},
  require_connection_to_start: {label: "every path must connect to the start"},
  gold_cards_for_miners: {label: "gold cards drawn when the miners win", values: {players: "one per player", miners: "one per miner"}},
  gold_choice: {label: "gold cards picked by", values: {players: "the players", auto: "the game, by its default rule"}},
  auto_pass_empty_hand: {label: "an empty hand passes by itself"},
};
