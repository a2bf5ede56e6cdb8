"""Plain words for the game log: what a decision did, told from public facts only
(never a card drawn from a deck), e.g. "Ada plays Orbit 4 (upright)"."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from ..rules import Move, State
from ..rules import move as mv
from ..rules.content import COLOUR_NAMES, action_label
from ..rules.primitives import PRIMITIVES
from .cards import card_title

TRACK_WORDS = {
    "blank": "",
    "spawn": "Spawn Energy",
    "expansion": "Star Expansion",
    "supernova": "Super-Nova",
    "start": "",
}


def describe(before: State, move: str, after: State, names: list[str]) -> str | None:
    """One log line for ``move`` played in ``before``; None for a half-made choice
    (a ship picked, a destination before the leave-behind choice) that the line of the
    finished action will tell."""
    text = _describe(before, Move(move), after, names)
    if text is None:
        return None
    text += _consequences(before, after, names)
    return text


def _describe(before: State, move: Move, after: State, names: list[str]) -> str | None:
    who = names[before.current_player]
    lay = before.layout
    if before.spawn_shard:
        colour = COLOUR_NAMES[before.spawn_shard]
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
    return pd.told(before, move, after, names)


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


class _Help(Mapping[str, str]):
    """(action, what it does) for the rules help screen: the basic cards' primitives, Launch
    and the chain link, then the Specials' primitives (nova/rules/primitives.py)."""

    OTHERS = {
        "Launch": "Any time in your turn: put a ship from your Dock on one of your own open "
        "Jump-Gates. Launching is free.",
        "Chain link": "Two actions in a turn must be joined by a link: a basic card played "
        "sideways, or a Special card played upright.",
    }

    def _entries(self) -> dict[str, str]:
        prims = list(PRIMITIVES.values())
        out = {p.help_name or p.word: p.help for p in prims if p.basic}
        out.update(self.OTHERS)
        out.update((p.help_name or p.word, p.help) for p in prims if not p.basic)
        return out

    def __getitem__(self, key: str) -> str:
        return self._entries()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries())

    def __len__(self) -> int:
        return len(self._entries())


ACTION_TEXT: Mapping[str, str] = _Help()
