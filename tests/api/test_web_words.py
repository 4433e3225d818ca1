"""The pages' words and small decisions, run by node on the served modules themselves (a tiny DOM
stand-in where a function builds elements): places, round lines, who an event is credited to,
labels with players' names, status lines. Each case is one a person met in the browser audit."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "server" / "web" / "static"
DOM = """
class Node { constructor(tag) { this.tag = tag; this.attrs = {}; this.children = []; this.classList = {toggle() {}, add() {}, remove() {}}; }
  setAttribute(k, v) { this.attrs[k] = v; } getAttribute(k) { return this.attrs[k] ?? null; } addEventListener() {}
  append(...c) { this.children.push(...c); } prepend(...c) { this.children.unshift(...c); }
  replaceChildren(...c) { this.children = c; }
  get textContent() { return this.children.map((c) => c.textContent).join(""); } }
class Text extends Node { constructor(t) { super("#text"); this.t = t; } get textContent() { return this.t; } }
globalThis.Node = Node;
globalThis.document = {createElement: (t) => new Node(t), createElementNS: (ns, t) => new Node(t),
                       createTextNode: (t) => new Text(t)};
globalThis.localStorage = globalThis.sessionStorage = {getItem: () => null, setItem() {}, removeItem() {}};
const input = JSON.parse((await import("node:fs")).readFileSync(0, "utf8"));
const out = (value) => console.log(JSON.stringify(value));
"""

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def node(tmp_path: Path, script: str, payload=None):
    """Run ``script`` (an ES module body: ``input`` is the payload, ``out(value)`` answers) beside
    a copy of the static modules; its answer, read back as JSON."""
    for path in STATIC.glob("*.js"):
        shutil.copy(path, tmp_path / path.name)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "run.js").write_text(DOM + script)
    done = subprocess.run(["node", "run.js"], cwd=tmp_path, input=json.dumps(payload), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@needs_node
def test_a_place_counts_what_the_scores_rank(tmp_path):
    """The player page put Alice "#2 of 4" in a 2-player Indagar game: its two monsters are scored
    but hold no place, so they count in neither her rank nor the field; a solo DWARF game's
    automaton ranks beside its seat ("#1 of 2")."""
    monsters = {"seats": [{"seat": 0, "place": 2}, {"seat": 1, "place": 1}],
                "participants": [{"id": "seat:1", "place": 1}, {"id": "seat:0", "place": 2},
                                 {"id": "actor:monster-helgoth", "place": None},
                                 {"id": "actor:monster-tijian", "place": None}]}
    solo = {"seats": [{"seat": 0, "place": 1}],
            "participants": [{"id": "seat:0", "place": 1}, {"id": "actor:automaton", "place": 2}]}
    four = {"seats": [{"seat": i, "place": p} for i, p in enumerate([3, 1, 1, 4])]}
    said = node(tmp_path, """
const {placeText} = await import("./panels.js");
out(input.map(([board, seat]) => placeText(board, seat)));
""", [[monsters, 0], [monsters, 1], [solo, 0], [four, 0], [four, 7]])
    assert said == ["#2 of 2", "#1 of 2", "#1 of 2", "#3 of 4", None]


@needs_node
def test_a_player_resigning_a_two_player_indagar_game_reads_second_of_two(tmp_path):
    """After a resignation the player page read "#4 of 4": the page counted right, the scores were
    wrong -- indagar-6 ranked the monsters between the two seats. The scores of a real resigned
    game, as the API serves them, under the current rules (IND-WIN-7) and under indagar-6."""
    from domain import registry
    from domain.core import Drbg, Seat, fold

    def resigned(version):
        game = registry.get("indagar", version)
        s = fold(game, game.start(game.validate_options({}, 2), [Seat(0, "a"), Seat(1, "b")], Drbg(b"w", "start")))
        for ev in game.decide_platform(s, 1, {"type": "resign"}, Drbg(b"w", "resign")):
            s = game.evolve(s, ev)
        return game.scores(s).to_dict()
    said = node(tmp_path, """
