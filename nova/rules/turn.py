"""The turn (R10-R17), chaining (R22-R27) and decisions: what may be decided now, why
something may not, and how a decision is applied. Each action's own rules are in
:mod:`.actions`, the track's in :mod:`.track`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import actions, chance
from . import move as mv
from .actions import REGISTRY
from .actions.base import StartCheck
from .board import in_play, launch_gate, own_ships
from .content import COLOUR_NAMES, CardAction, Layout, Step
from .move import Move
from .primitives import IMMEDIATE
from .rng import Rng
from .track import finish, place_spawn

if TYPE_CHECKING:
    from .state import Player, State


def card_action(s: State, cid: str, mode: str) -> CardAction | None:
    """What card ``cid`` does played ``mode`` (u upright, r rotated; a link does nothing)."""
    lay = s.layout
    if cid in lay.basic:
        top, bottom = lay.basic[cid]
        return top if mode == "u" else bottom if mode == "r" else None
    card = lay.special[cid]
    return card["action"] if mode == "u" else card["alternate"] if mode == "r" else None


def generate(s: State) -> list[Move]:
    """Every legal decision now (R11: an action under way is finished first)."""
    if s.over:
        return []
    if s.spawn_shard:
        return [mv.spawn(s.layout.space_names[a]) for a in s.layout.asteroids if in_play(s, a)]
    if s.pending is not None:
        return s.pending.moves(s)
    return main_moves(s)


# A card in hand as legal-move generation sees it, per layout: its colour (a Special's;
# None for a basic card), for each of its actions upright and rotated the check whether it
# can start now (None: no action; _SKIP: a Skip, whose answer depends on the rest of the
# hand), and its moves upright, rotated and as a chain link.
_Play = tuple[str | None, StartCheck | None, StartCheck | None, Move, Move, Move]
_PLAYS: dict[Layout, dict[str, _Play]] = {}


def _always(s: State, ships: list[int]) -> bool:
    return True


def _skip(s: State, ships: list[int]) -> bool:
    raise AssertionError("a Skip is decided by skip_possible, with the card played")


_SKIP: StartCheck = _skip


def _plays(lay: Layout) -> dict[str, _Play]:
    """Every card of ``lay`` as :func:`main_moves` sees it (made once per layout)."""
    checks: dict[Step, StartCheck] = {}  # cards share first steps: one check each

    def check(action: CardAction | None) -> StartCheck | None:
        if action is None:
            return None
        step = action.steps[0]
        if step.name == "skip":
            return _SKIP
        found = checks.get(step)
        if found is None:
            if step.name in IMMEDIATE:
                found = _always
            else:
                found = REGISTRY[step.name].can_start(step, lay)
            checks[step] = found
        return found

    plays: dict[str, _Play] = {}
    for cid, card in lay.special.items():
        plays[cid] = (
            card["colour"],
            check(card["action"]),
            check(card["alternate"]),
            mv.play(cid, "u"),
            mv.play(cid, "r"),
            mv.play(cid, "l"),
        )
    for cid, (top, bottom) in lay.basic.items():
        plays[cid] = (
            None,
            check(top),
            check(bottom),
            mv.play(cid, "u"),
            mv.play(cid, "r"),
            mv.play(cid, "s"),
        )
    _PLAYS[lay] = plays
    return plays


_END = mv.end()


def main_moves(s: State) -> list[Move]:
    """The decisions of a turn with nothing under way: launch, play a card, end the turn.
    A card's action is offered when its first step can be carried out (R11; a later step
    that cannot is passed over)."""
    seat = s.turn
    p = s.players[seat]
    lay = s.layout
    moves: list[Move] = []
    if p.dock:
        for g in lay.seat_gates[seat]:
            if launch_gate(s, g):
                moves.append(mv.launch(lay.space_names[g]))
    plays = _PLAYS.get(lay) or _plays(lay)
    ships = own_ships(s, seat)
    known: dict[StartCheck, bool] = {}  # cards share checks: each asked once

    def can(check: StartCheck, cid: str) -> bool:
        if check is _SKIP:
            return actions.skip_possible(s, cid)  # depends on the rest of the hand
        ok = known.get(check)
        if ok is None:
            ok = known[check] = check(s, ships)
        return ok

    need_link = s.need_link
    colours: set[str] | None = None
    for cid in p.hand:
        colour, up, rot, upright, rotated, link = plays[cid]
        if colour is None:
            if not need_link:
                if up is not None and can(up, cid):
                    moves.append(upright)
                if rot is not None and can(rot, cid):
                    moves.append(rotated)
            moves.append(link)
        else:
            moves.append(link)
            if colours is None:
                colours = set("".join(p.bays))
            if colour in colours or not lay.settings.special_action_needs_colour:
                if up is not None and can(up, cid):
                    moves.append(upright)
                if rot is not None and can(rot, cid):
                    moves.append(rotated)
    moves.append(_END)
    return moves


def why_illegal(s: State, move: Move) -> str:
    """Why ``move`` is not a legal decision now, in a player's words naming the rule
    (for the page's "why not?" and IllegalMove); "" when it is legal."""
    if move in s.legal_moves():
        return ""
    if s.over:
        return "the game is over (R49)"
    if s.spawn_shard:
        return (
            f"first seat {s.decider + 1} places the drawn Shard on an Asteroid (Spawn Energy, R47)"
        )
    if s.pending is not None:
        return s.pending.why_not(s, move)
    lay = s.layout
    p = s.players[s.turn]
    cid, mode = move.card, move.mode
    if move.kind == mv.PLAY and (cid in lay.basic or cid in lay.special):
        if cid not in p.hand:
            return f"card {cid} is not in your hand"
        if mode not in "urls":
            return "play a card u (upright), r (rotated), s/l (as a chain link)"
        if cid in lay.basic and mode in "ur" and s.need_link:
            return "two actions must be joined by a chain link: play a card sideways first (R24)"
        if cid in lay.special and mode in "ur":
            colour = lay.special[cid]["colour"]
            if colour not in "".join(p.bays):
                return (
                    f"no {COLOUR_NAMES[colour]} Shard in your Cargo Bays, so this Special "
                    "can only be a chain link (R70)"
                )
        if mode in "ur":
            act = card_action(s, cid, mode)
            what = act.label().lower() if act is not None else "none"
            return f"its action ({what}) has nothing it can do now (R11)"
        return "that card cannot be played that way now"
    if move.kind == mv.LAUNCH:
        return "Launch needs a ship in your Dock and your own open Jump-Gate (R44)"
    if move.kind == mv.UPGRADE:
        return "Space Academy cards are taken with an Upgrade action (R42-R43)"
    if move.kind in (mv.SHIP, mv.DEST, mv.TARGET, mv.SPAWN):
        return "that space is not a choice now: play a card, launch a ship, or end your turn"
    return f"not a legal decision now (legal: {', '.join(s.legal_moves())})"


def do(s: State, move: Move) -> None:
    """Apply the legal ``move`` to ``s`` (a fresh clone)."""
    if s.spawn_shard:
        place_spawn(s, s.layout.name_to_space[move.space])
        return
    if s.pending is not None:
        s.pending.choose(s, move)
        return
    seat = s.turn
    p = s.players[seat]
    kind = move.kind
    if kind == mv.END:
        end_turn(s)
        return
    if kind == mv.LAUNCH:
        g = s.layout.name_to_space[move.space]
        p.dock -= 1
        s.ship[g] = seat
        s.last_event = f"launch {move.space}"
        return
    cid, mode = move.card, move.mode
    p.hand.remove(cid)
    p.played.append((cid, mode))
    if cid in s.layout.basic:
        if mode == "s":
            s.need_link = False
            return
        s.need_link = True
    else:
        s.need_link = False  # a Special played upright is always a chain link (R25)
        if mode not in "ur":
            return
    action = card_action(s, cid, mode)
    assert action is not None
    actions.start(s, action.steps)


def refill_hand(s: State, p: Player) -> None:
    """Draw up to the hand size (R15), reshuffling the discard when needed (R16): as many
    cards as :func:`.chance.plan_for` says, each from the top of the draw pile."""
    plan = chance.plan_for(s.layout, p, p.discard)
    for _ in range(plan.from_pile):
        p.hand.append(p.draw.pop())
    if plan.reshuffled:
        p.draw = p.discard
        p.discard = []
        rng = Rng(s.rng)
        rng.shuffle(p.draw)
        s.rng = rng.state
        for _ in range(plan.from_reshuffled):
            p.hand.append(p.draw.pop())


def end_turn(s: State) -> None:
    seat = s.turn
    p = s.players[seat]
    p.discard.extend(c for c, _ in p.played)  # R14
    p.played = []
    refill_hand(s, p)  # R15, R16
    s.need_link = False
    n = s.num_players
    s.turn = s.decider = (seat + 1) % n  # R17
    if s.turn == s.first:
        s.round += 1
        limit = s.layout.settings.max_rounds
        if limit and s.round >= limit:
            finish(s, "round limit")
