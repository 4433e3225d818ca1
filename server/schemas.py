"""marshmallow schemas of every request and response body.

Requests are *loaded* (unknown fields rejected, types strict) so malformed
input becomes a 400 before any rule runs; responses are *dumped* through
their schema so the shapes clients code against cannot drift silently.
"""
from __future__ import annotations

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

from application.status import GameStatus

Int = lambda **kw: fields.Integer(strict=True, **kw)  # noqa: E731 - "5" is not a number here


class SeatSpec(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(validate=validate.Length(min=1, max=40))
    bot = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=40))
    level = fields.String(validate=validate.Length(min=1, max=20))  # the search bot's level (kit.search.LEVELS)
    open = fields.Boolean(validate=validate.Equal(True))  # left for any player to join
    player = fields.String(validate=validate.Length(min=1, max=40))  # reserved for this player

    @validates_schema
    def _one_kind(self, data, **kw):
        kinds = [k for k in ("name", "open", "player") if k in data]
        if len(kinds) != 1 or (data.get("bot") is not None and kinds != ["name"]):
            raise ValidationError("a seat is {name, bot?, level?}, {open: true} or {player: id}")
        if "level" in data and data.get("bot") is None:
            raise ValidationError("a level goes with a bot: {name, bot: 'search', level}")


class CreateGameRequest(Schema):
    class Meta:
        unknown = RAISE

    game = fields.String(required=True, validate=validate.Length(min=1, max=40))
    seats = fields.List(fields.Nested(SeatSpec), required=True, validate=validate.Length(min=1, max=16))
    options = fields.Dict(keys=fields.String(), load_default=dict)
    visibility = fields.String(load_default="public", validate=validate.OneOf(["public", "private"]))
    clock = fields.Dict(keys=fields.String(), load_default=None)  # checked by application.clocks.control


class ActionRequest(Schema):
    class Meta:
        unknown = RAISE

    expected_version = Int(required=True, validate=validate.Range(min=0))
    command = fields.Raw(required=True, allow_none=True)  # any JSON: not an object is a 422 malformed_command


class ListGamesQuery(Schema):
    class Meta:
        unknown = RAISE

    game = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    status = fields.String(load_default=None, validate=validate.OneOf(list(GameStatus)))
    cursor = fields.String(load_default=None, validate=validate.Regexp(r"^g[0-9a-f]{16}$"))
    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class EventsQuery(Schema):
    class Meta:
        unknown = RAISE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=10**9))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class SeatOut(Schema):
    seat = Int()
    name = fields.String()
    bot = fields.String(allow_none=True)
    open = fields.Boolean()  # present on a seat still to be taken
    reserved = fields.String()  # the player an open seat waits for
    player = fields.String()  # the player holding the seat
    entropy = fields.String()  # the entropy that player sent when joining


class SeatWithToken(SeatOut):
    token = fields.String(allow_none=True)


class CreateGameResponse(Schema):
    id = fields.String()
    game = fields.String()
    version = Int()
    status = fields.String()
    visibility = fields.String()
    invite_token = fields.String()  # private games: lets spectators read the game
    seats = fields.List(fields.Nested(SeatWithToken))


class TurnOut(Schema):
    seats = fields.List(Int())
    actor = fields.String(allow_none=True)
    terminal = fields.Boolean()


class OutcomeOut(Schema):
    kind = fields.String()
    winners = fields.List(fields.String())


class TableOf(Schema):
    id = fields.String()
    round = Int()


