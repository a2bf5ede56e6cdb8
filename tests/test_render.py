"""The renderer (nova/render): what a player sees and can click, tested in CPython."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from render_helpers import Elements, game_page, random_state

from nova.record import DEFAULT_COLOURS
from nova.render.board import _ship_path, board_svg
from nova.render.game import game_html
from nova.render.prompts import assign_keys
from nova.render.screens import NewGameForm, help_html, new_game_html, pass_html, scores_html
from nova.render.shards import shard_svg
from nova.rules import layout_for, new_game

NAMES = ["Ada", "Bo", "Cy", "Di"]
SHAPE = {"k": "rect", "r": "polygon", "y": "circle"}


def render(s, seat=None, **kw):
    seat = s.current_player if seat is None else seat
    n = s.num_players
    return game_html(s.view(seat), game_page(NAMES[:n], DEFAULT_COLOURS[:n], **kw))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 400))
def test_every_legal_move_is_clickable_exactly_once_and_nothing_else(players, seed, steps):
    """Each legal decision has exactly one data-move element with the engine's own token."""
    s = random_state(players, seed, steps)
    tokens = Elements(render(s)).attr("data-move")
    legal = [str(m) for m in s.legal_moves()]
    assert sorted(tokens) == sorted(legal)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), steps=st.integers(0, 400))
def test_board_draws_every_shard_with_its_shape(players, seed, steps):
    """Every Shard on the board and in every Cargo Bay is drawn, black square, red diamond,
    yellow circle (readable without colour)."""
    s = random_state(players, seed, steps)
    v = s.view(0)
    svg = Elements(board_svg(v, NAMES, DEFAULT_COLOURS))
    for c in "kry":
        drawn = svg.with_class(f"shard-{c}")
        expected = sum(p.count(c) for p in v.pile[_first_in_play(s) :]) + sum(
            b.count(c) for seat in v.seats for b in seat.bays
        )
        assert len(drawn) == expected
        assert {tag for tag, _ in drawn} <= {SHAPE[c]}


def test_a_red_shard_does_not_look_like_a_ship():
    """A red player's ship is an arrowhead, pointed one way; a red Shard beside it is a
    diamond, the same upwards and downwards, so a stack never reads as two ships."""

    def outline(markup: str) -> list[tuple[float, float]]:
        pts = re.search(r'points="([^"]+)"', markup).group(1).split()
        return [tuple(float(v) for v in p.split(",")) for p in pts]

    def mirrored(points, cy):  # the outline turned upside down about y = cy
        return sorted((x, round(2 * cy - y, 1)) for x, y in points)

    shard = outline(shard_svg("r", 50, 50, 20))
    assert len(shard) == 4 and mirrored(shard, 50) == sorted(shard)
    ship = outline(_ship_path(50, 50, 20, "#e53935"))
    assert mirrored(ship, 50) != sorted(ship)


def _first_in_play(s) -> int:
    # spaces of covered rings are gone from the board (and always empty)
    return s.layout.ring_start[s.removed] if s.removed < s.layout.ring_count else 0


def test_hand_shows_only_the_viewing_seat_cards():
    """Each seat's rendering draws its own hand and nothing of any other hand."""
    s = new_game(players=3, seed=5)
    for seat in range(3):
        markup = render(s, seat)
        hand_part = markup.split('aria-label="Your hand"')[1].split("</section>")[0]
        # in the deck's order (each card keeps its digit key through the turn)
        order = s.layout.card_order
        shown = Elements(hand_part).attr("data-card")
        assert shown == sorted(s.players[seat].hand, key=order.__getitem__)
        # outside the hand only public cards appear (Academy face-up, played rows)
        rest = markup.replace(hand_part, "")
        public = set(c for c in s.face_up if c)
        assert set(Elements(rest).attr("data-card")) <= public


def test_other_seats_see_no_moves_when_not_deciding():
    s = new_game(players=2, seed=3)
    other = 1 - s.current_player
    assert Elements(render(s, other)).attr("data-move") == []


def test_pass_screen_shows_no_hand_and_no_moves():
    s = new_game(players=2, seed=3)
    v = s.view(s.current_player)
    el = Elements(pass_html(v, NAMES, DEFAULT_COLOURS, s.current_player))
    assert el.attr("data-move") == []
    assert el.attr("data-card") == []
    assert el.attr("data-ui")[0] == "ready"


def test_names_are_escaped_everywhere():
    """A name from a save or link is text, never markup."""
    evil = ['<img src=x onerror="alert(1)">', "<script>alert(2)</script>"]
    s = random_state(2, 9, 60)
    out = game_html(s.view(s.current_player), game_page(evil, DEFAULT_COLOURS[:2], log=evil))
    out += pass_html(s.view(0), evil, DEFAULT_COLOURS[:2], 0)
    assert "<img" not in out and "<script" not in out
    assert "&lt;script&gt;" in out


