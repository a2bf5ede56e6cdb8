"""The lab's game-quality metrics on constructed games whose figures are known, and in a run."""

from __future__ import annotations

import json

import pytest

from nova.lab.cli import main
from nova.lab.core.game import GameJob, GameResult, play_game
from nova.lab.core.metrics import game_quality, quality_metrics
from nova.lab.core.summary import summarize

# Game A, 2 players, seat 1 wins: the lead swings three times; seat 1 is behind by 10, 4 and 6
# at turns 1, 2 and 4, and never rises above seat 0's best (5): clear only at the end.
A = [(5.0, -5.0), (2.0, -2.0), (-1.0, 1.0), (3.0, -3.0), (-4.0, 4.0)]
# Game B, 3 players, seat 2 wins: a three-way tie, then two leaders, then seat 2 alone; the
# losers' best is 1, which seat 2 passes at the third of four turns.
B = [(0.0, 0.0, 0.0), (1.0, 0.0, 1.0), (0.0, -1.0, 3.0), (-2.0, -3.0, 6.0)]


def test_lead_changes_drama_and_decisiveness_of_a_swinging_game():
    q = game_quality(A, [0.0, 1.0])
    assert q.lead_changes == 3 and q.lead_change_rate == 3 / 4
    assert q.drama == (10 + 4 + 0 + 6 + 0) / 5 and q.drama_max == 10
    assert q.winner_behind == 3 / 5
    assert q.decided_at == 1.0


def test_a_game_the_winner_led_throughout_has_no_drama_and_is_decided_early():
    q = game_quality(B, [0.0, 0.0, 1.0])
    assert q.lead_changes == 2 and q.lead_change_rate == 2 / 3  # a change of leaders' set
    assert q.drama == 0.0 and q.drama_max == 0.0 and q.winner_behind == 0.0
    assert q.decided_at == 2 / 4


def test_a_shared_win_has_no_loser_to_measure_drama_against():
    q = game_quality([(1.0, 0.0), (0.0, 1.0)], [0.5, 0.5])
    assert q.lead_changes == 1 and q.lead_change_rate == 1.0
    assert q.drama is None and q.decided_at is None


def _record(**values) -> GameResult:
    """A 2-player record with only what the metrics read set; the rest plain."""
    base = dict(g=0, first=0, ender=0, seat_entry=[0, 1], scores=[0, 0], bay_points=[0, 0],
                special_points=[0, 0], turns=10, rounds=5, decisions=50, unloads=0, disrupts=0,
                longest_gap_rounds=0.0, longest_dry_rounds=0, shards_entered=0, shards_in_bag=0,
                shards_banked=0, end="supernova", played=[{}, {}], held=[[], []],
                think=[0.0, 0.0])  # fmt: skip
    return GameResult.from_dict(base | values)


def test_a_batchs_metrics_average_its_games():
    games = [
        _record(g=0, first=0, returns=[0.0, 1.0], evaluations=A, turns=10,
                played=[{"s1": 2}, {"s1": 1, "b1": 1}]),
        _record(g=1, first=1, returns=[0.5, 0.5], evaluations=[(1.0, 0.0), (0.0, 1.0)],
                turns=20, played=[{"b1": 3}, {}]),
        # seat 0 wins from behind all game: behind by 2 both turns, never above seat 1's 3
        _record(g=2, first=1, returns=[1.0, 0.0], evaluations=[(0.0, 2.0), (1.0, 3.0)],
                turns=30, played=[{}, {"s1": 1}]),
    ]  # fmt: skip
    d = summarize(games, 2, ["greedy", "greedy"], 1.0).as_json()
    m = d["metrics"]
    assert (m["games"], m["games_evaluated"], m["games_with_a_loser"]) == (3, 3, 2)
    assert m["lead_changes"] == pytest.approx((3 + 1 + 0) / 3)
    assert m["lead_change_rate"] == pytest.approx((3 / 4 + 1 + 0) / 3)
    assert m["drama"] == pytest.approx((4 + 2) / 2) and m["drama_max"] == pytest.approx(6)
    assert m["winner_behind"] == pytest.approx((3 / 5 + 1) / 2)
    assert m["decided_at"] == 1.0
    # turn position 1 (seat 0 in game 0, seat 1 in games 1 and 2) won 0 + 0.5 + 0 of 3
    assert d["turn_position_win_rate"] == pytest.approx([0.5 / 3, 2.5 / 3])
    assert m["balance_gap"] == pytest.approx(2 / 3)
    length = m["length_turns"]
    assert (length["mean"], length["sd"], length["cv"]) == (20.0, 10.0, 0.5)
    assert (length["p10"], length["median"], length["p90"]) == (10, 20, 30)
    s1, b1 = m["cards"]["s1"], m["cards"]["b1"]
    # s1: played by both seats of game 0 (lost, won) and seat 1 of game 2 (lost): 3 of 6
    assert s1 == {"play_rate": 0.5, "plays_per_game": pytest.approx(4 / 3),
                  "win_rate_when_played_biased": pytest.approx(1 / 3)}  # fmt: skip
    assert b1["play_rate"] == pytest.approx(2 / 6)
    assert b1["win_rate_when_played_biased"] == 0.75


def test_a_game_without_a_finished_turn_counts_for_length_only():
    m = quality_metrics([_record(returns=[1.0, 0.0], evaluations=[])], 2, [1.0, 0.0])
    assert m.games == 1 and m.games_evaluated == 0 and m.lead_changes is None
    assert m.length_turns is not None and m.length_turns.median == 10


def test_a_lab_game_records_every_seats_evaluation_after_every_turn():
    r = play_game(GameJob(0, 3, ("greedy",) * 3, None, None, 1))
    # the last turn is cut short by the end (or an end of turn ended the game): no record
    assert r.turns - 1 <= len(r.evaluations) <= r.turns
    assert all(len(values) == 3 for values in r.evaluations)
    # a turn after which one seat's evaluation is not the same for all: they are per seat
    assert any(len(set(values)) > 1 for values in r.evaluations)


def test_the_metrics_are_in_the_json_and_the_text(capsys):
    args = ["--players", "2", "--bots", "greedy", "--games", "3", "--workers", "1"]
    assert main([*args, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    m = d["metrics"]
    assert m["games"] == 3 and m["games_evaluated"] == 3
    assert 0 <= m["lead_change_rate"] <= 1 and 0 <= m["decided_at"] <= 1
    assert m["drama"] >= 0 and m["drama_max"] >= m["drama"]
    played = {cid for cid, x in d["cards"].items() if x["players_win_rate"] is not None}
    assert set(m["cards"]) == played
    assert main(args) == 0
    out = capsys.readouterr().out
    for label in ("lead changes per game", "drama: winner behind by", "decided at",
                  "balance: seat win-rate gap", "turns: median",
                  "win rate when played (biased)"):  # fmt: skip
        assert label in out


def test_a_sweep_can_aim_at_the_metrics():
    from nova.lab.sweep import judge, parse_aim

    def cell(decided_at: float, gap: float) -> dict:
        return {"metrics": {"decided_at": decided_at, "balance_gap": gap}}

    aim = parse_aim("decided_at>=40%,balance_gap<=10%")
    verdicts, best = judge([cell(0.3, 0.05), cell(0.6, 0.08), cell(0.7, 0.2)], aim)
    assert [v["meets_aim"] for v in verdicts] == [False, True, False]
    assert best == 1 and verdicts[2]["missed"] == ["balance_gap<=10%"]