const {placeText} = await import("./panels.js");
out(input.map(([board, seat]) => placeText(board, seat)));
""", [[resigned(registry.get("indagar").rules_version), 1], [resigned("indagar-6"), 1]])
    assert said == ["#2 of 2", "#4 of 4"]


@needs_node
def test_a_tournament_says_its_round_in_words(tmp_path):
    """A tournament page said "round 0 of -1" before anyone had entered (a round robin of no
    entrants plans n - 1 rounds): no round yet is said so, with the plan only when it means one."""
    def t(status, entrants, rounds, planned):
        return {"status": status, "entrants": [{"id": f"e{i}"} for i in range(entrants)],
                "rounds": [{"round": r + 1} for r in range(rounds)], "planned_rounds": planned}
    said = node(tmp_path, """
const {roundLine} = await import("./words.js");
out(input.map(roundLine));
""", [t("registering", 0, 0, -1), t("registering", 1, 0, 1), t("registering", 4, 0, 3), t("running", 4, 2, 3),
      t("running", 8, 1, None), t("finished", 4, 3, 3), t("finished", 0, 0, -1)])
    assert said == ["no round yet", "no round yet", "no round yet (3 planned for 4 entrants)", "round 2 of 3",
                    "round 1", "round 3 of 3", "no round was played"]


@needs_node
def test_each_event_is_credited_to_who_did_it(tmp_path):
    """The Events panel credited what the table and the monsters did to the seat whose move led to
    it ("heuristic-2 role dealt", "Alice monster moved"): the monster, the table, or the seat whose
    command it is, as each game's renderer says."""
    seats = [{"seat": 0, "name": "Alice"}, {"seat": 1, "name": "Bob"}]
    content = {"monsters": {"tijian": {"name": "Tijian the Scoundrel"}}}

    def ev(type_, seat, data, command=None):
        return {"type": type_, "seat": seat, "data": data, "command": command}
    cases = [
        ("saboteur", ev("PathPlaced", 0, {"card": "P05", "seat": 0}, {"type": "play_path"}), "Alice"),
        ("saboteur", ev("CardDrawn", 0, {"seat": 0}), "Alice"),
        ("saboteur", ev("TurnStarted", 0, {"seat": 1}), "table"),
        ("saboteur", ev("RoleDealt", 1, {"role": "miner", "seat": 0}), "table"),
        ("saboteur", ev("GoldKept", 0, {"seat": 1, "value": 2}), "Bob"),
        ("indagar", ev("DecisionMade", 0, {"kind": "monster_target"}, {"type": "choose_tile"}), "Alice"),
        ("indagar", ev("MonsterMoved", 0, {"monster": "tijian", "path": ["r1c2"]}), "Tijian the Scoundrel"),
        ("indagar", ev("AttackBegan", 0, {"attacker": ["monster", "tijian"], "tile": "r1c3"}), "Tijian the Scoundrel"),
        ("indagar", ev("AttackBegan", 1, {"attacker": ["hero", "zhuan"], "tile": "r1c3"}), "Bob"),
        ("indagar", ev("DiceRolled", 0, {"dice": [4, 3], "side": "attack"}), "table"),
        ("indagar", ev("MonsterActed", None, {"monster": "tijian"}, {"type": "actor_step", "actor": "monster-tijian"}),
         "Tijian the Scoundrel"),
        ("indagar", ev("TurnBegan", 0, {"who": "seat:1"}), "table"),
        ("indagar", ev("HeroMoved", 0, {"hero": "ariane", "to": "r2c2"}), "Alice"),
        ("dwarf", ev("WorkerPlaced", None, {"player": 1, "place": "0:31"}, {"type": "actor_step", "actor": "automaton"}),
         "automaton"),
        ("dwarf", ev("ActionResolved", 0, {"player": 1, "place": "0:33"}), "automaton"),
        ("dwarf", ev("StepStarted", 0, {"step": "mine"}), "table"),
        ("mountain-king", ev("HordeRefilled", 1, {"slot": "M1"}), "table"),
        ("mountain-king", ev("Traded", 1, {"seat": 1}, {"type": "trade"}), "Bob"),
        ("generic", ev("Rolled", 1, {"value": 3}), "Bob"),
        ("generic", ev("GameSetUp", None, {}), "table"),
    ]
    solo = {"dwarf"}  # a solo DWARF table has one seat: the automaton is the participant after it
    said = node(tmp_path, """
const {eventWho} = await import("./words.js");
const renderers = {saboteur: await import("./saboteur.js"), indagar: await import("./indagar.js"),
  dwarf: await import("./dwarf.js"), "mountain-king": await import("./mountain-king.js"), generic: {}};
out(input.cases.map(([game, ev, seats]) => eventWho(ev, renderers[game], {seats, content: input.content})));
""", {"cases": [[game, e, seats[:1] if game in solo else seats] for game, e, _ in cases], "content": content})
    assert said == [who for *_, who in cases]