def test_stack_height_badge_counts_ship_and_shards():
    """A stack's height (ship + Shards) is written on it: Push/Hijack distances (R39)."""
    s = new_game(players=2, seed=1)
    lay = s.layout
    g = lay.seat_gates[0][2]
    s.ship[g] = 0
    s.pile[g] = "kry"
    s._legal = None
    svg = board_svg(s.view(0), NAMES, DEFAULT_COLOURS)
    space = svg.split(f'data-stack="{lay.space_names[g]}"')[1].split("</g></g>")[0]
    assert ">4</text>" in space
    assert len(Elements(space).with_class("ship")) == 1


def test_covered_rings_are_not_drawn_and_the_expansion_shows():
    """Star Expansion covers the innermost ring (R48): its spaces leave the board."""
    s = new_game(players=4, seed=2)
    s.removed = 2
    svg = board_svg(s.view(0), NAMES, DEFAULT_COLOURS)
    spaces = Elements(svg).attr("data-space")
    assert not any(n[0] in "ab" for n in spaces)
    assert any(n[0] == "c" for n in spaces)
    assert "2 Expansion Rings" in svg


def test_board_side_follows_player_count():
    """Two/Three players side vs Four players side (R2)."""
    for n, count in ((2, 48), (3, 48), (4, 64)):
        s = new_game(players=n, seed=1)
        assert (
            len(Elements(board_svg(s.view(0), NAMES, DEFAULT_COLOURS)).attr("data-space")) == count
        )
    svg4 = board_svg(new_game(players=4, seed=1).view(0), NAMES, DEFAULT_COLOURS)
    assert "Four Players side" in svg4


def test_cards_show_upright_and_rotated_actions_and_special_symbol():
    s = new_game(players=2, seed=1)
    markup = render(s)
    lay = s.layout
    for cid in s.players[s.current_player].hand:
        assert f'data-card="{cid}"' in markup
    # academy: specials with a Shard symbol of their colour
    for cid in s.face_up:
        colour = lay.special[cid]["colour"]
        assert f"card-special card-{colour}" in markup


def test_keyboard_keys_are_unique_and_skip_reserved_letters():
    s = random_state(3, 4, 20)
    keys = assign_keys([str(m) for m in s.legal_moves()])
    assert len(set(keys.values())) == len(keys)
    assert not set(keys.values()) & {"e", "h", "n", "u"}
    assert "E" not in keys


def test_score_screen_shows_every_bay_and_the_winner():
    s = random_state(2, 11, 100000)
    assert s.is_over()
    v = s.view(0)
    out = scores_html(v, NAMES, DEFAULT_COLOURS)
    for w in s.winners():
        assert NAMES[w] in out.split("</h2>")[0]
    assert out.count("Bay 1") == 2 and out.count("Total") == 2
    for seat in range(2):
        assert f"<td class='pts'>{s.scores()[seat]}</td></tr></table>" in out


def test_score_screen_says_why_the_game_ended():
    """R49: a game that ends because nothing can move the track says so on the score screen
    (and in the log), not just "Super-Nova"."""
    for reason, words in (
        ("supernova", "goes Super-Nova."),
        ("stalled", "nothing can move the Expansion Track any more"),
        ("round limit", "round limit is reached"),
    ):
        s = random_state(2, 11, 100000)
        s.end_reason = reason
        out = scores_html(s.view(0), NAMES, DEFAULT_COLOURS)
        assert words in out, reason


def test_help_lists_every_special_card_from_the_data():
    out = help_html(3)
    for card in layout_for(3).special.values():
        assert card["name"] in out
    assert "<kbd>u</kbd>" in out


def test_the_levels_note_says_the_ratings_are_two_players_and_the_top_two_at_four():
    """A player choosing a level by strength learns that the ratings are 2-player figures,
    and at 4 players how the top two levels were measured there (docs/BOTS.md)."""

    def note(players: int) -> str:
        out = new_game_html(NewGameForm(players=players), [])
        found = re.search(r'<p class="muted levels-note">(.*?)</p>', out)
        assert found is not None
        return found.group(1)

    two, three, four = note(2), note(3), note(4)
    assert all("2-player games" in n for n in (two, three, four))
    assert "the Admiral wins about 4 games in 10 against three Captains" in four
    assert "Captain" not in two and "Captain" not in three


def test_new_game_form_defaults_and_saved_games():
    out = new_game_html(NewGameForm(seed=77), [])
    el = Elements(out)
    assert "new-game" in el.attr("data-ui")
    assert 'value="77"' in out
    assert len([1 for t, a in el.items if a.get("id", "").startswith("nova-name-")]) == 2
    assert "Two/Three Players side" in out
