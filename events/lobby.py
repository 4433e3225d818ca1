"""The lobby indexes: sorted sets of game ids by creation time.

``delve:games:all``, ``delve:games:game:<id>`` and ``delve:games:status:<s>``
are a projection of each game's meta hash, rebuilt idempotently by
:func:`project` (at creation and finish, and by the reactor for every feed
entry). Only single-key commands are used, so a Redis Cluster can hold them.
"""
from __future__ import annotations

import json
from datetime import datetime

from events.store import RedisEventStore, as_text

STATUSES = ("active", "finished")


def project(store: RedisEventStore, game_id: str) -> None:
    meta = store.meta(game_id)
    k = store.keys
    score = datetime.fromisoformat(meta["created_at"].replace("Z", "+00:00")).timestamp()
    pipe = store.r.pipeline(transaction=False)
    pipe.zadd(k.lobby("all"), {game_id: score})
    pipe.zadd(k.lobby(f"game:{meta['game']}"), {game_id: score})
    for status in STATUSES:
        if status == meta["status"]:
            pipe.zadd(k.lobby(f"status:{status}"), {game_id: score})
        else:
            pipe.zrem(k.lobby(f"status:{status}"), game_id)
    pipe.execute()


def page(store: RedisEventStore, game: str | None, status: str | None, offset: int, limit: int,
         after: str | None = None) -> dict:
    """Newest first, filtered by game and/or status.

    ``after`` (a cursor: the last game id of the previous page) starts the page
    just past that game, so games created meanwhile do not shift it the way
    they shift an ``offset``. A game no longer in the index ends the listing.
    """
    k, r = store.keys, store.r
    if game and status:
        ids = r.zrevrange(k.lobby(f"game:{game}"), 0, -1)
        kept = r.zmscore(k.lobby(f"status:{status}"), ids) if ids else []
        ids = [as_text(i) for i, score in zip(ids, kept) if score is not None]
        if after is not None:
            offset = ids.index(after) + 1 if after in ids else len(ids)
        total, ids = len(ids), ids[offset:offset + limit]
    else:
        key = k.lobby(f"game:{game}" if game else f"status:{status}" if status else "all")
        if after is not None:
            rank = r.zrevrank(key, after)
            offset = rank + 1 if rank is not None else r.zcard(key)
        total, ids = r.zcard(key), r.zrevrange(key, offset, offset + limit - 1)
    gids = [as_text(raw) for raw in ids]
    pipe = r.pipeline(transaction=False)
    for gid in gids:
        pipe.hgetall(k.meta(gid))
    items = []
    for gid, raw_meta in zip(gids, pipe.execute()):
        if not raw_meta:
            continue  # indexed, then deleted
        meta = {as_text(key): as_text(value) for key, value in raw_meta.items()}
        items.append({"id": gid, "game": meta["game"], "status": meta["status"], "version": int(meta["version"]),
                      "seats": json.loads(meta["seats"]), "created_at": meta["created_at"],
                      "finished_at": meta.get("finished_at")})
    more = offset + len(gids) < total
    return {"total": total, "offset": offset, "limit": limit, "games": items,
            "next_cursor": gids[-1] if more and gids else None}