@needs_node
def test_saboteur_moves_name_seats_by_their_players(tmp_path):
    """Saboteur's labels say "Break seat 3's pick (A03)" while the page names players everywhere
    else: the page shows "Break search-easy-3's pick (A03)" in the move list and the play panel,
    keeping the number where two seats share a name (no two moves may read alike)."""
    seats = [{"seat": 0, "name": "Alice"}, {"seat": 1, "name": "Bob"}, {"seat": 2, "name": "heuristic-2"},
             {"seat": 3, "name": "search-easy-3"}]
    twins = [{"seat": 0, "name": "Sam"}, {"seat": 1, "name": "Sam"}, {"seat": 2, "name": "Ann"}]
    said = node(tmp_path, """
const sab = await import("./saboteur.js");
const {relabeled} = await import("./words.js");
const {moveLabel} = await import("./moves.js");
out([
  relabeled("Break seat 3's pick (A03)", {type: "break_tool", target: 3}, sab, {seats: input.seats}),
  moveLabel({label: "Repair seat 0's lantern/cart (A17)", command: null}, sab, {seats: input.seats}),
  relabeled("Play P05 (cross) at (1,0)", {type: "play_path"}, sab, {seats: input.seats}),
  relabeled("Break seat 1's cart (A08)", null, sab, {seats: input.twins}),
  relabeled("Break seat 2's cart (A08)", null, sab, {seats: input.twins}),
  relabeled("Break seat 3's pick (A03)", null, {}, {seats: input.seats}),
]);
""", {"seats": seats, "twins": twins})
    assert said == ["Break search-easy-3's pick (A03)", "Repair Alice's lantern/cart (A17)", "Play P05 (cross) at (1,0)",
                    "Break seat 1's cart (A08)", "Break Ann's cart (A08)", "Break seat 3's pick (A03)"]


