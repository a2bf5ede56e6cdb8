"""The tutorial's lessons are real positions, and every lesson is also a test.

Each lesson's position loads and is a state the rules can reach; its goal is reached by
the moves it teaches (a breadth-first search over them, and its scripted solution); a
player who taps only what the lesson offers always gets there; anything else is refused
with the rule named; each lesson quotes the rulebook word for word. Also: the progress
kept in localStorage survives a damaged or old save, and the guided first game's prompts
say what happened.
"""

from __future__ import annotations

import ast
import doctest
import json
import random
import re
from pathlib import Path

import pytest

from nova.bots import BOT_NAMES, choose_move
from nova.folding import taken_for_person
from nova.render.marks import motions
from nova.rules import State
from nova.rules.invariants import problems
from nova.tutorial import (
    BY_ID,
    FIRST_GAME,
    LESSONS,
    TUTORIAL_IDS,
    TutorialProgress,
    load_progress,
    narrate,
    new_progress,
    start,
)
from nova.tutorial import session as session_module
from nova.tutorial.session import MAX_STATES, explore, target_of

ROOT = Path(__file__).resolve().parent.parent
R_NUMBER = re.compile(r"\bR\d+\b")
IDS = [lesson.id for lesson in LESSONS]


def rulebook_dir() -> Path | None:
    """The rulebook folder, ``shared/rulebook`` beside the repository (as test_rule_coverage)."""
    for base in (ROOT, *ROOT.parents):
        candidate = base / "shared" / "rulebook"
        if (candidate / "RULE-INDEX.md").exists():
            return candidate
    return None


def normalise(text: str) -> str:
    """Rulebook text without its Markdown marks, whitespace collapsed."""
    text = re.sub(r"</?u>", "", text).replace("*", "")
    return " ".join(text.split())


def play(lesson_id: str, moves: list[str]):
    s = start(BY_ID[lesson_id])
    for m in moves:
        step = s.try_move(m)
        assert not step.refused, (m, step.refused)
        s = step.session
    return s


# -- the positions -----------------------------------------------------------------------
@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_lesson_starts_from_a_valid_position_with_its_goal_still_ahead(lesson):
    s = State.from_position(lesson.position)
    assert problems(s) == []
    assert not s.is_over() and s.current_player == lesson.seat
    assert not lesson.done(s)
    assert lesson.goal.endswith(".") and lesson.goal.count(". ") == 0  # one sentence
    assert lesson.after and lesson.intro


def test_lesson_ids_are_unique_and_the_first_game_comes_last():
    assert len(set(TUTORIAL_IDS)) == len(TUTORIAL_IDS)
    assert TUTORIAL_IDS[-1] == FIRST_GAME.id and TUTORIAL_IDS[:-1] == tuple(IDS)


# -- the goal, with the lesson's moves and no others ---------------------------------------
@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_lesson_goal_is_reachable_with_only_the_moves_it_teaches(lesson):
    plan = explore(lesson)
    start_key = next(iter(plan.nodes))
    assert start_key in plan.good, "the goal cannot be reached with the lesson's moves"
    assert len(plan.nodes) < MAX_STATES
    for key, edges in plan.edges.items():
        assert all(lesson.offers_move(m) for m in edges), key


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_lesson_scripted_solution_reaches_its_goal(lesson):
    assert all(lesson.offers_move(m) for m in lesson.solution)
    s = play(lesson.id, list(lesson.solution))
    assert s.done and s.after == lesson.after
    assert s.offered() == []
    assert problems(s.state) == []


@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_a_player_who_taps_only_offered_targets_always_finishes(lesson):
    """Offered moves and the board's folded places never lead where the goal is out of
    reach, so no one gets stuck; and a lesson asks only what the game's page asks (no
    decision with one option, no "keep the Shards?": nova/folding.py takes those)."""
    for seed in range(8):
        rng = random.Random(seed)
        s = start(lesson)
        for _ in range(40):
            if s.done:
                break
            assert taken_for_person(s.state) is None, s.state.position()
            offered = [t.token for t in s.offered()]
            offered += [way for f in s.folds().values() for way in f.options]
            assert offered, f"stuck at {s.state.position()}"
            step = s.try_move(rng.choice(offered))
            assert not step.refused, step.refused
            s = step.session
            assert not s.stuck
        assert s.done


