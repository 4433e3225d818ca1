"""The lobby indexes: sorted sets of game ids by creation time.

``delve:games:all``, ``delve:games:game:<id>`` and ``delve:games:status:<s>``
are a projection of each game's meta hash, rebuilt idempotently by
:func:`project`: at creation and finish, and by the lobby follower
(workers/table.py) once for every feed entry, which repairs a crash between
an append and its projection. Only single-key commands are used, so a Redis Cluster can hold them.
"""
from __future__ import annotations

import json
from datetime import datetime

from events.store import RedisEventStore
from events.tracking import Transaction
from application.status import GameStatus

STATUSES = tuple(GameStatus)


def project(store: RedisEventStore, game_id: str, tx: Transaction | None = None) -> None:
    """Index the game as its meta hash says now (``tx``: as part of a follower's transaction).

    A private game is indexed by status only (the reactor's sweep reads those), never listed."""
    meta = store.meta(game_id)
    score = datetime.fromisoformat(meta["created_at"].replace("Z", "+00:00")).timestamp()
    status = f"status:{meta['status']}"
    listed = [] if meta.get("visibility") == "private" else ["all", f"game:{meta['game']}"]
    store.indexes.put(game_id, score, [*listed, status],
                      [f"status:{s}" for s in STATUSES if f"status:{s}" != status], tx)


def page(store: RedisEventStore, game: str | None, status: str | None, offset: int, limit: int,
         after: str | None = None) -> dict:
    """Newest first, filtered by game and/or status; public games only (``all`` and ``game:<id>``
    hold only those, so a status filter reads them and keeps the ones in the status index).

    ``after`` (a cursor: the last game id of the previous page) starts the page
    just past that game, so games created meanwhile do not shift it the way
    they shift an ``offset``. A game no longer in the index ends the listing.
    """
    if status:
        _, ids = store.indexes.page(f"game:{game}" if game else "all")
        ids = [i for i, kept in zip(ids, store.indexes.contains(f"status:{status}", ids)) if kept]
        if after is not None:
            offset = ids.index(after) + 1 if after in ids else len(ids)
        total, ids = len(ids), ids[offset:offset + limit]
    else:
        index = f"game:{game}" if game else "all"
        rank = store.indexes.rank(index, after) if after is not None else offset - 1
        total, ids = store.indexes.page(index, rank + 1, limit) if rank is not None \
            else (store.indexes.page(index, 0, 1)[0], [])
        offset = rank + 1 if rank is not None else total
    items = []
    for gid, meta in zip(ids, store.reads.metas(ids)):
        if meta is None:
            continue  # indexed, then deleted
        items.append({"id": gid, "game": meta["game"], "status": meta["status"], "version": int(meta["version"]),
                      "seats": json.loads(meta["seats"]), "created_at": meta["created_at"],
                      "open_seats": sum(1 for s in json.loads(meta["seats"]) if s.get("open")),
                      "finished_at": meta.get("finished_at")})
    more = offset + len(ids) < total
    return {"total": total, "offset": offset, "limit": limit, "games": items,
            "next_cursor": ids[-1] if more and ids else None}
