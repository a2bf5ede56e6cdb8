"""What the deciding player is asked to do now, in plain words, and keyboard shortcuts."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Layout, Move, View
from ..rules import move as mv
from ..rules.actions.ship_move import SHIP_ASK
from .shards import COLOUR_NAMES

# letters for the choices of the moment; e (end turn), h (help), n, u (undo) are kept free
KEYS = "abcdfgijklmopqrstvwxyz"
FOLD_ASK = "choose a ship, or where it goes."  # SHIP_ASK when one tap may choose both
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


def place_words(key: str) -> str:
    """A place one tap reaches (render/folds.py) in words: a space, a bay, an Academy card."""
    m = Move(key)
    if m.kind == mv.BAY:
        return f"Bay {m.number + 1}"
    if m.kind == mv.UPGRADE:
        return f"Academy card {m.number}" if m.number else "the Academy Deck"
    return key


def prompt(view: View, names: list[str], folded: bool = False, choosing: str = "") -> str:
    """A sentence for the current decision (plain text; the caller escapes it): what the
    choices on screen are, in the words of their buttons, short enough for two lines of a
    phone (tests/test_prompts.py). ``folded``: the board offers places one tap reaches
    (render/folds.py); ``choosing``: the place tapped that several ways reach."""
    if view.over:
        return "The game is over."
    if view.spawn_shard:
        c = COLOUR_NAMES.get(view.spawn_shard, "")
        # (short: with a long name, two lines of the publisher's 370 px frame)
        return f"Spawn: {names[view.current]}, put the {c} Shard on an Asteroid."
    if choosing:
        return f"Which cards to {place_words(choosing)}? Tap one way, or Cancel."
    pd = view.pending
    if pd is not None:
        said = pd.prompt(view)
        # the places only one ship can reach are offered too (render/folds.py)
        return said.replace(SHIP_ASK, FOLD_ASK) if folded else said
    return _turn_prompt(view, folded)


def _turn_prompt(view: View, folded: bool = False) -> str:
    """Between actions: the kinds of choice there are now (a card, a Chain link before the
    next action, a Launch, the turn's end), said in one sentence."""
    plays = [Move(m) for m in view.legal if Move(m).kind == mv.PLAY]
    kinds = {Move(m).kind for m in view.legal}
    parts = []
    if folded:  # the board's places play the cards (and a Chain link before them)
        parts.append("tap a card or a space")
    elif view.need_link and any(m.mode in "sl" for m in plays):
        parts.append("play a Chain link to act again")
    elif plays:
        parts.append("play a card")
    if mv.LAUNCH in kinds:
        parts.append("launch a ship")
    if mv.END in kinds:
        parts.append("end your turn")
    if not parts:
        return "Wait."
    if parts == ["end your turn"]:
        return "Nothing more to play: end your turn."
    said = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + ", or " + parts[-1]
    return said[0].upper() + said[1:] + "."


def end_turn_button(legal: Sequence[str]) -> str:
    """The End-turn button, when ending the turn is a legal decision now ("" otherwise)."""
    if "E" not in legal:
        return ""
    return (
        '<button type="button" class="end-turn" id="move-E" data-move="E" '
        'title="End your turn (Enter)"><kbd>↵</kbd>End turn</button>'
    )


def leave_html(leave: tuple[int, int] | None) -> str:
    """The moving ship's control for its Shards (``leave``: the most it may leave behind,
    and how many are set): it keeps them all unless the player sets some to leave here,
    before tapping where the ship goes; the page then answers the rules' question (R33)."""
    if leave is None:
        return ""
    most, picked = leave
    buttons = "".join(
        f'<button type="button" class="leave-pick" data-ui="leave:{n}" data-leave="{n}" '
        f'aria-pressed="{str(n == picked).lower()}">'
        + ("Keep all Shards" if n == 0 else f"Leave {n}")
        + "</button>"
        for n in range(most + 1)
    )
    return (
        '<div class="choices leave-choices" role="group" '
        'aria-label="Shards the ship leaves behind, from the bottom">'
        f"{buttons}</div>"
    )
