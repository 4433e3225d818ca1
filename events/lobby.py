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

STATUSES = ("open", "active", "finished", "aborted")


def project(store: RedisEventStore, game_id: str) -> None:
    """A private game is indexed by status only (the reactor's sweep reads those), never listed."""
    meta = store.meta(game_id)
    k = store.keys
    score = datetime.fromisoformat(meta["created_at"].replace("Z", "+00:00")).timestamp()
    pipe = store.r.pipeline(transaction=False)
    if meta.get("visibility") != "private":
        pipe.zadd(k.lobby("all"), {game_id: score})
        pipe.zadd(k.lobby(f"game:{meta['game']}"), {game_id: score})
    for status in STATUSES:
        if status == meta["status"]:
            pipe.zadd(k.lobby(f"status:{status}"), {game_id: score})
        else:
            pipe.zrem(k.lobby(f"status:{status}"), game_id)
    pipe.execute()


def page(store: RedisEventStore, game: str | None, status: str | None, offset: int, limit: int) -> dict:
    """Newest first, filtered by game and/or status; public games only."""
    k, r = store.keys, store.r
    if status:
        ids = r.zrevrange(k.lobby(f"game:{game}" if game else "all"), 0, -1)
        kept = r.zmscore(k.lobby(f"status:{status}"), ids) if ids else []
        ids = [i for i, score in zip(ids, kept) if score is not None]
        total, ids = len(ids), ids[offset:offset + limit]
    else:
        key = k.lobby(f"game:{game}" if game else "all")
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
                      "open_seats": sum(1 for s in json.loads(meta["seats"]) if s.get("open")),
                      "finished_at": meta.get("finished_at")})
    return {"total": total, "offset": offset, "limit": limit, "games": items}

