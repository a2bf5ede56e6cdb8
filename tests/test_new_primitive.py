"""A primitive is one module: a new one, defined here and nowhere else (Swap: two of your
ships change places), is registered as the rulebook's own are and plays through the engine,
the notation, the renderer, the bots and the lab with nothing else in the package edited."""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

import pytest

from nova.bots import make_bot
from nova.lab.core.game import GameJob, play_game
from nova.record import DEFAULT_COLOURS, GameRecord
from nova.render.cards import card_text
from nova.render.marks import motions
from nova.render.prompts import prompt
from nova.render.tutorial import lesson_html
from nova.render.words import ACTION_TEXT, describe
from nova.rules import Move, State, View, load_data
from nova.rules import move as mv
from nova.rules.actions import Action, done, unregister
from nova.rules.position import variant_tag
from nova.rules.primitives import Primitive, register_primitive
from nova.tutorial import TUTORIAL_IDS
from nova.tutorial.lesson import Lesson
from nova.tutorial.progress import TutorialProgress
from nova.tutorial.session import start as start_lesson
from nova.web.share import Replay


@dataclass(frozen=True, kw_only=True)
class Swap(Action):
    """Choose one of your ships (``@``), then another (``>``): they change places, each with
    its stack."""

    kind = "swap"
    why_ship = "Swap exchanges two of your own ships"

    ship: int | None = None
    other: int | None = field(default=None, metadata={"notation": "space"})

    def mine(self, s: State) -> list[int]:
        return [sp for sp, o in enumerate(s.ship) if o == s.turn]

    def possible(self, s: State) -> bool:
        return len(self.mine(s)) >= 2

    def moves(self, s: State) -> list[Move]:
        names = s.layout.space_names
        if self.ship is None:
            return [mv.ship(names[sp]) for sp in self.mine(s)]
        return [mv.dest(names[sp]) for sp in self.mine(s) if sp != self.ship]

    def choose(self, s: State, move: Move) -> None:
        space = s.layout.name_to_space[move.space]
        if move.kind == mv.SHIP:
            s.pending = self.but(ship=space)
            return
        assert self.ship is not None
        s.pile[self.ship], s.pile[space] = s.pile[space], s.pile[self.ship]
        s.last_event = f"swap {s.space_name(self.ship)} and {move.space}"
        done(s, self.but(other=space), space)

    def prompt(self, view: View) -> str:
        return "Swap: choose a ship." if self.ship is None else "Swap: choose the other ship."

    def told(self, before: State, move: Move, after: State, names: list[str]) -> str | None:
        if move.kind == mv.SHIP:
            return None
        assert self.ship is not None
        who = names[before.current_player]
        return f"{who} swaps the ships on {before.space_name(self.ship)} and {move.space}"

    def motions(self, before: State, move: Move, after: State) -> list[dict[str, Any]] | None:
        if move.kind != mv.DEST or self.ship is None:
            return None
        a, b = self.ship, before.layout.name_to_space[move.space]
        seat = before.current_player
        return [{"owner": seat, "from": a, "to": b}, {"owner": seat, "from": b, "to": a}]


@pytest.fixture
def swap():
    register_primitive(
        Primitive(
            name="swap",
            word="Swap",
            rules="R99",
            text="Two of your ships change places, each with its stack",
            help="Two of your ships change places.",
            action=Swap,
        )
    )
    yield Swap
    unregister("swap")


def variant_with(action: str) -> dict:
    """Every Special card does ``action`` upright (a composed card: one line of data)."""
    cards = copy.deepcopy(load_data()["academy"]["cards"])
    for card in cards:
        card["action"] = action
    return {"academy": {"cards": cards}}


POSITION = """
nova 2p variant={tag}
board 12/2,kA,9/12/A,y,10
A hand=s1,b1 draw=* bays=k,-,-
B hand=b1,b2,b3,b4,b5 draw=*
"""


