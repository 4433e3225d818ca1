// How the lobby and a tournament's organizer name a game's bots: the catalog lists bot ids
// (`bots`) and, for the search bot, each level with its thinking budget (`bot_levels`), so a
// person picks "search bot, hard" rather than an id, and a new bot or level shows up here
// without a change to this page.

/** [{value: bot id, text: what a person reads}] for a catalog entry, search levels last, easiest first. */
export function botChoices(game) {
  const levels = new Map((game.bot_levels || []).map((l) => [l.id, l]));
  const order = ["easy", "normal", "hard"];
  const plain = (game.bots || []).filter((id) => !levels.has(id));
  const searched = [...levels.values()].sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level)
    || a.playouts - b.playouts);
  return [
    ...plain.map((id) => ({value: id, text: id === "random" ? "random (any legal move)" : id})),
    ...searched.map((l) => ({value: l.id, text: `search bot, ${l.level} (${l.playouts} playouts a move)`})),
  ];
}
