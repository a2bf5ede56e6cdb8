"""The tutorial's last step: a first whole game against a gentle bot, with prompts.

The game itself is an ordinary game of the page (its settings are :data:`FIRST_GAME`);
what the tutorial adds is one line after every decision, :func:`narrate`: what just
happened, told from the two states and the move, and what the player can do now.
Everything it reads is public (the board, the bays, the track, the legal moves).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Move, State
from ..rules import move as mv
from ..rules.content import COLOUR_NAMES, action_label

TRACK_WORD = {
    "blank": "a blank space: nothing happens",
    "spawn": "Spawn Energy: each player puts a new Shard on an Asteroid (R47)",
    "expansion": "a Star Expansion: the innermost ring is covered and all on it is lost (R48)",
    "supernova": "Super-Nova: the game ends now (R49)",
    "start": "its start",
}


@dataclass(frozen=True)
class FirstGame:
    """The guided first game: the new-game form's fields, and the texts around it.

    The bot is ``greedy``: it plays whole turns with a purpose the prompts can tell
    (``random``'s turns are noise to a newcomer, ``search`` is the strongest). The player
    takes the first turn, and the bot's decisions are shown one at a time ("watch").
    """

    id: str = "first-game"
    title: str = "Your first game"
    players: int = 2
    seed: int = 2026
    human_seat: int = 0
    first_player: int = 0
    names: tuple[str, ...] = ("You", "Nova Bot")
    bots: tuple[str, ...] = ("", "greedy")
    pace: str = "watch"
    goal: str = "Play a whole game against Nova Bot: bank more points before Super-Nova."
    intro: str = (
        "A real game now. After each move a line below the board says what happened and "
        "what you can do next; tap Rules any time."
    )
    after: str = "That is the whole game. Start a new one from the menu, with any opponents."
    rule: str = "R1"
    quote: str = (
        "the most valuable collection of Energy Shards and Special ability cards before the "
        "Star goes Supernova"
    )

    def new_state(self) -> State:
        from ..rules import new_game

        return new_game(players=self.players, seed=self.seed, first_player=self.first_player)


FIRST_GAME = FirstGame()


def _ships(s: State, seat: int) -> dict[int, str]:
    """Space -> Shards under it, for the seat's ships on the board."""
    return {i: s.pile[i] for i, o in enumerate(s.ship) if o == seat}


def _who(seat: int, human: int) -> str:
    return "You" if seat == human else "Nova Bot"


def happened(before: State, token: str, after: State, human: int = 0) -> str:
    """What ``token`` (played in ``before``, giving ``after``) did, in one or two sentences."""
    seat = before.current_player
    who = _who(seat, human)
    legal = before.legal_moves()
    parts: list[str] = []
    move = Move(token)
    kind = move.kind
    in_hand = kind == mv.PLAY and move.card in before.players[seat].hand
    if any(m.kind == mv.SPAWN for m in legal):
        colour = COLOUR_NAMES.get(_placed_colour(before, after), "new")
        parts.append(
            f"{who} put a {colour} Shard on the Asteroid {move.space} (Spawn Energy, R47)."
        )
    elif kind == mv.END:
        n = len(after.players[seat].hand)
        parts.append(f"{who} ended the turn and drew back up to {n} cards (R14, R15).")
    elif kind == mv.LAUNCH:
        parts.append(f"{who} launched a ship to {move.space}: free, no card needed (R44).")
    elif in_hand and move.mode in ("s", "l"):
        parts.append(f"{who} played a card as a chain link: the next action may follow (R23).")
    elif in_hand and move.mode in ("u", "r"):
        cid = move.card
        label = action_label(before.card_action(cid, move.mode))
        if cid in before.layout.special:
            name = before.layout.special[cid]["name"]
            parts.append(f"{who} played {name} as a link that also does its action: {label} (R26).")
        else:
            parts.append(f"{who} played {label}.")
    elif kind == mv.BAY:
        colour = COLOUR_NAMES[after.players[seat].bays[move.number][-1]]
        parts.append(f"{who} banked a {colour} Shard in Cargo Bay {move.number + 1} (R38).")
    elif kind == mv.UPGRADE:
        where = "the top of the Academy Deck" if move.number == 0 else "the Space Academy"
        parts.append(f"{who} took a Special card from {where} (R42, R43).")
    elif kind == mv.SHIP:
        parts.append(f"{who} chose the ship on {move.space}.")
    parts.extend(_board_changes(before, after, seat, human))
    if after.track_pos != before.track_pos:
        kind = after.layout.track[after.track_pos]
        parts.append(f"The Expansion Track reached {TRACK_WORD.get(kind, kind)}.")
    if not parts:
        parts.append(_half_choice(who, move))
    return " ".join(parts)


def _half_choice(who: str, move: Move) -> str:
    """A choice inside an action that has not moved anything yet."""
    if move.kind == mv.DEST:
        return f"{who} chose {move.space} as the destination."
    if move.kind == mv.TARGET:
        return f"{who} chose the ship on {move.space} as the target."
    if move.kind == mv.LEAVE:
        n = move.number
        return f"{who} chose to leave {n} Shard{'s' * (n != 1)} behind."
    return f"{who} chose {move}."


def _placed_colour(before: State, after: State) -> str:
    for a, b in zip(before.pile, after.pile, strict=True):
        if len(b) > len(a):
            return b[0]
    return ""


def _board_changes(before: State, after: State, seat: int, human: int) -> list[str]:
    """Ships moved, Shards picked up or left, stacks pushed, ships lost."""
    out: list[str] = []
    name = after.space_name
    mine_before, mine_after = _ships(before, seat), _ships(after, seat)
    gone = [i for i in mine_before if i not in mine_after]
    came = [i for i in mine_after if i not in mine_before]
    who = _who(seat, human)
    if len(gone) == 1 and len(came) == 1:
        src, dst = gone[0], came[0]
        carried, now = mine_before[src], mine_after[dst]
        left = after.pile[src]
        line = f"{who} moved from {name(src)} to {name(dst)}"
        picked = len(now) - (len(carried) - len(left))
        if picked > 0:
            line += f", picking up {picked} Shard{'s' * (picked != 1)} at the bottom of the stack"
        if left:
            line += f" and leaving {len(left)} behind on {name(src)}"
        out.append(line + ".")
    elif len(gone) == 1 and not came and after.players[seat].dock > before.players[seat].dock:
        n = len(mine_before[gone[0]])
        out.append(f"The ship went back to the Dock; {n} Shard{'s' * (n != 1)} to bank, top first.")
    for other in range(before.num_players):
        if other == seat:
            continue
        theirs_before, theirs_after = _ships(before, other), _ships(after, other)
        moved = [i for i in theirs_before if i not in theirs_after]
        landed = [i for i in theirs_after if i not in theirs_before]
        if len(moved) == 1 and len(landed) == 1:
            whom = "Your" if other == human else "Nova Bot's"
            out.append(f"{whom} ship on {name(moved[0])} was moved to {name(landed[0])}.")
    for p in range(after.num_players):
        lost = after.players[p].ships_lost - before.players[p].ships_lost
        if lost:
            whose = "your" if p == human else "Nova Bot's"
            out.append(f"The star consumed {lost} of {whose} ships.")
    return out


def can_do_now(after: State, human: int = 0) -> str:
    """What the player can do now, from the legal moves (or whose turn it is)."""
    if after.is_over():
        scores = after.scores()
        mine = scores[human]
        best = max(s for i, s in enumerate(scores) if i != human)
        verdict = "You win" if mine > best else "Nova Bot wins" if mine < best else "A tie"
        return f"The game is over: {verdict}, {mine} to {best} (R49, R59)."
    if after.current_player != human:
        if any(m.kind == mv.SPAWN for m in after.legal_moves()):
            return "Nova Bot is placing its new Shard."
        return "Nova Bot is playing its turn."
    legal = after.legal_moves()
    kinds = {m.kind for m in legal}
    if mv.SPAWN in kinds:
        return "Now put the Shard you drew on one of the Asteroids."
    choices = [
        ((mv.SHIP,), "choose which of your ships carries out the action"),
        ((mv.DEST,), "choose where it goes"),
        ((mv.TARGET,), "choose the opponent's ship to push"),
        ((mv.LEAVE,), "choose how many Shards to leave behind (none: keep them all)"),
        ((mv.BAY,), "choose the Cargo Bay for the next Shard: order counts for scoring"),
        ((mv.UPGRADE,), "take a face-up Special card or the top of the Academy Deck"),
        ((mv.DIR, mv.DONE), "choose which way to push"),  # done too, as before (a Skip)
        ((mv.REORDER,), "choose what to re-order"),
        ((mv.COLOUR,), "choose the colour of the next Shard placed"),
    ]
    end = mv.END in kinds
    for asked, words in choices:
        if kinds.intersection(asked) and not end:
            return f"Now {words}."
    if not end:
        return "Now finish the action under way."
    hand = after.players[human].hand
    cards = [m for m in legal if m.kind == mv.PLAY and m.card in hand]
    acting = [m for m in cards if m.mode in ("u", "r")]
    linking = [m for m in cards if m.mode in ("s", "l")]
    options = []
    if mv.LAUNCH in kinds:
        options.append("launch a ship (free)")
    if acting:
        options.append("play a card for its action")
    elif linking:
        options.append("play a card sideways as a link before the next action (R24)")
    options.append("end your turn")
    return (
        "You can "
        + ", ".join(options[:-1])
        + (" or " if len(options) > 1 else "")
        + options[-1]
        + "."
    )


def narrate(before: State, move: str, after: State, human: int = 0) -> str:
    """The guided game's prompt after ``move``: what happened, then what you can do now."""
    said = happened(before, move, after, human)
    return f"{said} {can_do_now(after, human)}".strip()
