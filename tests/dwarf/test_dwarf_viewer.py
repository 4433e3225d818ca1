"""The browser viewer's DWARF renderer, run by node on a real view with a minimal DOM:
both Mines drawn (18 locations with two copies), workers, piles and the majority table."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from domain.dwarf.rules import GAME
from tests.dwarf.dwarf_support import act, start

STATIC = Path(__file__).resolve().parents[2] / "server" / "web" / "static"
SHIM = """
class Node { constructor(tag) { this.tag = tag; this.attrs = {}; this.children = []; }
  setAttribute(k, v) { this.attrs[k] = v; } addEventListener() {}
  append(...cs) { this.children.push(...cs); } replaceChildren(...cs) { this.children = cs; }
  prepend(...cs) { this.children.unshift(...cs); }
  get text() { return this.children.map((c) => c.text).join(" "); }
  count(tag, cls) { return (this.tag === tag && (!cls || this.attrs.class === cls) ? 1 : 0)
    + this.children.reduce((n, c) => n + (c.count ? c.count(tag, cls) : 0), 0); } }
class Text extends Node { constructor(t) { super("#text"); this.t = t; } get text() { return this.t; } }
globalThis.Node = Node;
globalThis.document = {createElement: (t) => new Node(t), createElementNS: (_, t) => new Node(t),
  createTextNode: (t) => new Text(t)};
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_renderer_draws_the_mines_workers_and_table(tmp_path):
    s = start(4, first_player=0)
    s = act(s, 0, GAME.legal_commands(s, 0)[0])
    view = GAME.view(s, None)
    for name in ("dom.js", "dwarf.js"):
        (tmp_path / name.replace(".js", ".mjs")).write_text(
            (STATIC / name).read_text().replace('"./dom.js"', '"./dom.mjs"'))
    (tmp_path / "run.mjs").write_text(SHIM + """
const {renderDwarf} = await import("./dwarf.mjs");
const input = JSON.parse(require_input());
function require_input() { return process.argv[2]; }
const el = new Node("div");
renderDwarf(el, input.view, {seats: input.seats, content: input.content, batch: [], state: null});
console.log(JSON.stringify({text: el.text, locations: el.count("rect", "dw-location"),
  workers: el.count("circle", "dw-worker"), svgs: el.count("svg")}));
""")
    payload = json.dumps({"view": view, "content": GAME.content(),
                          "seats": [{"seat": i, "name": f"p{i}", "bot": None} for i in range(4)]})
    out = subprocess.run(["node", str(tmp_path / "run.mjs"), payload], capture_output=True, text=True, check=True)
    drawn = json.loads(out.stdout)
    assert drawn["svgs"] == 2 and drawn["locations"] == 18 and drawn["workers"] == 1
    assert "Mine 1" in drawn["text"] and "p0 first player" in drawn["text"] and "majorities" in drawn["text"]
    assert "round 1" in drawn["text"]


def test_a_placement_label_says_what_the_action_costs_and_gives():
    """A worker on an action its player cannot pay is carried out as a failure (DW-RES-6): the
    move's label shows the recipe on top, so a person sees what Forge Sword needs before placing."""
    s = start(2, first_player=0)
    labels = {GAME.label(s, 0, c) for c in GAME.legal_commands(s, 0)}
    assert "Place a worker on Forge Sword (Forjar Espada) at 31 (3 steel -> 1 object)" in labels
    assert "Place a worker on Gold Vein (Veta de Oro) at 12 (1 gold)" in labels
    assert any(x.startswith("Place a worker on Receive Help") and x.endswith("at 22") for x in labels)