@needs_node
def test_the_offline_replay_names_a_records_players_as_the_live_pages_do(tmp_path):
    """The offline replay (offline.js) showed the server's labels as signed, "Break seat 1's pick
    (A02)", where the game's page names the player ("Break bob's pick (A02)"), and an actor by its
    id ("monster-tijian"). It names them as the live pages do from the record's roster: GameStarted's
    for a game that waited for players (its GameCreated seats were open, with no names), the mover
    with the seat number the record's events use, the number alone for a seat with no name."""
    waited = [{"type": "GameCreated", "data": {"game": "saboteur", "seats": [
                  {"seat": 0, "name": "", "bot": None, "open": True}, {"seat": 1, "name": "", "bot": None, "open": True},
                  {"seat": 2, "name": "cy", "bot": "random"}]}},
              {"type": "SeatTaken", "data": {"seat": 0}},
              {"type": "GameStarted", "data": {"seats": [{"seat": 0, "name": "ann", "bot": None},
                                                         {"seat": 1, "name": "bob", "bot": None},
                                                         {"seat": 2, "name": "cy", "bot": "random"}]}}]
    unnamed = [{"type": "GameCreated", "data": {"game": "indagar", "seats": [{"name": "ann"}, {"name": ""}]}}]
    content = {"monsters": {"tijian": {"name": "Tijian the Scoundrel"}}}
    said = node(tmp_path, """
const {seatsOf} = await import("./record.js");
const {recordWho, relabeled} = await import("./words.js");
const sab = await import("./saboteur.js"), ind = await import("./indagar.js");
const waited = {seats: seatsOf(input.waited)}, unnamed = {seats: seatsOf(input.unnamed), content: input.content};
out({
  seats: waited.seats.map((s) => [s.seat, s.name, s.bot]),
  who: [recordWho({seat: 1}, sab, waited), recordWho({seat: 2}, sab, waited), recordWho({seat: null}, sab, waited),
        recordWho({seat: 1}, ind, unnamed), recordWho({seat: null, actor: "monster-tijian"}, ind, unnamed),
        recordWho({seat: null, actor: "monster-tijian"}, null, unnamed), recordWho({seat: null, actor: "automaton"}, null, {})],
  labels: [relabeled("Break seat 1's pick (A02)", {type: "break_tool", target: 1}, sab, waited),
           relabeled("Break seat 1's pick (A02)", {type: "break_tool", target: 1}, null, waited)],
});
""", {"waited": waited, "unnamed": unnamed, "content": content})
    assert said == {"seats": [[0, "ann", None], [1, "bob", None], [2, "cy", "random"]],
                    "who": ["bob (seat 1)", "cy (seat 2)", "the table", "seat 1", "Tijian the Scoundrel",
                            "monster tijian", "automaton"],
                    "labels": ["Break bob's pick (A02)", "Break seat 1's pick (A02)"]}


@needs_node
def test_a_renderer_hook_that_is_missing_or_throws_falls_back_as_each_caller_says(tmp_path):
    """The renderer's optional hooks (play.js's alike, places, lacking, figure, order; words.js's
    actorName, eventActor, relabel) are called through one helper, each caller keeping its own
    fallback: alike takes any answer but null or undefined (a key of 0 or "" is a key), the others
    only a truthy one, and eventActor every answer but undefined (null is the table). A missing or
    throwing hook is the fallback everywhere. The same answers as before the helper."""
    said = node(tmp_path, """
document.addEventListener = () => {};  // play.js listens for the first click, to start sound
const {Play} = await import("./play.js");
const {actorLabel, eventWho, relabeled} = await import("./words.js");
const play = new Play({gameId: "g", board: document.createElement("div"), panel: document.createElement("div"),
  say() {}, onActed() {}});
const boom = () => { throw new Error("renderer slip"); };
const answers = [undefined, null, 0, "", false, "x", ["p"]];
const hooks = [null, boom, ...answers.map((a) => () => a)];
const ask = (f) => hooks.map((hook) => { const r = f(hook); return r === undefined ? "undefined" : r; });
const seats = [{seat: 0, name: "Ann"}];
const ev = {type: "Moved", seat: 0, data: {}, command: null};
play.legal = {version: 1, commands: [{type: "a"}, {type: "b"}, {type: "c"}], labels: ["A", "B", "C"]};
out({
  alike: ask((hook) => { play.alikeOf = hook; return play.alike({type: "a"}); }),
  places: ask((hook) => { play.placesOf = hook; return play.places({type: "a"}); }),
  lacking: ask((hook) => { play.lackingOf = hook; return play.lacking({type: "a"}); }),
  figure: ask((hook) => { play.figureOf = hook; return play.figure({type: "a"}); }),
  order: [null, boom, () => "2", (c) => ({a: 3, b: -1, c: 1}[c.type]), (c) => (c.type === "b" ? boom() : 1)]
    .map((hook) => { play.alikeOf = play.placesOf = null; play.orderOf = hook;
                     return play.candidates().map((c) => `${c.label}${c.rank ?? ""}`).join(" "); }),
  actorName: ask((hook) => actorLabel("monster-tijian", {actorName: hook}, {seats})),
  eventActor: ask((hook) => eventWho(ev, {eventActor: hook}, {seats})),
  relabel: ask((hook) => relabeled("Break seat 0's pick", {type: "break_tool"}, {relabel: hook}, {seats})),
  without: [actorLabel("automaton", null, {}), eventWho(ev, null, {seats}), relabeled("L", null, null, {}),
            relabeled("", null, {relabel: () => "never asked"}, {})],
});
""")
    def fallback_or(fallback):  # the answers undefined, null, 0, "" and false fall back; "x" and ["p"] do not
        return [fallback] * 5 + ["x", ["p"]]
    assert said["alike"] == [None, None, None, None, 0, "", False, "x", ["p"]]
    assert said["places"] == [[], []] + fallback_or([])
    assert said["lacking"] == said["figure"] == [None, None] + fallback_or(None)
    assert said["order"] == ["A B C", "A0 B0 C0", "A2 B2 C2", "B-1 C1 A3", "B0 A1 C1"]
    assert said["actorName"] == ["monster tijian"] * 2 + fallback_or("monster tijian")
    assert said["eventActor"] == ["Ann", "Ann", "Ann", "table", 0, "", False, "x", ["p"]]
    assert said["relabel"] == ["Break seat 0's pick"] * 2 + fallback_or("Break seat 0's pick")
    assert said["without"] == ["automaton", "Ann", "L", ""]


