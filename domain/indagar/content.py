"""The content pack (``content/``): layouts, heroes, abilities, monsters, tiles.

Most of it is AUTHORED (see AUTHORED.md): the rulebook does not print the cards
or the layouts (IND-GAP-1..13). Everything is read once and cached; callers
must not mutate what they get.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

HERE = Path(__file__).parent / "content"
RESOURCES = ("gold", "wood", "ore")
FACTIONS_ORDER = ("arkland", "forest", "ramal", "sect")


def _yaml(name: str):
    return yaml.safe_load((HERE / name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def layout_text(players: int) -> str:
    return (HERE / f"board_{players}p.txt").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def heroes() -> dict[str, dict]:
    return {h["id"]: h for h in _yaml("heroes.yaml")}


@lru_cache(maxsize=None)
def abilities() -> dict[str, dict]:
    return {a["id"]: a for a in _yaml("abilities.yaml")}


@lru_cache(maxsize=None)
def factions() -> dict[str, dict]:
    return {f["id"]: f for f in _yaml("factions.yaml")}


@lru_cache(maxsize=None)
def monsters() -> dict[str, dict]:
    return {m["id"]: m for m in _yaml("monsters.yaml")}


@lru_cache(maxsize=None)
def event_monsters() -> dict[str, dict]:
    return {m["id"]: m for m in _yaml("event_monsters.yaml")}


@lru_cache(maxsize=None)
def tiles() -> dict:
    return _yaml("tiles.yaml")


def faction_heroes(faction: str) -> list[str]:
    """The faction's 3 heroes in card order (IND-SETUP-6: automatic in the base game)."""
    return [h for h, card in heroes().items() if card["faction"] == faction]


def demon_heads(round_no: int) -> int:
    """Primary monster level in ``round_no`` (IND-MLVL-1)."""
    return tiles()["demon_heads"][max(1, min(round_no, 10)) - 1]


def cost(ability: str) -> dict[str, int]:
    card = abilities()[ability]
    return {r: int(n) for r, n in (card.get("cost") or {}).items()}
