"""What the deciding player is asked to do now, in plain words, and keyboard shortcuts."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Layout, Move, View
from ..rules import move as mv
from .shards import COLOUR_NAMES

# letters for the choices of the moment; e (end turn), h (help), n, u (undo) are kept free
KEYS = "abcdfgijklmopqrstvwxyz"
CARD_KEYS = "1234567890"  # the hand's cards, by a slot that holds for the whole turn


def card_slots(view: View, lay: Layout, came: Sequence[str] = ()) -> dict[str, str]:
    """card -> its digit key, stable through the turn: the cards held at the start of the
    turn (the hand and those played since) in the deck's own order, so playing a card
    never renumbers the others (the hand is shown in this order too). ``came``: the cards
    that came into the hand this turn (Upgrade's), in the order they came: they number
    after the others, so they never renumber them either."""
    me = view.me
    held = list(me.hand or ())
    if view.turn == view.seat:
        held += [c for c, _ in me.played]
    order = lay.card_order
    later = {c: i for i, c in enumerate(came)}

    def rank(c: str) -> tuple[int, int]:
        return (1, later[c]) if c in later else (0, order.get(c, len(order)))

    ranked = sorted(dict.fromkeys(held), key=rank)
    return dict(zip(ranked, CARD_KEYS, strict=False))


def assign_keys(legal: Sequence[str]) -> dict[str, str]:
    """token -> letter for the choices of the moment other than the hand's cards (which
    have digits, :func:`card_slots`), in the engine's order; End turn is Enter or e."""
    out: dict[str, str] = {}
    i = 0
    for m in legal:
        if Move(m).kind in (mv.END, mv.PLAY):  # a card in hand has a digit key instead
            continue
        if i >= len(KEYS):
            break
        out[m] = KEYS[i]
        i += 1
    return out


def prompt(view: View, names: list[str]) -> str:
    """A sentence for the current decision (plain text; the caller escapes it)."""
    if view.over:
        return "The game is over."
    who = names[view.current]
    if view.spawn_shard:
        c = COLOUR_NAMES.get(view.spawn_shard, "")
        return f"Spawn Energy! {who}: place the drawn {c} Shard on an Asteroid."
    pd = view.pending
    if pd is None:
        if view.need_link:
            return (
                f"{who}: play a chain link (a card sideways, or a Special upright) before "
                "another action — or launch a ship, or end your turn."
            )
        return f"{who}: play a card, launch a ship, or end your turn."
    return pd.prompt(view)


def end_turn_button(legal: Sequence[str]) -> str:
    """The End-turn button, when ending the turn is a legal decision now ("" otherwise)."""
    if "E" not in legal:
        return ""
    return (
        '<button type="button" class="end-turn" id="move-E" data-move="E" '
        'title="End your turn (Enter)"><kbd>↵</kbd>End turn</button>'
    )
