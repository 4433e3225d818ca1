"""What each seat sees (SAB-INFO-1, SAB-ROLE-2, SAB-TURN-5, SAB-MAP-2, SAB-GOLD-10)."""
from domain.saboteur.rules import GAME
from saboteur_support import Table
from tests.support.positions import edit


def test_SAB_INFO_1_seat_view_shows_own_secrets_and_public_table():
    t = Table(5, first_player=0)
    s = t.state
    v = GAME.view(s, 2)
    assert [c["card"] for c in v["you"]["hand"]] == s["hands"][2]
    assert v["you"]["role"] == s["roles"][2] and v["players"][2]["role"] == s["roles"][2]
    assert all(p["role"] is None for p in v["players"] if p["seat"] != 2)
    assert [p["hand_count"] for p in v["players"]] == [6] * 5
    assert all(p["hand"] is None for p in v["players"])
    assert v["deck_count"] == len(s["deck"]) and v["discard_count"] == 0
    assert v["turn"] == 0 and v["round"] == 1 and v["phase"] == "play"
    assert all(g["shape"] is None for g in v["goals"].values())
    assert v["maze"]["0,0"]["edges"] == "NESW"
    assert v["leftover_role"] is None


def test_SAB_INFO_1_spectator_sees_only_public_information():
    t = Table(6)
    v = GAME.view(t.state, None)
    assert "you" not in v
    assert all(p["role"] is None and p["hand"] is None for p in v["players"])
    for ev in t.events:
        red = GAME.redact(ev, None)
        if ev["type"] == "HandDealt":
            assert red["data"] == {"seat": ev["data"]["seat"], "count": 5}
        if ev["type"] in ("RoleDealt", "RoleSetAside", "GoalsShuffled", "DeckShuffled"):
            assert "role" not in red["data"] and "goals" not in red["data"] and "cards" not in red["data"]


def test_SAB_ROLE_2_only_the_owner_sees_the_dealt_role():
    t = Table(4)
    for ev in (e for e in t.events if e["type"] == "RoleDealt"):
        owner = ev["data"]["seat"]
        assert GAME.redact(ev, owner) == ev
        assert GAME.redact(ev, (owner + 1) % 4)["data"] == {"seat": owner}


def test_SAB_TURN_5_drawn_card_is_seen_by_the_drawer_only():
    t = Table(4, first_player=0)
    evs = t.do(0, {"type": "pass", "card": t.state["hands"][0][0]})
    drawn = next(e for e in evs if e["type"] == "CardDrawn")
    assert GAME.redact(drawn, 0) == drawn and GAME.redact(drawn, 1)["data"] == {"seat": 0}


def test_SAB_INFO_1_everything_is_shown_after_the_game():
    t = Table(3, first_player=0)
    edit(GAME, t.state, "phase = over")
    v = GAME.view(t.state, None)
    assert all(p["role"] is not None and p["hand"] is not None and p["gold"] is not None for p in v["players"])
    assert all(g["shape"] for g in v["goals"].values()) and v["treasure_goal"] in "ABC"


def test_SAB_INFO_1_public_actions_are_not_redacted():
    t = Table(4, first_player=0)
    card = t.free(lambda c: c.kind == "break")
    t.give(0, card)
    evs = t.do(0, {"type": "break_tool", "card": card, "target": 1})
    assert GAME.redact(evs[0], None) == evs[0]
    tool = evs[0]["data"]["tool"]
    assert GAME.view(t.state, 3)["players"][1]["broken_tools"] == {tool: {"card": card, "by": 0}}


def test_after_a_resignation_everyone_sees_everything_as_after_the_last_round():
    """A game ended by a resignation (a platform command, the rules' round still open) shows every
    role, hand, gold card and goal, as a game ended by its third round does (DESIGN.md: after the
    end everyone sees everything); before it, a spectator saw none of them."""
    from domain.core import Drbg, fold
    from domain.kit import play, table
    from domain.saboteur.rules import GAME

    g = play(GAME, table(GAME, 3, "heuristic"), {}, seed=b"resign-view", max_steps=20)
    before = GAME.view(g.state, None)
    assert any(p["role"] is None for p in before["players"])
    seat = sorted(GAME.turn(g.state).seats)[0]
    s = fold(GAME, GAME.decide_platform(g.state, seat, {"type": "resign"}, Drbg(b"x", "v")), g.state)
    assert g.state["phase"] != "over" and GAME.is_terminal(s)
    after = GAME.view(s, None)
    assert all(p["role"] in ("miner", "saboteur") and p["hand"] is not None for p in after["players"])
    assert all(goal["shape"] is not None for goal in after["goals"].values())


def test_SAB_GOLD_10_the_public_label_of_a_gold_choice_counts_the_cards_and_names_no_value():
    """The events show the other seats how many gold cards a player took, never their values; the
    moves list labels the same choice for them (an outside audit read "Take gold 3 + 1" there)."""
    t = Table(5, first_player=0)
    command = {"type": "take_gold", "values": [3, 1]}
    assert GAME.label(t.state, 2, command, public=True) == "Take 2 gold cards"
    assert GAME.label(t.state, 2, {"type": "take_gold", "values": [3]}, public=True) == "Take 1 gold card"
    assert GAME.label(t.state, 2, command, public=False) == "Take gold 3 + 1"