def test_a_lessons_folded_place_plays_the_card_the_ship_and_the_place_in_one_tap():
    """As in the game (nova/folding.py): the Orbit lesson's place d3 is one tap."""
    s = start(BY_ID["orbit"])
    assert {space: f.options for space, f in s.folds().items()} == {"d3": ("b5u @d0 >d3",)}
    s = s.try_move("b5u @d0 >d3").session
    assert s.done and s.taps == 1
    # the board's trail is the ship's, from d0 to d3 (the tap's last decision in the action)
    before, move = s.acted
    lay = s.state.layout
    assert motions(before, s.state, move) == [
        {"owner": 0, "from": lay.name_to_space["d0"], "to": lay.name_to_space["d3"]}
    ]
    # a place whose way does not lead to the goal is not offered, and a tap there says why
    s = start(BY_ID["orbit"])
    why = s.why_not("b5u @d0 >d2")
    assert "R30" in why and s.try_move("b5u @d0 >d2").session is s


# -- refusals name the rule ----------------------------------------------------------------
@pytest.mark.parametrize("lesson", LESSONS, ids=IDS)
def test_every_move_a_lesson_does_not_offer_is_refused_naming_a_rule(lesson):
    s = start(lesson)
    offered = {t.token for t in s.offered()}
    others = [m for m in s.state.legal_moves() if m not in offered]
    others += [m for m in ("Ld4", ">c5", "B0", "b9u", "s1u", "E", "", "zz") if m not in offered]
    for m in others:
        step = s.try_move(m)
        assert step.refused and R_NUMBER.search(step.refused), (m, step.refused)
        assert step.session.state == s.state


@pytest.mark.parametrize(
    "lesson_id, before, move, reason",
    [
        ("launch", [], "Lc0", "R44"),  # a Shard on the gate: not open
        ("launch", [], "Lb0", "R44"),  # the opponent's ship on it
        ("orbit", ["b5u"], ">d2", "R30"),  # never land on a ship
        ("chain", ["b1u", ">d1"], "b3u", "R24"),  # a second action needs a link
        ("chain", ["b1u", ">d1"], "b8s", "this lesson uses b6 for it (R23)"),
        ("jump", ["b8u"], ">d0", "R35"),  # a Shard on that gate
        ("unload", [], "b3r @d3 B0", "R36"),  # a folded way: that ship is not on your own gate
        ("unload", [], "b3u", "not now: this lesson teaches Unload"),
        ("hijack", [], "b11u @d0 !d1", "R39"),  # a folded way: no opponent beside that ship
        ("special", [], "s2u", "R70"),  # no black Shard banked
        ("expansion", [], "b9u", ""),  # offered: saving the ship on the innermost ring
        ("expansion", ["b6s"], "b8r", ""),  # unloading the a0 ship saves it too
        ("supernova", ["b10u"], "B1", "does not lead to this lesson's goal"),
    ],
)
def test_a_wrong_move_is_refused_with_the_rule_that_forbids_it(lesson_id, before, move, reason):
    s = play(lesson_id, before)
    refused = s.why_not(move)
    if reason:
        assert reason in refused and R_NUMBER.search(refused)
        assert s.try_move(move).session is s
    else:
        assert refused == ""


def test_a_refused_goal_losing_move_gives_the_lesson_hint():
    s = play("cargo", ["b10u"])
    assert {t.token for t in s.offered()} == {"B0", "B2"}  # the red Shard: bay 1 or bay 3
    refused = s.why_not("B1")
    assert BY_ID["cargo"].hint in refused and "(R50)" in refused


