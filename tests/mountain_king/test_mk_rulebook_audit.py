"""An outside rules audit of Mountain King, written from the original rulebook.

Each test quotes the Traditional Chinese rulebook (/work/shared/seeds/002_*.txt; the Spanish
one, 000_*.txt, where it says more) and cites the rule IDs of domain/mountain_king/RULES.md.
The audit looked where earlier ones might not have: setup at every table size and in the
2v2 game, every category of the final score and the tie-break, the end trigger and the final
rounds, the follow-ups of a dig and the hall and statue steps, trading and the supply's
limits, deck exhaustion and refills, and the spec's ambiguities (section 27). Positions are
set up with the project's text positions (tests/support/positions.py and the verbs of
domain/mountain_king/positions.py); whole games are played with mk_driver.

Where the rulebook leaves a point open the tests pin Delve's ruling and say so: those are
reported as ambiguities, not defects.
"""
from __future__ import annotations

from collections import Counter

import pytest

from domain.core import Drbg, Illegal
from domain.mountain_king import content
from domain.mountain_king.catalog import level, starting_row
from domain.mountain_king.rules import GAME
from domain.mountain_king.scoring import CATEGORIES, breakdowns, final_scores

from mk_driver import apply, new_game, play, resume, types
from tests.support.positions import edit, position

WINTER = content.board("winter")
TABLES = [(2, {}), (2, {"board": "winter"}), (3, {}), (4, {}), (5, {}), (4, {"teams": True})]
NINE = "2,1 2,2 2,3 3,1 3,2"  # with the 4 starters: 9 trolls, the 10th tops the pyramid


def of_type(cmds, kind):
    return [c for c in cmds if c["type"] == kind]


def data(events, kind):
    return [e["data"] for e in events if e["type"] == kind]


def refused(s, seat, cmd):
    with pytest.raises(Illegal) as e:
        GAME.decide(s, seat, cmd, Drbg(b"audit", "refused"))
    return e.value.code, e.value.rule


# =========================================================================== setup, every table

def test_MK_BOARD_1_MK_SETUP_1_the_board_side_follows_the_player_count():
    """«4或5人遊戲使用冬季版圖，3人遊戲使用秋季版圖，2人遊戲使用任意版圖均可»; the team game
    «確保你們的大門在遊戲版圖的冬季一側彼此相鄰»."""
    for n, allowed in ((2, {"winter", "autumn"}), (3, {"autumn"}), (4, {"winter"}), (5, {"winter"})):
        for side in ("winter", "autumn"):
            if side in allowed:
                assert GAME.validate_options({"board": side}, n)["board"] == side
            else:
                with pytest.raises(Illegal) as e:
                    GAME.validate_options({"board": side}, n)
                assert e.value.rule == "MK-BOARD-1"
    with pytest.raises(Illegal):
        GAME.validate_options({"teams": True, "board": "autumn"}, 4)
    assert GAME.validate_options({"teams": True}, 4)["board"] == "winter"


@pytest.mark.parametrize("n, options", TABLES)
def test_MK_SETUP_3_to_6_the_table_at_every_player_count(n, options):
    """«在最下面一行，面朝上放置五張1級巨魔卡牌 … 中間一行 … 四張2級 … 最上面一行 … 三張3級»,
    «隨機抽出四個雕像基座，分別在每個2級巨魔卡牌上面各放置一個», «將兩個加冕得分標記疊放 …
    5分標記在上，3分標記在下。在兩人遊戲中，將5分標記放回遊戲盒子中», «翻出玩家人數乘以2再加1塊
    板塊（例如，3位玩家就是7塊板塊）» -- the team game is a 4-player game: 9 workshops, both
    coronation tokens."""
    s, _ = new_game(n, options)
    slots = s["horde"]["slots"]
    assert [sum(1 for k in slots if k[0] == row) for row in "BMT"] == [5, 4, 3]
    assert all(level(slots[k]["card"]) == {"B": 1, "M": 2, "T": 3}[k[0]] for k in slots)
    assert [len(s["horde"]["decks"][lv]) for lv in "123"] == [21 - 5, 17 - 4, 17 - 3]
    assert [k for k in slots if slots[k]["ped"]] == ["M1", "M2", "M3", "M4"] and sum(s["bag"].values()) == 14
    assert s["coronation"]["left"] == ([3] if n == 2 else [5, 3])
    assert len(s["ws_supply"]) == 2 * n + 1
    assert len(s["spells"]["book"]) == 3 and len(s["spells"]["deck"]) == 14
    assert len(s["ped_track"]) == 15


@pytest.mark.parametrize("n", [3, 4, 5])
def test_MK_PSETUP_3_doors_on_the_points_labelled_with_the_player_count(n):
    """«從起始玩家開始，按照順時針順序，每位玩家將大門板塊放在一個遊戲版圖上數字等同於玩家數量的
    大門起始點上(例如: 4位玩家就使用所有標有4的起始點)»: every offer, in turn order, is a free point
    carrying the label n."""
    s, _ = new_game(n, {"start_player": n - 1})
    side = content.board(s["board"])
    placed = []
    while s["phase"] == "doors":
        assert s["current"] == s["order"][len(placed)]
        offers = {c["point"] for c in GAME.legal_commands(s, s["current"])}
        assert offers and all(n in side.start_point(p).labels for p in offers) and not offers & set(placed)
        point = min(offers)
        s, _ = apply(s, s["current"], {"type": "place_door", "point": point})
        placed.append(point)
    assert len(set(placed)) == n