@needs_node
def test_a_bot_is_named_once_and_a_draft_hand_alike_for_everyone(tmp_path):
    """The leaderboard said "search-easy (bot) (bot)" (the server names a bot's rating "search-easy
    (bot)" already); Mountain King's rosters said "hand empty" for one player and "0 in hand" for
    the other."""
    said = node(tmp_path, """
const {ratedName} = await import("./words.js");
const {draftLine} = await import("./mountain-king.js");
out({names: input.lines.map(ratedName), drafts: input.drafts.map((d) => draftLine(d).textContent)});
""", {"lines": [{"player": "bot-search-easy", "name": "search-easy (bot)"}, {"player": "bot-greedy", "name": None},
                {"player": "p01", "name": "Ann"}],
      "drafts": [{"hand": [], "deck": 4}, {"hand": 0, "deck": 4}, {"hand": ["teal-2", "teal-5"], "deck": 1},
                 {"hand": 2, "deck": 1}]})
    assert said["names"] == ["search-easy (bot)", "bot-greedy (bot)", "Ann"]
    assert said["drafts"] == ["draft: hand empty, 4 cards in deck", "draft: hand empty, 4 cards in deck",
                              "draft: hand: teal-2, teal-5, 1 card in deck", "draft: 2 cards in hand, 1 card in deck"]


@needs_node
def test_the_replay_knows_which_steps_come_before_the_deal(tmp_path):
    """The API answers not_dealt_yet for a version before the deal; the replay counts those steps
    from the log instead of asking: none for a game created with every seat taken, the seats' own
    batches for one that waited, every step of one cancelled before the deal."""
    def ev(seq, type_, command_id):
        return {"seq": seq, "type": type_, "seat": None, "command_id": command_id, "data": {}}
    full = [ev(1, "GameCreated", "c"), ev(2, "GameSetUp", "c"), ev(3, "TurnStarted", "m1")]
    waited = [ev(1, "GameCreated", "c"), ev(2, "SeatTaken", "j1"), ev(3, "SeatTaken", "j2"), ev(4, "GameStarted", "j3"),
              ev(5, "GameSetUp", "j3")]
    cancelled = [ev(1, "GameCreated", "c"), ev(2, "SeatTaken", "j1"), ev(3, "GameCancelled", "x")]
    said = node(tmp_path, """
const {batchesOf, beforeDeal} = await import("./batches.js");
out(input.map((events) => beforeDeal(batchesOf(events))));
""", [full, waited, cancelled])
    assert said == [0, 3, 3]


