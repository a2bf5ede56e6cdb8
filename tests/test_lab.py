"""The balance lab: its JSON, its tallies and its reproducibility."""

from __future__ import annotations

import dataclasses
import io
import json
import sys
from pathlib import Path

import pytest

from nova.lab.cli import main
from nova.lab.core.game import GameJob, GameResult, play_game
from nova.lab.core.summary import summarize
from nova.rules import State

VARIANT = str(Path(__file__).resolve().parent.parent / "nova/data/variants/b2-unload.json")


def _lab_json(capsys, *args: str) -> dict:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_lab_json_has_the_promised_fields(capsys, tmp_path):
    short = tmp_path / "short.json"
    short.write_text('{"settings": {"max_rounds": 8}}')  # short games keep the test fast
    d = _lab_json(capsys, "--players", "2", "--bots", "greedy,random", "--games", "4",
                  "--workers", "1", "--variant", str(short))  # fmt: skip
    assert d["games"] == 4
    assert d["bots"] == ["greedy", "random"]
    assert len(d["wins"]) == len(d["mean_score"]) == 2
    assert abs(sum(d["wins"]) - 4) < 1e-9  # every game has one win, split on a tie (R59)
    for key in ("win_ci95", "score_sd", "turns", "unloads", "end_reasons", "stalled_games",
                "turn_position_win_rate", "first_seat_advantage", "cards"):  # fmt: skip
        assert key in d
    assert d["cards"], "card plays are tallied"


def test_lab_compare_plays_the_same_games_with_a_variant(capsys):
    d = _lab_json(capsys, "--players", "2", "--bots", "random", "--games", "3", "--workers",
                  "1", "--compare", VARIANT)  # fmt: skip
    assert d["compare"]["games"] == 3
    assert d["compare"]["variant"] == VARIANT
    assert d["compare"]["bots"] == d["bots"] == ["random", "random"]


def test_lab_text_report_shows_both_variants(capsys):
    args = ["--players", "3", "--bots", "random", "--games", "2", "--workers", "1"]
    assert main([*args, "--compare", VARIANT]) == 0
    out = capsys.readouterr().out
    assert "first-seat advantage" in out and "b2-unload" in out


def test_lab_is_the_same_on_any_number_of_cores(capsys):
    args = ["--players", "2", "--bots", "random", "--games", "6", "--seed", "3"]
    one = _lab_json(capsys, *args, "--workers", "1")
    two = _lab_json(capsys, *args, "--workers", "2")
    assert one["wins"] == two["wins"] and one["mean_score"] == two["mean_score"]


def test_lab_rejects_bad_arguments(capsys):
    assert main(["--players", "2", "--bots", "greedy,alphago"]) == 2
    assert main(["--players", "3", "--bots", "greedy,random"]) == 2
    assert main(["--players", "2", "--variant", "/nonexistent.json"]) == 2
    for bad in (["--games", "0"], ["sweep", "--games", "-3"], ["--workers", "two"]):
        with pytest.raises(SystemExit) as done:
            main(bad)
        assert done.value.code == 2  # argparse's usage error, before any game is played
    assert "at least 1" in capsys.readouterr().err


ARC = {"shards_entered": 20, "shards_in_bag": 10, "shards_banked": 12, "disrupts": 1,
       "longest_dry_rounds": 0}  # fmt: skip


def test_ties_are_split_evenly_and_seats_rotate():
    """A tie gives each tied entry half a win (R59); entries are tallied wherever they sat."""
    results = [
        {"g": 0, "first": 0, "seat_entry": [0, 1], "returns": [0.5, 0.5], "scores": [9, 9],
         "turns": 10, "rounds": 5, "decisions": 50, "unloads": 2, "longest_gap_rounds": 1.0,
         "end": "supernova", "played": [{}, {}], "held": [[], []], "think": [0, 0],
         "bay_points": [6, 9], "special_points": [3, 0], **ARC},
        {"g": 1, "first": 1, "seat_entry": [1, 0], "returns": [1.0, 0.0], "scores": [12, 3],
         "turns": 10, "rounds": 5, "decisions": 50, "unloads": 2, "longest_gap_rounds": 6.0,
         "end": "round limit", "played": [{"b1": 2}, {}], "held": [["s1"], []],
         "think": [0, 0], "bay_points": [2, 3], "special_points": [10, 0], **ARC},
    ]  # fmt: skip
    d = summarize([GameResult.from_dict(r) for r in results], 2, ["greedy", "random"], 1.0)
    d = d.as_json()
    assert d["wins"] == [0.5, 1.5]  # entry 1 sat at seat 0 in game 1 and won it
    assert d["mean_score"] == [6.0, 10.5]
    assert d["turn_position_win_rate"] == [0.25, 0.75]  # game 1: seat 1 moved first
    assert d["stalled_games"] == 0.5
    assert d["cards"]["b1"]["plays_per_game"] == 1.0
    assert d["cards"]["s1"]["holders_win_rate"] == 1.0
    arc = d["arc"]
    assert arc["ends"] == {"round limit": 0.5, "supernova": 0.5}
    # winners: both tied seats of game 0 (6+3, 9+0) and seat 0 of game 1 (2+10)
    assert arc["points_winners"]["bays"] == (6 + 9 + 2) / 3
    assert arc["points_winners"]["specials"] == (3 + 0 + 10) / 3
    assert arc["points_all"]["bay_share"] == 20 / 33


