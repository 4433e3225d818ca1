"""The registered games a test asks about, read from the registry (never a list of names)."""
from __future__ import annotations

from domain import registry


def shipped() -> list[str]:
    """Ids of the games Delve ships (their packages under domain/), not those tests register."""
    return [gid for gid in registry.available() if type(registry.get(gid)).__module__.startswith("domain.")]
