"""The job table is the one place job kinds are declared: ids, triggers, runs."""
from __future__ import annotations

import ast
from pathlib import Path

from workers import table

ROOT = Path(__file__).resolve().parents[2]
BOTS = [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}]


def test_ids_keep_their_spelling_and_use_only_rq_safe_characters():
    assert table.job_id("bot", "g1", 7) == "bot-g1-7"
    assert table.job_id("finalize", "g1", 7) == "finalize-g1"
    for kind in table.TABLE:
        assert set(kind.job_id("gabc123", 12)) <= set("abcdefghijklmnopqrstuvwxyz0123456789-_"), kind.name


def test_a_bot_to_act_makes_the_bot_kind_due_and_a_human_nothing(service):
    bots = service.create("tiny", BOTS, {"turns": 1})["id"]
    human = service.create("tiny", [{"name": "ann"}, {"name": "bob"}], {"turns": 1})["id"]
    assert [k.name for k in table.due(service.load(bots))] == ["bot"]
    assert table.due(service.load(human)) == []


def test_running_the_due_kinds_plays_a_game_to_its_end(service):
    gid = service.create("tiny", BOTS, {"turns": 2})["id"]
    seen = []
    for _ in range(20):
        g = service.load(gid)
        kinds = table.due(g)
        if not kinds:
            break
        seen += [k.name for k in kinds]
        for kind in kinds:
            kind.run(service, gid, g.version)
    assert service.store.meta(gid)["status"] == "finished"
    assert seen[-2:] == ["finalize", "compact"] and set(seen) == {"bot", "finalize", "compact"}  # rating: a follower
    assert table.due(service.load(gid)) == []


def test_no_module_but_the_table_names_a_job_kind():
    """Reactor, queue, in-process driver and job entry point read the table; none spells a kind."""
    names = {k.name for k in table.TABLE}
    for path in sorted((ROOT / "workers").glob("*.py")):
        if path.name == "table.py":
            continue
        tree = ast.parse(path.read_text())
        seat_fields = {id(key) for node in ast.walk(tree) if isinstance(node, ast.Dict) for key in node.keys}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in seat_fields:
                assert node.value not in names, f"{path.name} names the job kind {node.value!r}"