def test_the_cargo_lesson_builds_the_rulebook_example_of_twenty_points():
    """R54: three bays score 6 + 3 + 11 = 20."""
    s = play("cargo", list(BY_ID["cargo"].solution))
    breakdown = s.state.score_breakdown(0)
    assert [b["points"] for b in breakdown["bays"]] == [6, 3, 11]
    assert breakdown["total"] == 20


def test_the_hijack_lesson_is_the_rulebook_example():
    """R39-R41: a three-high stack pushes three; the bottom Shard is left and claimed."""
    s = play("hijack", list(BY_ID["hijack"].solution))
    lay = s.state.layout
    assert s.state.ship[lay.name_to_space["c9"]] == 1  # pushed from c6 three spaces
    assert s.state.pile[lay.name_to_space["c9"]] == "k"  # without its bottom (yellow) Shard
    assert s.state.pile[lay.name_to_space["c6"]] == "ykr"  # claimed at the bottom


def test_the_special_lesson_plays_the_rulebook_card_row():
    """R25, R26: Orbit One, Chain, Jump, Special (+Unload), Orbit Two."""
    s = play("special", list(BY_ID["special"].solution))
    played = [c + m for c, m in s.state.players[0].played]
    assert played == ["b2u", "b6s", "b8u", "s23r", "b4u"]


def test_targets_name_the_element_the_page_marks():
    s = start(BY_ID["launch"])
    assert [(t.kind, t.name, t.selector) for t in s.offered()] == [
        ("space", "a0", '[data-move="La0"]'),
        ("space", "d0", '[data-move="Ld0"]'),
    ]
    kinds = {tok: target_of(tok).kind for tok in ("b5u", "s23r", ">d3", "B2", "U1", "E", "x0")}
    assert kinds == {
        "b5u": "card",
        "s23r": "card",
        ">d3": "space",
        "B2": "bay",
        "U1": "academy",
        "E": "end-turn",
        "x0": "choice",
    }


def test_the_spawn_lesson_lets_the_opponent_place_its_shard_too():
    """R47: each player places a drawn Shard, starting with the player who unloaded."""
    s = play("spawn", ["b10u", "B0"])  # the one ship on a gate is chosen for the player
    assert s.state.current_player == 0
    assert all(t.token.startswith("*") for t in s.offered())
    s = s.try_move(s.offered()[0].token).session
    assert s.done and s.state.current_player == 0


def test_the_session_doctest_runs():
    assert doctest.testmod(session_module).failed == 0


def test_the_tutorial_imports_nothing_from_the_browser_or_the_page():
    for path in (ROOT / "nova" / "tutorial").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            for name in names:
                assert not re.match(r"(js|pyscript|pyodide)\b|\.\.web\b|nova\.web", name), (
                    path.name,
                    name,
                )


# -- the rulebook's own words --------------------------------------------------------------
def test_every_lesson_quotes_the_rulebook_and_names_an_indexed_rule():
    folder = rulebook_dir()
    if folder is None:
        pytest.skip("the rulebook folder (shared/rulebook beside the repository) is absent")
    texts = [normalise(p.read_text()) for p in sorted(folder.glob("0*.txt"))]
    index = (folder / "RULE-INDEX.md").read_text()
    indexed = set(re.findall(r"^- (R\d+)\b", index, flags=re.MULTILINE))
    for step in (*LESSONS, FIRST_GAME):
        assert any(normalise(step.quote) in t for t in texts), (step.id, step.quote)
        assert step.rule in indexed, step.id
    for lesson in LESSONS:
        assert lesson.rule in lesson.rules
        assert set(lesson.rules) <= indexed, lesson.id


def test_the_lessons_cover_the_issue_list():
    taught = {r for lesson in LESSONS for r in lesson.rules}
    needed = {"R1", "R13", "R18", "R19", "R21", "R24", "R30", "R32", "R33", "R34", "R35"}
    needed |= {"R36", "R38", "R45", "R41", "R42", "R43", "R26", "R47", "R48", "R49"}
    needed |= {"R50", "R54", "R56"}
    assert needed <= taught


