"""The content pack (``content/``): layouts, heroes, abilities, monsters, tiles.

Most of it is AUTHORED (see AUTHORED.md): the rulebook does not print the cards
or the layouts (IND-GAP-1..13). Everything is read once and cached; callers
must not mutate what they get.
"""
from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import yaml

from domain.kit import Table

HERE = Path(__file__).parent / "content"
RESOURCES = ("gold", "wood", "ore")
FACTIONS_ORDER = ("arkland", "forest", "ramal", "sect")


def _yaml(name: str):
    return yaml.safe_load((HERE / name).read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _by_id(name: str) -> dict[str, dict]:
    """A content file that lists components, one per line, keyed by their ``id``."""
    return {c["id"]: c for c in _yaml(name)}


@lru_cache(maxsize=None)
def layout_text(players: int) -> str:
    return (HERE / f"board_{players}p.txt").read_text(encoding="utf-8")


# The tables a test position may replace entries of (``given heroes.ariane.movement = 6``).
TABLES = {name: Table("indagar", name, lambda name=name: _by_id(f"{name}.yaml"))
          for name in ("heroes", "abilities", "monsters", "event_monsters")}


def heroes() -> Mapping[str, dict]:
    return TABLES["heroes"]


def abilities() -> Mapping[str, dict]:
    return TABLES["abilities"]


def factions() -> dict[str, dict]:
    return _by_id("factions.yaml")


def monsters() -> Mapping[str, dict]:
    return TABLES["monsters"]


def event_monsters() -> Mapping[str, dict]:
    return TABLES["event_monsters"]


@lru_cache(maxsize=None)
def tiles() -> dict:
    return _yaml("tiles.yaml")


@lru_cache(maxsize=None)
def boards() -> dict[str, dict]:
    """Strategy boards by faction (IND-STR-1/2, authored: IND-GAP-3)."""
    return {b["faction"]: b for b in _yaml("strategy.yaml")}


@lru_cache(maxsize=None)
def trees() -> dict[str, dict]:
    """Tree id -> tree, with its faction."""
    return {t["id"]: {**t, "faction": f} for f, b in boards().items() for t in b["trees"]}


@lru_cache(maxsize=None)
def tree_abilities() -> dict[str, dict]:
    """Strategy-tree ability id -> card, with the tree it belongs to."""
    return {a["id"]: {**a, "tree": tid} for tid, t in trees().items() for a in t["abilities"]}


def ability(ability_id: str) -> dict:
    """A hero-card or strategy-tree ability card (IND-ABL-1)."""
    return abilities().get(ability_id) or tree_abilities()[ability_id]


def faction_heroes(faction: str) -> list[str]:
    """The faction's 3 heroes in card order (IND-SETUP-6: automatic in the base game)."""
    return [h for h, card in heroes().items() if card["faction"] == faction]


def demon_heads(round_no: int) -> int:
    """Primary monster level in ``round_no`` (IND-MLVL-1)."""
    return tiles()["demon_heads"][max(1, min(round_no, 10)) - 1]


def cost(ability_id: str) -> dict[str, int]:
    return {r: int(n) for r, n in (ability(ability_id).get("cost") or {}).items()}
