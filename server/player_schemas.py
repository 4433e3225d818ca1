"""marshmallow schemas of the players and lobby endpoints (issue 9).

Kept apart from ``server.schemas`` so the two sets of endpoints can change
without stepping on each other; the rules are the same: requests are loaded
strictly, responses dumped through their schema.
"""
from __future__ import annotations

from marshmallow import RAISE, Schema, fields, validate

from server.schemas import Int


class CreatePlayerRequest(Schema):
    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1, max=40))


class CreatePlayerResponse(Schema):
    id = fields.String()
    name = fields.String()
    token = fields.String()
    created_at = fields.String()


class Rating(Schema):
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float()
    games = Int()


class ProfileGame(Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    seat = Int(allow_none=True)
    visibility = fields.String()
    created_at = fields.String()


class RatingChange(Rating):
    game = fields.String()
    game_id = fields.String()
    at = fields.String()


class Profile(Schema):
    id = fields.String()
    name = fields.String()
    created_at = fields.String()
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(Rating))
    rating_history = fields.List(fields.Nested(RatingChange))
    games = fields.List(fields.Nested(ProfileGame))


class LeaderboardQuery(Schema):
    class Meta:
        unknown = RAISE

    offset = fields.Integer(load_default=0, validate=validate.Range(min=0, max=1_000_000))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=100))


class LeaderboardLine(Rating):
    player = fields.String()
    name = fields.String(allow_none=True)


class Leaderboard(Schema):
    game = fields.String()
    players = fields.List(fields.Nested(LeaderboardLine))


class JoinRequest(Schema):
    class Meta:
        unknown = RAISE

    seat = Int(load_default=None, allow_none=True, validate=validate.Range(min=0, max=63))
    entropy = fields.String(load_default=None, allow_none=True)
    invite = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class SeatChange(Schema):
    seat = Int()
    version = Int()
    status = fields.String()


class Cancelled(Schema):
    version = Int()
    status = fields.String()
