// La Guerra de Indagar: the hex board as the viewing seat may see it (face-down
// tiles stay "?", the seat's own explored tiles in italics), outposts, heroes and
// monsters on it; then the players' reserves and heroes, the monsters, and the
// attack being resolved with its dice.
import {clear, h, s, section, seatLabel, table} from "./dom.js";
import {heroCards, strategyBoards} from "./indagar-cards.js";

const R = 30; // hex radius, px
const W = Math.sqrt(3) * R;
const TILE_COLOURS = {
  gold: "#e0b53a", wood: "#4e8a3e", ore: "#8a8f99", meadow: "#a9d18e", mud: "#8d6e4c", mountains: "#5b4a3f",
  source: "#b388ff", poison_swamp: "#6b7f3a", arcane_mist: "#9fa8da", mountain_fortress: "#a1887f",
  mystic_clearing: "#80cbc4", maelstrom: "#4fc3f7", ancient_portal: "#ce93d8",
};
/** A tile type's name (IND-EVT-1..14), for the hex's tooltip, the legend and the move labels' spelling. */
const TILE_NAMES = {gold: "Gold", wood: "Wood", ore: "Ore", meadow: "Meadow", mud: "Mud", mountains: "Mountains",
  source: "Source of Power", poison_swamp: "Poison Swamp", ancient_portal: "Unearthed Ancient Portal",
  arcane_mist: "Arcane Mist", weapons_cache: "Weapons Cache", abandoned_outposts: "Abandoned Outposts",
  armour_cache: "Armour Cache", kakonositel: "Kakonositel, Bringer of Evil", spirit_cache: "Spirit Cache",
  local_traitors: "Local Traitors", groxiah: "Groxiah, Unspeakable Horror", mountain_fortress: "Mountain Fortress",
  mystic_clearing: "Mystic Clearing", kelfeerazen: "Kelfeerazen, the Corruptor", maelstrom: "Maelstrom"};
/** The word printed on a hex: short enough to fit inside it (the tooltip and the legend give the full name). */
const SHORT = {mountain_fortress: "fortress", mystic_clearing: "clearing", poison_swamp: "swamp", arcane_mist: "mist",
  ancient_portal: "portal", weapons_cache: "weapons", armour_cache: "armour", spirit_cache: "spirits",
  abandoned_outposts: "old outpost", local_traitors: "traitors", kakonositel: "Kakonositel", groxiah: "Groxiah",
  kelfeerazen: "Kelfeerazen", source: "Source"};
// A hex's type word sits above its figure, where a pointy-top hex narrows: at most WORD_WIDTH across
// (a longer word is squeezed to it), the figure a little below the centre, the tile's id at the bottom.
const WORD_FITS = 8; // characters that fit in WORD_WIDTH at the word's type size
const WORD_WIDTH = 36;
const FIG_DY = R * 0.13;

/** A tile type in words: its name ("Weapons Cache"), never its id ("weapons_cache"). */
export function tileName(kind) {
  return TILE_NAMES[kind] || kind.replace(/_/g, " ");
}

/** The word a hex shows for its type ("weapons"), squeezed into the hex when long. */
function tileWord(kind) {
  return SHORT[kind] || kind.replace(/_/g, " ");
}
const FACTION_COLOURS = {arkland: "#7b3fa0", forest: "#2e7d32", ramal: "#c62828", sect: "#222"};

/** Tile id "r4c2" -> centre on the odd-r offset layout (odd rows half a tile right). */
function centre(tile) {
  const [, r, c] = tile.match(/^r(\d+)c(\d+)$/).map(Number);
  return [W * (c + (r % 2 ? 0.5 : 0)) + W / 2 + 2, 1.5 * R * r + R + 2];
}

