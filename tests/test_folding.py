"""Several decisions in one tap (issue 49's taps per turn): nova/folding.py and the
Session that plays its ways, pure (CPython).

Over seeded games: every place the board offers is reached by legal decisions only and
ends at that place; its ways lead to different outcomes (else one would do) and every
way a player could take there leads to one of them (nothing is decided for the player);
one tap plays a way, one Undo takes the whole of it back; a place several ways reach opens
the chooser, whose buttons are those ways."""

from __future__ import annotations

import random
from html import escape

import pytest

from nova.bots import choose_move
from nova.folding import check_way, folds, settle
from nova.render.game import GamePage, game_html
from nova.rules import IllegalMove, State
from nova.rules import move as mv
from nova.web.session import Session

NAMES, COLOURS = ("Ada", "Bo"), ("#f00", "#00f")


def person_decisions(seed: int, person_bot: str = "greedy", limit: int = 400):
    """A session at each of the person's decisions of a seeded game against the greedy bot
    (the person plays ``person_bot``'s decisions, or random ones)."""
    s = Session.new(bots=["", "greedy"], seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        st = s.state
        if st.is_over():
            return
        if s.bot_to_move():
            s.play(choose_move("greedy", st.view(st.current_player), s.moves))
            continue
        moves = s.moves
        yield s
        if s.moves != moves:  # the test played
            continue
        if person_bot == "random":
            s.play(str(rng.choice(st.legal_moves())))
        else:
            s.play(choose_move(person_bot, st.view(st.current_player), seed * 1000 + s.moves))


def ends_at(way: str, key: str) -> bool:
    last = mv.Move(way.split()[-1])
    return (last.space or str(last)) == key


def a_way_there(st: State, rng: random.Random) -> tuple[str, State] | None:
    """A random way a player could take from a turn step to a place: an action card (after
    a Chain link card when one is needed), ships, then the place (its key, the outcome)."""
    way: list[str] = []
    plays = [m for m in st.legal_moves() if m.kind == mv.PLAY]
    if st.need_link:
        links = [m for m in plays if m.mode in "sl"]
        if not links:
            return None
        link = rng.choice(links)
        way.append(link)
        st = st.apply(link)
        plays = [m for m in st.legal_moves() if m.kind == mv.PLAY and m.mode in "ur"]
        plays = [m for m in plays if m.card in st.layout.basic]
    else:
        plays = [m for m in plays if m.mode in "ur"]
    if not plays:
        return None
    card = rng.choice(plays)
    way.append(card)
    st = st.apply(card)
    for _ in range(8):
        legal = st.legal_moves()
        if st.pending is None or st.spawn_shard or not legal:
            return None
        kinds = {m.kind for m in legal}
        m = rng.choice(legal)
        if kinds == {mv.SHIP} and len(legal) > 1 or len(legal) == 1 and m.kind == mv.SHIP:
            way.append(m)
            st = st.apply(m)
            continue
        if len(kinds) == 1 and kinds <= {mv.DEST, mv.TARGET, mv.BAY, mv.UPGRADE}:
            way.append(m)
            return " ".join(way), settle(st.apply(m))
        return None
    return None


@pytest.mark.parametrize("seed,person", [(1, "greedy"), (2, "random"), (5, "greedy")])
def test_every_folded_place_is_legal_distinct_and_complete(seed, person):
    rng = random.Random(seed)
    checked = offered = chooser = 0
    for s in person_decisions(seed, person, 300):
        st = s.state
        found = s.folded_moves()
        own = {m.space or str(m) for m in st.legal_moves()}
        for key, fold in found.items():
            offered += 1
            chooser += len(fold.options) > 1
            assert key not in own, (key, "the step offers that place itself")
            outcomes = []
            for way in fold.options:
                steps = check_way(st, way)  # legal, each where it comes
                assert ends_at(way, key), (way, key)
                outcomes.append(settle(steps[-1][2]).position())
            assert len(set(outcomes)) == len(outcomes), fold  # distinct, else one way would do
        if st.pending is None and found:
            for _ in range(6):  # a player's own way to a place: one of the ways offered
                got = a_way_there(st, rng)
                if got is None:
                    continue
                way, outcome = got
                key = mv.Move(way.split()[-1]).space or way.split()[-1]
                if key in own:
                    continue
                checked += 1
                assert key in found, (way, sorted(found))
                ways = found[key].options
                assert outcome.position() in {
                    settle(check_way(st, w)[-1][2]).position() for w in ways
                }
    assert offered > 50 and checked > 20 and chooser > 5, (offered, checked, chooser)


def test_one_tap_plays_a_way_and_one_undo_takes_it_back():
    """A folded place's way is played by one tap (``Session.play`` of the run), the page's
    own answers after it too; one Undo takes it all back; a stale way changes nothing."""
    played = 0
    for s in person_decisions(3):
        if played >= 12:
            break
        single = [f for f in s.folded_moves().values() if f.one and " " in f.one]
        if not single or s.state.pending is not None:
            continue
        fold = single[0]
        before, moves, taken = s.state, s.moves, s.taken_count()
        s.play(fold.one)
        n = len(fold.one.split())
        assert s.record.moves[moves : moves + n] == fold.one.split()
        assert s.taken_count() >= taken + n - 1  # the decisions before the place: one tap
        if s.can_undo():
            assert s.undo() and s.moves == moves and s.state == before
            with pytest.raises(IllegalMove):
                s.play(fold.one.replace(fold.space, "zz9"))
            assert s.moves == moves and s.state == before
            s.play(fold.one)
            played += 1
    assert played >= 5


def test_a_place_several_ways_reach_asks_which():
    """A tap on a place several ways reach (``data-ui="fold:<place>"``) opens the chooser:
    one button a way (its cards by their number in the hand), the prompt asking, Cancel;
    a button plays that way and closes it."""
    for s in person_decisions(4):
        many = [f for f in s.folded_moves().values() if len(f.options) > 1]
        if many:
            break
    else:
        pytest.fail("no place with several ways in the game")
    fold = many[0]
    page = GamePage(NAMES, COLOURS, folded={k: f.options for k, f in s.folded_moves().items()})
    html = game_html(s.view(), page)
    assert f'data-ui="fold:{escape(fold.space, quote=True)}"' in html
    s.pick_fold(fold.space)
    chosen = s.fold_choice()
    assert chosen == fold
    html = game_html(s.view(), GamePage(NAMES, COLOURS, folded=page.folded, choosing=fold.space))
    for way in fold.options:
        assert f'class="choice fold-way" data-alt-move="{escape(way, quote=True)}"' in html
    assert "Which cards to" in html and 'data-ui="fold:"' in html
    moves = s.moves
    s.play(fold.options[-1])
    assert s.moves > moves and s.fold_choice() is None
    s.pick_fold("")
    assert s.fold_choice() is None


def test_the_board_draws_each_folded_place_for_a_pointer():
    """Each folded place is a board target (hidden from keyboard and screen reader, which
    play the cards first), an Academy card a pick, a Cargo Bay a target; the prompt says
    the places can be tapped."""
    kinds: set[str] = set()
    for s in person_decisions(1):
        found = s.folded_moves()
        if not found:
            continue
        folded = {k: f.options for k, f in found.items()}
        html = game_html(s.view(), GamePage(NAMES, COLOURS, folded=folded))
        assert 'class="fold-targets" aria-hidden="true"' in html or all(
            k.startswith("U") for k in folded
        )
        for key, ways in folded.items():
            act = (
                f'data-alt-move="{escape(ways[0], quote=True)}"'
                if len(ways) == 1
                else f'data-ui="fold:{escape(key, quote=True)}"'
            )
            assert act in html, (key, ways)
            kinds.add(mv.Move(key).kind if mv.Move(key).kind != mv.UNKNOWN else "space")
        if (
            s.state.pending is None
        ):  # "a space" where a board place is offered (not only the Academy)
            board = any(not k.startswith("U") for k in folded)
            assert ("Tap a card or a space, " in html) == board
        plain = game_html(s.view(), GamePage(NAMES, COLOURS))
        assert "fold-target" not in plain
        if len(kinds) >= 3:
            break
    assert {"space", mv.UPGRADE} <= kinds, kinds


def test_the_choosers_ways_never_look_alike_and_name_the_card_each_spends():
    """Two ways to one place used to show the same words ("5 ▼ Orbit 1" beside "1 ▲ Orbit 1",
    or three "⇄ 5 ▼ Orbit 1"): the person could not tell what they chose between. Now what
    every way plays is said once above the buttons, and each button shows only what it
    decides, each card it spends by its face as printed ("Unload / Orbit 1")."""
    import re

    from nova.render.cards import card_title
    from nova.render.folds import chooser_html

    def text(markup: str) -> str:
        return " ".join(re.sub(r"<[^>]+>", " ", markup).split())

    choosers = 0
    for seed in (1, 2, 3, 4):
        for s in person_decisions(seed, limit=160):
            view = s.view()
            for place, fold in s.folded_moves().items():
                if len(fold.options) < 2:
                    continue
                choosers += 1
                html = chooser_html(view, place, fold.options)
                buttons = re.findall(r'class="choice fold-way"[^>]*>(.*?)</button>', html)
                assert len(buttons) == len(fold.options)
                said = [text(b) for b in buttons]
                assert len(set(said)) == len(said), (place, fold.options, said)
                spent = [{t for t in w.split() if mv.Move(t).kind == mv.PLAY} for w in fold.options]
                for way_cards, words in zip(spent, said, strict=True):
                    for token in way_cards - set.intersection(*spent):
                        face = card_title(view.layout, mv.Move(token).card)
                        assert escape(face) in words or face in words, (face, words)
    assert choosers > 10, choosers


def test_folds_are_only_for_a_persons_decision():
    s = Session.new(bots=["greedy", "greedy"], seed=1)
    assert s.folded_moves() == {}
    st = s.state
    assert folds(st)  # the engine's position has places, but a bot decides there
