"""Greedy whole-turn planning on a (determinized) state.

A turn is many atomic decisions (play a card, pick the ship, the space, the bay...).
Judging each atomic decision on its own is blind: playing a card changes nothing on
the board until its action is finished. So the planner works an *action* at a time:

* :func:`finish_action` finishes the action in progress by a small exhaustive search
  over its remaining choices (ship, destination, bays, ...) and keeps the best end;
* :func:`ranked_options` lists what can be done next from a point between actions —
  launch a ship, play an action (finished as above), play a chain link followed by
  the best action it opens (R24), or end the turn — each with its value;
* :func:`plan_turn` takes the best option again and again until ending the turn is
  best, and returns the decisions of the whole turn;
* in a game that drags (:func:`nova.bots.evaluate.dragging`: a stand-off), before ending
  the turn it looks two actions ahead (:func:`two_step`): a step worth nothing alone
  (a parked ship leaving the gate its own cargo needs, a stack orbiting to a gate to Jump
  home from) is taken when the action it opens is worth it.

Values come from :func:`nova.bots.evaluate.evaluate`. Shards are never left behind
(``x0``) in plans: dropping part of a stack is almost never worth a planning branch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import product

from ..rules import Move, State
from ..rules import move as mv
from ..rules.actions.unload_bays import UnloadBays
from .evaluate import DEFAULT, Weights, bay_value, dragging, evaluate, geometry

FINISH_NODES = 240  # states tried when finishing one action
MAX_STEPS = 24  # options taken in one turn at most (every option uses a card or a ship)
MARGIN = 0.01  # an option must beat ending the turn by this much
LOOK_ENDS = 60  # first actions' ends tried when looking two actions ahead
LOOK_NODES = 40  # states tried per second action (as in the search bot's rollouts)
END = mv.end()


def _settled(s: State, me: int) -> bool:
    return s.over or s.current_player != me or (s.pending is None and not s.spawn_shard)


def _best_bays(s: State, w: Weights = DEFAULT) -> list[Move]:
    """Bay moves for the Shards being unloaded, best split over all assignments (R38)."""
    assert isinstance(s.pending, UnloadBays)
    shards = s.pending.shards
    bays = list(s.players[s.turn].bays)
    table = geometry(s.layout, w).bay_table
    if len(shards) > 7:  # 3^k grows fast: place one Shard at a time instead
        out = []
        for c in shards:
            gains = [
                bay_value(b + c, table, open_tail=w.open_tail)
                - bay_value(b, table, open_tail=w.open_tail)
                for b in bays
            ]
            i = gains.index(max(gains))
            bays[i] += c
            out.append(mv.bay(i))
        return out
    best: float | None = None
    best_moves: list[Move] = []
    for assign in product(range(3), repeat=len(shards)):
        trial = bays[:]
        for c, b in zip(shards, assign, strict=True):
            trial[b] += c
        v = sum(bay_value(b, table, open_tail=w.open_tail) for b in trial)
        if best is None or v > best + 1e-9:
            best, best_moves = v, [mv.bay(b) for b in assign]
    return best_moves


def _planned(s: State, me: int, w: Weights = DEFAULT) -> list[Move] | None:
    """The moves that finish the action in progress by its kind's own plan, if it has one
    (PLANS); None when the choices are searched."""
    pd = s.pending
    if pd is None or s.spawn_shard:
        return None
    plan = PLANS.get(pd.kind)
    return None if plan is None else plan(s, w)


def finish_action(s: State, me: int, nodes: list[int] | None = None, w: Weights = DEFAULT):
    """(value, moves, state): the best way to carry out the action in progress."""
    if nodes is None:
        nodes = [FINISH_NODES]
    if _settled(s, me):
        return evaluate(s, me, w), [], s
    moves = _planned(s, me, w)
    if moves is not None:
        for m in moves:
            s = s.apply(m)
        v, more, end = finish_action(s, me, nodes, w)
        return v, moves + more, end
    legal = s.legal_moves()
    if legal and legal[0].kind == mv.LEAVE:
        legal = legal[:1]  # carry every Shard along
    best = None
    for m in legal:
        if best is not None and nodes[0] <= 0:
            break
        nodes[0] -= 1
        v, more, end = finish_action(s.apply(m), me, nodes, w)
        if best is None or v > best[0]:
            best = (v, [m, *more], end)
    return best


def action_ends(
    s: State, me: int, nodes: list[int], w: Weights = DEFAULT
) -> Iterator[tuple[list[Move], State]]:
    """Every way (up to ``nodes``) to carry out the action in progress: (moves, end) pairs.

    Unlike :func:`finish_action` it keeps them all, not only the best by the evaluation:
    a move that is worth nothing now may open the next action.
    """
    if _settled(s, me):
        yield [], s
        return
    moves = _planned(s, me, w)
    if moves is not None:
        for m in moves:
            s = s.apply(m)
        for more, end in action_ends(s, me, nodes, w):
            yield moves + more, end
        return
    legal = s.legal_moves()
    if legal and legal[0].kind == mv.LEAVE:
        legal = legal[:1]
    for m in legal:
        if nodes[0] <= 0:
            return
        nodes[0] -= 1
        for more, end in action_ends(s.apply(m), me, nodes, w):
            yield [m, *more], end


# The kinds of action in progress the planner finishes by a plan of their own; any other is
# finished by a small exhaustive search over its choices (ship, space, target, card, ...),
# judged by the evaluation, so a new kind of action needs nothing here.
PLANS: dict[str, Callable[[State, Weights], list[Move]]] = {
    "unload_bays": _best_bays,  # 3^k bay assignments judged by the bays' value alone
}


def two_step(s: State, me: int, stay: float, w: Weights = DEFAULT) -> list[Move] | None:
    """The first action of the best pair of actions, if the pair beats ending the turn.

    ``s`` is between actions on ``me``'s turn and no single action beats ``stay`` (ending
    the turn). Each way to carry out each playable action (and each Launch) is followed
    by the best next action (:func:`ranked_options`, a cheaper finish); dear, so the
    planner asks only in a game that drags.
    """
    best: tuple[float, list[Move]] | None = None
    seen: set = set()
    firsts = [m for m in s.legal_moves() if _is_action(s, m) or m.kind == mv.LAUNCH]
    keys = set()
    for m in firsts:
        key = ("L", m) if m.kind == mv.LAUNCH else _action_key(s, m)
        if key in keys:  # twin cards: one is enough
            continue
        keys.add(key)
        for more, end in action_ends(s.apply(m), me, [LOOK_ENDS], w):
            if end.over or end.current_player != me or not _settled(end, me):
                continue
            sig = (tuple(end.ship), tuple(end.pile), end.track_pos)
            if sig in seen:  # the same board by another card: judged once
                continue
            seen.add(sig)
            second = ranked_options(end, me, LOOK_NODES, w)[0]
            if second[1] == [END] or second[0] < stay + MARGIN:
                continue
            if best is None or second[0] > best[0]:
                best = (second[0], [m, *more])
    return None if best is None else best[1]


def _is_action(s: State, m: Move) -> bool:
    """A card played for its action (not as a chain link)."""
    return m.kind == mv.PLAY and m.mode in ("u", "r")


def _action_key(s: State, m: Move):
    return (s.card_action(m.card, m.mode), m.card in s.layout.special)


def _action_values(
    s: State, me: int, memo: dict, nodes: int = FINISH_NODES, w: Weights = DEFAULT
) -> dict:
    """Best finished value of every card action playable now, shared between cards."""
    out = {}
    for m in s.legal_moves():
        if not _is_action(s, m):
            continue
        key = _action_key(s, m)
        if key not in memo:
            v, more, end = finish_action(s.apply(m), me, [nodes], w)
            memo[key] = (v, more, end)
        out[m] = memo[key]
    return out


def ranked_options(
    s: State, me: int, nodes: int = FINISH_NODES, w: Weights = DEFAULT
) -> list[tuple[float, list[Move]]]:
    """(value, decisions) of each sensible next step, best first (replay with :func:`play`).

    ``s`` is between actions on ``me``'s turn. Ending the turn is one option; its value
    is the position as it stands (the draw that follows is unknown).
    """
    options: list[tuple[float, list[Move]]] = []
    memo: dict = {}
    legal = s.legal_moves()
    options.append((evaluate(s, me, w), [END]))
    for m, (v, more, _) in _action_values(s, me, memo, nodes, w).items():
        options.append((v, [m, *more]))
    links = [m for m in legal if m.kind == mv.PLAY and m.mode in ("s", "l")]
    if s.need_link and links:
        # after a link, the best action it opens; use the least useful card as the link
        best_link = None
        for link in links:
            after = s.apply(link)
            values = _action_values(after, me, memo, nodes, w)
            if not values:
                continue
            m, (v, more, _) = max(values.items(), key=lambda kv: kv[1][0])
            worth = max((memo[k][0] for k in memo if _card_has(s, link.card, k)), default=-1e9)
            rank = (v, -worth)
            if best_link is None or rank > best_link[0]:
                best_link = (rank, [link, m, *more])
        if best_link is not None:
            options.append((best_link[0][0], best_link[1]))
    for m in legal:
        if m.kind == mv.LAUNCH:
            options.append((evaluate(s.apply(m), me, w), [m]))
    options.sort(key=lambda o: -o[0])
    return options


def _card_has(s: State, cid: str, key) -> bool:
    special = cid in s.layout.special
    if special != key[1]:
        return False
    return key[0] in (s.card_action(cid, "u"), s.card_action(cid, "r"))


def plan_turn(
    s: State,
    me: int,
    nodes: int = FINISH_NODES,
    w: Weights = DEFAULT,
    seen: list[tuple[list[tuple[float, list[Move]]], int]] | None = None,
) -> tuple[list[Move], State]:
    """The greedy plan for the rest of ``me``'s turn (or its Spawn placement) and its end.

    ``nodes`` bounds the states tried to finish each action (rollouts use fewer).
    ``seen``: given, it gets the options ranked for the plan's first decision when that
    decision is between actions, and which it took (what the bot weighed, for "why"; it
    changes nothing); nothing when it looked two actions ahead instead.
    """
    plan: list[Move] = []
    for _ in range(MAX_STEPS):
        if s.over or s.current_player != me:
            break
        if s.pending is not None or s.spawn_shard:
            _, moves, s = finish_action(s, me, [nodes], w)
            plan += moves
            continue
        options = ranked_options(s, me, nodes, w)
        stay = next(o for o in options if o[1] == [END])
        best = options[0]
        if best[1] == [END] or best[0] < stay[0] + MARGIN:
            first = two_step(s, me, stay[0], w) if dragging(s) > 0 else None
            if first is not None:
                done, s = play(s, me, first, w)
                plan += done
                continue
            if seen is not None and not plan:
                seen.append((options, options.index(stay)))
            done, s = end_turn(s, me)
            plan += done
            break
        if seen is not None and not plan:
            seen.append((options, 0))
        done, s = play(s, me, best[1], w)
        plan += done
    else:
        if not s.over and s.current_player == me and s.pending is None and END in s.legal_moves():
            plan.append(END)
            s = s.apply(END)
    return plan, s


def end_turn(s: State, me: int) -> tuple[list[Move], State]:
    """End ``me``'s turn as the planning bots do: a stuck hand is cycled first (dump_moves)."""
    moves = [*dump_moves(s, me), END]
    for m in moves:
        s = s.apply(m)
    return moves, s


