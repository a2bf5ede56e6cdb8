"""Every prompt is written for the decision on screen and is whole on a phone (issue 49).

Over every decision of seeded random and greedy games (some 4,000 in each test): the
prompt names each kind of choice the player has now (a ship, where it goes, a target,
Shards to leave, a bay, a card or a Chain link, a Launch, the turn's end...) in the words
of its buttons, and claims none the player does not have; and its text fits the two lines
the phone's prompt shows at 390 px wide, and in the publisher's 370 px frame, measured with
a conservative model of the font's widths."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from nova.bots import choose_move
from nova.folding import taken_for_person
from nova.render.folds import on_board
from nova.render.prompts import prompt
from nova.rules import State, View, new_game
from nova.rules import move as mv
from nova.rules.move import Move

NAMES = ["Adaline", "Bartholomew", "Cy", "Dee"]  # a long name, as players type them

# what a prompt must say when a kind of choice is on screen (any one of the words)
NAMES_A_KIND = {
    mv.SHIP: ("ship",),
    mv.DEST: ("where",),
    mv.TARGET: ("ship",),
    mv.LEAVE: ("Shards",),
    mv.DIR: ("clockwise",),
    mv.BAY: ("Bay",),
    mv.REORDER: ("Re-order",),
    mv.COLOUR: ("colour",),
    mv.DONE: ("Done",),
    mv.UPGRADE: ("Academy",),
    mv.SPAWN: ("Asteroid",),
    mv.PLAY: ("card", "Chain link"),
    mv.LAUNCH: ("launch",),
    mv.END: ("end your turn",),
}
# words that claim a kind of choice: said only when it is on screen
CLAIMS = {"launch": mv.LAUNCH, "end your turn": mv.END, "Done": mv.DONE, "Asteroid": mv.SPAWN}

# Arial's advance widths (1/1000 em): system-ui on phones (Roboto, San Francisco) is close;
# MARGIN covers the difference and hyphenless wrapping is modelled word by word
WIDTHS = {
    **dict.fromkeys("abdeghnopqu0123456789$#_", 556),
    **dict.fromkeys("ckszvxy", 500),
    **dict.fromkeys("fjt!|.,:; /", 278),
    **{"i": 222, "l": 222, "m": 833, "r": 333, "w": 722, "'": 191, '"': 355},
    **dict.fromkeys("()-", 333),
    **{"?": 556, "–": 556, "—": 1000, "…": 1000, "↻": 1000, "↺": 1000, "⇄": 1000},
    **dict.fromkeys("ABEKPSVXY", 667),
    **dict.fromkeys("CDHNRUw", 722),
    **dict.fromkeys("FTZ", 611),
    **dict.fromkeys("GOQ", 778),
    **{"I": 278, "J": 500, "L": 556, "M": 833, "W": 944},
}
FONT_PX = 0.84 * 16  # .controls > .prompt on a phone (assets/game.css)
MARGIN = 1.1
LINE_PX = 234  # the prompt's text at 390 px beside End turn (Chromium: 250 with padding)
# in the publisher's frame, 370 px wide on a 390 px phone: End turn keeps its width
FRAME_LINE_PX = LINE_PX - 20
LINES = 2  # the phone shows two lines of it (line-clamp)


def text_px(text: str) -> float:
    return sum(WIDTHS.get(c, 1000) for c in text) / 1000 * FONT_PX * MARGIN


def lines_needed(text: str, width: float = LINE_PX) -> int:
    """Lines ``text`` takes at ``width`` px, wrapped at spaces."""
    lines, line = 1, ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if text_px(trial) <= width:
            line = trial
        else:
            lines, line = lines + 1, word
    return lines


def decisions(games: int, bots: tuple[str, ...], players: int):
    """(state, view of the deciding seat) at every decision of seeded games."""
    for seed in range(games):
        s = new_game(players=players, seed=seed)
        rng = random.Random(seed)
        while not s.is_over() and s.ply < 600:
            view = s.view(s.current_player)
            yield s, view
            bot = bots[s.current_player % len(bots)]
            if bot == "random":
                move = str(rng.choice(s.legal_moves()))
            else:
                move = choose_move(bot, view, seed * 1000 + s.ply)
            s = s.apply(move)


def check(state: State, view: View, seen: Counter) -> list[str]:
    """What is wrong with the prompt of the decision in ``view`` (nothing: [])."""
    said = prompt(view, NAMES[: view.players])
    kinds = {Move(m).kind for m in view.legal}
    wrong = []
    for kind in kinds:
        seen[kind] += 1
        if not any(w.lower() in said.lower() for w in NAMES_A_KIND.get(kind, (kind,))):
            wrong.append(f"{kind} on screen, not said")
    for word, kind in CLAIMS.items():
        if word.lower() in said.lower() and kind not in kinds:
            wrong.append(f"says {word!r} with no {kind} on screen")
    if "Chain link" in said and not any(Move(m).mode in "sl" for m in view.legal):
        wrong.append("says Chain link with none to play")
    if lines_needed(said) > LINES:
        wrong.append(f"{lines_needed(said)} lines at 390 px")
    # what a person reads (the page answers a question with one answer, and "keep the
    # Shards?", for them: nova/folding.py) fits the publisher's frame too
    if taken_for_person(state) is None and lines_needed(said, FRAME_LINE_PX) > LINES:
        wrong.append(f"{lines_needed(said, FRAME_LINE_PX)} lines in the 370 px frame")
    return [f"{w}: {said!r} (legal {', '.join(view.legal)})" for w in wrong]


def test_the_width_model_is_conservative():
    """The model's widths are wider than a phone's font: a line of x's, of m's and of a
    prompt known to fit (measured in Chromium at 390 px) stay within their measured lines."""
    assert lines_needed("x" * 30) == 1 and lines_needed("x" * 40) == 2
    assert lines_needed("Orbit 1-3: choose where the ship goes.") == 2
    assert lines_needed("Play a card, launch a ship, or end your turn.") == 2


@pytest.mark.parametrize("players", [2, 3])
def test_every_prompt_says_the_choices_on_screen_and_fits_a_phone(players):
    seen: Counter = Counter()
    problems: dict[str, int] = {}
    n = 0
    for bots in (("random",), ("greedy", "random")):
        for state, view in decisions(8 if bots == ("random",) else 1, bots, players):
            n += 1
            for p in check(state, view, seen):
                problems.setdefault(p, n)
    assert not problems, "\n".join(list(problems)[:12])
    assert n >= 3000, n
    # the games met the commonest questions (the rest: tests/test_rules_*.py's positions)
    for kind in (mv.SHIP, mv.DEST, mv.LEAVE, mv.PLAY, mv.LAUNCH, mv.END, mv.BAY, mv.UPGRADE):
        assert seen[kind], (kind, seen)


def test_the_prompts_of_the_places_one_tap_reaches_say_the_choices_and_fit():
    """With the board offering places one tap reaches (nova/folding.py): the turn's
    prompt still names each kind of choice and fits; the chooser's question fits for
    every kind of place (a space, a Cargo Bay, an Academy card, the Academy Deck)."""
    from nova.web.session import Session

    seen: Counter = Counter()
    n = 0
    for seed in range(3):
        s = Session.new(bots=["", "greedy"], seed=seed)
        while not s.state.is_over() and s.moves < 250:
            st = s.state
            if not s.bot_to_move():
                folded = s.folded_moves()
                view = s.view()
                said = prompt(view, NAMES[: view.players], on_board(folded))
                # "a space" only where a tap on the board plays a card (not the Academy's)
                spaces = {k for k in folded if Move(k).kind != mv.UPGRADE}
                assert ("a space" in said) == bool(spaces and view.pending is None), said
                kinds = {Move(m).kind for m in view.legal}
                assert lines_needed(said) <= LINES, said
                assert lines_needed(said, FRAME_LINE_PX) <= LINES, said
                for kind in kinds:
                    words = NAMES_A_KIND.get(kind, (kind,))
                    assert any(w.lower() in said.lower() for w in words), (kind, said)
                for key in folded:
                    n += 1
                    asked = prompt(view, NAMES[: view.players], True, key)
                    assert lines_needed(asked) <= LINES, asked
                    seen[Move(key).kind] += 1
            s.play(choose_move("greedy", st.view(st.current_player), seed * 1000 + s.moves))
    assert n > 100 and seen[mv.UPGRADE] and seen[mv.BAY], seen
    for key in ("UD", "U3", "B2", "d10"):
        assert lines_needed(prompt(view, NAMES, True, key)) <= LINES
