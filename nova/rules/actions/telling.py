"""Small pieces of the words the actions use to tell what a choice did (the game log)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..state import State


def shards(n: int) -> str:
    """'1 Shard', '3 Shards'."""
    return f"{n} Shard{'s' * (n != 1)}"


def moved_to(before: State, after: State, owner: int, src: int) -> int | None:
    """Where ``owner``'s ship that stood on ``src`` ended up (a space it did not hold)."""
    for s, o in enumerate(after.ship):
        if o == owner and before.ship[s] != owner and s != src:
            return s
    return None