def dump_moves(s: State, me: int) -> list[Move]:
    """Chain links that discard the cards of no use now, so the next hand is fresh.

    Unplayed cards stay in hand (R14, R15): a hand of cards with nothing to do would
    otherwise stay stuck for ever. An Unload or Jump is kept while one of the seat's
    ships carries Shards, as it may be needed next turn.
    """
    carrying = any(o == me and s.pile[sp] for sp, o in enumerate(s.ship))
    out = []
    for cid in s.players[me].hand:
        actions = {s.card_action(cid, "u"), s.card_action(cid, "r")}
        names = {n for a in actions if a is not None for n in a.names()}
        if carrying and names & {"unload", "jump", "hyper_jump"}:
            continue
        out.append(mv.play(cid, "s" if cid in s.layout.basic else "l"))
    return out


def play(s: State, me: int, moves: Sequence[str], w: Weights = DEFAULT) -> tuple[list[Move], State]:
    """Play ``moves`` from ``s`` as far as they stay legal, then finish the action greedily.

    A memoised option may have been worked out with a twin card (same action) or
    another chain link; replaying it keeps the plan honest about the real hand.
    """
    done: list[Move] = []
    for m in moves:
        if s.over or s.current_player != me or m not in s.legal_moves():
            break
        s = s.apply(m)
        done.append(Move(m))
    if not _settled(s, me):
        _, more, s = finish_action(s, me, None, w)
        done += more
    return done, s
