"""The balance lab: its JSON, its tallies and its reproducibility."""

from __future__ import annotations

import json
from pathlib import Path

from nova.lab import main, summarize

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
    capsys.readouterr()


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
    d = summarize(results, 2, ["greedy", "random"], elapsed=1.0)
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
