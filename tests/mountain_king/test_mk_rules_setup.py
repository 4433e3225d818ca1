"""Setup, options, doors, the starter draft and secrecy (MK-SETUP, MK-PSETUP, MK-TEAM, MK-INFO)."""
from collections import Counter

import pytest

from domain.core import Illegal
from domain.mountain_king import content
from domain.mountain_king.catalog import starting_row
from domain.mountain_king.rules import GAME

from mk_driver import apply, new_game, ready


def test_options_defaults_by_player_count_MK_BOARD_1():
    assert GAME.validate_options({}, 3) == {"board": "autumn", "teams": False, "clan_carts_generic_payment": False,
                                            "unlimited_supply": False, "hall_mirroring": False, "workshops": None,
                                            "replace_duplicate_workshops": False, "colours": None,
                                            "start_player": 0}
    assert GAME.validate_options({}, 4)["board"] == "winter"
    assert GAME.validate_options({"board": "winter"}, 2)["board"] == "winter"
    with pytest.raises(Illegal) as e:
        GAME.validate_options({"board": "winter"}, 3)
    assert e.value.rule == "MK-BOARD-1"


def test_options_unknown_key_refused():
    with pytest.raises(Illegal) as e:
        GAME.validate_options({"speed": 2}, 3)
    assert e.value.code == "unknown_option"


def test_MK_TEAM_1_teams_need_exactly_four_seats():
    with pytest.raises(Illegal):
        GAME.validate_options({"teams": True}, 5)
    assert GAME.validate_options({"teams": True}, 4)["board"] == "winter"
    with pytest.raises(Illegal):
        GAME.validate_options({"teams": "yes"}, 4)


def test_MK_SETUP_3_4_horde_pyramid_and_pedestals():
    """MK-SETUP-4: 4 pedestals drawn onto the middle row, 14 left in the bag, choose-pedestal tokens on top."""
    s, _ = new_game(3)
    slots = s["horde"]["slots"]
    assert sorted(slots) == sorted([f"B{j}" for j in range(1, 6)] + [f"M{j}" for j in range(1, 5)]
                                   + ["T1", "T2", "T3"])
    assert {lv: len(d) for lv, d in s["horde"]["decks"].items()} == {"1": 16, "2": 13, "3": 14}
    assert all(slots[f"M{j}"]["ped"] in ("fire", "ice", "moon") for j in range(1, 5))
    assert sum(s["bag"].values()) == 14
    view = GAME.view(s, None)
    assert all(view["horde"]["slots"][t]["choose_pedestal"] for t in ("T1", "T2", "T3"))


def test_MK_SETUP_5_coronation_tokens_by_player_count():
    assert new_game(2)[0]["coronation"]["left"] == [3]
    assert new_game(3)[0]["coronation"]["left"] == [5, 3]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_MK_SETUP_6_7_workshops_and_spellbook(players):
    """MK-SETUP-7: the 17 spells are shuffled into a deck and 3 revealed as the spellbook."""
    s, _ = new_game(players)
    assert len(s["ws_supply"]) == 2 * players + 1
    assert max(Counter(s["ws_supply"]).values()) <= 2
    assert len(s["spells"]["book"]) == 3 and len(s["spells"]["deck"]) == 14


def test_MK_SETUP_8_statues_repeat_one_clan_order_clockwise():
    s, _ = new_game(4)
    spaces = content.board("winter").statue_spaces
    clans = [s["statues"][f"{r},{c}"] for r, c in spaces]
    n = len(clans)

    def fits(b):
        order = [clans[(b + k) % n] for k in range(3)]
        return len(set(order)) == 3 and all(clans[(b + k) % n] == order[k % 3] for k in range(n))

    assert any(fits(b) for b in range(n))


def test_MK_SETUP_9_pedestal_tokens_one_per_level_and_clan():
    s, _ = new_game(4)
    assert len(s["ped_track"]) == 15
    assert sorted(s["ped_track"].values()) == sorted(content.pedestal_tokens())


