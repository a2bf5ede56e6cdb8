"""What one decision changed on the board, from the two states only (no DOM guessing):
the ships that moved and the spaces whose stacks changed. The game's marks
(``Session.marks``) and a lesson's last tap (``tutorial.py``) are drawn from these."""

from __future__ import annotations

from ..rules import State

__all__ = ["motions", "step_marks", "touched"]


def motions(before: State, after: State) -> list[dict]:
    """What moved on the board in one decision, from the two states (no DOM guessing).

    Each is ``{"owner": seat, "from": place, "to": place}`` where a place is a space index,
    ``"dock"`` (the owner's Star Base) or ``"star"`` (consumed). A Launch comes from the
    dock, an Unload goes to it; a pushed ship moves too.
    """
    out = []
    for owner in range(len(before.players)):
        gone = [s for s, o in enumerate(before.ship) if o == owner and after.ship[s] != owner]
        came = [s for s, o in enumerate(after.ship) if o == owner and before.ship[s] != owner]
        for i in range(max(len(gone), len(came))):
            src: int | str = gone[i] if i < len(gone) else "dock"
            dst: int | str
            if i < len(came):
                dst = came[i]
            elif after.players[owner].dock > before.players[owner].dock:
                dst = "dock"
            else:
                dst = "star"
            out.append({"owner": owner, "from": src, "to": dst})
    return out


def touched(before: State, after: State) -> list[int]:
    """Spaces whose stack or Shards changed in one decision."""
    return [
        s
        for s in range(len(before.ship))
        if before.ship[s] != after.ship[s] or before.pile[s] != after.pile[s]
    ]


def step_marks(before: State, after: State, seat: int, index: str) -> dict:
    """The board's marks (``board_svg(marks=...)``) for the decisions from ``before`` to
    ``after``: the trails and touched spaces, and the moved stacks to animate once
    (``index`` names this step, so the page plays it once)."""
    moved = motions(before, after)
    return {
        "seat": seat,
        "motions": moved,
        "touched": touched(before, after),
        "latest": {"index": index, "motions": moved},
    }
