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
    for name in ("dom.js", "indagar.js", "indagar-cards.js"):
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
    assert set(view["tiles"]) <= set(drawn["texts"])  # each hex shows its id, as move labels name tiles
    # The score track: a box per PP up to the threshold, one marker per seat.
    assert drawn["boxes"] == max(view["threshold"], *(view["pp"][str(i)] for i in range(len(view["seats"])))) + 1 and drawn["markers"] == len(view["seats"])


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_spells_out_every_heros_abilities_and_each_strategy_board(tmp_path):
    """A player reads what each ability does, costs and when it opens (IND-ABL-2, IND-LVL-1, IND-STR-3..8)."""
    g = play(GAME, table(GAME, 2, "greedy"), {"factions": ["arkland", "sect"]}, seed=b"cards", max_steps=400)
    view = json.loads(json.dumps(GAME.view(g.state, 0)))
    content = json.loads(json.dumps(GAME.content()))
    texts = _render(tmp_path, view, content)["texts"]
    # The rulebook's own example (IND-EX-1), its cost authored: one more attack die, at least 2 damage.
    assert "basic: Flaming Sword of Arkland (1 gold): roll 1 more attack die, the defender takes at least 2 damage" in texts
    assert any(t.startswith("basic: Undead Immunity (") and "usable in any turn" in t for t in texts)
    for seat in view["seats"]:
        for hero in seat["heroes"]:
            card, level = content["heroes"][hero], len(view["heroes"][hero]["bonuses"])
            for i, ability in enumerate(card["specials"]):
                name = content["abilities"][ability]["name"]
                opened = [t for t in texts if f": {name} (" in t]
                assert opened, name
                assert ("(not yet)" in opened[0]) == (i >= level), (hero, ability, level)
        command = content["abilities"][content["heroes"][seat["commander"]]["command"]]["name"]
        assert any(t.startswith(f"commander: {command} (") for t in texts), command
    # Each player's three trees, the one in play marked, unlocked abilities with their token's effect.
    assert any(seat["unlocked"] for seat in view["seats"])
    for seat in view["seats"]:
        for tree in (t for t in content["trees"].values() if t["faction"] == seat["faction"]):
            assert any(t.startswith(tree["name"]) for t in texts), tree["name"]
        for ability, face in seat["unlocked"].items():
            name = next(a["name"] for t in content["trees"].values() for a in t["abilities"] if a["id"] == ability)
            assert any(t.startswith(f"{name} (") and ("coin bag" if face == "coin" else "lightning bolt") in t for t in texts)
    assert not [t for t in texts if "[" in t or "{" in t], "every effect in words, no raw data"
    # The lightning bolt adds 1 to the starred number, a resource gain too: "gain 2 wood" gains 3.
    view["seats"][0]["unlocked"] = {a["id"]: "bolt" for t in content["trees"].values() if t["faction"] == "arkland"
                                    for a in t["abilities"]}
    texts = _render(tmp_path, view, content)["texts"]
    assert any(t.startswith("Builders' Guild (1 gold): gain 3 wood* — unlocked, lightning bolt") for t in texts), texts
    assert not [t for t in texts if "[" in t or "{" in t]