@needs_node
def test_an_event_is_said_with_every_plain_field(tmp_path):
    """The Events panel kept an event's first five fields, so Saboteur's path placed named its cell
    by x alone; the offline replay showed raw JSON. Every plain field is said; the offline replay
    spells out a short record too ("delta iron -3, object 1")."""
    placed = {"type": "PathPlaced", "data": {"card": "P11", "rotated": False, "seat": 1, "shape": "tee-new", "x": 1, "y": 0}}
    resolved = {"type": "ActionResolved", "data": {"card": "M23", "delta": {"iron": -3, "object": 1}, "place": "0:22",
                                                   "deck": [f"P{i:02}" for i in range(40)]}}
    said = node(tmp_path, """
const {eventWords, fieldWords} = await import("./words.js");
out([eventWords(input[0]), eventWords(input[1]), fieldWords(input[1], {nested: true}), eventWords({type: "GameStarted", data: {}})]);
""", [placed, resolved])
    assert said[0] == "path placed: card P11, rotated false, seat 1, shape tee-new, x 1, y 0"
    assert said[1] == "action resolved: card M23, place 0:22"  # records and lists: in the row's tooltip
    assert said[2].startswith("card M23, delta iron -3, object 1, place 0:22, deck P00, P01") and said[2].endswith("…")
    assert said[3] == "game started"


@needs_node
def test_a_busy_stream_says_it_tries_again_by_itself(tmp_path):
    """A 503 too_many_streams said "close one, or retry in 7 s" and the page stopped following; now
    it waits and tries again, and says that it does."""
    said = node(tmp_path, """
const {streamState} = await import("./words.js");
const {busy, retryAfter} = await import("./api.js");
const err = (status, problem) => ({status, problem, message: problem.detail});
const full = err(503, {retry_after: 7, detail: "this token holds 8 open streams already, the most it may; close one, or retry in 7 s"});
out({states: [streamState("following"), streamState("reconnecting"), streamState("following", null, "tournament"),
              streamState("retrying", {seconds: retryAfter(full), message: full.message})],
     busy: [busy(full), busy(err(429, {})), busy(err(404, {})), busy(err(401, {}))],
     waits: [retryAfter(full), retryAfter(err(503, {})), retryAfter(err(503, {retry_after: 900})), retryAfter(err(429, {retry_after: 0.2}))]});
""")
    assert said["states"] == ["following the game live", "reconnecting…", "following the tournament live",
                              ("the server is busy (this token holds 8 open streams already, the most it may); "
                               "trying again by itself in 7 s")]
    assert said["busy"] == [True, True, False, False]
    assert said["waits"] == [7, 5, 60, 1]


@needs_node
def test_dwarf_names_who_created_the_fourth_object(tmp_path):
    """A DWARF game's header said "a player created a fourth Object" though the page knows who."""
    def view(created):
        return {"ended": "four_objects", "phase": "over", "round": 20, "solo_level": "eldhusfifl",
                "players": [{"id": "seat:0", "created": created[0]}, {"id": "actor:automaton", "created": created[1]}]}
    said = node(tmp_path, """
const {ended, statusLine} = await import("./dwarf.js");
const ctx = {seats: [{seat: 0, name: "Ann"}]};
out([ended(input[0], ctx), ended(input[1], ctx), ended(input[2], ctx), ended(input[0]), statusLine(input[0], ctx),
     ended({ended: "mountain_empty", players: []}, ctx)]);
""", [view([4, 2]), view([4, 4]), view([2, 4])])
    assert said == ["Ann created a fourth Object", "Ann and automaton (eldhusfifl) each created a fourth Object",
                    "automaton (eldhusfifl) created a fourth Object", "a player created a fourth Object",
                    "game over: Ann created a fourth Object, round 20", "the Mountain ran out"]