function hexPoints([x, y], r = R) {
  return [...Array(6).keys()].map((i) => {
    const a = (Math.PI / 180) * (60 * i - 30);
    return `${(x + r * Math.cos(a)).toFixed(1)},${(y + r * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

// The outline of a tile the shown step touched: the red the other boards use (web.css --lit), never the
// yellow of a place one may click now (.hit.target), which it was, so the two could not be told apart.
const TOUCHED = "#ff2d55";

/** Tiles the shown batch named (moved to, revealed, attacked), outlined on the board. */
function touched(batch) {
  const out = new Set();
  for (const ev of batch) {
    const d = ev.data || {};
    for (const key of ["tile", "to", "frm", "hero_to", "other_to"]) if (typeof d[key] === "string") out.add(d[key]);
    for (const t of d.path || []) out.add(t);
  }
  return out;
}

function factionOf(view, seat) {
  return view.seats[seat]?.faction;
}

function board(view, ctx) {
  const tiles = Object.keys(view.tiles);
  const xs = tiles.map((t) => centre(t)[0]);
  const ys = tiles.map((t) => centre(t)[1]);
  const hot = touched(ctx.batch);
  const parts = [];
  for (const t of tiles) {
    const kind = view.tiles[t].type;
    const known = view.known?.[t];
    const sealed = (view.sealed || []).includes(t);
    const fill = kind ? TILE_COLOURS[kind] || "#c5c5c5" : "#3a3a3a";
    const label = kind ? `${t}: ${tileName(kind)}${view.tiles[t].destroyed ? " (destroyed)" : ""}`
      : sealed ? `${t}: a monster home, never revealed` : known ? `${t}: face down; you explored ${tileName(known)}` : `${t}: face down`;
    parts.push(s("polygon", {points: hexPoints(centre(t)), fill, stroke: hot.has(t) ? TOUCHED : "#111",
      "stroke-width": hot.has(t) ? 2.5 : 0.8,
      class: `ind-tile${kind ? "" : " fog"}${view.tiles[t].destroyed ? " destroyed" : ""}${hot.has(t) ? " touched" : ""}`}, s("title", {}, label)));
    const [x, y] = centre(t);
    if (!kind) parts.push(fitted(known ? tileWord(known) : "?", {x, y: y + 4, class: "ind-fog", "font-style": known ? "italic" : null}));
    if (kind === "source") parts.push(s("text", {x, y: y + 4, class: "ind-label"}, `✦${view.source || ""}`));
    else if (kind) parts.push(fitted(tileWord(kind), {x, y: y - R * 0.42, class: "ind-kind"}));
    parts.push(s("text", {x, y: y + R * 0.78, class: `ind-id${kind ? "" : " on-fog"}`}, t)); // as move labels name it
  }
  for (const [t, o] of Object.entries(view.outposts)) {
    const [x, y] = centre(t);
    parts.push(s("polygon", {points: hexPoints([x, y], R * 0.8), fill: "none", stroke: FACTION_COLOURS[factionOf(view, o.owner)],
      "stroke-width": 2 + o.level, class: "ind-outpost"}, s("title", {}, `outpost level ${o.level} of ${seatLabel(ctx.seats, o.owner)}`)));
  }
  for (const [id, hero] of Object.entries(view.heroes)) {
    if (!hero.tile) continue;
    const [x, y] = centre(hero.tile);
    parts.push(s("circle", {cx: x, cy: y + FIG_DY, r: R * 0.44, fill: FACTION_COLOURS[factionOf(view, hero.owner)], stroke: "#fff",
      class: "ind-hero"},
      s("title", {}, `${ctx.content?.heroes?.[id]?.name || id}: damage ${hero.damage}, level ${hero.bonuses.length}, ${hero.xp} XP`)));
    parts.push(s("text", {x, y: y + FIG_DY + 4, class: "ind-figure"}, id.slice(0, 2)));
  }
  for (const [id, m] of Object.entries(view.monsters)) {
    if (!m.tile) continue;
    const [x, y] = centre(m.tile);
    const cy = y + FIG_DY;
    parts.push(s("rect", {x: x - R * 0.33, y: cy - R * 0.33, width: R * 0.66, height: R * 0.66, fill: "#b71c1c",
      transform: `rotate(45 ${x} ${cy})`, class: "ind-monster"}, s("title", {}, `${monsterName(ctx, id)}: damage ${m.damage}`)));
    parts.push(s("text", {x, y: cy + 4, class: "ind-figure"}, id.slice(0, 2)));
  }
  // On top, one transparent hex per tile: what the play layer makes clickable (places()).
  for (const t of tiles) {
    const kind = view.tiles[t].type;
    parts.push(s("polygon", {points: hexPoints(centre(t), R - 1), class: "hit", "data-place": `tile:${t}`,
      "aria-label": `tile ${t}${kind ? ` (${tileName(kind)})` : ""}`}));
  }
  // Drawn at R = 30 and scaled by the page to the room it has (web.css): never below that size, as
  // wide as the column allows, as tall as the window.
  const width = Math.ceil(Math.max(...xs) + W);
  const height = Math.ceil(Math.max(...ys) + R + 4);
  return s("svg", {width, height, viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "xMinYMin meet",
    class: "ind-board", style: `min-width:${width}px;min-height:${height}px;max-width:${(width * 2.4).toFixed(0)}px`}, parts);
}

/** A word inside a hex, squeezed to the hex's width when it is long ("Kelfeerazen"), never spilling into the next. */
function fitted(word, attrs) {
  const long = word.length > WORD_FITS;
  return s("text", {...attrs, textLength: long ? WORD_WIDTH : null, lengthAdjust: long ? "spacingAndGlyphs" : null}, word);
}

/** What the board's colours and marks mean. */
function legend(view) {
  const kinds = [...new Set(Object.values(view.tiles).map((t) => t.type).filter(Boolean))].sort();
  const swatch = (fill, text) => h("span", {class: "legend-item"}, h("span", {class: "swatch", style: `background:${fill}`}), text);
  return h("details", {class: "legend", id: "legend"}, h("summary", {}, "Legend"),
    h("p", {}, kinds.map((k) => swatch(TILE_COLOURS[k] || "#c5c5c5", tileName(k))),
      swatch("#3a3a3a", "face down (?; in italics: you explored it)")),
    h("p", {}, Object.entries(FACTION_COLOURS).map(([f, c]) => swatch(c, `${f} (hero: circle, outpost: hex ring, thicker = higher level)`)),
      swatch("#b71c1c", "monster (diamond)"), " ✦n: spirits on the Source of Power; red outline: touched by the shown step; yellow outline: a place you may click now"));
}

/** The board places a command involves, for the play layer: a tile or a hero. */
export function places(command) {
  const tile = command.to || command.tile;
  if (tile) return [`tile:${tile}`];
  if (command.type === "activate" || command.type === "choose_hero") return [`hero:${command.hero}`];
  return [];
}

/** The PP track: a box per point up to the winning threshold (or beyond, if a seat passed it), each seat's marker on its PP. */
function scoreTrack(view, ctx) {
  const B = 24;
  const pp = view.seats.map((_, seat) => view.pp[seat]);
  const top = Math.max(view.threshold, ...pp);
  const parts = [];
  for (let i = 0; i <= top; i++) {
    parts.push(s("rect", {x: i * B + 1, y: 1, width: B - 2, height: B - 2, rx: 3,
      class: `ind-track-box${i === view.threshold ? " goal" : ""}`}, s("title", {}, i === view.threshold ? `${i} PP wins` : `${i} PP`)));
    parts.push(s("text", {x: i * B + B / 2, y: B / 2 + 4, class: "ind-track-n"}, i));
  }
  view.seats.forEach((p, seat) => {
    const below = pp.slice(0, seat).filter((x) => x === pp[seat]).length; // markers already on that box
    parts.push(s("circle", {cx: pp[seat] * B + B / 2, cy: B + 8 + below * 12, r: 5, fill: FACTION_COLOURS[p.faction],
      stroke: "#fff", class: "ind-track-marker"}, s("title", {}, `${seatLabel(ctx.seats, seat)}: ${pp[seat]} PP`)));
  });
  const width = (top + 1) * B + 2;
  const height = B + 14 + view.seats.length * 12;
  return section("Power points", s("svg", {class: "ind-track", width, height, viewBox: `0 0 ${width} ${height}`}, parts));
}

function players(view, ctx) {
  return table(["seat", "faction", "PP", "gold", "wood", "ore", "spirits", "tree in play", "heroes"],
    view.seats.map((p, seat) => [seatLabel(ctx.seats, seat), p.faction, view.pp[seat], p.res.gold, p.res.wood, p.res.ore,
      p.spirits, p.tree || "—", p.heroes.map((id) => {
        const x = view.heroes[id];
        const name = ctx.content?.heroes?.[id]?.name || id;
        return h("span", {class: "hero-chip", "data-place": `hero:${id}`, "aria-label": `hero ${name}`},
          `${name}${p.commander === id ? " ★" : ""} ${x.tile || "retreat"} ${x.damage}dmg L${x.bonuses.length}`);
      })]));
}

/** A monster's name from the catalog ("Oryana the Enchantress"), else its id. */
function monsterName(ctx, id) {
  const card = ctx.content?.monsters?.[id] || ctx.content?.event_monsters?.[id];
  return card ? card.name : id.replace(/-/g, " ");
}

/** Who takes the turn ("seat:0", "monster-oryana", "event-groxiah"), by name. */
function turnName(view, ctx, who) {
  const seat = who.match(/^seat:(\d+)$/);
  if (seat) return seatLabel(ctx.seats, Number(seat[1]));
  const [kind, id] = who.split(/-(.*)/s);
  return kind === "event" ? `event monster ${monsterName(ctx, id)}` : kind === "monster" ? monsterName(ctx, id) : who;
}

/** Off the board (IND-MRET-2): grey side up, it sits out the next round too; coloured, it is back next round. */
const RETREAT = {grey: "in retreat: back the round after next", colour: "in retreat: back next round",
                 gone: "out of the game (an event monster never returns, IND-MRET-4)"};

/** A primary monster's progress toward its victory (IND-WIN-7): "spirits held 5 of 7"; an event monster has none. */
function victory(ctx, id, m) {
  const goal = ctx.content?.monsters?.[id]?.victory;
  if (!goal) return "—";
  return Object.entries(goal).map(([what, need]) => `${what.replace(/_/g, " ")} ${m.counts?.[what] || 0} of ${need}`).join(", ");
}

function monsters(view, ctx) {
  return table(["monster", "where", "damage", "turns this round", "toward its victory"],
    Object.entries(view.monsters).map(([id, m]) => [monsterName(ctx, id),
      m.tile || RETREAT[m.retreat] || `in retreat${m.retreat ? ` (${m.retreat})` : ""}`, m.damage, m.turns, victory(ctx, id, m)]));
}

/** An actor ("monster-oryana", "event-groxiah") by name, for the viewer's header, moves and events. */
export function actorName(actor, ctx) {
  const [kind, id] = actor.split(/-(.*)/s);
  return kind === "monster" || kind === "event" ? monsterName(ctx, id) : null;
}

/** Events of a monster's doing, its id in ``monster``: the Events panel credits them to it. */
const MONSTER_EVENTS = new Set(["MonsterActed", "MonsterMoved", "MonsterHealed", "MonsterIdle", "TileDestroyed", "SpiritsGathered"]);
/** What the game does by its rules (turns and rounds passing, windows and decisions opened, dice,
 * damage landing, retreats, production): the table's, whoever's move led to it. */
const TABLE_EVENTS = new Set(["TurnBegan", "RoundBegan", "RoundEnding", "HeroesReadied", "MonstersRecovered",
  "OutpostsProduced", "InitiativePassed", "InitiativeTaken", "ResponseWindowsOpened", "DecisionAsked", "WindowOpened",
  "AttackStage", "AttackEnded", "AttackRetreat", "DamageDealt", "HeroDamaged", "MonsterDamaged", "OutpostDamaged",
  "MonsterRedeployed", "MonsterRetreated", "MonsterFlipped", "SpiritPlaced", "PrimacyGained", "GameEnded", "DiceRolled",
  "XpGained", "OutpostDowngraded", "EventMonsterAppeared", "EventMonsterSkipped", "MountainSwapped", "TraitorsRevealed"]);

/**
 * Who an event is credited to in the Events panel: the monster that moved, attacked or destroyed (a
 * monster's pick by the last player lands in that player's batch), the seat or monster that
 * retreated a hero or destroyed an outpost, the table (null) for what the rules do, else the
 * viewer's default (the seat whose command it is).
 */
export function eventActor(ev, ctx) {
  const d = ev.data || {};
  if (ev.type === "AttackBegan") return d.attacker && d.attacker[0] === "monster" ? monsterName(ctx, d.attacker[1]) : undefined;
  if (ev.type === "TurnEnded" && typeof d.who === "string") return turnName(null, ctx, d.who);
  if ((ev.type === "OutpostDestroyed" || ev.type === "HeroRetreated") && (d.by_monster || Number.isInteger(d.by_seat))) {
    return d.by_monster ? monsterName(ctx, d.by_monster) : seatLabel(ctx.seats, d.by_seat);
  }
  if (MONSTER_EVENTS.has(ev.type) && d.monster) return monsterName(ctx, d.monster);
  return TABLE_EVENTS.has(ev.type) ? null : undefined;
}

/**
 * Why the game ended by its rules (the view's ``result``: reason and winner), in words, for the
 * viewer's header: a tie at the top says the tie-break decided it (IND-WIN-4, IND-WIN-6).
 */
export function ended(view, ctx) {
  const result = view.result;
  if (!result) return null;
  const seat = result.winner && result.winner.match(/^seat:(\d+)$/);
  const winner = seat ? Number(seat[1]) : null;
  const tiedWith = (atLeast) => winner === null ? [] : view.seats.map((_, p) => p)
    .filter((p) => p !== winner && view.pp[p] >= atLeast && (atLeast === view.threshold || view.pp[p] === view.pp[winner]));
  const tie = (others, how) => others.length ? `; ${others.map((p) => seatLabel(ctx.seats, p)).join(", ")} ${how}, ` +
    "decided by the tie-break (earliest in the play order, IND-WIN-4)" : "";
  if (result.reason === "monster_victory") {
    const id = (result.winner || "").replace(/^monster-/, "");
    return `${monsterName(ctx, id)} met its victory condition (${victory(ctx, id, view.monsters[id] || {})}, IND-WIN-7)`;
  }
  if (result.reason === "primacy") {
    return `${seatLabel(ctx.seats, winner)} reached ${view.threshold} power points${tie(tiedWith(view.threshold), "did too")}`;
  }
  if (result.reason === "round_limit") {
    if (winner === null) return "round 10 ended without a winner (IND-WIN-6)";
    return `after round 10, the most power points: ${view.pp[winner]} (IND-WIN-6)${tie(tiedWith(view.pp[winner]), "had as many")}`;
  }
  return result.reason.replace(/_/g, " ");
}

/** A figure of an attack (["hero", "elowen"], ["monster", "tijian"]) by name. */
function figureName(ctx, [kind, id]) {
  if (kind === "hero") return ctx.content?.heroes?.[id]?.name || id;
  return kind === "monster" ? monsterName(ctx, id) : id;
}

/** The attack being resolved, in words: "Tijian the Scoundrel attacks Mother Elowen at r1c3", then its
 * dice and the damage modifiers so far (IND-ATK-5). */
export function attackText(a, ctx) {
  const sum = (dice) => dice.reduce((x, y) => x + y, 0);
  const figure = a.defender && a.defender[1] ? figureName(ctx, a.defender) : null;
  const target = figure ? `${figure}${a.outpost ? " and the outpost" : ""} at ${a.tile}` : `the outpost at ${a.tile}`;
  const rolled = (dice) => (dice.length ? `${dice.join(" ")} = ${sum(dice)}` : "not rolled yet");
  return `${figureName(ctx, a.attacker)}${a.breakthrough ? " breaks through and" : ""} attacks ${target}: ` +
    `attack dice ${rolled(a.adice)}, defence dice ${rolled(a.ddice)}; at least ${a.min} damage, ${a.extra} additional, ` +
    `${a.ignore} ignored.`;
}

function attack(view, ctx) {
  return view.attack ? section("Attack", h("p", {class: "ind-attack"}, attackText(view.attack, ctx))) : null;
}

/** The last player: last in this round's play order, which starts with the initiative (IND-MTGT-4). */
function lastPlayer(view, ctx) {
  const n = view.seats.length;
  return seatLabel(ctx.seats, (view.initiative + n - 1) % n);
}

/** What a pending decision asks of its seat, for the status line (the move list gives the choices). */
const ASKS = {
  declare: "declare this round's strategy tree, and maybe unlock one of its abilities (IND-ROUND-7)",
  redeploy: "bring a retreated hero back onto a free deployment tile (IND-RET-6)",
  monster_target: "pick which of the monster's equally near targets it goes for, as the last player",
  monster_opportunity: "pick which adjacent figure the monster attacks, as the last player",
  maelstrom: "pick the tile a hero leaving the Maelstrom moves to, as the last player (IND-EVT-14)",
  cache: "pick which hero takes the cache (IND-EVT-4)",
  outpost: "decide what becomes of the outpost: capture, destroy or leave it",
  level_bonus: "pick the hero's level-up token: sword or shield",
  charge_through: "decide whether the hero charges through into the tile it cleared (IND-FB-4)",
  fall_back: "pick where the beaten figure falls back",
  explore: "reveal the tile explored, or put it back face down",
  window: "use abilities or spirits in the attack, or pass to close the window (let the dice stand)",
  respond: "use an always-available ability or spirits now, or pass",
};

/** What the seat to act is waiting on, in words; "the last player" said who that is and why it decides. */
function asked(view, ctx, waiting) {
  const what = ASKS[waiting.kind] ? `, to ${ASKS[waiting.kind]}` : ` (${waiting.kind.replace(/_/g, " ")})`;
  return what.replace("as the last player", `as the last player (${lastPlayer(view, ctx)}: last in this round's play order)`);
}

export function renderIndagar(el, view, ctx) {
  if (!view.seats) return clear(el, h("p", {class: "muted"}, "The table is not set yet."));
  const waiting = ctx.over ? null : view.pending?.[0];
  clear(el,
    h("p", {class: "ind-status"}, `Round ${view.round} of 10 · monster level ${view.monster_level} · initiative: ${seatLabel(ctx.seats, view.initiative)}`,
      ` · win at ${view.threshold} PP`,
      ctx.over ? " · game over" : waiting ? ` · waiting: ${seatLabel(ctx.seats, waiting.seat)}${asked(view, ctx, waiting)}`
        : view.turn ? ` · turn: ${turnName(view, ctx, view.turn.who)}` : ""),
    // The board takes the room the column has; the attack, the power points and the legend sit beside it.
    h("div", {class: "ind-top"},
      h("div", {class: "board-wrap ind-board-wrap"}, board(view, ctx)),
      h("div", {class: "ind-aside"}, attack(view, ctx), scoreTrack(view, ctx), legend(view))),
    section("Players", players(view, ctx)),
    section("Monsters", monsters(view, ctx)),
    heroCards(view, ctx),
    strategyBoards(view, ctx));
}

/** The viewer loads this module by the game's catalog ``renderer`` name and calls ``render``. */
export const render = renderIndagar;

/** The labels' jargon, explained where the page shows them (the play panel, the Moves list). */
const EXPLAINED = [
  [/\bthe last player\b(?! \()/g, "the last player (last in the round's play order)"],
  [/^Pass: close the window$/, "Pass: close the window (use no more abilities or spirits now)"],
];

/** A move's label as the page shows it: the API's, with its jargon explained (see EXPLAINED). */
export function relabel(label) {
  return EXPLAINED.reduce((said, [word, meant]) => said.replace(word, meant), label);
}

/** The new-game form's words for the options (create.js): a label per option, words per choice. */
export const optionWords = {
  first_game: {label: "first game: win at 7 power points"},
  solo_easy: {label: "solo, easy: 3 monsters"},
  monster_start: {label: "monsters start acting", values: {skipFirstPass: "once every player has activated a hero",
    skipRound1: "from round 2", none: "at once"}},
  uniform_endurance_threshold: {label: "monsters retreat at damage ≥ endurance, like heroes"},
  fallback_retreat_counts: {label: "a hero with nowhere to fall back retreats, caused by the attack"},
  cache_tokens_survive_retreat: {label: "cache tokens stay on a retreating hero"},
  one_in_a_million: {label: "a starting area sealed by mountains", values: {swap: "swap the last mountain away",
    restart: "end the game without a result"}},
  spirit_windows: {label: "spirits offered outside your turn", values: {decisive: "in your fights, before damage, at round end",
    every_turn: "also at the start of every turn"}},
  dice_faces: {label: "faces of every die"},
};
