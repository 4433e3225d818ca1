// Words the pages share, as pure functions of what the API answered (node tests run them).

/** A planned number of rounds worth saying: a positive whole number (a knockout plans none, and a
 * round robin's count for a field of fewer than two entrants means nothing). */
function plannedRounds(t) {
  return Number.isInteger(t.planned_rounds) && t.planned_rounds > 0 && t.entrants.length >= 2 ? t.planned_rounds : null;
}

/** A tournament's progress for its page: "round 2 of 3", "no round yet (3 planned)"; never "round 0 of -1". */
export function roundLine(t) {
  const planned = plannedRounds(t);
  if (!t.rounds.length) {
    if (t.status === "finished") return "no round was played";
    return `no round yet${planned ? ` (${planned} planned for ${t.entrants.length} entrants)` : ""}`;
  }
  return `round ${t.rounds.length}${planned ? ` of ${planned}` : ""}`;
}
