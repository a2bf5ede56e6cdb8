"""What the deciding player is asked to do now, in plain words, and keyboard shortcuts."""

from __future__ import annotations

from typing import Any

from ..rules import Action, Kind, Move, Step
from ..rules import move as mv
from ..rules.actions import from_json
from .shards import COLOUR_NAMES
from .words import skip_total

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
    return PROMPTS[Kind(pd["kind"])](view, pd)


def _bank(view: dict, pd: dict) -> str:
    shards = pd["shards"]
    more = len(shards) - 1
    tail = f" ({more} more after it)" if more else ""
    return f"Put the {COLOUR_NAMES.get(shards[0], '')} Shard into a Cargo Bay{tail}."


def _upgrade(view: dict, pd: dict) -> str:
    return "Upgrade: take a face-up Academy card, or the top of the Academy Deck."


def _reorder(view: dict, pd: dict) -> str:
    if pd.get("mode") is None:
        return "Re-order: the top Shards of your bays, or one whole bay?"
    return "Re-order: choose the colour of the next Shard to place."


def _skip(view: dict, pd: dict) -> str:
    return f"Skip: add Orbit cards (total so far {skip_total(pd.get('totals', [0]))}), then Done."


def _unload(view: dict, pd: dict) -> str:
    return "Unload: choose your ship on one of your Jump-Gates."


def _attack(view: dict, pd: dict) -> str:
    verb = "push" if pd["kind"] == Kind.PUSH.value else "hijack"
    if pd.get("ship") is None:
        return f"Choose your ship that will {verb}."
    return f"Choose the opponent's ship to {verb}."


def _sabotage(view: dict, pd: dict) -> str:
    if pd.get("target") is None:
        return "Sabotage: choose an opponent's ship to take control of."
    return "Sabotage: choose where it goes (1-3 spaces)."


def _ship_move(view: dict, pd: dict) -> str:
    step = Step(pd["kind"], tuple(pd.get("dists", ())))
    label = step.label()
    if pd.get("ship") is None:
        return f"{label}: choose the ship to move."
    if pd.get("dest") is None:
        return f"{label}: choose where the ship goes."
    if any(m in ("d+", "d-") for m in view.get("legal", ())):
        return "Jump-Push: push the occupant clockwise or anticlockwise?"
    return "Leave Shards behind? They stay from the bottom of the stack."


# The prompt for each kind of action under way. Every kind is listed: a new kind fails
# tests/test_architecture.py until it is.
PROMPTS = {
    Kind.BANK: _bank,
    Kind.UPGRADE: _upgrade,
    Kind.REORDER: _reorder,
    Kind.SKIP: _skip,
    Kind.UNLOAD: _unload,
    Kind.HIJACK: _attack,
    Kind.PUSH: _attack,
    Kind.SABOTAGE: _sabotage,
    Kind.ORBIT: _ship_move,
    Kind.JUMP: _ship_move,
    Kind.HYPER_JUMP: _ship_move,
    Kind.PHASE_SHIFT: _ship_move,
    Kind.JUMP_PUSH: _ship_move,
}
