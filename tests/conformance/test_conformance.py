"""The protocol's invariants, checked on every registered game (like OpenSpiel's
``random_sim_test``): a new game gets this suite by registering, and adds only
its own rule tests.

Per game, random-bot games (the kit's driver, on the server's DRBG streams)
at the smallest and largest table must: end within a bound; replay (a fold of
the recorded events) to the live state; verify as a sealed export; accept every
legal command offered, each fitting the command schema; label every legal
command and every command played, naming nothing hidden from whoever reads the
label (the same canary as the views'); round-trip
``dump_state``/``load_state``; never show a seat, through ``view``, a value that
``redact`` hid from it (a canary check: the hidden string values of each event);
and end with the documented outcome on ``resign`` and ``abort``, verifiably.
"""
from __future__ import annotations

import functools
import itertools
import json

import pytest

from domain import registry
from domain.core import Drbg, Turn, canonical_json, fold, seat_id
from domain.kit import ACTOR_STEP, BaseGame, Played, Step, check_command, command_stream, play, table
from application.replay import verify
from tests.support.exports import export_lines

GAMES = registry.available()
MAX_STEPS = 20_000  # batches; a random game that has not ended by then is taken not to end
LEGAL_SAMPLE = 12  # states whose every legal command is tried, spread over a game
SEED = b"conformance"
SECRET_GAMES = 30  # more random games, at most, to see every declared secret dealt


def tables() -> list[tuple[str, int]]:
    out = []
    for gid in GAMES:
        game = registry.get(gid)
        out += [(gid, n) for n in sorted({game.min_players, game.max_players})]
    return out


TABLES = tables()
IDS = [f"{gid}-{n}" for gid, n in TABLES]


def bot_of(game) -> str:
    return "random" if "random" in game.bots else sorted(game.bots)[0]


@functools.lru_cache(maxsize=None)
def played(gid: str, players: int) -> Played:
    game = registry.get(gid)
    return play(game, table(game, players, bot_of(game)), {}, SEED + gid.encode(), max_steps=MAX_STEPS)