def test_MK_PSETUP_3_1_two_players_any_two_points_with_the_same_number():
    """«在2人遊戲中，使用任意兩個相同數字的大門起始點均可»: on Autumn only the 3s exist; on Winter
    a point marked only 5 leaves the second player only other 5s."""
    s, _ = new_game(2)
    autumn = content.board("autumn")
    assert {c["point"] for c in GAME.legal_commands(s, 0)} == {p.id for p in autumn.start_points}
    s, _ = new_game(2, {"board": "winter"})
    s, _ = apply(s, 0, {"type": "place_door", "point": "E"})
    assert {c["point"] for c in GAME.legal_commands(s, 1)} == {p.id for p in WINTER.start_points
                                                               if 5 in p.labels and p.id != "E"}
    assert refused(s, 1, {"type": "place_door", "point": "A"})[1] == "MK-PSETUP-3"  # a 4 only


def _opening(n, options):
    """Doors and draft with the first legal command each time; every event kept (unredacted)."""
    s, events = new_game(n, options)
    while s["phase"] in ("doors", "draft"):
        seat = s["current"] if s["phase"] == "doors" else min(GAME.active_seats(s))
        s, more = apply(s, seat, GAME.legal_commands(s, seat)[0])
        events += more
    return s, events


def _rows(cards):
    out = Counter()
    for card in cards:
        out.update(starting_row(card))
    return out


@pytest.mark.parametrize("n, start", [(2, 0), (2, 1), (3, 0), (3, 2), (4, 1), (5, 0), (5, 3)])
def test_MK_PSETUP_6_7_the_turn_order_bonus_by_position_at_every_table(n, start):
    """«首位玩家不會獲得額外的起始資源。第二、三位玩家額外獲得手裡的巨魔卡上面的起始資源，第四、五位
    玩家額外獲得手裡以及牌堆裡的巨魔卡上面的起始資源» -- positions in turn order from the start
    player, whoever that is. The hand and deck cards are worked out from the shuffled starter
    decks (the 5 cards drawn, the 4 placed), not read from the engine's draft state."""
    s, events = _opening(n, {"start_player": start})
    decks = data(events, "StarterDecksShuffled")[0]["decks"]
    for seat in range(n):
        deck = decks[seat]
        placed = [d["card"] for d in data(events, "StarterPlaced") if d["seat"] == seat]
        hand = [c for c in deck[:5] if c not in placed]
        assert len(placed) == 4 and len(hand) == 1
        place = (seat - start) % n
        want = _rows(placed)
        if place >= 1:  # 2nd to 5th: the hand card's row
            want += _rows(hand)
        if place >= 3:  # 4th and 5th: also the unseen deck card's row
            want += _rows(deck[5:])
        assert Counter({r: k for r, k in s["stores"][seat].items() if k}) == want, (seat, place)
    assert s["current"] == start and s["draft"] is None  # «之後，將所有玩家板上以外的巨魔卡放回遊戲盒子中»


@pytest.mark.parametrize("start", [0, 1])
def test_MK_TEAM_5_MK_TEAM_6_team_order_and_team_storage_without_bonus(start):
    """«由起始團隊中坐在左邊的玩家作為起始玩家。遊戲輪次會按順時針方向進行，順序是團隊1，團隊2，
    團隊2，團隊1» and «起始巨魔的選擇過程不變，但是起始資源均放在團隊儲存區。玩家不再因行動順位獲得
    額外的獎勵»."""
    s, _ = _opening(4, {"teams": True, "start_player": start})
    order = [(start + k) % 4 for k in range(4)]
    assert s["order"] == order and s["teams"] == [[order[0], order[3]], [order[1], order[2]]]
    for team, mates in enumerate(s["teams"]):
        placed = [t["card"] for m in mates for t in s["rosters"][m].values()]
        assert Counter({r: k for r, k in s["stores"][team].items() if k}) == _rows(placed)
    assert len(s["stores"]) == 2 and len(s["honor"]) == 2


# =========================================================================== end of the game

def _crowned(n, options, trigger, first_token_holder=None):
    """Seat ``trigger`` at its turn with 9 trolls; with 3+ players the 5 token already taken."""
    text = f"""
        mountain-king {n} seed=audit options={options}
        opening
        current = {trigger}
        turn.seat = {trigger}
        roster {trigger} {NINE}
    """
    _, s = position(text)
    if n > 2:
        holder = first_token_holder if first_token_holder is not None else (trigger + 1) % n
        edit(GAME, s, f'coronation = {{"left": [3], "taken": {{"5": {holder}}}}}')
    return s


@pytest.mark.parametrize("n, start, trigger", [(2, 0, 0), (2, 1, 0), (2, 1, 1), (3, 1, 1), (3, 2, 1),
                                               (4, 2, 1), (4, 2, 2), (4, 3, 2), (5, 3, 2), (5, 1, 0)])