def test_MK_PSETUP_3_doors_in_turn_order_and_not_twice():
    s, _ = new_game(4)
    assert GAME.active_seats(s) == {0}
    with pytest.raises(Illegal) as e:
        apply(s, 1, {"type": "place_door", "point": "A"})
    assert e.value.code == "not_your_turn"
    s, _ = apply(s, 0, {"type": "place_door", "point": "A"})
    assert {"type": "place_door", "point": "A"} not in GAME.legal_commands(s, 1)
    with pytest.raises(Illegal):
        apply(s, 1, {"type": "place_door", "point": "A"})


def test_MK_PSETUP_3_1_two_players_share_a_label():
    s, _ = new_game(2, {"board": "winter"})
    first = GAME.legal_commands(s, 0)[0]["point"]
    s, _ = apply(s, 0, {"type": "place_door", "point": first})
    labels = set(content.board("winter").start_point(first).labels)
    for cmd in GAME.legal_commands(s, 1):
        assert labels & set(content.board("winter").start_point(cmd["point"]).labels)


def test_MK_TEAM_3_teammates_doors_on_a_pair():
    s = ready(4, {"teams": True})
    pairs = {frozenset(p) for p in content.board("winter").team_pairs}
    assert frozenset([s["door_points"][0], s["door_points"][3]]) in pairs
    assert frozenset([s["door_points"][1], s["door_points"][2]]) in pairs


def test_MK_PSETUP_4_draft_keeps_one_of_two_four_times():
    s, _ = new_game(3)
    while s["phase"] == "doors":
        s, _ = apply(s, s["current"], GAME.legal_commands(s, s["current"])[0])
    assert s["phase"] == "draft" and GAME.active_seats(s) == {0, 1, 2}
    for _ in range(4):
        hand = s["draft"][1]["hand"]
        assert len(hand) == 2
        cmds = GAME.legal_commands(s, 1)
        assert {c["card"] for c in cmds} == set(hand)
        s, _ = apply(s, 1, cmds[0])
    assert len(s["rosters"][1]) == 4 and GAME.legal_commands(s, 1) == []
    assert len(s["draft"][1]["hand"]) == 1 and len(s["draft"][1]["deck"]) == 1


def test_MK_INFO_1_draft_hand_and_decks_hidden():
    s, events = new_game(3)
    while s["phase"] == "doors":
        s, more = apply(s, s["current"], GAME.legal_commands(s, s["current"])[0])
        events += more
    hand = s["draft"][0]["hand"]
    assert GAME.view(s, 0)["players"][0]["draft"]["hand"] == hand
    for viewer in (1, None):
        text = str(GAME.view(s, viewer))
        assert GAME.view(s, viewer)["players"][0]["draft"]["hand"] == 2
        for deck in s["horde"]["decks"].values():
            assert str(deck[0]) not in text or deck[0] in str(GAME.view(s, viewer)["horde"]["slots"])
    drawn = [e for e in events if e["type"] == "StartersDrawn" and e["data"]["seat"] == 0][0]
    assert "cards" not in GAME.redact(drawn, 1)["data"]
    assert GAME.redact(drawn, 0)["data"]["cards"] == hand
    dealt = next(e for e in events if e["type"] == "HordeDealt")
    assert GAME.redact(dealt, None)["data"]["decks"] == {"1": 16, "2": 13, "3": 14}
    spells = next(e for e in events if e["type"] == "SpellbookRevealed")
    assert GAME.redact(spells, 2)["data"]["deck"] == 14


def _draft_all(players, options=None):
    s, _ = new_game(players, options)
    while s["phase"] == "doors":
        s, _ = apply(s, s["current"], GAME.legal_commands(s, s["current"])[0])
    before = {p: (list(s["draft"][p]["deck"])) for p in range(players)}
    hands = {}
    while s["phase"] == "draft":
        seat = min(GAME.active_seats(s))
        if len(s["draft"][seat]["placed"]) == 3:
            cmd = GAME.legal_commands(s, seat)[0]
            hands[seat] = [c for c in s["draft"][seat]["hand"] if c != cmd["card"]][0]
            deck_card = s["draft"][seat]["deck"][0]
            before[seat] = deck_card
        s, _ = apply(s, seat, GAME.legal_commands(s, seat)[0])
    return s, hands, before