def test_a_special_action_label_says_what_its_face_does():
    """A Special Action takes both workers (or a payment and one, DW-SPEC-3): its label names the
    face's effect, so it is not chosen blind (Heirloom: 2 iron -> 1 object)."""
    from domain.dwarf import content

    s = start(2, first_player=0)
    specials = [c for c in GAME.legal_commands(s, 0) if c["type"] == "special"]
    assert specials
    for cmd in specials:
        pile = s["areas"][cmd["pile"] // 3]["piles"][cmd["pile"] % 3]
        face = content.special_of(pile[0])
        cost = " + ".join(f"{n} {r}" for r, n in face.cost.items() if n)
        gain = " + ".join(f"{n} {r}" for r, n in face.gain.items() if n)
        assert GAME.label(s, 0, cmd).startswith(f"Special Action {face.name}: {cost + ' -> ' if cost else ''}{gain}")


def _lacking(tmp_path, state: dict, seat: int) -> list[tuple[dict, str | None]]:
    """Each legal command of ``seat`` with what dwarf.js's ``lacking`` says it cannot pay, from the seat's view."""
    (tmp_path / "dom.mjs").write_text((STATIC / "dom.js").read_text())
    (tmp_path / "dwarf.mjs").write_text((STATIC / "dwarf.js").read_text().replace('"./dom.js"', '"./dom.mjs"'))
    (tmp_path / "lacking.mjs").write_text("""
const {lacking} = await import("./dwarf.mjs");
const input = JSON.parse(process.argv[2]);
console.log(JSON.stringify(input.commands.map((c) => lacking(c, input.view, input.content))));
""")
    commands = GAME.legal_commands(state, seat)
    payload = json.dumps({"view": GAME.view(state, seat), "content": GAME.content(), "commands": commands})
    out = subprocess.run(["node", str(tmp_path / "lacking.mjs"), payload], capture_output=True, text=True, check=True)
    return list(zip(commands, json.loads(out.stdout)))


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_move_list_marks_placements_and_special_actions_the_seat_cannot_pay(tmp_path):
    """Every free location and pile is legal whatever the seat holds (DW-SEL-2, DW-SPEC-3); an action
    left unpaid does nothing (DW-RES-6). The page words what the seat lacks, exactly where its
    holdings now fall short of the cost on top (a Forge's or Alloy Steel's; a Special Action's face)."""
    from domain.dwarf import content
    from domain.dwarf.state import has, pile_at, top_effect
    from tests.dwarf.dwarf_support import give

    s = give(start(2, first_player=0), 0, iron=2, steel=1)
    s["areas"][0]["piles"][0][0], s["areas"][0]["piles"][1][0] = "X8", "X9"  # Master Smith (2 steel), Heirloom (2 iron)
    said = _lacking(tmp_path, s, 0)
    for command, words in said:
        if command["type"] == "place":
            cost = top_effect(s, f"{command['mine']}:{command['location']}").cost
        else:
            cost = content.special_of(pile_at(s, command["pile"])[0]).cost
        assert (words is not None) == (not has(s, 0, cost)), (command, words)
    by_type = {(c["type"], c.get("location"), c.get("pile")): w for c, w in said}
    assert by_type[("special", None, 0)] == "does nothing: short of 1 steel"
    assert by_type[("special", None, 1)] is None
    forge = next(w for c, w in said if c["type"] == "place" and top_effect(s, f"0:{c['location']}").id == "forge_sword")
    assert forge == "short of 2 steel now (paid in the Forge step)"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_an_order_names_the_action_it_leaves_unpaid(tmp_path):
    """Iron Vein before Alloy Steel pays for it; the other order leaves Alloy Steel short (DW-AMB-14)."""
    from tests.dwarf.dwarf_support import give, stage_top

    s = give(stage_top(stage_top(start(2, first_player=0), 0, "11", "S1"), 0, "21", "S4"), 0, iron=1)
    for seat, command in ((0, {"location": "11"}), (1, {"location": "33"}), (1, None), (0, {"location": "21"})):
        s = act(s, seat, {"type": "place", "mine": 0, **command} if command else {"type": "pass"})
    said = {tuple(x["location"] for x in c["locations"]): w for c, w in _lacking(tmp_path, s, 0)}
    assert said == {("11", "21"): None,
                    ("21", "11"): "Alloy Steel (Alear acero) at 21 does nothing: short of 2 iron"}


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_status_line_says_which_worker_is_placed_and_who_holds_the_first_player_marker(tmp_path):
    """Solo, round 1: the automaton holds the first-player marker and has placed; the line read
    "round 1, select; Alice places (first)", as if Alice went first. It says which of her two
    workers she places, and who is first player."""
    from tests.dwarf.dwarf_support import step_actor, who

    s = step_actor(start(1))
    assert who(s) == 0 and s["first"] == 1
    first = GAME.view(s, 0)
    s = act(s, 0, GAME.legal_commands(s, 0)[0])
    s = step_actor(s)
    second = GAME.view(s, 0)
    for name in ("dom.js", "dwarf.js"):
        (tmp_path / name.replace(".js", ".mjs")).write_text(
            (STATIC / name).read_text().replace('"./dom.js"', '"./dom.mjs"'))
    (tmp_path / "run.mjs").write_text(SHIM + """
const {statusLine} = await import("./dwarf.mjs");
const input = JSON.parse(process.argv[2]);
console.log(JSON.stringify(input.views.map((view) => statusLine(view, {seats: input.seats}))));
""")
    payload = json.dumps({"views": [first, second], "seats": [{"seat": 0, "name": "Alice", "bot": None}]})
    out = subprocess.run(["node", str(tmp_path / "run.mjs"), payload], capture_output=True, text=True, check=True)
    said = json.loads(out.stdout)
    assert said == ["round 1, workers are placed; Alice places worker 1 of 2 · first player: automaton (eldhusfifl)",
                    "round 1, workers are placed; Alice places worker 2 of 2 · first player: automaton (eldhusfifl)"], said