def test_MK_END_4_MK_END_5_finish_the_round_then_two_more_turns_each(n, start, trigger):
    """«當第二個加冕標記被獲取後，當前輪次結束後，每位玩家再按照正常次序執行2個回合，之後遊戲結束
    （輪次中的最後一位玩家是遊戲起始玩家的右手邊玩家。如果這位玩家獲得了第二個加冕標記，則該玩家
    回合結束後輪次結束）» -- with any start player, the seats that play after the trigger are the
    rest of the round, then two whole rounds from the start player, and nothing else."""
    s = _crowned(n, f'{{"start_player": {start}}}', trigger)
    s, ev = apply(s, trigger, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert data(ev, "CoronationTaken") == [{"seat": trigger, "token": 3}] and "EndTriggered" in types(ev)
    order = [(start + k) % n for k in range(n)]
    rest = order[order.index(trigger) + 1:]
    s, ev = apply(s, trigger, {"type": "end_turn"})
    seats = [d["seat"] for d in data(ev, "TurnStarted")]
    s = resume(s, b"end", on_step=lambda g: seats.extend(d["seat"] for d in data(g.steps[-1].events, "TurnStarted")))
    assert GAME.is_terminal(s) and seats == rest + order + order


def test_MK_END_1_MK_END_2_MK_END_7_three_players_five_then_three_then_nothing():
    """«第一個在其巨魔部眾中徵募第10個巨魔（將金字塔封頂）的玩家獲得第一個加冕標記，在遊戲結束時價值
    5榮譽點數。第二個徵募第10個巨魔的玩家會獲得第二個加冕標記，在遊戲結束時價值3榮譽點數並且觸發
    遊戲結束» -- and a third pyramid finished in the last rounds takes nothing."""
    _, s = position(f"""
        mountain-king 3 seed=audit
        opening
        roster 0 {NINE}
        roster 1 {NINE}
        roster 2 {NINE}
    """)
    for seat, token in ((0, 5), (1, 3), (2, None)):
        s, ev = apply(s, seat, {"type": "recruit", "slot": "B1", "position": [4, 1]})
        assert len(s["rosters"][seat]) == 10
        assert data(ev, "CoronationTaken") == ([{"seat": seat, "token": token}] if token else [])
        assert ("EndTriggered" in types(ev)) == (token == 3)
        s, _ = apply(s, seat, {"type": "end_turn"})
    s = resume(s, b"rest")
    assert {p: b["coronation"] for p, b in ((int(k), v) for k, v in s["final"].items())} == {0: 5, 1: 3, 2: 0}


def test_MK_END_3_two_players_only_the_3_token_and_it_ends_the_game():
    """«在兩人遊戲中只用到第二個價值3榮譽點數的加冕標記，它將會觸發遊戲結束»: the first pyramid takes
    the 3 and triggers the end; the other player's pyramid, finished in the last rounds, takes
    nothing (there is no 5 in the game)."""
    _, s = position(f"""
        mountain-king 2 seed=audit
        opening
        roster 0 {NINE}
        roster 1 {NINE}
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert data(ev, "CoronationTaken") == [{"seat": 0, "token": 3}]
    assert data(ev, "EndTriggered") == [{"seat": 0, "turns_left": 1 + 2 * 2}]
    s, _ = apply(s, 0, {"type": "end_turn"})
    s, ev = apply(s, 1, {"type": "recruit", "slot": "B1", "position": [4, 1]})
    assert len(s["rosters"][1]) == 10 and "CoronationTaken" not in types(ev)
    s, _ = apply(s, 1, {"type": "end_turn"})
    s = resume(s, b"rest")
    assert (s["final"]["0"]["coronation"], s["final"]["1"]["coronation"]) == (3, 0)


def test_MK_END_6_the_game_is_over_after_the_last_turn():
    """«每位玩家再按照正常次序執行2個回合，之後遊戲結束»: after the last of those turns the final
    scores are recorded and no command is accepted, not even a trade."""
    s, events, _n = play(3, seed=b"audit-end")
    assert GAME.is_terminal(s) and events[-1]["type"] == "GameEnded"
    assert events[-1]["data"]["scores"] == final_scores(s) == s["final"]
    for seat in range(3):
        assert GAME.legal_commands(s, seat) == []
        assert refused(s, seat, {"type": "trade", "give": {"stone": 4}, "get": "coin"}) == ("game_over", "MK-END-6")


# =========================================================================== final scoring

TUNNEL_TABLE = {2: (0, 0, 0), 3: (3, 4, 5), 4: (4, 6, 8), 5: (5, 8, 11)}  # the Chinese mat's table
MINERALS = ("stone", "iron", "heartstone")


def _networks(s):
    """piece id -> seats whose door the piece is connected to (side-adjacent spaces only)."""
    pieces = s["pieces"]
    at = {tuple(c): pid for pid, p in pieces.items() for c in p["cells"]}
    owners = {}
    for pid in pieces:
        if pid in owners:
            continue
        group, todo = {pid}, [pid]
        while todo:
            for r, c in map(tuple, pieces[todo.pop()]["cells"]):
                for q in (at.get((r + 1, c)), at.get((r - 1, c)), at.get((r, c + 1)), at.get((r, c - 1))):
                    if q is not None and q not in group:
                        group.add(q)
                        todo.append(q)
        seats = {pieces[q]["seat"] for q in group if pieces[q]["kind"] == "door"}
        owners.update({q: seats for q in group})
    return at, owners


def rulebook_scores(s, events):
    """Five of the six figures of section 23, worked out from the rulebook alone (leftover sets
    are checked apart): the tunnel table, «擁有第一個和第二個加冕標記的玩家會分別獲得5榮譽點數和3
    榮譽點數», the pedestal tokens taken, «你通路網中的所有大廳裡，祭壇上沒有雕像的大廳會為你提供其上
    較小數字的榮譽點數，反之則提供較大數字», «每個你隧道中（或大門裡）的雕像會根據它所在山脈的顏色層
    … 被放在對應基座上的雕像會提供雙倍 … 每個隧道中只有1個雕像可以獲得榮譽點數»."""
    store = s["store_of"]
    out = {k: dict.fromkeys(("tunnels", "coronation", "pedestals", "great_halls", "statues"), 0)
           for k in range(len(s["stores"]))}
    for k, d in enumerate(data(events, "CoronationTaken")):
        out[store[d["seat"]]]["coronation"] += 3 if s["n"] == 2 or k == 1 else 5
    for d in data(events, "TunnelDug"):
        out[store[d["seat"]]]["tunnels"] += TUNNEL_TABLE[len(d["cells"])][MINERALS.index(d["mineral"])]
    for d in data(events, "PedestalPlaced"):
        out[store[d["seat"]]]["pedestals"] += d["token"]
    board = content.board(s["board"])
    at, owners = _networks(s)
    best: dict[str, int] = {}
    for k, clan in s["statues"].items():
        cell = tuple(int(x) for x in k.split(","))
        pid = at.get(cell)
        if pid is None or not owners[pid] or s["pieces"][pid]["kind"] == "hall":
            continue  # buried, or in a hall (only the altar counts, through the hall)
        piece = s["pieces"][pid]
        value = 2 * board.level(cell)
        if piece.get("pedestal") == clan and piece.get("anchor") is not None and tuple(piece["anchor"]) == cell:
            value *= 2
        best[pid] = max(best.get(pid, 0), value)
    for pid, value in best.items():
        (team,) = {store[x] for x in owners[pid]}
        out[team]["statues"] += value
    statue_cells = {tuple(int(x) for x in k.split(",")) for k in s["statues"]}
    for pid, piece in s["pieces"].items():
        if piece["kind"] == "hall" and owners[pid]:
            hall = content.hall(piece["hall"])
            (team,) = {store[x] for x in owners[pid]}
            out[team]["great_halls"] += hall.high if tuple(piece["altar"]) in statue_cells else hall.low
    return out


@pytest.mark.parametrize("n, options", TABLES + [(3, {"start_player": 2}), (4, {"teams": True, "start_player": 1})])
def test_section_23_whole_games_rescored_from_the_rulebook(n, options):
    """Random legal games (digs, halls, pedestals, statue moves, coronations) at every table:
    the engine's final figures equal the rulebook's, worked out independently from the events
    and the final board; leftover sets lie between no trade at all and the unlimited-supply best
    (MK-SCORE-4, MK-AMB-25, MK-AMB-33); the total is their sum; the tie-break sums the printed
    levels of the recruited trolls (MK-TIE-1)."""
    from domain.mountain_king.leftovers import best_sets
    from domain.mountain_king.scoring import leftovers
    for seed in (b"audit-1", b"audit-2"):
        s, events, _n = play(n, options, seed=seed)
        assert GAME.is_terminal(s)
        mine = rulebook_scores(s, events)
        for seat in range(n):
            got = s["final"][str(seat)]
            team = s["store_of"][seat]
            assert {k: got[k] for k in mine[team]} == mine[team], (seed, seat)
            held = leftovers(s, team)
            assert sum(c // 3 for c in held.values()) <= got["leftover_sets"] <= best_sets(held)
            assert list(got) == list(CATEGORIES)
        levels = Counter()
        for d in data(events, "TrollRecruited"):
            levels[d["seat"]] += level(d["card"])
        assert s["levels"] == [levels[p] for p in range(n)]


# Seat 0's door on (12,2) of the Winter side; row 12 eastwards is brown (12,3)-(12,4), orange
# (12,5)-(12,7), yellow (12,8)-(12,9).
ROW12 = """
    mountain-king 4 seed=audit
    opening
    empty_trolls 0
    storage 0
    only_doors 0=12,2
"""


def test_MK_HALL_7_MK_PED_8_a_pedestal_left_on_an_uncovered_remnant_still_doubles():
    """«大廳下方延伸出來的隧道，均變成了獨立的隧道» and «如果在遊戲結束時，一個基座上面有與其相同氏族的
    雕像，那麼這個基座會使得其上雕像的榮譽點數加倍»: a hall laid over the east end of a tunnel leaves
    its anchored west end as a tunnel of its own, pedestal included; the Fire statue on it scores
    double, the Ice statue beside it in the same remnant scores nothing («每個隧道中只有1個雕像»)."""
    _, s = position(ROW12 + """
        tunnel a1 0 12,3 12,4 12,5 12,6 12,7 12,8 12,9 anchor=12,3 pedestal=fire
        statue 12,3 fire
        statue 12,4 ice
        step hall
    """)
    halls = of_type(GAME.legal_commands(s, 0), "build_hall")
    cmd = next(c for c in halls if c["hall"] == "hall-of-echoes" and [12, 5] in c["cells"] and [12, 9] in c["cells"])
    s, ev = apply(s, 0, cmd)
    assert data(ev, "GreatHallBuilt")[0]["pedestals_removed"] == []
    remnant = next(p for pid, p in s["pieces"].items() if pid.startswith("a1."))
    assert remnant["cells"] == [[12, 3], [12, 4]] and remnant["pedestal"] == "fire"
    got = breakdowns(s)[0]
    assert got["statues"] == 2 * 2 * WINTER.level((12, 3))  # brown 6, doubled
    assert got["great_halls"] == content.hall("hall-of-echoes").low


def test_MK_HALL_5_MK_HALL_10_a_hall_laid_with_its_altar_on_a_statue_scores_its_high_value():
    """«大廳板塊覆蓋的雕像在板塊放置後仍舊放回原來的位罝» and «祭壇上有雕像的話，該大廳會為你提供
    板塊上較大數字對應的榮譽點數» -- «這是大廳中雕像唯一能獲得的榮譽點數的方式»: the statue stops
    scoring its level and the hall scores high at once, no cart spent."""
    _, s = position(ROW12 + """
        tunnel a1 0 12,3 12,4 12,5 12,6 12,7
        statue 12,5 moon
        step hall
    """)
    assert breakdowns(s)[0]["statues"] == 2 * WINTER.level((12, 5))
    cmd = next(c for c in of_type(GAME.legal_commands(s, 0), "build_hall")
               if c["hall"] == "hall-of-echoes" and c["altar"] == [12, 5])
    s, _ = apply(s, 0, cmd)
    assert s["statues"] == {"12,5": "moon"}
    got = breakdowns(s)[0]
    assert (got["statues"], got["great_halls"]) == (0, content.hall("hall-of-echoes").high)


def test_MK_HALL_6_MK_PED_4_a_pedestal_covered_by_a_hall_keeps_its_token_and_its_pair():
    """«所有被大廳覆蓋的基座都從遊戲中移除（玩家不會因此失去對應的基座得分標記，這個顏色層/氏族組合
    的基座，在遊戲中仍然不能被再次放置）»: a Fire pedestal set into the tunnel dug this very turn,
    then covered by the hall of the same turn, leaves the game; the token stays with the player and
    orange/Fire stays taken."""
    _, s = position(ROW12 + """
        storage 0 stone=2
        peds.0.fire = 2
        tunnel a1 0 12,3 12,4 12,5
    """)
    dig = next(c for c in of_type(GAME.legal_commands(s, 0), "dig")
               if c["tile"] == "D2" and sorted(c["cells"]) == [[12, 6], [12, 7]] and c["anchor"] == [12, 6])
    s, _ = apply(s, 0, dig)
    token = s["ped_track"]["4:fire"]
    s, _ = apply(s, 0, {"type": "place_pedestal", "clan": "fire"})
    assert s["ped_tokens"][0] == [token] and "4:fire" not in s["ped_track"]
    cmd = next(c for c in of_type(GAME.legal_commands(s, 0), "build_hall")
               if c["hall"] == "hall-of-echoes" and sorted(c["cells"]) == [[12, 3], [12, 4], [12, 5], [12, 6], [12, 7]])
    s, ev = apply(s, 0, cmd)
    assert data(ev, "GreatHallBuilt")[0]["pedestals_removed"] == [{"cell": [12, 6], "clan": "fire"}]
    assert not any(p.get("pedestal") for p in s["pieces"].values())
    assert breakdowns(s)[0]["pedestals"] == token and "4:fire" not in s["ped_track"]
    assert s["peds"][0]["fire"] == 1  # the other Fire pedestal stays in storage


def test_MK_SCORE_4_leftover_sets_count_troll_tokens_clan_carts_as_wild_never_pedestals():
    """«將所有巨魔身上的資源移動到你的儲存區（氏族礦車照常變成通用礦車），然後將它們分類。每組3個相同
    的資源（例如3枚符文、3個鐵礦或3個礦車）會為你提供1榮譽點數»: a Fire clan cart on a troll joins two
    stored carts in a set, while pedestals, not being resources, make no set."""
    _, s = position(ROW12 + """
        storage 0 cart=2 stone=2
        peds.0.ice = 3
        troll 0 1,1 stone+cart:fire 11
    """)
    assert breakdowns(s)[0]["leftover_sets"] == 2  # 3 carts, 3 stone


def test_MK_TIE_1_tied_honor_the_lower_sum_of_recruited_levels_wins_starters_count_nothing():
    """«當得分出現平手時，巨魔部眾等級之和較低的玩家獲得遊戲的勝利» (Spanish: «los jugadores empatados
    suman los Niveles de los trols que han reclutado»): seat 0 recruits a level-2 troll, seats 1
    and 2 a level-1 troll each; all end level on honor. Seats 1 and 2 (1 each; the 4 starters add
    nothing) beat seat 0 (2), and share the win between them."""
    _, s = position("""
        mountain-king 3 seed=audit
        opening
        storage 0 coin=2
    """)
    for seat, slot in ((0, "M1"), (1, "B1"), (2, "B2")):
        s, _ = apply(s, seat, {"type": "recruit", "slot": slot, "position": [2, 1]})
        s, _ = apply(s, seat, {"type": "end_turn"})
    assert s["levels"] == [2, 1, 1]
    edit(GAME, s, """
        empty_trolls 0
        empty_trolls 1
        empty_trolls 2
        storage 0
        storage 1
        storage 2
        peds = [{"fire": 0, "ice": 0, "moon": 0}, {"fire": 0, "ice": 0, "moon": 0}, {"fire": 0, "ice": 0, "moon": 0}]
        honor = [20, 20, 20]
    """)
    board = GAME.scores(s)
    assert {x.seat: x.total for x in board.seats} == {0: 20, 1: 20, 2: 20}
    assert sorted(board.winners) == [1, 2] and {x.seat: x.place for x in board.seats}[0] == 3


def test_MK_AMB_27_the_team_tie_break_adds_both_teammates():
    """The rulebook gives no team tie-break; Delve adds both teammates' recruited levels and the
    lower team sum wins (MK-AMB-27 c), the rulebook's «等級之和較低» applied to a team."""
    _, s = position("""
        mountain-king 4 seed=audit options={"teams": true}
        opening
        empty_trolls 0
        empty_trolls 1
        empty_trolls 2
        empty_trolls 3
        storage 0
        storage 1
        honor = [30, 30]
        levels = [1, 3, 0, 3]
    """)
    board = GAME.scores(s)  # team 0 = seats 0 and 3: 4; team 1 = seats 1 and 2: 3
    assert sorted(board.winners) == [1, 2]


def test_MK_AMB_21_in_a_crowded_tunnel_the_best_statue_scores():
    """«每個隧道中只有1個雕像可以獲得榮譽點數» does not say which; Delve scores the best (MK-AMB-21):
    a Fire statue on its own Fire pedestal in orange (16) beats a yellow Ice statue (10) in the
    same tunnel, and the door is a tunnel of its own («或大門裡»)."""
    _, s = position(ROW12 + """
        tunnel a1 0 12,3 12,4 12,5 12,6 12,7 12,8 anchor=12,7 pedestal=fire
        statue 12,7 fire
        statue 12,8 ice
        statue 12,2 moon
    """)
    assert breakdowns(s)[0]["statues"] == 16 + 2 * WINTER.level((12, 2))


# =========================================================================== the steps of a turn

def test_MK_DIG_12_MK_TURN_3_pedestal_and_workshop_only_right_after_the_dig():
    """«無論何時，一個基座只能被放置在剛挖掘隧道中的錨點上，你不可以之後再放置» and «如果你剛挖掘的
    隧道和一個空閒的工坊點相鄰，你可以從工坊供應堆拿取任何一個工坊標記放在該格» come with the dig
    (step 2); once the turn has moved on to the hall step (or the statues), neither is offered
    and both are refused."""
    _, s = position(ROW12 + """
        storage 0 stone=2
        peds.0.moon = 1
        tunnel a1 0 12,3 12,4 12,5
    """)
    dig = next(c for c in of_type(GAME.legal_commands(s, 0), "dig")
               if c["tile"] == "D2" and sorted(c["cells"]) == [[12, 6], [12, 7]] and c["anchor"] == [12, 7])
    s, _ = apply(s, 0, dig)
    assert s["turn"]["step"] == "followup"
    assert of_type(GAME.legal_commands(s, 0), "place_pedestal") == [{"type": "place_pedestal", "clan": "moon"}]
    s, _ = apply(s, 0, {"type": "end_step"})
    assert s["turn"]["step"] == "hall" and not of_type(GAME.legal_commands(s, 0), "place_pedestal")
    assert refused(s, 0, {"type": "place_pedestal", "clan": "moon"}) == ("out_of_phase", "MK-TURN-3")
    s, _ = apply(s, 0, {"type": "end_turn"})
    edit(GAME, s, "new_turn 0")
    assert refused(s, 0, {"type": "place_pedestal", "clan": "moon"})[1] == "MK-DIG-12"


def test_MK_TURN_1_MK_TURN_3_halls_come_before_statue_moves_never_after():
    """«在你的回合按照順序執行以下步驟 … 3. 大廳 你可以設立一個大廳。4. 移動雕像»: after a statue
    has moved (step 4) no hall may be laid this turn; laid first, the hall is one big tunnel the
    statue may then move into («在放置後，大廳被視為一個大的隧道，所有相鄰規則（包括雕像移動）均適用
    於大廳»)."""
    base = ROW12 + """
        storage 0 cart=2
        tunnel a1 0 12,3 12,4 12,5 12,6 12,7
        tunnel a2 0 11,3
        statue 11,3 ice
        step hall
    """
    _, s = position(base)
    hall = next(c for c in of_type(GAME.legal_commands(s, 0), "build_hall") if c["hall"] == "hall-of-echoes")
    s, _ = apply(s, 0, {"type": "move_statue", "from": [11, 3], "to": [12, 4], "cart": "wild"})
    assert not of_type(GAME.legal_commands(s, 0), "build_hall")
    assert refused(s, 0, hall) == ("out_of_phase", "MK-TURN-3")
    _, s = position(base)
    s, _ = apply(s, 0, next(c for c in of_type(GAME.legal_commands(s, 0), "build_hall")
                            if c["hall"] == "hall-of-echoes" and c["altar"] == [12, 5]))
    s, _ = apply(s, 0, {"type": "move_statue", "from": [11, 3], "to": [12, 5], "cart": "wild"})
    assert breakdowns(s)[0]["great_halls"] == content.hall("hall-of-echoes").high


# =========================================================================== trading and limits

def test_MK_TRADE_1_MK_TURN_4_four_of_any_kind_for_one_in_every_step_of_your_own_turn():
    """«在你回合的任意時刻，你都可以花費任意4個資源換取供應堆裡任何1個你想要的資源。這個行動沒有次數
    限制»: exactly four, any mix, from storage or trolls, in step 1, after the recruit (step 3) and in
    step 4; never on another player's turn (MK-TURN-5)."""
    _, s = position(ROW12 + """
        storage 0 stone=6 iron=5 coin=1
    """)
    traded = []
    s, ev = apply(s, 0, {"type": "trade", "give": {"stone": 2, "iron": 2}, "get": "rune"})
    traded += data(ev, "Traded")
    assert refused(s, 0, {"type": "trade", "give": {"stone": 3}, "get": "rune"})[1] == "MK-TRADE-1"
    assert refused(s, 0, {"type": "trade", "give": {"stone": 3, "iron": 2}, "get": "rune"})[1] == "MK-TRADE-1"
    assert refused(s, 1, {"type": "trade", "give": {"stone": 4}, "get": "rune"})[1] == "MK-TURN-5"
    s, _ = apply(s, 0, {"type": "recruit", "slot": "B1", "position": [2, 1]})
    assert s["turn"]["step"] == "hall"
    s, ev = apply(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "cart"})
    traded += data(ev, "Traded")
    s, _ = apply(s, 0, {"type": "end_step"})
    assert s["turn"]["step"] == "statues"
    s, ev = apply(s, 0, {"type": "trade", "give": {"iron": 3, "coin": 1}, "get": "hammer"})
    traded += data(ev, "Traded")
    assert [sum(d["paid"]["storage"].values()) + len(d["paid"]["trolls"]) for d in traded] == [4, 4, 4]
    assert [d["gained"] for d in traded] == [{"rune": 1}, {"cart": 1}, {"hammer": 1}]
    assert (s["stores"][0]["rune"], s["stores"][0]["cart"], s["stores"][0]["hammer"]) == (1, 1, 1)


def test_MK_AMB_4_a_trade_or_a_workshop_cannot_take_what_the_supply_lacks():
    """The rulebook gives counts (Spanish: «35 PIEDRAS … 35 MONEDAS») but no rule for an empty supply;
    Delve's supply is finite (MK-AMB-4): with no coin left in the supply, no trade offers a coin and
    one naming a coin is refused."""
    _, s = position(ROW12 + """
        storage 0 stone=4
        supply.coin = 0
    """)
    assert not [c for c in of_type(GAME.legal_commands(s, 0), "trade") if c["get"] == "coin"]
    assert refused(s, 0, {"type": "trade", "give": {"stone": 4}, "get": "coin"}) == ("supply_empty", "MK-AMB-4")


# =========================================================================== the horde: refills

def test_MK_HORDE_4_a_retiring_troll_goes_under_its_deck_and_its_bribes_to_the_supply():
    """«如果氏族中任何巨魔卡上面擁有4個賄賂時，這個巨魔便快樂地退休了。將這個巨魔放到對應等級的牌堆
    底部，將其上的賄賂放回供應堆。從對應的牌堆展示一張新的巨魔卡填補空位»: the second coin of a
    level-2 recruit is B2's fourth bribe."""
    _, s = position(ROW12 + """
        storage 0 coin=2
        bribes B2 coin=3
    """)
    b2, top = s["horde"]["slots"]["B2"]["card"], s["horde"]["decks"]["1"][0]
    coins = s["supply"]["coin"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M1", "position": [2, 1]})
    assert data(ev, "TrollRetired") == [{"slot": "B2", "card": b2, "bribes": {"coin": 4}}]
    assert s["horde"]["decks"]["1"][-1] == b2 and s["horde"]["slots"]["B2"]["card"] == top
    assert s["horde"]["slots"]["B2"]["bribes"] == {} and s["supply"]["coin"] >= coins + 4 - 1
    assert s["horde"]["slots"]["B1"]["bribes"] == {"coin": 1}  # three bribes or fewer: it stays


def test_MK_REC_6_MK_HORDE_3_1_the_middle_row_refill_takes_a_pedestal_while_the_bag_has_one():
    """«拿取你選擇的巨魔卡，然後從對應等級的巨魔牌堆中抽出一張來填補空位（如果是2級巨魔，則從盲抽袋中抽
    一個基座置於其上）» and «基座數量是有限的，一旦被拿光了，便不會有新的基座加入遊戲中»."""
    _, s = position(ROW12 + """
        storage 0 coin=4
        bag = {"fire": 0, "ice": 1, "moon": 0}
    """)
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M1", "position": [2, 1]})
    assert [d["pedestal"] for d in data(ev, "HordeRefilled") if d["slot"] == "M1"] == ["ice"]
    assert s["bag"] == {"fire": 0, "ice": 0, "moon": 0}
    edit(GAME, s, "new_turn 0")
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M2", "position": [2, 2]})
    assert [d["pedestal"] for d in data(ev, "HordeRefilled") if d["slot"] == "M2"] == [None]
    assert s["horde"]["slots"]["M2"]["ped"] is None


def test_MK_HORDE_2_MK_AMB_5_an_empty_level_draws_one_level_higher_then_lower():
    """«如果某等級的巨魔卡被拿光了，可以從更高一級的牌堆（如果高一級的巨魔也被拿光，則改為拿低一級的
    巨魔）抽取作為代替»: an empty level-2 deck refills the middle row from level 3, then level 1;
    the top row has no higher level and draws from level 2. (For the bottom row, with levels 1
    and 2 both empty, the rulebook's «低一級» does not exist: Delve draws level 3, MK-AMB-5.)"""
    for empty, slot, want in ((["2"], "M1", "3"), (["2", "3"], "M1", "1"), (["3"], "T1", "2"),
                              (["1"], "B1", "2"), (["1", "2"], "B1", "3")):
        _, s = position(ROW12 + "storage 0 coin=5\n" + "\n".join(f"horde.decks.{lv} = []" for lv in empty))
        s, ev = apply(s, 0, {"type": "recruit", "slot": slot, "position": [2, 1]})
        assert [d["deck"] for d in data(ev, "HordeRefilled") if d["slot"] == slot] == [want], (empty, slot)


def test_MK_AMB_8_ambiguity_a_troll_retiring_into_an_empty_deck_comes_back_at_once():
    """Ambiguity, reported, not changed. «將這個巨魔放到對應等級的牌堆底部 … 從對應的牌堆展示一張新的
    巨魔卡填補空位» (Spanish: «colocándolo en la parte inferior de su mazo … luego revela un nuevo
    trol de dicho mazo»): put under its deck first, then reveal. With the level-1 deck otherwise
    empty the «new» troll revealed is the retired one itself, its bribes gone. Delve follows the
    written order; the other reading (refill first, then put it under) would fall back to the
    level-2 deck (MK-HORDE-2)."""
    _, s = position(ROW12 + """
        storage 0 coin=2
        horde.decks.1 = []
        bribes B2 coin=3
    """)
    b2 = s["horde"]["slots"]["B2"]["card"]
    s, ev = apply(s, 0, {"type": "recruit", "slot": "M1", "position": [2, 1]})
    assert [d["slot"] for d in data(ev, "TrollRetired")] == ["B2"]
    assert s["horde"]["slots"]["B2"] == {"card": b2, "bribes": {}, "ped": None}
    assert s["horde"]["decks"]["1"] == []


# =========================================================================== the team game's doors

def test_MK_TEAM_3_MK_AMB_27_ambiguity_teammates_doors_only_on_the_marked_pairs():
    """Ambiguity, reported, not changed. «坐在你隊友的旁邊，確保你們的大門在遊戲版圖的冬季一側彼此相鄰»
    (Spanish: «las puertas de ambos se encuentren al lado»). The board data marks two pairs of
    neighbouring 4-point start points, A+B and C+D (MK-AMB-27 b, MK-GAP-1.5); the other two
    clockwise neighbours, B+C and D+A, are refused although they are just as «next to each
    other». Doors may never touch (MK-AMB-30), so «相鄰» cannot mean side-adjacent spaces."""
    s, _ = new_game(4, {"teams": True})
    assert {frozenset(p) for p in WINTER.team_pairs} == {frozenset("AB"), frozenset("CD")}
    s, _ = apply(s, 0, {"type": "place_door", "point": "B"})
    assert {c["point"] for c in GAME.legal_commands(s, 1)} == {"C", "D"}
    s, _ = apply(s, 1, {"type": "place_door", "point": "D"})
    s, _ = apply(s, 2, {"type": "place_door", "point": "C"})
    assert [c["point"] for c in GAME.legal_commands(s, 3)] == ["A"]


def test_a_tunnel_placed_by_a_position_keeps_its_piece_when_a_tunnel_is_dug_after_it():
    """A position's ``tunnel t1`` counts as dug: the next dig is ``t2``, and never replaces it."""
    _, s = position(ROW12 + """
        storage 0 stone=2
        tunnel t1 0 12,3 12,4 12,5
    """)
    placed = dict(s["pieces"]["t1"])
    dig = next(c for c in of_type(GAME.legal_commands(s, 0), "dig")
               if c["tile"] == "D2" and sorted(c["cells"]) == [[12, 6], [12, 7]] and c["anchor"] == [12, 6])
    s, _ = apply(s, 0, dig)
    assert s["pieces"]["t1"] == placed
    assert sorted(s["pieces"]["t2"]["cells"]) == [[12, 6], [12, 7]]