def _bottoms(cards):
    out = Counter()
    for c in cards:
        out.update(starting_row(c))
    return out


def test_MK_PSETUP_6_7_EX_14_turn_order_bonus_five_players():
    s, hands, decks = _draft_all(5)
    for seat in range(5):
        placed = [t["card"] for t in s["rosters"][seat].values()]
        want = _bottoms(placed)
        if seat >= 1:
            want += _bottoms([hands[seat]])
        if seat >= 3:
            want += _bottoms([decks[seat]])
        got = Counter({r: n for r, n in s["stores"][seat].items() if n})
        assert got == want, seat
    assert s["draft"] is None  # MK-PSETUP-8: unplaced starters back to the box


def test_MK_TEAM_6_team_storage_and_no_bonus():
    s, _hands, _decks = _draft_all(4, {"teams": True})
    assert len(s["stores"]) == 2
    for team, mates in ((0, (0, 3)), (1, (1, 2))):
        placed = [t["card"] for m in mates for t in s["rosters"][m].values()]
        got = Counter({r: n for r, n in s["stores"][team].items() if n})
        assert got == _bottoms(placed)


def test_MK_PSETUP_9_first_turn_state():
    s = ready(3)
    assert s["phase"] == "play" and s["current"] == 0 and s["turn"]["step"] == "spells"
    assert all(not any(t["held"]) for r in s["rosters"] for t in r.values())
    assert all(sum(p.values()) == 0 for p in s["peds"])
    assert [p["kind"] for p in s["pieces"].values()] == ["door"] * 3


def test_MK_AMB_28_view_is_public_but_for_secrets():
    s = ready(4)
    for viewer in (None, 0, 2):
        v = GAME.view(s, viewer)
        assert v["horde"]["decks"] == {lv: len(d) for lv, d in s["horde"]["decks"].items()}
        assert v["spell_deck"] == len(s["spells"]["deck"])
        assert "deck" not in str(v["spellbook"])
        assert {p["seat"] for p in v["players"]} == {0, 1, 2, 3}
        assert v["players"][1]["storage"] == s["stores"][1]
        assert v["networks"] and v["pieces"] == s["pieces"]
        hidden = set(s["spells"]["deck"]) - {c["id"] for c in s["spells"]["book"]}
        assert not any(f"'{h}'" in str(v) for h in hidden)


def test_scores_before_play_are_zero_and_live_during_play():
    s, _ = new_game(3)
    board = GAME.scores(s)
    assert not board.final and all(x.total == 0 for x in board.seats)
    s = ready(3)
    assert set(GAME.scores(s).seats[0].breakdown) == {"tunnels", "coronation", "pedestals", "leftover_sets",
                                                      "great_halls", "statues"}


def test_MK_SETUP_6_1_chosen_workshops_and_6_2_no_duplicates():
    """MK-SETUP-6.2: the random reveal may replace duplicates of tiles already revealed."""
    chosen = ["tool_forge", "tool_forge", "spellweaver", "stone_mill", "runeforge"]
    s, _ = new_game(2, {"workshops": chosen})
    assert s["ws_supply"] == sorted(chosen)
    with pytest.raises(Illegal) as e:
        GAME.validate_options({"workshops": ["tool_forge"] * 3 + ["spellweaver", "runeforge"]}, 2)
    assert e.value.rule == "MK-SETUP-6.1"
    for seed in (b"a", b"b", b"c"):
        s, _ = new_game(5, {"replace_duplicate_workshops": True}, seed)
        assert len(set(s["ws_supply"])) == 11


def test_MK_AMB_4_unlimited_supply_option():
    s, _ = new_game(3, {"unlimited_supply": True})
    assert min(s["supply"].values()) > 10 ** 5