def test_a_new_primitive_plays_through_the_engine_the_notation_and_the_renderer(swap):
    variant = variant_with("swap+orbit:1")
    s = State.from_position(POSITION.format(tag=variant_tag(variant)), variant)
    names = ["Ada", "Bo"]
    assert "s1u" in s.legal_moves()
    assert "Swap: Two of your ships change places, each with its stack (R99); then Orbit 1" in (
        card_text(s.layout, "s1")
    )
    assert ACTION_TEXT["Swap"] == "Two of your ships change places."
    after = s.apply("s1u")
    assert (
        describe(s, "s1u", after, names) == "Ada plays Disrupt (upright) as a link: Swap + Orbit 1"
    )
    s = after
    assert isinstance(s.pending, Swap)
    assert sorted(s.legal_moves()) == ["@b2", "@d0"]
    assert prompt(s.view(0), names) == "Swap: choose a ship."
    after = s.apply("@b2")
    assert describe(s, "@b2", after, names) is None
    s = after
    assert "action swap ship=b2" in s.position()
    assert State.from_position(s.position(), variant) == s
    assert State.from_json(s.to_json()) == s
    assert prompt(s.view(0), names) == "Swap: choose the other ship."
    assert s.why_illegal("@a0") == "Swap exchanges two of your own ships"
    after = s.apply(">d0")
    assert describe(s, ">d0", after, names) == "Ada swaps the ships on b2 and d0"
    assert motions(s, after, ">d0") == [
        {"owner": 0, "from": 14, "to": 36},
        {"owner": 0, "from": 36, "to": 14},
    ]
    s = after
    assert s.pile[s.layout.name_to_space["b2"]] == ""
    assert s.pile[s.layout.name_to_space["d0"]] == "k"
    assert s.pending is not None and s.pending.kind == "orbit"  # the card's next step


def test_the_bots_and_the_lab_play_a_new_primitive(swap):
    variant = variant_with("swap+orbit:1")
    s = State.from_position(POSITION.format(tag=variant_tag(variant)), variant).apply("s1u")
    for name in ("random", "greedy", "search:20"):
        assert make_bot(name).choose(s.view(0), seed=3) in s.legal_moves()
    record = play_game(GameJob(0, 2, ("random", "greedy"), None, variant, 5))
    assert record.decisions > 0 and record.end


def _trails(html: str) -> list[str]:
    return re.findall(r'<path class="trail" d="([^"]+)"', html)


def test_a_new_primitive_draws_its_trail_in_the_replay_and_in_a_lesson(swap):
    """The replay and a lesson mark a decision as the game does (nova.render.marks.motions,
    given the move): the two ships that changed places each draw a trail."""
    variant = variant_with("swap+orbit:1")
    moves = ["s1u", "@b2", ">d0"]
    states = [State.from_position(POSITION.format(tag=variant_tag(variant)), variant)]
    for move in moves:
        states.append(states[-1].apply(move))
    record = GameRecord(players=2, seed=0, variant=variant, moves=moves)
    replay = Replay(record, step=3, states=states)
    assert len(_trails(replay.screen_html(list(DEFAULT_COLOURS[:2])))) == 2
    replay.go("prev")  # the ship chosen: nothing moved yet
    assert _trails(replay.screen_html(list(DEFAULT_COLOURS[:2]))) == []

    lesson = Lesson(
        id=TUTORIAL_IDS[
            0
        ],  # the screen numbers a lesson by the tutorial's list: in the first's place
        title="Swap",
        intro="Two of your ships change places.",
        goal="Swap your ships on b2 and d0.",
        position=POSITION.format(tag=variant_tag(variant)),
        offers=("s1u", "@b2", ">d0"),
        teaches="Swap",
        done=lambda s: s.pile[s.layout.name_to_space["d0"]] == "k",
        solution=tuple(moves),
        after="Each ship took its stack along.",
        rule="R99",
        quote="Two of your ships change places.",
        rules=("R99",),
        variant=variant,
    )
    session = start_lesson(lesson)
    for move in moves:
        session = session.try_move(move).session
    assert session.done
    progress = TutorialProgress(TUTORIAL_IDS)
    trails = _trails(lesson_html(session, progress))
    assert len(trails) == 2 and trails[0] != trails[1]
