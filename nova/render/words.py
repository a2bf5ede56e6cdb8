"""Plain words for the game log: what a decision did, told from public facts only
(never a card drawn from a deck), e.g. "Ada plays Orbit 4 (upright)"."""

from __future__ import annotations

from ..rules import Kind, Move, State
from ..rules import move as mv
from ..rules.content import action_label
from .cards import card_title

COLOUR = {"k": "black", "r": "red", "y": "yellow"}
TRACK_WORDS = {
    "blank": "",
    "spawn": "Spawn Energy",
    "expansion": "Star Expansion",
    "supernova": "Super-Nova",
    "start": "",
}
# kinds of action that move the deciding player's own ship, and the log's verb for each
MOVER_VERBS = {
    Kind.ORBIT: "",
    Kind.JUMP: " jumps",
    Kind.HYPER_JUMP: " hyper-jumps",
    Kind.PHASE_SHIFT: " phase-shifts",
    Kind.JUMP_PUSH: " jump-pushes",
}


def _shards(n: int) -> str:
    return f"{n} Shard{'s' * (n != 1)}"


def describe(before: State, move: str, after: State, names: list[str]) -> str | None:
    """One log line for ``move`` played in ``before``; None for a half-made choice
    (a ship picked, a destination before the leave-behind choice) that the line of the
    finished action will tell."""
    who = names[before.current_player]
    lay = before.layout
    sp = before.space_name
    text = _describe(before, Move(move), after, names, who, lay, sp)
    if text is None:
        return None
    text += _consequences(before, after, names)
    return text


def _describe(before, move, after, names, who, lay, sp) -> str | None:
    if before.spawn_shard:
        colour = COLOUR[before.spawn_shard]
        return f"{who} places the drawn {colour} Shard on the Asteroid {move.space}"
    pd = before.pending
    if pd is None:
        if move.kind == mv.END:
            n = len(after.players[before.turn].hand)
            return f"{who} ends the turn and draws back to {n} cards"
        if move.kind == mv.LAUNCH:
            return f"{who} launches a ship to {move.space}"
        cid, mode = move.card, move.mode
        title = card_title(lay, cid)
        if mode == "s":
            return f"{who} plays {title} sideways as a chain link"
        if mode == "l":
            return f"{who} plays {title} as a chain link"
        act = action_label(before.card_action(cid, mode))
        way = "upright" if mode == "u" else "rotated"
        if cid in lay.special:
            return f"{who} plays {title} ({way}) as a link: {act}"
        return f"{who} plays {act} ({way})"
    return LINES[pd.kind](before, move, after, names, who, lay, sp, pd)


def _bank(before, move, after, names, who, lay, sp, pd) -> str | None:
    return f"{who} unloads a {COLOUR[pd.shards[0]]} Shard into Bay {move.number + 1}"


def _upgrade(before, move, after, names, who, lay, sp, pd) -> str | None:
    if move.number == 0:
        return f"{who} takes the top card of the Academy Deck; new cards are face up"
    cid = before.face_up[move.number - 1]
    return f"{who} takes {card_title(lay, cid)} from the Space Academy"


def _reorder(before, move, after, names, who, lay, sp, pd) -> str | None:
    if pd.mode is None:
        if move.number < 0:
            return f"{who} re-orders the top Shards of the Cargo Bays"
        return f"{who} re-orders Bay {move.number + 1}"
    if after.pending is None:
        bays = " | ".join(b or "-" for b in after.players[before.turn].bays)
        return f"{who}'s Cargo Bays now read {bays} (bottom to top)"
    return None


def _skip(before, move, after, names, who, lay, sp, pd) -> str | None:
    if move.kind == mv.DONE:
        totals = [t for t in pd.totals if t > 0]
        return f"{who} stops the Skip: orbit {skip_total(totals)}" if totals else None
    cid, mode = move.card, move.mode
    label = before.action_label(cid, mode)
    return f"{who} adds {label} to the Skip (total {skip_total(after.pending.totals)})"


def _unload(before, move, after, names, who, lay, sp, pd) -> str | None:
    g = lay.name_to_space[move.space]
    n = len(before.pile[g])
    return f"{who} unloads the ship on {move.space} ({_shards(n)}); it returns to the Dock"


def _attack(before, move, after, names, who, lay, sp, pd) -> str | None:
    kind = pd.kind
    if move.kind != mv.TARGET:
        return None
    t = lay.name_to_space[move.space]
    victim = names[before.ship[t]]
    dest = _moved_to(before, after, before.ship[t], t)
    verb = "pushes" if kind is Kind.PUSH else "hijacks"
    line = f"{who}'s ship on {sp(pd.ship)} {verb} {victim}'s ship on {move.space}"
    if dest is not None:
        line += f" to {sp(dest)}"
    if kind is not Kind.PUSH and before.pile[t]:
        line += f", leaving its bottom {COLOUR[before.pile[t][0]]} Shard behind"
    return line


def _sabotage(before, move, after, names, who, lay, sp, pd) -> str | None:
    if move.kind == mv.TARGET:
        return None
    t = pd.target
    return f"{who} sabotages {names[before.ship[t]]}'s ship on {sp(t)}, moving it to {move.space}"