def states(g: Played):
    """(version, a private copy of the state before the step, step) along the game."""
    state = fold(g.game, g.steps[0].events)
    for step in g.steps[1:]:
        yield step.version, g.game.load_state(g.game.dump_state(state)), step
        state = fold(g.game, step.events, state)


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_a_random_game_ends_within_the_bound(gid, players):
    g = played(gid, players)
    assert g.terminal, f"{gid} with {players} random bots did not end in {MAX_STEPS} steps"
    assert g.game.turn(g.state) == Turn.over() and g.game.active_seats(g.state) == set()
    board = g.scores()
    assert board.final and board.result().kind in ("win", "shared", "no_player_wins")


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_replay_equals_live_and_the_export_verifies(gid, players):
    g = played(gid, players)
    replayed = fold(g.game, [ev for step in g.steps for ev in step.events])
    assert canonical_json(g.game.dump_state(replayed)) == canonical_json(g.game.dump_state(g.state))
    verdict = verify(export_lines(g))
    assert verdict.ok, verdict.problems[:3]


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_every_step_is_reproduced_by_its_recorded_cause(gid, players):
    g = played(gid, players)
    for version, state, step in states(g):
        rng = Drbg(g.seed, command_stream(version))
        if step.seat is None:
            assert g.game.turn(state).actor == step.command["actor"]
            assert g.game.decide_actor(state, step.command["actor"], rng) == step.events
        else:
            assert step.seat in g.game.turn(state).seats
            assert g.game.decide(state, step.seat, step.command, rng) == step.events


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_every_legal_command_is_accepted_and_fits_the_schema(gid, players):
    g = played(gid, players)
    walk = list(states(g))
    for version, state, _step in walk[:: max(1, len(walk) // LEGAL_SAMPLE)]:
        turn = g.game.turn(state)
        for seat in range(players):
            legal = g.game.legal_commands(state, seat)
            if seat not in turn.seats:
                assert legal == [], f"seat {seat} is offered commands out of turn"
                continue
            assert legal, f"seat {seat} is to act but has no legal command"
            for cmd in legal:
                check_command(g.game.command_schema, cmd)
                assert g.game.decide(state, seat, cmd, Drbg(g.seed, command_stream(version))), cmd


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_the_seat_count_is_read_from_the_state(gid, players):
    """``players`` is the game's own cheap read (the kit's scoreboard count is for frozen versions)."""
    g = played(gid, players)
    assert type(g.game).players is not BaseGame.players
    assert g.game.players(g.state) == players


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_dump_and_load_round_trip(gid, players):
    g = played(gid, players)
    walk = list(states(g))
    for _version, state, _step in walk[:: max(1, len(walk) // 25)] + [(0, g.state, None)]:
        dumped = g.game.dump_state(state)
        assert json.loads(json.dumps(dumped)) == dumped
        again = g.game.dump_state(g.game.load_state(dumped))
        assert canonical_json(again) == canonical_json(dumped)


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value} if len(value) >= 3 else set()
    if isinstance(value, dict):
        return set().union(*map(_strings, value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*map(_strings, value)) if value else set()
    return set()


def first_leak(g: Played, players: int) -> str | None:
    """Canary: every string value of a secret the game declares (``game.secrecy``: a
    card id, a role, a goal shape) that ``redact`` has not shown a seat so far must be
    absent from that seat's view."""
    state = g.game.initial_state()
    seen: dict[int | None, set[str]] = {seat: {g.game.id, g.game.title} for seat in [None, *range(players)]}
    for step in g.steps[:400]:
        state = fold(g.game, step.events, state)
        for seat, shown_so_far in seen.items():
            hidden: set[str] = set()
            for ev in step.events:
                shown = g.game.redact(ev, seat)
                hidden |= _strings(g.game.secrecy.hidden(ev, seat))
                shown_so_far |= _strings(shown["data"]) if shown else set()
            leaked = (hidden - shown_so_far) & _strings(g.game.view(state, seat))
            if leaked:
                return f"seat {seat} sees {sorted(leaked)[:5]} that redaction hid ({step.events[0]['type']})"
    return None


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_a_view_never_shows_what_redaction_hid(gid, players):
    """...and an imperfect-information game hides something from someone."""
    g = played(gid, players)
    assert first_leak(g, players) is None
    hid_any = any(g.game.redact(ev, seat) != ev for step in g.steps for ev in step.events
                  for seat in [None, *range(players)])
    assert hid_any or g.game.game_type.information == "perfect", "imperfect information, yet nothing is hidden"


@pytest.mark.parametrize("gid", GAMES)
def test_redaction_hides_every_declared_secret_and_each_is_dealt(gid):
    """The one secrecy description (``game.secrecy``) is what ``redact`` applies:
    a seat it does not name never gets a secret field as it was, and every event
    type it declares occurs in the game's random games (no stale declaration; a
    rare event may take a few more games, up to ``SECRET_GAMES``)."""
    game = registry.get(gid)
    seen: set[str] = set()
    bots = sorted(game.bots)
    games = itertools.chain(
        (played(gid, n) for n in sorted({game.min_players, game.max_players})),
        (play(game, table(game, game.min_players, bots[i % len(bots)]), {}, SEED + b"%d" % i, max_steps=MAX_STEPS)
         for i in range(SECRET_GAMES)))
    for i, g in enumerate(games):
        if i >= 2 and seen == set(game.secrecy.by_event):
            break
        for ev in (ev for step in g.steps for ev in step.events):
            secret = game.secrecy.by_event.get(ev["type"])
            if secret is None:
                continue
            seen.add(ev["type"])
            for seat in [None, *range(len(g.seats))]:
                shown = game.redact(ev, seat)["data"]
                if secret.sees(ev["data"], seat):
                    assert shown == ev["data"]
                    continue
                for f in secret.fields:
                    assert f not in shown or (secret.face and shown[f] == secret.face(ev["data"][f])), (ev, seat)
    assert seen == set(game.secrecy.by_event), f"declared but never dealt: {set(game.secrecy.by_event) - seen}"


def test_the_canary_catches_a_view_that_shows_the_deck():
    from domain.saboteur.rules import Saboteur

    class Leaky(Saboteur):
        def view(self, state, seat):
            return {**super().view(state, seat), "peek": list(state["deck"][:1])}

    g = played("saboteur", 3)
    leaky = Played(Leaky(), g.seats, g.options, g.seed, g.steps, g.state, g.version)
    assert "that redaction hid" in (first_leak(leaky, 3) or "")


def _hidden_from(g: Played, players: int):
    """(state before the step, step, secrets before, secrets after) along the game,
    where secrets maps each seat to the strings the events so far hid from it and its
    view does not show: what a label must not name to that seat."""
    state = g.game.initial_state()
    seen: dict[int | None, set[str]] = {seat: set() for seat in [None, *range(players)]}
    hidden: dict[int | None, set[str]] = {seat: set() for seat in seen}

    def secrets(at) -> dict:
        return {seat: hidden[seat] - seen[seat] - _strings(g.game.view(at, seat)) for seat in seen}

    before = None
    for i, step in enumerate(g.steps):
        after_state = fold(g.game, step.events, g.game.load_state(g.game.dump_state(state)))
        for seat in seen:
            for ev in step.events:
                shown = g.game.redact(ev, seat)
                hidden[seat] |= _strings(ev["data"])
                seen[seat] |= _strings(shown["data"]) if shown else set()
        after = secrets(after_state)
        if i:
            yield state, step, before, after
        state, before = after_state, after


def _names(label: str, secrets: set[str]) -> list[str]:
    words = set(label.replace("(", " ").replace(")", " ").replace(",", " ").split())
    return sorted(words & secrets)


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_every_command_has_a_label_that_hides_what_its_reader_may_not_see(gid, players):
    """Legal commands are labelled for the seat that may issue them, and every
    command played is labelled for everyone else (``public``): non-empty, and
    naming no value hidden from the reader (the canary of the views) once the
    command has landed."""
    g = played(gid, players)
    walk = list(_hidden_from(g, players))
    sampled = {id(step) for _state, step, _before, _after in walk[:: max(1, len(walk) // LEGAL_SAMPLE)]}
    labelled = 0
    for state, step, secrets, landed in walk[:600]:
        if step.seat is None:
            continue
        others = set().union(*(landed[s] for s in landed if s != step.seat))
        public = g.game.label(state, step.seat, step.command, public=True)
        assert public.strip() and not _names(public, others), (step.command, public)
        seats = g.game.turn(state).seats if id(step) in sampled else {step.seat}
        for seat in seats:
            for cmd in g.game.legal_commands(state, seat):
                text = g.game.label(state, seat, cmd)
                assert isinstance(text, str) and text.strip(), cmd
                assert not _names(text, secrets[seat]), (cmd, text)
                labelled += 1
    assert labelled


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_every_actor_step_is_labelled_by_what_it_did(gid, players):
    """A game-driven actor's step names only the actor, so its label comes from its events
    (``rules_actor_label``: DWARF's automaton, Indagar's monsters): words, never the kit's bare
    "<actor> plays", and naming nothing hidden from a spectator once the step has landed."""
    g = played(gid, players)
    steps = [(state, step, landed) for state, step, _before, landed in _hidden_from(g, players)
             if step.seat is None and (step.command or {}).get("type") == ACTOR_STEP]
    for state, step, landed in steps:
        actor = step.command["actor"]
        label = g.game.actor_label(state, actor, step.events, public=True)
        assert label.strip() and label != f"{actor} plays" and not _names(label, landed[None]), (step.events[:3], label)
    assert bool(steps) == any(step.command and step.command.get("type") == ACTOR_STEP for step in g.steps)


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_what_followed_a_command_is_worded_from_what_everyone_saw(gid, players):
    """Where a seat's command set more going in its batch (``rules_what_followed``: Indagar's last
    player picks a monster's target, and the monster moves and attacks), the words name nothing
    hidden from a spectator once the batch has landed; words, not data."""
    g = played(gid, players)
    for state, step, _before, landed in _hidden_from(g, players):
        if step.seat is None or not step.command:
            continue
        said = g.game.what_followed(state, step.seat, step.command, step.events, public=True)
        assert said is None or (said.strip() and "{" not in said and not _names(said, landed[None])), \
            (step.command, said)


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_no_two_legal_commands_share_a_label(gid, players):
    """A person picks a move by its label (the browser's move list, a client's menu): at every
    position of the game, the labels of a seat's legal commands are all different, so none
    hides another (two Mountain King digs of one tile on the same spaces differed only in
    where the tile's anchor lies)."""
    g = played(gid, players)
    for _version, state, _step in states(g):
        for seat in sorted(g.game.turn(state).seats):
            labels = [g.game.label(state, seat, cmd) for cmd in g.game.legal_commands(state, seat)]
            assert len(set(labels)) == len(labels), sorted(x for x in labels if labels.count(x) > 1)[:4]


def test_the_kit_labels_the_platform_commands():
    game = registry.get(GAMES[0])
    assert [game.label({}, 0, {"type": t}) for t in ("resign", "timeout", "forfeit")] == \
        ["Resign", "Out of time", "Forfeit"]
    assert game.label({}, None, {"type": "abort"}) == "Abort the game"


def test_the_label_canary_catches_a_discard_named_in_public():
    from domain.saboteur.rules import Saboteur

    class Leaky(Saboteur):
        def rules_label(self, state, seat, command, public):
            return super().rules_label(state, seat, command, False)

    g = played("saboteur", 3)
    caught = []
    for state, step, _before, landed in _hidden_from(g, 3):
        if step.seat is not None and step.command.get("type") == "pass" and "card" in step.command:
            others = set().union(*(landed[s] for s in landed if s != step.seat))
            caught.append(_names(Leaky().label(state, step.seat, step.command, public=True), others))
    assert any(caught)


def _at_middle(g: Played):
    walk = [(v, s, st) for v, s, st in states(g) if st.seat is not None]
    version, state, step = walk[len(walk) // 2]
    return version, state, step.seat


def _export_after(g: Played, version: int, state, seat, command) -> tuple[Played, list[str]]:
    """The game cut at ``version`` plus a platform command, sealed as an export."""
    steps = [s for s in g.steps if s.version < version]
    events = g.game.decide_platform(state, seat, command, Drbg(g.seed, command_stream(version)))
    cut = Played(g.game, g.seats, g.options, g.seed, [*steps, Step(version, seat, command, events)],
                 fold(g.game, events, state), version + len(events))
    return cut, export_lines(cut)


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_resign_puts_the_seat_last_ends_the_game_and_verifies(gid, players):
    g = played(gid, players)
    version, state, seat = _at_middle(g)
    cut, lines = _export_after(g, version, state, seat, {"type": "resign"})
    assert cut.terminal and cut.game.legal_commands(cut.state, seat) == []
    places = {line.participant: line.place for line in cut.scores().standings if line.place is not None}
    assert places[seat_id(seat)] == max(places.values())        # last of those placed (Indagar's monsters: none)
    assert seat_id(seat) not in cut.scores().result().winners
    verdict = verify(lines)
    assert verdict.ok, verdict.problems[:3]


@pytest.mark.parametrize("gid,players", TABLES, ids=IDS)
def test_abort_ends_the_game_aborted_and_verifies(gid, players):
    g = played(gid, players)
    version, state, _seat = _at_middle(g)
    cut, lines = _export_after(g, version, state, None, {"type": "abort"})
    assert cut.terminal and cut.scores().result().kind == "aborted"
    verdict = verify(lines)
    assert verdict.ok, verdict.problems[:3]
