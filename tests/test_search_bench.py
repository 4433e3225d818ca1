"""`benchmarks.search_bots`: the CPU table times every level on the same positions, and the
report's intervals and paired measure read the games as documented."""
from __future__ import annotations

import json

from benchmarks import search_bots
from domain import registry
from domain.kit import search


def test_positions_are_decisions_with_a_choice_and_repeat():
    spots = search_bots.positions("dwarf", 3)
    game = registry.get("dwarf")
    assert len(spots) == 3
    for state, seat, _version in spots:
        assert game.turn(state).actor is None and seat in game.turn(state).seats
        assert len(game.legal_commands(state, seat)) > 1
    assert [(game.dump_state(s), p, v) for s, p, v in spots] == \
        [(game.dump_state(s), p, v) for s, p, v in search_bots.positions("dwarf", 3)]


def test_cpu_times_every_level_on_the_same_positions():
    rep = search_bots.cpu(1, ["dwarf"])
    per = rep["cpu_s_per_move"]["dwarf"]
    assert list(per) == [search.bot_name(level) for level in search.LEVELS]
    assert all(t["moves"] == 1 and 0 < t["mean"] <= t["max"] for t in per.values())
    assert "| dwarf | `search-hard` | 1 |" in search_bots.cpu_markdown(rep)


def test_cpu_names_the_moves_it_timed_by_a_digest():
    """The same positions and streams choose the same commands: equal digests; another level's
    budget chooses otherwise on some position."""
    one, two = (search_bots.cpu(3, ["dwarf"], ("easy", "hard"))["cpu_s_per_move"]["dwarf"] for _ in range(2))
    assert list(one) == ["search-easy", "search-hard"]
    assert [t["choices"] for t in one.values()] == [t["choices"] for t in two.values()]
    assert len(one["search-easy"]["choices"]) == 64 and one["search-easy"]["choices"] != one["search-hard"]["choices"]


def test_cpu_measures_a_moves_memory_when_asked():
    """``--memory``: each level's largest traced allocation during one move, in MiB; not asked, not measured."""
    asked = search_bots.cpu(2, ["dwarf"], ("easy",), memory=True)["cpu_s_per_move"]["dwarf"]["search-easy"]
    assert 0 < asked["peak_mib"] < 512
    assert "peak_mib" not in search_bots.cpu(1, ["dwarf"], ("easy",))["cpu_s_per_move"]["dwarf"]["search-easy"]


def test_wilson_and_paired():
    assert search_bots.wilson(0, 0) == [0.0, 0.0]
    lo, hi = search_bots.wilson(155, 206)
    assert (round(lo, 2), round(hi, 2)) == (0.69, 0.81)  # the Mountain King duel of search.md
    games = [{"bots": ["search-normal", "heuristic", "heuristic"], "totals": {"seat:0": t},
              "twin_totals": {"seat:0": w}} for t, w in ((5, 3), (2, 2), (0, 4))]
    pair = search_bots.paired(games)
    assert pair["games"] == 3 and pair["wins"] == 1.5  # one better, one equal (half), one worse
    assert pair["mean_diff"] == round((2 + 0 - 4) / 3, 2)


def test_indagar_factions_do_not_follow_the_subjects_seat():
    """Indagar's factions differ in strength: over a cycle of games each faction is the subject's
    as often, and every pairing of factions is played from both sides as often."""
    for config, n in (("indagar:duel", 2), ("indagar:full", 4)):
        faced: dict[tuple[str, str], int] = {}
        for g in range(4 * n):
            _, bots, options = search_bots._table(config, g)
            me = bots.index("search-normal")
            for i, other in enumerate(options["factions"]):
                if i != me:
                    pair = (options["factions"][me], other)
                    faced[pair] = faced.get(pair, 0) + 1
        mine = [sum(k for (m, _), k in faced.items() if m == f) for f in search_bots.FACTIONS]
        assert len(set(mine)) == 1, (config, mine)
        assert all(faced.get((b, a)) == k for (a, b), k in faced.items()), (config, faced)


def test_a_run_resumes_after_its_own_games_and_reuses_only_the_named_commits_twins(tmp_path):
    out = tmp_path / "games.jsonl"
    lines = [{"commit": "new", "config": "saboteur:levels", "g": 0},
             {"commit": "old", "config": "saboteur:levels", "g": 1, "twin_totals": {"seat:0": 4}},
             {"commit": "other", "config": "saboteur:levels", "g": 2, "twin_totals": {"seat:0": 9}}]
    out.write_text("".join(json.dumps(x) + "\n" for x in lines))
    left = search_bots.jobs_left(str(out), "new", ["saboteur:levels"], range(3), twins="old")
    assert left == [("saboteur:levels", 1, {"seat:0": 4}), ("saboteur:levels", 2, None)]
    assert [t for *_, t in search_bots.jobs_left(str(out), "new", ["saboteur:levels"], range(3))] == [None, None]
