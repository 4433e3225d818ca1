"""The authored content pack against every constraint of DW-GAP-1..7 and DW-CARD."""
from __future__ import annotations

from collections import Counter

from domain.dwarf import content
from domain.dwarf.grid import LOCATIONS

CARDS = content.cards()
EFFECTS = content.effects()


def _kind(kind):
    return [c for c in CARDS.values() if c.kind == kind]


def test_DW_GAP_1_DW_SETUP_1_nine_starting_cards_one_lantern_one_per_location():
    """DW-GAP-1, DW-SETUP-1, DW-RN-3: 9 starting cards, 1 lantern, each on its own location."""
    start = _kind("starting")
    assert len(start) == 9 and all(c.lanterns == 1 for c in start)
    assert sorted(c.location for c in start) == sorted(LOCATIONS)
    gains = {EFFECTS[c.effect].type for c in start if not EFFECTS[c.effect].cost and EFFECTS[c.effect].gain}
    assert "mine" in gains  # recommended: something to gain in round 1 with no resources


def test_DW_GAP_2_DW_CARD_4_forty_five_mountain_cards_five_per_location():
    """DW-GAP-2, DW-CARD-4, DW-COMP-1: 45 Mountain cards, 5 per location, 2 or 3 lanterns;
    with the starting card, 6 per location."""
    mountain = _kind("mountain")
    assert len(mountain) == 45
    assert Counter(c.location for c in mountain) == {loc: 5 for loc in LOCATIONS}
    assert {c.lanterns for c in mountain} == {2, 3}
    assert len(mountain) + len(_kind("starting")) == 54


def test_DW_GAP_2_named_effects_appear_and_types_are_legal():
    """DW-GAP-2, DW-GLOS-1..10, DW-SYM-1, DW-SYM-2, DW-AMB-24: every named effect is on some
    Mountain card; Gold Vein and Alloy Steel are Mine actions; forges make one Object."""
    used = {c.effect for c in _kind("mountain")}
    for name in ("gold_vein", "alloy_steel", "forge_sword", "orc_raiders", "knockers", "dragon",
                 "great_dragon", "sidhe", "receive_help"):
        assert name in used
    assert EFFECTS["gold_vein"].type == "mine" and EFFECTS["gold_vein"].gain == {"gold": 1}
    assert EFFECTS["alloy_steel"].type == "mine"
    assert EFFECTS["alloy_steel"].cost == {"iron": 3} and EFFECTS["alloy_steel"].gain == {"steel": 2}
    assert EFFECTS["forge_sword"].cost == {"steel": 3}
    for e in EFFECTS.values():
        if e.type == "forge":
            assert e.gain == {"object": 1}, e.id  # DW-GLOS-3
    for c in CARDS.values():
        assert EFFECTS[c.effect].type in content.ACTION_TYPES


def test_DW_GAP_2_forge_costs_payable_from_mine_output_and_iron_producible():
    """DW-GAP-2, DW-GAP-7: a Mine-type card produces Iron; every forge cost is made of
    resources Mine actions produce."""
    produced = {r for e in EFFECTS.values() if e.type == "mine" for r in e.gain}
    assert "iron" in produced
    assert any(EFFECTS[c.effect].gain.get("iron") for c in CARDS.values() if EFFECTS[c.effect].type == "mine")
    for e in EFFECTS.values():
        if e.type == "forge":
            assert set(e.cost) <= produced, e.id


def test_DW_GAP_2_great_dragon_among_three_lantern_cards():
    """DW-GAP-2 (recommended), DW-AMB-9: the strongest threat comes late in the Alternative Mountain."""
    assert all(c.lanterns == 3 for c in _kind("mountain") if c.effect == "great_dragon")


def test_DW_GAP_3_DW_CARD_5_nine_special_action_cards_two_sided():
    """DW-GAP-3, DW-CARD-5: 9 Special Action cards, a special side and a Mine side."""
    specials = _kind("special")
    assert len(specials) == 9
    for c in specials:
        assert c.special in EFFECTS and EFFECTS[c.special].type == "special"
        assert c.location in LOCATIONS and c.lanterns is None


def test_DW_CARD_6_DW_AMB_25_every_card_has_primary_and_fallback_icons():
    """DW-CARD-6, DW-AMB-25, DW-CARD-1: two different preference icons on every Mine card's grid."""
    for c in CARDS.values():
        assert c.primary in LOCATIONS and c.fallback in LOCATIONS and c.primary != c.fallback, c.id


def test_DW_GAP_4_DW_GAP_5_DW_GAP_6_resolved_by_options_not_content():
    """DW-GAP-4 (reference cards: no engine use), DW-GAP-5 (cost, DW-AMB-1), DW-GAP-6 (Orc Raiders,
    DW-AMB-2) are options with the proposed defaults."""
    from domain.dwarf.options import OPTIONS_SCHEMA
    from domain.kit import option_defaults
    DEFAULTS = option_defaults(OPTIONS_SCHEMA)
    assert DEFAULTS["special_action_cost_resource"] == "medal" and DEFAULTS["special_action_cost_amount"] == 4
    assert DEFAULTS["orc_raiders_forbids"] == "forge"