def test_lab_reports_the_games_arc(capsys):
    """The arc of the games, in --json and in text: ends, rounds by end, Shards, points by
    source, Unloads, Disrupts and the longest runs without an Unload or a Shard in play."""
    d = _lab_json(capsys, "--players", "2", "--bots", "greedy", "--games", "4", "--workers", "1")
    arc = d["arc"]
    assert sum(arc["ends"].values()) == 1.0 and set(arc["rounds_by_end"]) == set(arc["ends"])
    assert arc["rounds"]["min"] <= arc["rounds"]["median"] <= arc["rounds"]["max"]
    assert arc["shards_entered"]["mean"] + arc["shards_in_bag"]["mean"] == 30
    assert arc["unloads"]["mean"] > 0 and arc["points_winners"]["bays"] > 0
    assert main(["--players", "2", "--bots", "greedy", "--games", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    for label in ("rounds: median", "Shards entered play", "points winners: bays / Specials",
                  "Disrupts per game", "longest run, no Shard in play"):  # fmt: skip
        assert label in out


def test_lab_compares_content_2_with_content_1(capsys):
    """Issue 9: today's content against the first one, same seeds, one command."""
    content_1 = str(Path(__file__).resolve().parent.parent / "nova/data/variants/content-1.json")
    args = ["--players", "2", "--bots", "greedy", "--games", "2", "--workers", "1", "--json"]
    assert main([*args, "--compare", content_1]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["games"] == d["compare"]["games"] == 2
    assert d["compare"]["variant"] == content_1 and "arc" in d["compare"]


# --- issue 12: a Dask cluster, sweeps, the report, the progress bar ----------------------------

SHORT = {"settings": {"max_rounds": 8}}  # short games keep these tests fast


def _game_for_game(results: list[GameResult]) -> list[GameResult]:
    """A batch's games without the wall-clock think times (the one thing a machine changes)."""
    return [r.without_think() for r in results]


@pytest.mark.slow
def test_a_dask_cluster_plays_the_same_games_as_this_machine(capsys):
    """Same seeds, same games, game for game, whether one process or two Dask workers play
    them: the batches, the lab command's report (with a variant) and the ladder's ratings.
    One cluster for the three: starting one (a scheduler and two worker processes, each
    importing the lab) costs more than their games."""
    distributed = pytest.importorskip("distributed")
    from nova.lab.runners import Batch, run_batches

    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",  # any free port: two clusters may run at once (xdist)
    ) as cluster:
        assert len(cluster.workers) == 2
        address = cluster.scheduler_address
        batches = [
            Batch(2, ("greedy", "random"), 3, None, SHORT, 5),
            Batch(3, ("random", "greedy", "random"), 2, None, None, 5),
        ]
        there, _ = run_batches(batches, scheduler=address)
        here, _ = run_batches(batches, workers=1)
        assert [len(rs) for rs in there] == [3, 2]
        for a, b in zip(there, here, strict=True):
            assert [r.g for r in a] == list(range(len(a)))
            assert _game_for_game(a) == _game_for_game(b)

        # the lab command reports what it reports locally
        args = ["--players", "2", "--bots", "random", "--games", "4", "--seed", "2",
                "--compare", VARIANT]  # fmt: skip
        lab_there = _lab_json(capsys, *args, "--scheduler", address)
        lab_here = _lab_json(capsys, *args, "--workers", "1")
        assert lab_there["scheduler"] == address
        for key in ("wins", "mean_score", "end_reasons", "arc", "cards", "turns"):
            assert lab_there[key] == lab_here[key], key
            assert lab_there["compare"][key] == lab_here["compare"][key], key

        # the ladder rates the same games
        args = ["ladder", "--bots", "greedy,random", "--games", "2", "--seed", "2"]
        ladder_there = _lab_json(capsys, *args, "--scheduler", address)
        ladder_here = _lab_json(capsys, *args, "--workers", "1")
        assert ladder_there["ratings"] == ladder_here["ratings"]
        assert ladder_there["pairs"] == ladder_here["pairs"]


def test_lab_warns_of_a_worker_with_other_nova_code():
    from nova.lab.runners import LabSetupError, check_workers, nova_fingerprint

    class Client:
        def __init__(self, answer):
            self.answer = answer

        def run(self, fn):
            if isinstance(self.answer, Exception):
                raise self.answer
            return self.answer

    same = nova_fingerprint()
    warnings = check_workers(Client({"tcp://a:1": "0123456789abcdef", "tcp://b:1": same}))
    assert len(warnings) == 1 and "tcp://a:1" in warnings[0] and "may differ" in warnings[0]
    assert check_workers(Client({"tcp://b:1": same})) == []
    assert "no workers" in check_workers(Client({}))[0]
    with pytest.raises(LabSetupError, match="cannot run nova"):
        check_workers(Client(ModuleNotFoundError("No module named 'nova'")))


def test_lab_says_when_no_scheduler_is_there(capsys):
    assert main(["--games", "2", "--scheduler", "nonsense:::"]) == 2
    assert "no Dask scheduler answered" in capsys.readouterr().err


def _sweep_json(capsys, *args: str) -> dict:
    assert main(["sweep", *args, "--json", "--workers", "1"]) == 0
    return json.loads(capsys.readouterr().out)


def test_sweep_plays_every_cell_of_the_grid_and_marks_the_best(capsys):
    from nova.lab.sweep import make_track, track_notation

    d = _sweep_json(capsys, "--players", "2,3", "--track", "12,13", "--spawns", "6",
                    "--bots", "random", "--games", "2", "--set", "settings.max_rounds=6",
                    "--aim", "rounds<=6,supernova>=0%")  # fmt: skip
    cells = d["cells"]
    assert [(c["settings"]["players"], c["settings"]["track"]) for c in cells] == [
        (2, 12), (2, 13), (3, 12), (3, 13)
    ]  # fmt: skip
    assert d["games"] == 8 and all(c["summary"]["games"] == 2 for c in cells)
    for c in cells:
        track = make_track(c["settings"]["track"], 6, 3)
        assert c["variant"]["tracks"]["two_three"] == track  # the generated track was played
        assert c["settings"]["track_spaces"] == track_notation(track)
        assert c["variant"]["settings"]["max_rounds"] == 6
        assert c["summary"]["rounds"]["mean"] <= 6  # the --set axis reached the games
        assert c["meets_aim"] and not c["missed"]
    assert d["best"] in range(4)


def test_sweep_puts_candidate_files_beside_todays_rules(capsys, tmp_path):
    d = _sweep_json(capsys, "--variants", f"default,{VARIANT}", "--bots", "random",
                    "--games", "2", "--set", "settings.max_rounds=4")  # fmt: skip
    cells = d["cells"]
    assert [c["settings"]["variant"] for c in cells] == ["default rules", "b2-unload.json"]
    b2 = json.loads(Path(VARIANT).read_text())
    assert cells[0]["variant"] == {"settings": {"max_rounds": 4}}
    assert cells[1]["variant"]["basic_deck"] == b2["basic_deck"]
    # a cell is the plain lab's batch with the same settings and seeds, game for game
    short = tmp_path / "short.json"
    short.write_text('{"settings": {"max_rounds": 4}}')
    plain = _lab_json(capsys, "--players", "2", "--bots", "random", "--games", "2",
                      "--workers", "1", "--variant", str(short))  # fmt: skip
    for key in ("wins", "mean_score", "end_reasons", "arc", "cards"):
        assert cells[0]["summary"][key] == plain[key], key


def test_sweep_text_table_has_a_row_per_cell_and_one_mark(capsys):
    args = ["sweep", "--players", "2", "--spawns", "5,6,7", "--bots", "random", "--games", "2",
            "--set", "settings.max_rounds=5", "--workers", "1"]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line[:1] in ("*", " ") and " S " in line]
    assert len(rows) == 3 and sum(row.startswith("*") for row in rows) == 1
    # random bots never reach Super-Nova in 5 rounds: the aim is missed, and said so
    assert "no cell meets the aim" in out and "no: supernova>=97%" in out


def test_sweep_judge_picks_the_cell_that_meets_the_aim_with_most_room():
    from nova.lab.sweep import judge, parse_aim

    def cell(supernova: float, rounds: float) -> dict:
        return {"end_reasons": {"supernova": supernova}, "rounds": {"mean": rounds}}

    aim = parse_aim("supernova>=97%, rounds<=20")
    cells = [cell(0.99, 25.0), cell(0.975, 19.9), cell(0.99, 16.0), cell(0.5, 10.0)]
    verdicts, best = judge(cells, aim)
    assert [v["meets_aim"] for v in verdicts] == [False, True, True, False]
    assert verdicts[0]["missed"] == ["rounds<=20"]
    assert best == 2  # meets both, with more room than cell 1
    _, best = judge([cell(0.95, 25.0), cell(0.96, 21.0)], aim)
    assert best == 1  # none meets it: the closest
    _, best = judge([cell(1.0, 16.4), cell(1.0, 15.2), cell(1.0, 15.5)], aim)
    assert best == 1  # a tie on the tightest clause goes to the most room on the others


def test_sweep_rejects_a_bad_grid_or_aim(capsys):
    from nova.lab.sweep import parse_aim

    assert main(["sweep", "--track", "6", "--spawns", "9"]) == 2
    assert "no room for 9 Spawns" in capsys.readouterr().err
    assert main(["sweep", "--aim", "happiness>=1"]) == 2
    assert "unknown figure 'happiness'" in capsys.readouterr().err
    assert main(["sweep", "--players", "5"]) == 2
    assert main(["sweep", "--set", "settings.max_rounds"]) == 2
    assert main(["sweep", "--variants", "/nonexistent.json"]) == 2
    capsys.readouterr()
    assert parse_aim("supernova>=97%")[0].value == 0.97
    for command in (["sweep"], ["bench-cluster"], []):
        with pytest.raises(SystemExit) as done:
            main([*command, "--help"])
        assert done.value.code == 0
    assert "supernova>=97%,rounds<=20" in capsys.readouterr().out


def test_generated_tracks_have_what_was_asked():
    from nova.lab.sweep import make_track

    for length in range(6, 16):
        for spawns in range(1, length - 3):
            t = make_track(length, spawns, 3)
            assert t[0] == "start" and t[-1] == "supernova" and len(t) == length + 1
            assert t.count("spawn") == spawns and t.count("expansion") == 3
            assert t[1] == "spawn"  # the first Unload brings Shards
            if spawns > 1:  # and Shards still come near the end
                assert [k for k in t if k != "expansion"][-2] == "spawn"


def test_report_writes_an_offline_page_with_its_charts(capsys, tmp_path):
    import xml.etree.ElementTree as ET

    out = tmp_path / "report"
    args = ["--players", "2", "--bots", "random", "--games", "3", "--workers", "1",
            "--compare", VARIANT, "--report", str(out)]  # fmt: skip
    assert main(args) == 0
    capsys.readouterr()
    page = (out / "index.html").read_text()
    charts = {"wins.svg", "ends.svg", "rounds.svg", "points.svg", "cards.svg", "quality.svg"}
    for name in charts:
        assert f'src="{name}"' in page
        root = ET.parse(out / name).getroot()  # a well-formed SVG drawn by matplotlib
        assert root.tag.endswith("svg") and len(list(root.iter())) > 50
    assert "http://" not in page.replace("http://www.w3.org", "") and "https://" not in page
    assert "<script" not in page
    assert "b2-unload.json" in page and "default rules" in page  # both variants side by side
    data = json.loads((out / "data.json").read_text())
    assert [c["name"] for c in data["columns"]] == ["default rules", "b2-unload.json"]
    # issue 50: the cards by name, copies pooled; the verdicts in the report's table
    assert "Hijack 1-3" in (out / "cards.svg").read_text() and "what the variant changed" in page


def test_sweep_report_shows_the_cells_side_by_side(capsys, tmp_path):
    out = tmp_path / "sweep"
    args = ["sweep", "--players", "2", "--spawns", "5,6", "--bots", "random", "--games", "2",
            "--set", "settings.max_rounds=5", "--workers", "1", "--report", str(out)]  # fmt: skip
    assert main(args) == 0
    capsys.readouterr()
    page = (out / "index.html").read_text()
    assert 'src="sweep.svg"' in page and (out / "sweep.svg").stat().st_size > 1000
    assert "spawns 5" in page and "spawns 6" in page
    assert len(json.loads((out / "data.json").read_text())["sweep"]["cells"]) == 2


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_and_quiet_under_json(capsys, monkeypatch):
    args = ["--players", "2", "--bots", "random", "--games", "3", "--workers", "1"]
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert main(args) == 0
    bar = term.getvalue()
    assert "3/3" in bar and "game/s" in bar  # games done and the rate (tqdm)
    term.seek(0)
    term.truncate()
    assert main([*args, "--json"]) == 0
    assert term.getvalue() == ""
    capsys.readouterr()
    # issue 50: without the lab's extra there is no bar, and the terminal is told why
    from nova.lab.runners import Progress

    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm fails
    Progress(3, True, "games").close()
    assert "no progress bar without tqdm" in term.getvalue()


def test_lab_modules_stay_out_of_the_page():
    """nova.zip carries the lab's core only (Dask, matplotlib, tqdm are not in the page)."""
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("build_site", root / "tools/build_site.py")
    build_site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build_site)
    shipped = {rel for rel, _ in build_site.package_files()}
    assert "nova/rules/state.py" in shipped and "nova/bots/search.py" in shipped
    for rel in ("nova/lab/cli.py", "nova/lab/runners.py", "nova/lab/sweep.py",
                "nova/lab/html_report.py", "nova/lab/text_report.py",
                "nova/lab/bench_cluster.py", "nova/lab/elo.py", "nova/lab/sprt.py",
                "nova/lab/ladder.py", "nova/lab/strength.py"):  # fmt: skip
        assert rel not in shipped
    core = {p.relative_to(root).as_posix() for p in (root / "nova/lab/core").glob("*.py")}
    assert core and core <= shipped and "nova/lab/__init__.py" in shipped
    # nor the command line or the bots' benchmarks
    for rel in ("nova/__main__.py", "nova/bots/bench.py"):
        assert rel not in shipped
    for rel, path in build_site.package_files():
        if rel.endswith(".py"):
            text = path.read_text()
            for lib in ("dask", "distributed", "matplotlib", "tqdm"):
                assert f"import {lib}" not in text and f"from {lib}" not in text, (rel, lib)


