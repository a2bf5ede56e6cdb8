"""A seat's view (nova/rules/view.py): a typed value read by field, JSON only at the edge."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from render_helpers import random_state

from nova.rules import View, new_game

ROOT = Path(__file__).resolve().parent.parent


@settings(max_examples=60, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 600))
def test_a_view_comes_back_equal_from_its_json(players, seed, steps):
    """``View.from_json(v.to_json()) == v`` for every seat's view of seeded random games (the
    worker's bots read back what the page sent), and the JSON is plain JSON."""
    s = random_state(players, seed, steps)
    for seat in range(players):
        view = s.view(seat)
        text = json.dumps(view.to_json())
        back = View.from_json(json.loads(text))
        assert back == view
        assert json.dumps(back.to_json()) == text


def test_the_pages_own_changes_to_a_view_come_back_too():
    """What the page changes in a view (no decision on screen, a seat's hand hidden, a
    device with no seat) also crosses as JSON and back."""
    from dataclasses import replace

    view = new_game(players=3, seed=2).view(0)
    me = replace(view.me, hand=None, draw_cards=None, to_draw=2)
    shown = view.but(legal=(), spectator=True, seats=(me, *view.seats[1:]))
    assert View.from_json(shown.to_json()) == shown != view


def test_what_is_not_a_view_is_refused():
    view = new_game(players=2, seed=1).view(0).to_json()
    for wrong in ({}, [], {**view, "format": "nova-state"}, {**view, "version": 99}):
        with pytest.raises(ValueError, match="view"):
            View.from_json(wrong)
    del view["seats"]
    with pytest.raises(ValueError, match="not a view"):
        View.from_json(view)


MISSPELT = """
from nova.rules import new_game

def untyped():  # no annotations: mypy checks its body too (check_untyped_defs)
    return new_game(players=2, seed=1).view(0).sedas

def typed() -> int:
    return new_game(players=2, seed=1).view(0).me.dokc
"""


@pytest.mark.slow
def test_lint_names_a_misspelt_view_field(tmp_path):
    """``make lint`` runs mypy with the project's settings: a field of the view spelt wrong
    is an error there, not a blank screen at run time."""
    snippet = tmp_path / "misspelt.py"
    snippet.write_text(MISSPELT)
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "cache"), str(snippet)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert '"View" has no attribute "sedas"' in out.stdout, out.stdout + out.stderr
    assert '"SeatView" has no attribute "dokc"' in out.stdout, out.stdout + out.stderr
