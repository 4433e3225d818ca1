"""The authored content pack against every constraint the spec states (section 30)."""
from __future__ import annotations

from collections import Counter

from domain.indagar import content
from domain.indagar.abilities import ATTACK_EFFECTS, DEFENCE_EFFECTS, TURN_EFFECTS

KEYWORDS = {"charge", "speed", "resilient", "fortified", "burn-not-build"}       # IND-SPR-1, IND-SPR-2, IND-SPR-3, IND-SPR-4, IND-SPR-5
EFFECTS = set(ATTACK_EFFECTS) | set(DEFENCE_EFFECTS) | set(TURN_EFFECTS) | {"defence_bonus"}
IN_ATTACK = set(ATTACK_EFFECTS) | set(DEFENCE_EFFECTS)                           # IND-RST-1's bonus types
POWERS = {"attack_bonus", "defence_bonus", "move_bonus", "income", "pp_if_outposts", "pp_per_burn"}


def test_IND_FAC_1_2_IND_COMP_1_four_factions_with_colours():
    f = content.factions()
    assert set(f) == {"arkland", "forest", "ramal", "sect"}
    assert {x["colour"] for x in f.values()} == {"purple", "green", "red", "black"}


def test_IND_HERO_1_IND_CARD_1_IND_GAP_1_twelve_heroes_three_per_faction_with_every_field():
    heroes = content.heroes()
    assert len(heroes) == 12 and len({h["name"] for h in heroes.values()}) == 12
    assert Counter(h["faction"] for h in heroes.values()) == {f: 3 for f in content.factions()}
    for h in heroes.values():
        for field in ("name", "movement", "attack", "defence", "endurance", "rules", "basic", "command", "specials"):
            assert field in h, (h["id"], field)
        assert len(h["specials"]) == 3                               # one per level slot (IND-LVL-1)
        assert set(h["rules"]) <= KEYWORDS                            # IND-SPR-6: keywords only
        assert all(a in content.abilities() for a in [h["basic"], h["command"], *h["specials"]])
    with_rules = sum(1 for h in heroes.values() if h["rules"])
    assert with_rules > 6 and any(len(h["rules"]) > 1 for h in heroes.values())   # "most", "some more"


def test_IND_GAP_1_2_named_heroes_keep_their_facts():
    h = content.heroes()
    assert h["ariane"]["name"] == "Ariane Allamond" and h["ariane"]["attack"] == 3
    assert h["ariane"]["basic"] == "flaming-sword"
    assert h["zhuan"]["name"] == "Zhuan Zedan" and h["zhuan"]["defence"] + 1 == 2   # base <= 1 as commander
    assert h["sunjun"]["name"] == "Sun Jun" and h["sunjun"]["basic"] == "undead-immunity"
    assert h["zhuan"]["faction"] == h["sunjun"]["faction"] != h["ariane"]["faction"]
    sword, immunity = content.abilities()["flaming-sword"], content.abilities()["undead-immunity"]
    assert sword["effect"] == {"attack_dice": 1, "min_damage": 2} and sword["cost"]
    assert immunity["effect"] == {"ally_defence": 1} and immunity["always"] and immunity["cost"]


def test_IND_FAC_3_IND_SPR_5_every_sect_hero_burns_not_builds():
    for h in content.heroes().values():
        assert ("burn-not-build" in h["rules"]) == (h["faction"] == "sect")


def test_IND_ABL_14_IND_GAP_13_ability_records():
    """Costs in gold/wood/ore only (IND-ABL-4); passive ones are free; every effect is one the
    engine knows; what works in an attack is only the bonus types of IND-RST-1."""
    for a in [*content.abilities().values(), *content.tree_abilities().values()]:
        assert set(a.get("cost") or {}) <= set(content.RESOURCES), a["id"]
        assert set(a["effect"]) <= EFFECTS | {"storm"}, a["id"]
        if a.get("passive"):
            assert not a.get("cost") and set(a["effect"]) == {"defence_bonus"}
        if a.get("restricted"):
            assert not set(a["effect"]) & IN_ATTACK
        if "storm" in a["effect"]:
            assert a.get("restricted"), a["id"]                       # direct damage: IND-GAP-3


def test_IND_STR_1_2_IND_GAP_3_four_boards_three_trees_one_power_three_abilities_each():
    boards = content.boards()
    assert set(boards) == set(content.factions())
    for b in boards.values():
        assert b["name"] and len(b["trees"]) == 3
        for t in b["trees"]:
            assert set(t["power"]) <= POWERS and len(t["power"]) == 1
            assert len(t["abilities"]) == 3
            for a in t["abilities"]:
                assert a.get("cost"), a["id"]                           # the coin bag has something to cut
                assert a["star"] in a["effect"], a["id"]                # every tree ability has a * number
    assert any("pp_if_outposts" in t["power"] for t in content.trees().values())   # IND-PP-4
    storm = content.tree_abilities()["wild-storm"]
    assert content.trees()[storm["tree"]]["faction"] == "forest"


def test_IND_GAP_12_strategy_tokens_suffice_for_nine_unlocks():
    """Strategy tokens are unlimited (one per unlock, at most 3 trees x 3 abilities)."""
    assert sum(len(t["abilities"]) for t in content.boards()["arkland"]["trees"]) == 9


def test_IND_MON_2_5_6_IND_GAP_5_primary_monster_cards():
    m = content.monsters()
    assert set(m) == {"helgoth", "tijian", "oryana", "spirit-walker"}
    assert {c["script"] for c in m.values()} == set(m)
    for c in m.values():
        assert len(c["levels"]) == 3 and all(len(lv) == 4 and min(lv) >= 1 for lv in c["levels"])
        assert all(a <= b for lo, hi in zip(c["levels"], c["levels"][1:]) for a, b in zip(lo, hi))
        (what, n), = c["victory"].items()
        assert what in {"outposts_destroyed", "tiles_destroyed", "spirits_held", "heroes_retreated"} and n > 0


def test_IND_EVM_1_IND_MLVL_3_event_monsters_have_fixed_values_and_no_levels():
    e = content.event_monsters()
    assert {k: (v["attack"], v["defence"], v["endurance"], v["movement"], v["xp"]) for k, v in e.items()} == {
        "kakonositel": (3, 2, 6, 2, 3), "kelfeerazen": (4, 3, 8, 2, 4), "groxiah": (5, 4, 8, 2, 5)}
    assert all("levels" not in v for v in e.values())


def test_IND_EVT_17_IND_GAP_10_event_pool():
    pool = content.tiles()["events"]
    assert len(pool) == 14 and sum(pool.values()) >= 12
    assert pool["kakonositel"] == pool["kelfeerazen"] == pool["groxiah"] == 1
    assert {k: v["events"] for k, v in content.tiles()["mix"].items()} == {1: 12, 2: 9, 3: 12, 4: 12}


def test_IND_GAP_9_IND_MLVL_2_demon_heads():
    heads = content.tiles()["demon_heads"]
    assert len(heads) == 10 and set(heads) <= {1, 2, 3} and heads[5] == 2
    assert heads == sorted(heads)


def test_IND_COMP_2_3_outpost_pieces_and_unlimited_supplies():
    from domain.indagar.state import PIECES
    assert PIECES == {1: 6, 2: 4, 3: 2}
