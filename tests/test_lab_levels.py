"""``python -m nova lab --levels``: the designer's figures at several opponent levels."""

from __future__ import annotations

import json

import pytest

from nova.lab.cli import main
from nova.lab.levels import FLAG_POINTS, Figure, flags
from nova.lab.workbench import VARIANT_FILE, Workbench
from nova.render.workbench import workbench_html
from nova.web.lab_worker import play


def _rate(key: str, value: float, n: int) -> Figure:
    p = value / 100
    adjusted = (p * n + 1) / (n + 2)
    se = 100 * (adjusted * (1 - adjusted) / (n + 2)) ** 0.5
    return Figure(key, key, value, (value - 2 * se, value + 2 * se), n, se, "%", 100 * adjusted)


def test_a_figure_is_flagged_when_it_moves_more_than_three_points_and_sure_only_when_it_is():
    at = {
        "cadet": {"a": _rate("a", 50.0, 4000), "b": _rate("b", 50.0, 40), "c": _rate("c", 50, 40)},
        "ace": {"a": _rate("a", 60.0, 4000), "b": _rate("b", 60.0, 40), "c": _rate("c", 52.9, 40)},
    }
    got = {f.key: f for f in flags(at)}
    assert set(got) == {"a", "b"}  # c moved 2.9 points: under the line
    assert got["a"].sure and not got["b"].sure  # 10 points on 4,000 games; on 40, noise
    assert (got["a"].low, got["a"].high) == ("cadet", "ace")
    assert got["a"].move > FLAG_POINTS


def test_a_move_sure_alone_is_not_sure_among_many_figures():
    """Issue 50: 27 figures at 95% each call some "sure" by chance; the family counts."""
    alone = {"x": {"a": _rate("a", 50.0, 400)}, "y": {"a": _rate("a", 58.0, 400)}}
    (flag,) = flags(alone)
    assert flag.ci95[0] > 0 and flag.sure and flag.family == 1  # 2.3 standard errors
    many = {n: {f"k{i}": _rate(f"k{i}", 50.0, 400) for i in range(27)} for n in "xyz"}
    many["y"]["k0"] = _rate("k0", 58.0, 400)
    (flag,) = flags(many)
    assert flag.ci95[0] > 0 and flag.family == 27 * 3 and not flag.sure


def test_a_rate_of_all_or_nothing_on_few_games_is_not_sure():
    at = {"x": {"a": _rate("a", 100.0, 2)}, "y": {"a": _rate("a", 0.0, 2)}}
    (flag,) = flags(at)
    assert flag.move == 100.0 and not flag.sure


def test_the_lab_at_two_levels_prints_each_levels_figures_and_the_flags(capsys, tmp_path):
    short = tmp_path / "short.json"  # issue 50: --compare at every level
    short.write_text(json.dumps({"settings": {"max_rounds": 8}}))
    assert (
        main(
            ["--players", "2", "--levels", "cadet,pilot", "--games", "4"]
            + ["--workers", "1", "--json", "--compare", str(short)]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert list(out["differences"]) == ["cadet", "pilot"]
    for name, diffs in out["differences"].items():
        rounds = next(d for d in diffs if d["figure"] == "rounds")
        assert rounds["variant"] <= 8 < rounds["default"], (name, rounds)  # games cut short
        assert rounds["default"] == out["levels"][name]["figures"]["length"]["value"]
        assert all(d["verdict"] in ("changed", "no change found") for d in diffs)
    assert out["compare"]["levels"]["pilot"]["figures"]["length"]["value"] <= 8
    assert list(out["levels"]) == ["cadet", "pilot"]
    for name in ("cadet", "pilot"):
        figures = out["levels"][name]["figures"]
        assert {"first_seat", "length", "supernova"} <= set(figures)
        assert "card:Hijack 1-3" in figures  # the Special cards by name, copies pooled
        assert not any(k.startswith("card:s") for k in figures)
        assert not any(k.startswith("card:b") for k in figures)  # every seat plays the basics
        for f in figures.values():
            low, high = f["ci95"]
            assert low <= f["value"] <= high
    for flag in out["flags"]:  # every flag is a real move between two of the levels shown
        a, b = (out["levels"][n]["figures"][flag["figure"]]["value"] for n in flag["levels"])
        assert b - a == pytest.approx(flag["move"], abs=0.02) and flag["move"] > FLAG_POINTS
    # on four games a level, some figure moves more than the flag's 3 points (a card's win
    # rate among a handful of games, if nothing else), and is flagged
    assert out["flags"]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--levels", "cadet,general"], "general"),
        (["--levels", "cadet"], "two or more"),
        (["--levels", "cadet,ace", "--compare", "/nonexistent.json"], "nonexistent"),
    ],
)
def test_a_wrong_levels_run_says_why_and_plays_nothing(capsys, args, says):
    assert main(["--games", "2", *args]) == 2
    assert says in capsys.readouterr().err


def _play_all(bench: Workbench) -> None:
    run = bench.run
    assert run is not None
    while (request := run.request(2)) is not None:
        run.add(play(request))
    run.finish(1.0)


def test_the_workbench_at_levels_equals_the_clis_levels_json(tmp_path, capsys):
    bench = Workbench.from_query("lab&players=2&games=3&seed=5&levels=cadet,pilot")
    assert bench.note == "" and bench.form.levels == ("cadet", "pilot")
    bench.edit("card:s3.colour", "r")  # a variant: every level plays it
    bench.start_run()
    _play_all(bench)
    assert bench.run is not None and bench.run.levels_result is not None
    path = tmp_path / VARIANT_FILE
    path.write_text(bench.variant_json())
    assert bench.form.cli(VARIANT_FILE) == (
        "python -m nova lab --players 2 --levels cadet,pilot --games 3 --seed 5 "
        f"--variant {VARIANT_FILE} --json"
    )
    assert main(["--players", "2", "--levels", "cadet,pilot", "--games", "3", "--seed", "5"]
                + ["--variant", str(path), "--json", "--workers", "1"]) == 0  # fmt: skip
    expected = json.loads(capsys.readouterr().out)
    got = bench.run.levels_result.as_json()
    assert got["levels"] == expected["levels"] and got["flags"] == expected["flags"]
    assert "levels=cadet,pilot" in bench.query()  # the address keeps the run's levels


@pytest.mark.parametrize("query", ["levels=cadet", "levels=cadet,general", "levels=ace,ace"])
def test_an_address_with_wrong_levels_says_so_and_keeps_the_seats_bots(query):
    bench = Workbench.from_query(f"lab&players=2&{query}")
    assert "levels" in bench.note and bench.form.levels == ()


def test_the_workbench_shows_the_levels_figures_and_marks_what_moves():
    bench = Workbench.from_query("lab&players=2&games=2&seed=1&levels=cadet,pilot")
    assert 'value="cadet,pilot" selected' in workbench_html(bench)
    assert "Play 4 games" in workbench_html(bench)
    bench.start_run()
    _play_all(bench)
    html = workbench_html(bench)
    assert bench.run is not None and bench.run.levels_result is not None
    result = bench.run.levels_result
    assert html.count('<tr data-figure="') == len(result.levels["cadet"])
    for flag in result.flags:
        assert f'<tr data-figure="{flag.key}" data-flag="1"' in html
        assert f'data-flag-figure="{flag.key}"' in html
    assert 'id="nova-lab-levels"' in html and 'id="nova-lab-result"' not in html