# -- progress in localStorage -----------------------------------------------------------------
def test_progress_round_trips_through_json():
    p = new_progress().complete("launch").complete("about").skip("orbit")
    again, message = load_progress(p.to_json())
    assert again == p and message == ""
    assert again.next_lesson() == "chain"
    assert not again.finished


def test_progress_finishes_when_every_lesson_is_done_or_skipped():
    p = new_progress()
    for i, lesson_id in enumerate(TUTORIAL_IDS):
        p = p.complete(lesson_id) if i % 2 else p.skip(lesson_id)
    assert p.finished and p.next_lesson() is None
    assert p.complete("about").skipped == p.skipped - {"about"}  # replayed and done


@pytest.mark.parametrize(
    "saved, message",
    [
        ("{not json", "could not be read"),
        ("[1, 2]", "could not be read"),
        ('{"done": ["about"]}', "could not be read"),
        ('{"version": "1", "done": []}', "could not be read"),
        ('{"version": 1, "done": "about"}', "could not be read"),
        ('{"version": 99, "done": ["about"]}', "newer version"),
        ('{"version": 1, "done": ["about", "warp-drive"]}', "1 lesson"),
        ('{"version": 1, "done": ["old-1", "old-2"], "skipped": [3]}', "3 lessons"),
        ("[" * 100_000, "could not be read"),
        (12, "could not be read"),
    ],
)
def test_a_damaged_old_or_newer_save_gives_a_message_and_never_breaks(saved, message):
    progress, said = load_progress(saved)
    assert message in said
    assert isinstance(progress, TutorialProgress)
    assert set(progress.done) <= set(TUTORIAL_IDS)
    json.loads(progress.to_json())


def test_no_save_is_a_fresh_start_without_a_message():
    assert load_progress(None) == (new_progress(), "")
    assert load_progress("") == (new_progress(), "")


# -- the guided first game ---------------------------------------------------------------------
def test_the_first_game_is_against_a_bot_of_the_game():
    assert FIRST_GAME.bots[FIRST_GAME.human_seat] == ""
    assert all(b in ("", *BOT_NAMES) for b in FIRST_GAME.bots)
    s = FIRST_GAME.new_state()
    assert problems(s) == [] and s.current_player == FIRST_GAME.human_seat


def test_first_game_prompts_say_what_happened_and_what_to_do_now():
    s = FIRST_GAME.new_state()
    gate = next(m for m in s.legal_moves() if m.startswith("L"))
    after = s.apply(gate)
    said = narrate(s, gate, after)
    assert f"You launched a ship to {gate[1:]}" in said and "R44" in said
    assert "You can" in said and "end your turn" in said
    ended = after.apply("E")
    assert "Nova Bot is playing its turn" in narrate(after, "E", ended)


def test_first_game_prompts_follow_a_whole_game():
    """Every decision of a game against the bot gets a prompt; the last says who won."""
    s = FIRST_GAME.new_state()
    rng = random.Random(3)
    said = ""
    for n in range(3000):
        if s.is_over():
            break
        seat = s.current_player
        if seat == FIRST_GAME.human_seat:
            move = rng.choice(s.legal_moves())
        else:
            move = choose_move(FIRST_GAME.bots[seat], s.view(seat), seed=n)
        after = s.apply(move)
        said = narrate(s, move, after)
        assert said.endswith(".") and "  " not in said, said
        if move.startswith("B") and seat == FIRST_GAME.human_seat:
            assert "You banked a" in said
        s = after
    assert s.is_over()
    assert "The game is over" in said and str(max(s.scores())) in said


def test_docs_list_every_lesson_with_the_rules_it_teaches():
    docs = (ROOT / "docs" / "TUTORIAL.md").read_text()
    for lesson in LESSONS:
        row = f"| `{lesson.id}` | {lesson.title} | {', '.join(lesson.rules)} | {lesson.goal} |"
        assert row in docs, row
    for marker in ('[data-ui="learn"]', "data-nova-lesson=", "data-lesson-target"):
        assert marker in docs
