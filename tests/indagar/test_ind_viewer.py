"""The browser viewer's Indagar renderer, run by node on a real mid-game view with a tiny DOM
stand-in: one hexagon per tile, fog drawn as "?", every figure and player shown."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from domain.indagar.rules import GAME
from domain.kit import play, table

STATIC = Path(__file__).resolve().parents[2] / "server" / "web" / "static"
DOM = """
class Node { constructor(tag) { this.tag = tag; this.attrs = {}; this.children = []; }
  setAttribute(k, v) { this.attrs[k] = v; } addEventListener() {}
  append(...c) { this.children.push(...c); } prepend(...c) { this.children.unshift(...c); }
  replaceChildren(...c) { this.children = c; } }
class Text extends Node { constructor(t) { super("#text"); this.text = t; } }
globalThis.Node = Node;
globalThis.document = {createElement: (t) => new Node(t), createElementNS: (ns, t) => new Node(t),
                       createTextNode: (t) => new Text(t)};
"""


def _render(tmp_path, view, content):
    for name in ("dom.js", "indagar.js"):
        (tmp_path / name).write_text((STATIC / name).read_text())
    (tmp_path / "run.mjs").write_text(DOM + """
import {renderIndagar} from "./indagar.js";
import {readFileSync} from "node:fs";
const {view, content} = JSON.parse(readFileSync(0, "utf8"));
const root = new Node("div");
renderIndagar(root, view, {seats: [{seat: 0, name: "a"}, {seat: 1, name: "b"}], content, batch: []});
// drawn shapes only: each tile's transparent click target (class "hit", the play layer's) is not drawn
const count = (n, tag) => (n.tag === tag && (n.attrs || {}).class !== "hit" ? 1 : 0)
  + (n.children || []).reduce((a, c) => a + count(c, tag), 0);
const texts = (n) => n.tag === "#text" ? [String(n.text)] : (n.children || []).flatMap(texts);
const find = (n, cls) => (n.attrs || {}).class === cls ? n : (n.children || []).map((c) => find(c, cls)).find(Boolean);
const board = find(root, "ind-board");
const track = find(root, "ind-track");
console.log(JSON.stringify({polygons: count(board, "polygon"), circles: count(board, "circle"), rects: count(board, "rect"),
                            texts: texts(root), fog: texts(board).filter((t) => t === "?").length, markers: count(track, "circle"),
                            boxes: count(track, "rect")}));
""")
    out = subprocess.run(["node", str(tmp_path / "run.mjs")], input=json.dumps({"view": view, "content": content}),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_renderer_draws_the_seats_view_of_a_running_game(tmp_path):
    g = play(GAME, table(GAME, 2, "greedy"), {}, seed=b"viewer", max_steps=120)
    view = json.loads(json.dumps(GAME.view(g.state, 0)))
    drawn = _render(tmp_path, view, json.loads(json.dumps(GAME.content())))
    tiles = len(view["tiles"])
    assert drawn["polygons"] == tiles + len(view["outposts"])
    assert drawn["circles"] == sum(1 for x in view["heroes"].values() if x["tile"])
    assert drawn["rects"] == sum(1 for x in view["monsters"].values() if x["tile"])
    assert drawn["fog"] == len(view["face_down"]) - len(view["known"])
    assert any(t.startswith("Round ") for t in drawn["texts"])
    # The score track: a box per PP up to the threshold, one marker per seat.
    assert drawn["boxes"] == max(view["threshold"], *(view["pp"][str(i)] for i in range(len(view["seats"])))) + 1 and drawn["markers"] == len(view["seats"])
