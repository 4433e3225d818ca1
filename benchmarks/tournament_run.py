"""Run tournaments against a live server (``delve serve``) the way a director and players would,
over HTTP only: the by-hand check of issue 10 and the 64-entrant benchmark.

    python -m benchmarks.tournament_run --url http://127.0.0.1:8770 --admin TOKEN done-when
    python -m benchmarks.tournament_run --url http://127.0.0.1:8770 --admin TOKEN swiss64

``done-when``: a 16-entrant Saboteur Swiss at 4-seat tables (4 players, 12 bots) and an
8-entrant Mountain King round-robin (2 players, 6 bots), both with a per-move clock. Half
the players are driven by this script (first legal command), the others never move and
are adjudicated by the clock. Then each bundle is verified offline with ``delve verify``
and a copy with one changed byte must be rejected, naming the place.

``swiss64``: a 64-entrant Saboteur Swiss of bots (no clock), timed from creation to
``finished``: wall time and games finished per second of the whole stack.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from domain.tournament.log import TournamentStatus


class Api:
    def __init__(self, url: str):
        self.url = url.rstrip("/")

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, bytes]:
        req = urllib.request.Request(self.url + path, method=method,
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
        try:
            with urllib.request.urlopen(req, timeout=60) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()

    def json(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
        status, data = self.call(method, path, body, token)
        out = json.loads(data)
        if status >= 400 and status != 409:
            raise RuntimeError(f"{method} {path}: {status} {out}")
        return out


def play_turns(api: Api, tids: list[str], tokens: list[str]) -> int:
    """Each scripted player posts the first legal command wherever it is to act; returns moves made."""
    moved = 0
    for tid in tids:
        for rnd in api.json("GET", f"/v1/tournaments/{tid}")["rounds"]:
            for tb in rnd["tables"]:
                if tb["result"] is not None:
                    continue
                for token in tokens:
                    legal = api.json("GET", f"/v1/games/{tb['game_id']}/legal-actions", token=token)
                    if legal.get("commands"):
                        status, _ = api.call("POST", f"/v1/games/{tb['game_id']}/actions",
                                             {"expected_version": legal["version"], "command": legal["commands"][0]},
                                             token)
                        moved += status == 201
    return moved


def wait_finished(api: Api, tids: list[str], tokens: list[str], limit_s: float) -> float:
    started = time.monotonic()
    while time.monotonic() - started < limit_s:
        states = {tid: api.json("GET", f"/v1/tournaments/{tid}") for tid in tids}
        done = sum(1 for t in states.values() for r in t["rounds"]
                   for tb in r["tables"] if tb["result"] is not None)
        print(f"\r{time.monotonic() - started:7.1f} s  games reported: {done}  "
              + "  ".join(f"{t['name']}: {t['status']}, round {len(t['rounds'])}" for t in states.values()),
              end="", file=sys.stderr, flush=True)
        if all(t["status"] == TournamentStatus.FINISHED for t in states.values()):
            print(file=sys.stderr)
            return time.monotonic() - started
        if not play_turns(api, tids, tokens):
            time.sleep(0.5)
    raise SystemExit(f"not finished after {limit_s} s")


def check_bundle(api: Api, tid: str, out: Path) -> dict:
    """Verify the bundle with ``delve verify``; then a copy with a changed result must fail, naming the place."""
    path = out / f"{tid}.ndjson"
    path.write_bytes(api.call("GET", f"/v1/tournaments/{tid}/bundle")[1])
    delve = str(Path(sys.executable).with_name("delve"))
    good = subprocess.run([delve, "verify", str(path)], capture_output=True, text=True)
    lines = path.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"GameFinished"' in line and f'"game_id":"{tid}"' in line)
    lines[i] = lines[i].replace('"round":1', '"round":2', 1)
    bad_path = out / f"{tid}-tampered.ndjson"
    bad_path.write_text("\n".join(lines) + "\n")
    bad = subprocess.run([delve, "verify", str(bad_path)], capture_output=True, text=True)
    return {"bundle": str(path), "verify": good.returncode, "verify_output": good.stdout.strip(),
            "tampered_seq": json.loads(lines[i])["seq"], "tampered_verify": bad.returncode,
            "tampered_output": bad.stdout.strip().splitlines()[0]}


def done_when(api: Api, admin: str, out: Path) -> dict:
    players = [api.json("POST", "/v1/players", {"name": n}) for n in ("ann", "bob", "cy", "dee")]
    scripted = [p["token"] for p in players[:2]]  # ann and bob play; cy and dee never move
    clock = {"per_move_s": 5, "on_timeout": "forfeit"}
    swiss = api.json("POST", "/v1/tournaments", {
        "game": "saboteur", "format": "swiss", "table_size": 4, "clock": clock, "name": "Saboteur Swiss 16",
        "entrants": [{"player": p["id"]} for p in players]
        + [{"bot": "heuristic" if i % 2 else "random", "name": f"dwarf-{i}"} for i in range(12)]}, admin)
    rr = api.json("POST", "/v1/tournaments", {
        "game": "mountain-king", "format": "round-robin", "table_size": 2, "clock": clock,
        "name": "Mountain King round-robin 8", "entrants": [{"player": players[0]["id"]}, {"player": players[2]["id"]}]
        + [{"bot": "greedy" if i % 2 else "random", "name": f"troll-{i}"} for i in range(6)]}, admin)
    for t in (swiss, rr):  # the admin invited the players; each accepts, then the admin starts it
        for p in players:
            if p["id"] in t["invited"]:
                api.json("POST", f"/v1/players/me/invitations/{t['id']}/accept", None, p["token"])
        api.json("POST", f"/v1/tournaments/{t['id']}/start", None, admin)
    seconds = wait_finished(api, [swiss["id"], rr["id"]], scripted, 7200)
    result = {"seconds": round(seconds, 1)}
    for t in (swiss, rr):
        final = api.json("GET", f"/v1/tournaments/{t['id']}")
        games = [tb for r in final["rounds"] for tb in r["tables"]]
        timed_out = sum(any(e["type"] == "TimeExpired" for e in api.json(
            "GET", f"/v1/games/{tb['game_id']}/events?limit=1000")["events"]) for tb in games)
        names = {e["id"]: e["name"] for e in final["entrants"]}
        result[final["name"]] = {"id": t["id"], "rounds": len(final["rounds"]), "games": len(games),
                                 "games_ended_by_a_clock": timed_out,
                                 "podium": [(s["place"], names[s["entrant"]], s["points"]) for s in final["standings"][:3]],
                                 **check_bundle(api, t["id"], out)}
    return result


def swiss64(api: Api, admin: str, out: Path) -> dict:
    t = api.json("POST", "/v1/tournaments", {
        "game": "saboteur", "format": "swiss", "table_size": 4, "name": "Saboteur Swiss 64",
        "entrants": [{"bot": "heuristic" if i % 2 else "random", "name": f"dwarf-{i}"} for i in range(64)]}, admin)
    seconds = wait_finished(api, [t["id"]], [], 7200)
    final = api.json("GET", f"/v1/tournaments/{t['id']}")
    games = sum(len(r["tables"]) for r in final["rounds"])
    checked = time.monotonic()
    verdict = check_bundle(api, t["id"], out)
    return {"id": t["id"], "rounds": len(final["rounds"]), "games": games, "seconds": round(seconds, 1),
            "games_per_s": round(games / seconds, 3), "verify_seconds": round(time.monotonic() - checked, 1),
            **verdict}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--admin", required=True, help="the server's admin token")
    parser.add_argument("--out", type=Path, default=Path("."), help="where the bundles are written")
    parser.add_argument("run", choices=["done-when", "swiss64"])
    args = parser.parse_args()
    run = done_when if args.run == "done-when" else swiss64
    print(json.dumps(run(Api(args.url), args.admin, args.out), indent=2))


if __name__ == "__main__":
    main()
