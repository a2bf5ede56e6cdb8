"""What the deciding player is asked to do now, in plain words, and keyboard shortcuts."""

from __future__ import annotations

from typing import Any

from ..rules import Action, Move
from ..rules import move as mv
from ..rules.actions import from_json
from .shards import COLOUR_NAMES

# letters for the choices of the moment; e (end turn), h (help), n, u (undo) are kept free
KEYS = "abcdfgijklmopqrstvwxyz"
CARD_KEYS = "1234567890"  # the hand's cards, by a slot that holds for the whole turn


def under_way(view: dict[str, Any]) -> Action | None:
    """The action under way in ``view`` (its JSON read back), None if there is none."""
    pd = view.get("pending")
    return None if pd is None else from_json(pd)


def card_slots(view: dict, lay) -> dict[str, str]:
    """card -> its digit key, stable through the turn: the cards held at the start of the
    turn (the hand and those played since) in the deck's own order, so playing a card
    never renumbers the others (the hand is shown in this order too)."""
    me = view["seats"][view["seat"]]
    held = list(me.get("hand") or [])
    if view["turn"] == view["seat"]:
        held += [c for c, _ in me["played"]]
    order = lay.card_order
    ranked = sorted(dict.fromkeys(held), key=lambda c: order.get(c, len(order)))
    return dict(zip(ranked, CARD_KEYS, strict=False))


def assign_keys(legal: list[str]) -> dict[str, str]:
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


def prompt(view: dict, names: list[str]) -> str:
    """A sentence for the current decision (plain text; the caller escapes it)."""
    if view.get("over"):
        return "The game is over."
    who = names[view["current"]]
    if view.get("spawn_shard"):
        c = COLOUR_NAMES.get(view["spawn_shard"], "")
        return f"Spawn Energy! {who}: place the drawn {c} Shard on an Asteroid."
    pd = view.get("pending")
    if pd is None:
        if view.get("need_link"):
            return (
                f"{who}: play a chain link (a card sideways, or a Special upright) before "
                "another action — or launch a ship, or end your turn."
            )
        return f"{who}: play a card, launch a ship, or end your turn."
    return from_json(pd).prompt(view)


def end_turn_button(legal: list[str]) -> str:
    """The End-turn button, when ending the turn is a legal decision now ("" otherwise)."""
    if "E" not in legal:
        return ""
    return (
        '<button type="button" class="end-turn" id="move-E" data-move="E" '
        'title="End your turn (Enter)"><kbd>↵</kbd>End turn</button>'
    )