class GameSummary(Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    version = Int()
    active_seats = fields.List(Int())
    turn = fields.Nested(TurnOut)
    outcome = fields.Nested(OutcomeOut)
    seats = fields.List(fields.Nested(SeatOut))
    view = fields.Dict()
    visibility = fields.String()
    tournament = fields.Nested(TableOf, allow_none=True)  # the tournament and round of a table's game
    clocks = fields.List(fields.Dict())  # [{seat, remaining_ms}]
    deadline = fields.String(allow_none=True)
    created_at = fields.String()
    finished_at = fields.String(allow_none=True)


class GameListItem(Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    version = Int()
    seats = fields.List(fields.Nested(SeatOut))
    open_seats = Int()
    created_at = fields.String()
    finished_at = fields.String(allow_none=True)


class GameList(Schema):
    total = Int()
    offset = Int()
    limit = Int()
    games = fields.List(fields.Nested(GameListItem))
    next_cursor = fields.String(allow_none=True)


class LegalActions(Schema):
    version = Int()
    seat = Int(allow_none=True)
    commands = fields.List(fields.Dict())
    labels = fields.List(fields.String())


class EventOut(Schema):
    seq = Int()
    game_id = fields.String()
    type = fields.String()
    data = fields.Dict()
    seat = Int(allow_none=True)
    command_id = fields.String(allow_none=True)
    command = fields.Dict(allow_none=True)
    at = fields.String()
    rules_version = fields.String()
    prev_hash = fields.String()
    hash = fields.String()


class EventPage(Schema):
    version = Int()
    events = fields.List(fields.Nested(EventOut))


class ActionResponse(Schema):
    version = Int()
    terminal = fields.Boolean()
    events = fields.List(fields.Nested(EventOut))


class StateAt(Schema):
    version = Int()
    move = Int(allow_none=True)  # the move this version ends (application/moves.py); None: no move ends here
    label = fields.String(allow_none=True)
    view = fields.Dict()
    state = fields.Dict()


class MoveOut(Schema):
    move = Int()
    seat = Int(allow_none=True)
    actor = fields.String(allow_none=True)
    label = fields.String()
    at = fields.String()
    first_seq = Int()
    last_seq = Int()
    command_id = fields.String()
    command = fields.Dict(allow_none=True)
    types = fields.List(fields.String())


class Moves(Schema):
    game_id = fields.String()
    version = Int()
    moves = fields.List(fields.Nested(MoveOut))


class SeatScoreOut(Schema):
    seat = Int()
    total = Int()
    place = Int()
    breakdown = fields.Dict(keys=fields.String(), values=fields.Integer())


class StandingOut(Schema):
    id = fields.String()
    total = Int()
    place = Int(allow_none=True)
    breakdown = fields.Dict(keys=fields.String(), values=fields.Integer())


class LeftOutSeat(Schema):
    seat = Int()
    why = fields.String()


class GameRating(Schema):
    status = fields.String()
    reason = fields.String(allow_none=True)
    left_out = fields.List(fields.Nested(LeftOutSeat))


class Scores(Schema):
    final = fields.Boolean()
    ranking = fields.List(Int())
    winners = fields.List(Int())
    seats = fields.List(fields.Nested(SeatScoreOut))
    participants = fields.List(fields.Nested(StandingOut))
    outcome = fields.Nested(OutcomeOut)
    rating = fields.Nested(GameRating, allow_none=True)


class PlatformRequest(Schema):
    """Body of resign / abort: optional, so a player can leave without knowing the version."""

    class Meta:
        unknown = RAISE

    expected_version = Int(load_default=None, allow_none=False, validate=validate.Range(min=0))


class AuditEntropy(Schema):
    seat = Int()
    value = fields.String()


class Audit(Schema):
    seed_commitment = fields.String()
    server_seed_commitment = fields.String()
    entropy = fields.List(fields.Nested(AuditEntropy))
    server_seed = fields.String(allow_none=True)
    seed = fields.String(allow_none=True)
    chain_head = fields.String(allow_none=True)
    events = Int()
    rules_version = fields.String()
    status = fields.String()
    signatures = fields.List(fields.Dict())  # signed statements: the seed commitment, then the record once closed


class Problem(Schema):
    seq = Int(allow_none=True)
    place = fields.String()  # a tournament bundle's problems: "tournament seq 7", "game g1f... seq 12"
    problem = fields.String()


class VerifyNote(Schema):
    line = Int(allow_none=True)
    note = fields.String()


class Verdict(Schema):
    ok = fields.Boolean()
    status = fields.String()  # ok / incomplete / failed
    events = Int()
    chain_head = fields.String(allow_none=True)
    chain_ok = fields.Boolean()
    replay_ok = fields.Boolean()
    game = fields.String(allow_none=True)
    game_id = fields.String(allow_none=True)
    rules_version = fields.String(allow_none=True)  # the rules version that replayed the export
    incomplete = fields.String(allow_none=True)
    signed_by = fields.String(allow_none=True)
    keys_checked = fields.Boolean()
    signatures = fields.List(fields.Dict())
    problems = fields.List(fields.Nested(Problem))
    notes = fields.List(fields.Nested(VerifyNote))  # what does not fail the record: a malformed signature line, unchecked
    games = fields.Dict(keys=fields.String(), values=fields.Boolean())  # a bundle's games: id -> verified
    tournament = fields.String(allow_none=True)
    game_verdicts = fields.Dict(keys=fields.String(), values=fields.Dict())


class CatalogGame(Schema):
    id = fields.String()
    title = fields.String()
    min_players = Int()
    max_players = Int()
    rules_version = fields.String()
    rules_versions = fields.List(fields.String())  # every version this server replays, oldest first
    bots = fields.List(fields.String())
    bot_levels = fields.List(fields.Dict())  # the search bot's levels: {id, bot, level, playouts}
    options_schema = fields.Dict()
    renderer = fields.String(allow_none=True)  # the web viewer's board renderer module, or null


class CatalogGameDetail(CatalogGame):
    content = fields.Dict()
    command_schema = fields.Dict()


class Catalog(Schema):
    games = fields.List(fields.Nested(CatalogGame))
