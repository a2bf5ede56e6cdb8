"""A card's number in the hand stays the same through a turn (issue 49: a card was 6, then
7 after an Upgrade brought a Special that sorts before it): over seeded random games, at
every decision of a turn, each card held keeps the digit it had at the turn's start."""

from __future__ import annotations

import random

from nova.record import GameRecord
from nova.render.prompts import card_slots
from nova.web.session import Session


def test_hand_numbers_stay_put_through_each_turn():
    turns = gained = 0
    for seed in range(40):
        rng = random.Random(seed)
        session = Session(GameRecord(players=2, seed=seed))
        numbers: dict[str, str] = {}
        turn = (-1, -1)
        for _ in range(400):
            s = session.state
            if s.is_over():
                break
            view = s.view(s.turn)
            slots = card_slots(view, view.layout, session.came_this_turn())
            if (s.round, s.turn) != turn:
                turn, numbers = (s.round, s.turn), dict(slots)
                turns += 1
            for card, key in slots.items():
                if card in numbers:
                    assert numbers[card] == key, f"seed {seed}: {card} was {numbers[card]}"
                else:
                    numbers[card] = key
                    gained += 1
            legal = [str(m) for m in s.legal_moves()]
            ups = [m for m in legal if m.startswith("U")]  # take the Academy's cards often
            others = [m for m in legal if m != "E"]
            end = not others or ("E" in legal and rng.random() < 0.1)
            if session.needs_pass():  # two people on one device: the next one is ready
                session.ready()
            session.play("E" if end else rng.choice(ups or sorted(others)))
    assert turns > 500 and gained > 10, (turns, gained)