def test_MK_INFO_1_canaries_never_leak_over_a_whole_game():
    """Deck cards, the spell deck and others' draft hands never show in a view or a redacted event."""
    import json as _json

    from mk_driver import play

    def no_leak(s, events=None):
        secrets = {c for d in s["horde"]["decks"].values() for c in d} | set(s["spells"]["deck"])
        hands = {p: set(s["draft"][p]["hand"]) | set(s["draft"][p]["deck"]) for p in range(4)} if s["draft"] else {}
        for viewer in (None, 0, 1, 2, 3):
            text = _json.dumps(GAME.view(s, viewer))
            assert not [x for x in secrets if f'"{x}"' in text]
            for p, cards in hands.items():
                if p != viewer:
                    assert not [x for x in cards if f'"{x}"' in text and x not in str(s["rosters"][p])]

    no_leak(new_game(4, seed=b"canary")[0])
    _, events, _ = play(4, seed=b"canary", max_steps=400, check=no_leak)
    hidden = {"HordeDealt": {"1": 16, "2": 13, "3": 14}, "SpellbookRevealed": 14, "StarterDecksShuffled": [6] * 4}
    field = {"HordeDealt": "decks", "SpellbookRevealed": "deck", "StarterDecksShuffled": "decks"}
    for ev in events:
        if ev["type"] in hidden:
            for viewer in (None, 1):
                assert GAME.redact(ev, viewer)["data"][field[ev["type"]]] == hidden[ev["type"]]


def test_MK_PSETUP_1_chosen_colours():
    s = ready(2, {"colours": ["teal", "magenta"]})
    assert s["colours"] == ["teal", "magenta"]
    assert all(t["card"].startswith("teal-") for t in s["rosters"][0].values())
    with pytest.raises(Illegal):
        GAME.validate_options({"colours": ["teal", "teal"]}, 2)
    with pytest.raises(Illegal):
        GAME.validate_options({"colours": ["teal", ["x"]]}, 2)


def test_MK_PSETUP_1_start_player_leads_doors_bonus_and_turns_MK_GEN_4():
    s, events = new_game(4, {"start_player": 2})
    assert GAME.active_seats(s) == {2}
    while s["phase"] != "play":
        seat = min(GAME.active_seats(s))
        s, more = apply(s, seat, GAME.legal_commands(s, seat)[0])
        events += more
    assert s["current"] == 2 and s["order"] == [2, 3, 0, 1]
    bonus = {e["data"]["seat"]: len(e["data"]["cards"]) for e in events if e["type"] == "StartingResourcesTaken"}
    assert bonus == {2: 4, 3: 5, 0: 5, 1: 6}  # 1st: none; 2nd, 3rd: hand; 4th: hand + deck (MK-PSETUP-7)
    s, _ = apply(s, 2, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    s, ev = apply(s, 2, {"type": "end_turn"})
    assert {"type": "TurnStarted", "data": {"seat": 3, "round": 1}} in ev
    t = ready(4, {"start_player": 1, "teams": True})
    assert t["teams"] == [[1, 0], [2, 3]] and t["store_of"] == [0, 0, 1, 1]
    with pytest.raises(Illegal):
        GAME.validate_options({"start_player": 4}, 4)


def test_a_draft_label_tells_its_owner_what_each_starter_makes_and_others_nothing():
    """The owner chooses between two starter trolls (MK-PSETUP-6, MK-GAP-6): their own label says what
    each makes at activation and gives at the start; the public label names no card (MK-INFO-1)."""
    from domain.mountain_king import labels

    troll = content.TABLES["trolls"]["magenta-3"]
    assert (troll.top, troll.bottom) == (("coin",), ("stone", "stone", "stone"))
    cmd = {"type": "draft", "card": "magenta-3", "slot": 0}
    assert labels.label({}, cmd, False) == \
        "Draft magenta-3 (makes 1 coin each activation; starts you with 3 stone) to slot 0"
    assert labels.label({}, cmd, True) == "Draft a starter troll to slot 0"
