"""A table's chance and hidden hands: the one public way to say what the deck, the bag and
the Academy give, for whoever decides chance other than the engine's own generator (fair
play by links, docs/LINKS.md; a bot's determinization, :mod:`.sampling`).

The engine itself draws with its generator: :func:`refill_plan` says how many cards R14-R16
give at the end of a turn and :func:`.turn.refill_hand` draws them from the top of the draw
pile. Play by links draws the same number by an index function instead
(:meth:`Refill.drawn`). Everything else here sets what is hidden: which of a seat's undrawn
cards are in its hand (:func:`with_hand`, :func:`with_piles`), the generator the bag's next
draws come from (:func:`with_generator`) and the Academy Deck's order
(:func:`with_academy`). Each returns a new state; the state given is unchanged.

>>> from nova.rules import new_game
>>> s = new_game(players=2, seed=1)
>>> pool = undrawn(s, 0)
>>> t = with_hand(s, 0, pool[:5])
>>> t.players[0].hand == pool[:5] and sorted(undrawn(t, 0)) == sorted(pool)
True
>>> refill_plan(t, 0).count  # a full hand draws nothing
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .content import Layout
    from .state import Player, State

# ``pick(i, n)``: the position, in what is left of a pile of ``n`` cards in card order, of the
# ``i``-th card a refill draws (``i`` counts from 0 over the whole refill: it does not restart
# when the discard pile becomes the draw pile).
Pick = Callable[[int, int], int]


def in_card_order(lay: Layout, cards: Sequence[str]) -> list[str]:
    """``cards`` in *card order*: the data files' order (basic deck, then the Academy)."""
    return sorted(cards, key=lay.card_order.__getitem__)


def undrawn(s: State, seat: int) -> list[str]:
    """The seat's undrawn cards (its hand and draw pile together), in card order."""
    p = s.players[seat]
    return in_card_order(s.layout, p.hand + p.draw)


@dataclass(frozen=True)
class Refill:
    """What R14-R16 give a seat at the end of its turn: ``from_pile`` cards from its draw
    pile ``pile``; when that runs out and more are needed, its discard pile (played cards
    included, R14) becomes the draw pile, ``reshuffled``, and ``from_reshuffled`` more come
    from it (R16). ``kept`` is the hand before drawing. ``kept`` and ``pile`` are hidden,
    ``reshuffled`` is public."""

    kept: tuple[str, ...]
    pile: tuple[str, ...]
    from_pile: int
    reshuffled: tuple[str, ...] = ()
    from_reshuffled: int = 0

    @property
    def count(self) -> int:
        return self.from_pile + self.from_reshuffled

    def drawn(self, lay: Layout, pick: Pick) -> list[str]:
        """The hand after the refill, each card drawn at ``pick(i, cards left)`` of its
        source in card order: the draw pile first, then the reshuffled discard pile."""
        hand = list(self.kept)
        i = 0
        for source, n in ((self.pile, self.from_pile), (self.reshuffled, self.from_reshuffled)):
            cards = in_card_order(lay, source)
            for _ in range(n):
                hand.append(cards.pop(pick(i, len(cards))))
                i += 1
        return hand


def plan_for(lay: Layout, p: Player, discard: list[str]) -> Refill:
    """R15 (draw back up to the hand size; a bigger hand is kept) and R16 (an empty draw
    pile is replaced by the discard pile ``discard``) for ``p``: the engine's one statement
    of how many cards come from where (:func:`.turn.refill_hand` draws them)."""
    need = max(0, lay.hand_size - len(p.hand))
    if need <= len(p.draw):
        return Refill(tuple(p.hand), tuple(p.draw), need)
    more = min(need - len(p.draw), len(discard))
    return Refill(tuple(p.hand), tuple(p.draw), len(p.draw), tuple(discard), more)


def refill_plan(s: State, seat: int) -> Refill:
    """What ``seat`` draws if its turn ends now (``E``): its played cards are discarded
    (R14), then R15 and R16 as :func:`plan_for` says."""
    p = s.players[seat]
    return plan_for(s.layout, p, p.discard + [c for c, _ in p.played])


def with_piles(s: State, seat: int, hand: Sequence[str], draw: Sequence[str]) -> State:
    """``s`` with ``seat`` holding ``hand`` and the draw pile ``draw`` (top last), which
    together must be its undrawn cards: only the hidden split and order change."""
    p = s.players[seat]
    if sorted([*hand, *draw]) != sorted(p.hand + p.draw):
        raise ValueError(f"seat {seat}'s hand and draw pile must be its undrawn cards")
    return _set_piles(s, seat, list(hand), list(draw))


def with_hand(s: State, seat: int, hand: Sequence[str]) -> State:
    """``s`` with ``seat`` holding ``hand`` (from its undrawn cards), the rest of them as its
    draw pile in card order."""
    rest = s.players[seat].hand + s.players[seat].draw
    for card in hand:
        if card not in rest:
            raise ValueError(f"hand {list(hand)} is not among seat {seat}'s undrawn cards")
        rest.remove(card)
    return _set_piles(s, seat, list(hand), in_card_order(s.layout, rest))


def with_pool_in_hand(s: State, seat: int) -> State:
    """``s`` with every undrawn card of ``seat`` in its hand (in card order), none to draw."""
    return _set_piles(s, seat, undrawn(s, seat), [])


def apply_with_pool(s: State, move: str) -> State:
    """The state after the turn's seat makes ``move`` when its hand is not known: made with
    its whole undrawn pool as its hand (every decision the real hand allows is then legal; a
    card's legality can depend on the rest of the hand: Skip), then the hand cut back to its
    size, plus any cards the move gave it; the rest is its draw pile. Raises
    :class:`~.move.IllegalMove` as :meth:`State.apply` does."""
    seat = s.turn
    size = len(s.players[seat].hand)
    pool = with_pool_in_hand(s, seat)
    after = pool.apply(move)  # a new state, this function's own to change
    q = after.players[seat]
    keep = size + len(q.hand) - len(pool.players[seat].hand)
    q.hand, q.draw = q.hand[:keep], q.hand[keep:]
    after._legal = None
    return after


def _set_piles(s: State, seat: int, hand: list[str], draw: list[str]) -> State:
    out = s.clone()  # a clone's cached legal moves are cleared
    p = out.players[seat]
    p.hand = hand
    p.draw = draw
    return out


def with_generator(s: State, state: int) -> State:
    """``s`` with the engine's random generator (SplitMix64, :mod:`.rng`) at ``state``: the
    bag's next draws (R5, Spawn Energy R47) and the engine's own reshuffles come from it."""
    out = s.clone()
    out.rng = state & ((1 << 64) - 1)
    return out


def with_academy(s: State, cards: Sequence[str]) -> State:
    """``s`` with the Academy Deck in the order ``cards`` (top first), the same cards: where
    face-up refills (R42) and the top card (R43) come from."""
    if Counter(cards) != Counter(s.academy):
        raise ValueError("the Academy Deck's new order must hold the same cards")
    out = s.clone()
    out.academy = list(cards)
    return out
