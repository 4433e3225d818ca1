"""The cached-game read script runs on a pooled connection past redis-py's command path
(``events.scripts.Direct``); what redis-py would otherwise handle must still work: the script
not loaded (a restarted Redis, a ``SCRIPT FLUSH``) and a connection Redis dropped."""
from __future__ import annotations

from application.service import GameService


def test_a_read_survives_a_script_flush_and_a_dropped_connection(store, r):
    service = GameService(store)
    gid = service.create("tiny", [{"name": "ann", "bot": "random"}, {"name": "bob", "bot": "random"}], {})["id"]
    assert service.bot_turn(gid, service.load(gid).version) is not None
    version = service.load(gid).version  # cached by this process from here on: the next reads use the script
    r.script_flush()
    assert service.load(gid).version == version
    r.client_kill_filter(_type="normal", skipme=True)  # every connection of the store's pool is gone
    assert service.load(gid).version == version
    assert service.bot_turn(gid, version) is not None
    assert service.load(gid).version > version
