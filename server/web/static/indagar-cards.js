// La Guerra de Indagar: the hero cards and strategy boards in words, from the catalog's
// content (the cards' effect vocabulary), so a player reads what each ability does, what it
// costs and when it may be used without a rules sheet beside the board.
import {h, section, seatLabel, table} from "./dom.js";

const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const dice = (n, kind) => count(n, `more ${kind} die`, `more ${kind} dice`);
const resources = (res) => Object.entries(res).map(([r, n]) => `${n} ${r}`).join(" and ");

/** One phrase per effect key of abilities.yaml and strategy.yaml (IND-ABL, IND-STR-8). */
const EFFECTS = {
  attack_dice: (n) => `roll ${dice(n, "attack")}`,
  min_damage: (n) => `the defender takes at least ${n} damage`,
  extra_damage: (n) => `${n} additional damage on a hit`,
  reroll: () => "reroll all the attack dice",
  defence_dice: (n) => `the defending hero rolls ${dice(n, "defence")}`,
  ally_defence: (n) => `an adjacent friendly hero that is defending rolls ${dice(n, "defence")}`,
  ignore_damage: (n) => `ignore ${n} damage`,
  heal: (n) => `the hero heals ${n} damage`,
  extra_move: (n) => `the hero may move ${count(n, "more tile", "more tiles")}`,
  gain: (res) => `gain ${resources(res)}`,
  defence_bonus: (n) => `the hero rolls ${dice(n, "defence")} whenever it defends`,
  storm: (n) => `${n} damage to every hero and monster not on a resource tile`,
};

/** A tree's power, for the whole round it is in play (IND-STR-3). */
const POWERS = {
  attack_bonus: (n) => `your heroes roll ${dice(n, "attack")}`,
  defence_bonus: (n) => `your heroes roll ${dice(n, "defence")}`,
  move_bonus: (n) => `your heroes have ${n} more movement`,
  income: (res) => `gain ${resources(res)} on declaring it`,
  pp_if_outposts: (n) => `on declaring it, 1 permanent power point if you hold ${n} or more outposts`,
  pp_per_burn: (n) => `${count(n, "permanent power point", "permanent power points")} for each enemy outpost you destroy`,
};

/** Hero keywords (IND-SPR-1..5). */
const KEYWORDS = {
  charge: "Charge! (one extra tile, last, only to attack)",
  speed: "Speed (ignores Mud)",
  resilient: "Resilient (heals 2 at round start)",
  fortified: "Fortified (+1 XP for each build or upgrade)",
  "burn-not-build": "Burn Not Build (cannot build, upgrade or capture outposts)",
};

const LEVELS = ["I", "II", "III"];

/** The lightning bolt adds 1 to the *-marked number (IND-STR-8): "gain 2 wood" gains 3. */
const plusOne = (n) => (typeof n === "number" ? n + 1 : Object.fromEntries(Object.entries(n).map(([r, k]) => [r, k + 1])));

/** "Flaming Sword of Arkland (1 gold): roll 1 more attack die, the defender takes at least 2 damage". */
export function abilityText(card, bolt = false) {
  const effects = Object.entries(card.effect || {}).map(([key, n]) => {
    const value = bolt && card.star === key ? plusOne(n) : n;
    const star = card.star === key ? "*" : ""; // the number a lightning bolt raises
    return (EFFECTS[key] ? EFFECTS[key](value) : `${key.replace(/_/g, " ")} ${JSON.stringify(value)}`) + star;
  });
  const cost = card.passive ? "passive, always on" : card.cost && Object.keys(card.cost).length ? resources(card.cost) : "free";
  const when = card.always ? "; usable in any turn, also by a hero that is not active" : "";
  return `${card.name} (${cost}${when}): ${effects.join(", ")}`;
}

/** The abilities of one hero: basic, command (if commander) and the specials of levels I-III (IND-ABL-2, IND-LVL-1). */
function heroAbilities(ctx, id, hero, commander) {
  const card = ctx.content.heroes[id];
  const abilities = ctx.content.abilities;
  const level = hero.bonuses.length;
  const line = (ability, tag, open) => h("li", {class: open ? "ind-ability" : "ind-ability locked"},
    `${tag}: ${abilities[ability] ? abilityText(abilities[ability]) : ability}`);
  return h("ul", {class: "ind-abilities"},
    line(card.basic, "basic", true),
    commander ? line(card.command, "commander", true) : null,
    card.specials.map((ability, i) => line(ability, i < level ? `level ${LEVELS[i]}` : `at level ${LEVELS[i]} (not yet)`, i < level)));
}

/** Every hero card in play: owner, values, keywords and abilities in words. */
export function heroCards(view, ctx) {
  if (!ctx.content?.heroes || !ctx.content?.abilities) return null;
  const rows = [];
  view.seats.forEach((p, seat) => {
    for (const id of p.heroes) {
      const card = ctx.content.heroes[id];
      const hero = view.heroes[id];
      if (!card || !hero) continue;
      rows.push([`${card.name}${p.commander === id ? " ★" : ""}`, seatLabel(ctx.seats, seat),
        `move ${card.movement}, attack ${card.attack}, defence ${card.defence}, endurance ${card.endurance}`,
        (card.rules || []).map((k) => KEYWORDS[k] || k).join("; ") || "—",
        heroAbilities(ctx, id, hero, p.commander === id)]);
    }
  });
  return section("Heroes and their abilities",
    h("p", {class: "muted"}, "★ commander. Abilities are used in your own turn, except those usable in any turn and passive ones (IND-ABL-3)."),
    table(["hero", "player", "card", "keywords", "abilities"], rows, {class: "compact ind-cards"}));
}

/** Each player's strategy board: the tree in play, its power, and which abilities are unlocked with which token (IND-STR-3..8). */
export function strategyBoards(view, ctx) {
  const trees = ctx.content?.trees;
  if (!trees) return null;
  const token = {coin: "unlocked, coin bag: costs 1 resource less", bolt: "unlocked, lightning bolt: its starred number +1, counted above"};
  const board = (p, seat) => {
    const own = Object.values(trees).filter((t) => t.faction === p.faction);
    const unlocked = p.unlocked || {};
    return h("details", {class: "ind-strategy", open: p.tree || seat === ctx.me ? true : null},
      h("summary", {}, `${seatLabel(ctx.seats, seat)}: ${p.tree && trees[p.tree] ? `${trees[p.tree].name} in play` : "no tree in play"}`,
        p.traitors ? " (Local Traitors: no tree abilities this round, IND-STR-9)" : ""),
      h("ul", {}, own.map((t) => h("li", {class: t.id === p.tree ? "ind-tree in-play" : "ind-tree"},
        `${t.name}${t.id === p.tree ? " (in play)" : ""} — power: `,
        Object.entries(t.power || {}).map(([k, n]) => (POWERS[k] ? POWERS[k](n) : `${k} ${JSON.stringify(n)}`)).join(", "),
        h("ul", {}, t.abilities.map((a) => h("li", {class: unlocked[a.id] ? "ind-ability" : "ind-ability locked"},
          `${abilityText(a, unlocked[a.id] === "bolt")} — ${token[unlocked[a.id]] || "locked"}`)))))));
  };
  return section("Strategy boards",
    h("p", {class: "muted"}, "Each round a player declares one of its three trees: its power holds for the round and its ",
      "unlocked abilities may be used. Each declaration may unlock one more ability of that tree with a token whose side is ",
      "chosen for good: the coin bag cuts the ability's cost by 1 resource, the lightning bolt adds 1 to its number marked * ",
      "(IND-STR-3..8)."),
    view.seats.map(board));
}
