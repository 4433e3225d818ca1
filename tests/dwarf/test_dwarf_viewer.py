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