def test_lab_names_the_games_that_did_not_end_at_super_nova(capsys, tmp_path):
    """A game that reaches the round limit is rare and is the one to study: the lab says which
    games they were (``end_games``, and in text), and replaying one alone ends the same way."""
    short = tmp_path / "short.json"
    short.write_text('{"settings": {"max_rounds": 3}}')  # too short for any Super-Nova
    args = ["--players", "2", "--bots", "random", "--games", "3", "--workers", "1"]
    d = _lab_json(capsys, *args, "--variant", str(short), "--seed", "4")
    assert d["end_reasons"] == {"round limit": 1.0}
    assert d["end_games"] == {"round limit": [0, 1, 2]}
    again = play_game(GameJob(1, 2, ("random", "random"), None, str(short), 4))
    assert (again.g, again.end) == (1, "round limit")
    assert main([*args, "--variant", str(short), "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "games ending by round limit" in out and "ended at:" in out
    end = State.from_position(d["end_positions"]["round limit"], json.loads(short.read_text()))
    assert end.is_over() and end.end_reason == "round limit" and end.round == 3
    normal = _lab_json(
        capsys, "--players", "2", "--bots", "greedy", "--games", "2", "--workers", "1"
    )
    assert set(normal["end_games"]) == set(normal["end_reasons"]) - {"supernova"}


def test_lab_says_in_whose_turn_super_nova_came_and_whether_they_won(capsys):
    """R49: Super-Nova ends the game at once, in one player's turn, which the lab tallies by
    turn position with how often that player wins; the seat it names is the one whose turn
    the final state shows, and a tally without it (an older run's) derives the same seat."""
    for g in range(3):
        r = play_game(GameJob(g, 3, ("greedy",) * 3, None, None, 1))
        assert r.end == "supernova"
        old = {k: v for k, v in dataclasses.asdict(r).items() if k != "ender"}
        assert r.ender == GameResult.from_dict(old).ender
    d = _lab_json(capsys, "--players", "3", "--bots", "greedy", "--games", "6", "--workers", "1")
    by_pos = d["arc"]["supernova_by_turn_position"]
    assert len(by_pos) == 3 and abs(sum(by_pos) - 1) < 1e-9
    assert 0 <= d["arc"]["supernova_bringer_wins"] <= 1
    assert main(["--players", "3", "--bots", "greedy", "--games", "3", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "Super-Nova in turn position 3's turn" in out and "and that player wins" in out