def _ship_move(before, move, after, names, who, lay, sp, pd) -> str | None:
    kind = pd.kind
    nxt = after.pending
    if nxt is not None and nxt.kind is kind and after.turn == before.turn:
        if move.kind == mv.DONE:
            return f"{who} stays put"
        return None  # a half-made choice; the finished move tells it
    if move.kind == mv.DONE:
        return f"{who} stays put"
    src = pd.ship
    dest = pd.dest
    if move.kind == mv.DEST:
        dest = lay.name_to_space[move.space]
    if src is None or dest is None:
        return None
    leave = move.number if move.kind == mv.LEAVE else 0
    verb = MOVER_VERBS[kind]
    line = f"{who}'s ship{verb} {sp(src)} → {sp(dest)}"
    if leave:
        line += f", leaving {_shards(leave)}"
    picked = len(before.pile[dest])
    if picked:
        line += f", picking up {_shards(picked)}"
    occupant = before.ship[dest]
    if kind is Kind.JUMP_PUSH and occupant >= 0:
        to = _moved_to(before, after, occupant, dest)
        line += f", pushing {names[occupant]}'s ship"
        if to is not None:
            line += f" to {sp(to)}"
    return line


# The log's line for a choice inside each kind of action (None: told when it is finished).
# Every kind is listed: a new kind fails tests/test_architecture.py until it is.
LINES = {
    Kind.BANK: _bank,
    Kind.UPGRADE: _upgrade,
    Kind.REORDER: _reorder,
    Kind.SKIP: _skip,
    Kind.UNLOAD: _unload,
    Kind.HIJACK: _attack,
    Kind.PUSH: _attack,
    Kind.SABOTAGE: _sabotage,
    **dict.fromkeys(MOVER_VERBS, _ship_move),
}


def _moved_to(before: State, after: State, owner: int, src: int) -> int | None:
    """Where ``owner``'s ship that stood on ``src`` ended up (a space it did not hold)."""
    for s, o in enumerate(after.ship):
        if o == owner and before.ship[s] != owner and s != src:
            return s
    return None


def _consequences(before: State, after: State, names: list[str]) -> str:
    out = ""
    if after.track_pos != before.track_pos:
        kind = after.layout.track[after.track_pos]
        out += f" — the Expansion Track moves to {after.track_pos}"
        if TRACK_WORDS.get(kind):
            out += f": {TRACK_WORDS[kind]}!"
    if after.removed > before.removed:
        lost = sum(p.ships_lost for p in after.players) - sum(p.ships_lost for p in before.players)
        out += f" The star swallows ring {'abcdefghij'[before.removed]}"
        out += f" and {lost} ship{'s' * (lost != 1)}." if lost else "."
    if after.over and not before.over:
        out += f" The game ends: {end_reason_text(after.end_reason)}"
    return out


END_WORDS = {
    "supernova": "the star goes Super-Nova.",
    "stalled": (
        "the star goes Super-Nova, because nothing can move the Expansion Track any more "
        "(no Shard left to unload, or no ship to carry one, and no Disrupt to play)."
    ),
    "round limit": "the round limit is reached.",
    "no ships left": "no player has a ship left.",
}


def end_reason_text(reason: str) -> str:
    """Why a game ended, as a sentence's end (the engine's ``end_reason``)."""
    return END_WORDS.get(reason, reason)


def skip_total(totals) -> str:
    """A Skip's total: '7', or '5, 6 or 7' when range cards left a choice (R66)."""
    totals = [str(t) for t in totals]
    return totals[0] if len(totals) == 1 else ", ".join(totals[:-1]) + " or " + totals[-1]


def action_help() -> list[tuple[str, str]]:
    """(action, what it does) for the rules help screen."""
    return list(ACTION_TEXT.items())


ACTION_TEXT = {
    "Orbit N": "Move one of your ships N spaces along its ring, either way. Ships pass over "
    "ships and Shards but never land on a ship. Landing on Shards adds them to the "
    "bottom of your stack. You may leave Shards behind, from the bottom.",
    "Jump": "A ship on any Jump-Gate jumps to any open Jump-Gate (no ship, no Shard on it).",
    "Unload": "Your ship on one of your own Jump-Gates returns to your Dock; its Shards go "
    "one at a time, top first, into the Cargo Bays you choose. The Expansion Track advances.",
    "Hijack": "Your ship attacks an opponent next to it on the same ring: the target is "
    "pushed away as many spaces as your stack is high, leaving its bottom Shard behind, "
    "and your ship moves onto that space.",
    "Upgrade": "Take one of the three face-up Space Academy cards into your hand, or the "
    "top card of the Academy Deck (then three new cards are laid face up).",
    "Launch": "Any time in your turn: put a ship from your Dock on one of your own open "
    "Jump-Gates. Launching is free.",
    "Chain link": "Two actions in a turn must be joined by a link: a basic card played "
    "sideways, or a Special card played upright.",
    "Disrupt": "Advance the Expansion Track one space.",
    "Re-order": "Rearrange the top Shard of each of your Cargo Bays, or reorder one whole bay.",
    "Phase Shift": "Hop to one of the (up to four) touching spaces on the next ring in or out.",
    "Hyper-Jump": "Jump from any orbit space to any open Jump-Gate.",
    "Sabotage": "Take control of an opponent's ship or stack and orbit it 1-3 spaces.",
    "Skip": "Play any number of Orbit cards without chaining them, then move the sum.",
    "Push": "Push an adjacent opponent along the ring as many spaces as your stack is high.",
    "Jump-Push": "Jump between Jump-Gates; if the Gate is occupied, push its occupant "
    "along the ring (either way) as many spaces as your stack is high.",
}