def _ended(tmp_path, views):
    for name in ("dom.js", "indagar.js", "indagar-cards.js"):
        (tmp_path / name).write_text((STATIC / name).read_text())
    (tmp_path / "ended.mjs").write_text(DOM + """
import {ended} from "./indagar.js";
import {readFileSync} from "node:fs";
const views = JSON.parse(readFileSync(0, "utf8"));
const seats = [{seat: 0, name: "ann"}, {seat: 1, name: "bo"}, {seat: 2, name: "cy"}];
console.log(JSON.stringify(views.map((view) => ended(view, {seats, content: null}))));
""")
    out = subprocess.run(["node", str(tmp_path / "ended.mjs")], input=json.dumps(views), capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_header_says_when_the_tie_break_decided_the_end(tmp_path):
    """Round 10 ends level at the top: the earliest in the play order wins, and the header says so
    (IND-WIN-4, IND-WIN-6); two players past the threshold likewise; a clear lead names no tie."""
    seats = [{"faction": "arkland"}, {"faction": "sect"}, {"faction": "forest"}]
    tied = {"seats": seats, "threshold": 10, "pp": {"0": 6, "1": 6, "2": 4}, "result": {"reason": "round_limit", "winner": "seat:0"}}
    past = {"seats": seats, "threshold": 10, "pp": {"0": 9, "1": 11, "2": 10}, "result": {"reason": "primacy", "winner": "seat:1"}}
    clear = {"seats": seats, "threshold": 10, "pp": {"0": 5, "1": 7, "2": 4}, "result": {"reason": "round_limit", "winner": "seat:1"}}
    nobody = {"seats": seats, "threshold": 10, "pp": {"0": 0, "1": 0, "2": 0}, "result": {"reason": "round_limit", "winner": None}}
    said = _ended(tmp_path, [tied, past, clear, nobody])
    assert said[0] == ("after round 10, the most power points: 6 (IND-WIN-6); bo had as many, "
                       "decided by the tie-break (earliest in the play order, IND-WIN-4)"), said[0]
    assert said[1] == ("bo reached 10 power points; cy did too, "
                       "decided by the tie-break (earliest in the play order, IND-WIN-4)"), said[1]
    assert said[2] == "after round 10, the most power points: 7 (IND-WIN-6)", said[2]
    assert said[3] == "round 10 ended without a winner (IND-WIN-6)", said[3]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_pending_decision_is_told_in_words_on_the_status_line(tmp_path):
    """The status line says what a waiting seat decides (the move list gives the choices): every
    decision kind the rules ask (DecisionAsked, or a pending entry they append) has its sentence."""
    import re

    source = "\n".join(p.read_text() for p in (Path(__file__).resolve().parents[2] / "domain" / "indagar").glob("*.py"))
    kinds = set(re.findall(r'DecisionAsked", kind="(\w+)"', source)) | set(re.findall(r'pending"\]\.append\(\{"kind": "(\w+)"', source))
    assert {"declare", "redeploy", "monster_target", "window", "explore"} <= kinds, kinds
    g = play(GAME, table(GAME, 2, "greedy"), {}, seed=b"viewer", max_steps=120)
    view = json.loads(json.dumps(GAME.view(g.state, 0)))
    for kind in sorted(kinds):
        view["pending"] = [{"kind": kind, "seat": 1}]
        line = next(t for t in _render(tmp_path, view, json.loads(json.dumps(GAME.content())))["texts"] if "waiting: " in t)
        assert "waiting: b, to " in line and f"({kind.replace('_', ' ')})" not in line, (kind, line)


def _run(tmp_path, body: str, payload):
    """Run ``body`` (JS, ``input`` the payload, ``out(x)`` answers) with indagar.js loaded as ``ind``."""
    for name in ("dom.js", "indagar.js", "indagar-cards.js"):
        (tmp_path / name).write_text((STATIC / name).read_text())
    (tmp_path / "case.mjs").write_text(DOM + """
import * as ind from "./indagar.js";
import {readFileSync} from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
const out = (x) => console.log(JSON.stringify(x));
const all = (n) => [n, ...(n.children || []).flatMap(all)];
const texts = (n) => n.tag === "#text" ? [String(n.text)] : (n.children || []).flatMap(texts);
""" + body)
    done = subprocess.run(["node", str(tmp_path / "case.mjs")], input=json.dumps(payload), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_board_names_tiles_in_words_that_fit_and_takes_the_room_it_has(tmp_path):
    """Hexes printed internal names ("abandoned_outpost", "weapons_cache") that spilled into the next
    hex ("woodabandoned_outpost"), on a board ~365 px wide on a 1400 px screen: each hex shows a word,
    a long one squeezed to fit, the tooltips and the legend the tile's name, and the board is drawn to
    be scaled (a viewBox) to the room the page gives it."""
    g = play(GAME, table(GAME, 2, "greedy"), {}, seed=b"viewer", max_steps=120)
    view = json.loads(json.dumps(GAME.view(g.state, 0)))
    shown = [t for t in view["tiles"] if view["tiles"][t]["type"]]
    for t, kind in zip(shown, ["abandoned_outposts", "weapons_cache", "kelfeerazen", "mountain_fortress", "spirit_cache"]):
        view["tiles"][t]["type"] = kind
    drawn = _run(tmp_path, """
const root = new Node("div");
ind.renderIndagar(root, input.view, {seats: [{seat: 0, name: "a"}, {seat: 1, name: "b"}], content: input.content, batch: []});
const board = all(root).find((n) => (n.attrs || {}).class === "ind-board");
const words = all(board).filter((n) => (n.attrs || {}).class === "ind-kind");
out({viewBox: board.attrs.viewBox || null, size: [board.attrs.width, board.attrs.height], top: all(root).some((n) => (n.attrs || {}).class === "ind-top"),
     words: words.map((n) => [texts(n).join(""), n.attrs.textLength ?? null]),
     titles: all(board).filter((n) => n.tag === "title").map((n) => texts(n).join("")),
     legend: texts(all(root).find((n) => (n.attrs || {}).id === "legend")).join(" ")});
""", {"view": view, "content": json.loads(json.dumps(GAME.content()))})
    assert drawn["viewBox"] == "0 0 {} {}".format(*drawn["size"]) and drawn["top"]  # scaled by the page (web.css)
    said = dict(drawn["words"])
    assert {"old outpost", "weapons", "Kelfeerazen", "fortress", "spirits"} <= set(said), said
    assert not [w for w in said if "_" in w]
    assert all(fit is not None for w, fit in drawn["words"] if len(w) > 8), drawn["words"]
    assert all(fit is None for w, fit in drawn["words"] if len(w) <= 8), drawn["words"]
    assert not [t for t in drawn["titles"] if "_" in t], drawn["titles"]
    assert any(t.endswith(": Abandoned Outposts") for t in drawn["titles"]) and "Weapons Cache" in drawn["legend"]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_attack_names_its_figures_and_the_jargon_is_explained(tmp_path):
    """The attack box read "tijian attacks r1c3 (elowen)": names, not ids. "The last player" and
    "Pass: close the window" were shown unexplained: the status line says who the last player is and
    why, and the labels the page shows explain both."""
    content = json.loads(json.dumps(GAME.content()))
    a = {"attacker": ["monster", "tijian"], "defender": ["hero", "elowen"], "tile": "r1c3", "outpost": 0,
         "breakthrough": False, "adice": [4, 6], "ddice": [5, 1], "min": 0, "extra": 0, "ignore": 0}
    burn = {**a, "attacker": ["hero", "ariane"], "defender": [None, None], "outpost": 2, "adice": [], "ddice": []}
    g = play(GAME, table(GAME, 2, "greedy"), {}, seed=b"viewer", max_steps=120)
    view = json.loads(json.dumps(GAME.view(g.state, 0)))
    view["pending"] = [{"kind": "monster_target", "seat": 1, "options": ["r0c2", "r0c3"]}]
    view["initiative"] = 0
    said = _run(tmp_path, """
const ctx = {seats: [{seat: 0, name: "Alice"}, {seat: 1, name: "Bob"}], content: input.content, batch: []};
const root = new Node("div");
ind.renderIndagar(root, input.view, ctx);
out({attack: ind.attackText(input.a, ctx), burn: ind.attackText(input.burn, ctx),
     status: texts(all(root).find((n) => (n.attrs || {}).class === "ind-status")).join(""),
     labels: ["Leave its target to the last player: r0c2 or r0c3", "Pass: close the window", "Move Ariane Allamond to r1c2"]
       .map((x) => ind.relabel(x))});
""", {"a": a, "burn": burn, "view": view, "content": content})
    assert said["attack"] == ("Tijian the Scoundrel attacks Mother Elowen at r1c3: attack dice 4 6 = 10, defence dice "
                              "5 1 = 6; at least 0 damage, 0 additional, 0 ignored.")
    assert said["burn"].startswith("Ariane Allamond attacks the outpost at r1c3: attack dice not rolled yet")
    assert "as the last player (Bob: last in this round's play order)" in said["status"], said["status"]
    assert said["labels"] == ["Leave its target to the last player (last in the round's play order): r0c2 or r0c3",
                              "Pass: close the window (use no more abilities or spirits now)", "Move Ariane Allamond to r1c2"]
