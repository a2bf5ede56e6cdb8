"""The strength instruments: paired games, the ratings' fit and intervals, the sequential test,
``lab ladder`` and ``lab sprt`` (docs/BOTS.md, "Measuring strength")."""

from __future__ import annotations

import json
import random

import pytest

from nova.bots import make_bot
from nova.lab.cli import main
from nova.lab.core import game as game_module
from nova.lab.core.game import Batch, GameJob, game_seed, play_game
from nova.lab.elo import (
    Tally,
    bootstrap_intervals,
    bootstrap_share,
    elo_of_score,
    expected_score,
    fit_elo,
)
from nova.lab.ladder import LadderGame, ladder_pairs, read_games, whole_deals
from nova.lab.sprt import Sprt, bounds, elo_estimate, llr, pair_cell


def _synthetic_deals(true: list[float], deals: int, seed: int) -> list[list[Tally]]:
    """Every pair plays both games of each deal, each game won with the model's chance."""
    rng = random.Random(seed)
    out = []
    for _ in range(deals):
        tallies = []
        for a in range(len(true)):
            for b in range(a + 1, len(true)):
                p = expected_score(true[a] - true[b])
                tallies.append(Tally(a, b, 2.0, sum(rng.random() < p for _ in range(2))))
        out.append(tallies)
    return out


def test_the_fit_recovers_known_ratings_and_its_intervals_cover_them():
    true = [0.0, 120.0, 300.0, -200.0]  # player 0 is the anchor
    deals = _synthetic_deals(true, 500, seed=3)
    elo = fit_elo(4, [t for d in deals for t in d], anchor=0)
    ci = bootstrap_intervals(4, deals, anchor=0, resamples=300)
    assert elo[0] == 0.0 and ci[0] == (0.0, 0.0)
    for i in range(1, 4):
        assert abs(elo[i] - true[i]) < 40, (i, elo[i])
        low, high = ci[i]
        assert low < elo[i] < high
        assert low <= true[i] <= high, (i, true[i], ci[i])
        assert high - low < 100  # 1,000 games a player: an interval of tens of Elo


def test_the_fit_of_an_even_match_is_even_and_any_player_can_be_the_anchor():
    tallies = [Tally(0, 1, 100, 50), Tally(1, 2, 100, 75)]
    by0, by1 = fit_elo(3, tallies, anchor=0), fit_elo(3, tallies, anchor=1)
    assert by0[0] == 0.0 and by1[1] == 0.0
    assert by0[1] == pytest.approx(0.0, abs=1e-6)
    # the prior's two virtual draws pull 75% (about +191) a little towards even
    assert 170 < by0[1] - by0[2] < elo_of_score(0.75)
    assert [x - by0[1] for x in by0] == pytest.approx(by1, abs=1e-6)


def test_a_clean_sweep_stays_finite():
    elo = fit_elo(2, [Tally(0, 1, 200, 200)], anchor=1)
    assert 500 < elo[0] < 1500
    deals = [[Tally(0, 1, 2, 2)]] * 50
    low, high = bootstrap_intervals(2, deals, anchor=1, resamples=50)[0]
    assert 0 < low <= high < 1500


def test_players_with_no_games_to_the_anchor_are_named():
    with pytest.raises(ValueError, match=r"players \[2\]"):
        fit_elo(3, [Tally(0, 1, 10, 5)], anchor=0)


def test_a_share_and_its_interval_by_deals():
    share, low, high = bootstrap_share([(1.0, 4.0), (2.0, 4.0)] * 40, resamples=200)
    assert share == pytest.approx(3 / 8)
    assert low < share < high and high - low < 0.15


def test_sprt_bounds_at_five_percent_are_2_944():
    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)


def _run_sprt(elo: float, elo0: float, elo1: float, seed: int) -> Sprt:
    rng = random.Random(seed)
    test = Sprt(elo0, elo1)
    p = expected_score(elo)
    for _ in range(20_000):
        if test.add(sum(rng.random() < p for _ in range(2))) != "none":
            break
    return test


def test_sprt_accepts_h1_for_a_clearly_stronger_side_and_h0_for_equals():
    for seed in range(5):
        strong = _run_sprt(250.0, 0.0, 100.0, seed)
        assert strong.result == "H1", seed
        assert strong.llr >= strong.bounds[1]
        even = _run_sprt(0.0, 0.0, 50.0, seed)
        assert even.result == "H0", seed
        assert even.llr <= even.bounds[0]


def test_sprt_llr_agrees_with_the_normal_approximation_on_ordinary_counts():
    counts = [10, 30, 50, 35, 15]
    xs = (0, 0.25, 0.5, 0.75, 1)
    n = sum(counts)
    mu = sum(c * x for c, x in zip(counts, xs, strict=True)) / n
    var = sum(c * (x - mu) ** 2 for c, x in zip(counts, xs, strict=True)) / n
    s0, s1 = expected_score(0), expected_score(20)
    normal = n * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var)
    assert llr(counts, 0, 20) == pytest.approx(normal, rel=0.02)
    assert llr([0] * 5, 0, 20) == 0.0


def test_sprt_does_not_decide_on_one_pair_and_stops_taking_pairs_once_decided():
    test = Sprt(0, 100)
    assert test.add(2) == "none"  # one clean pair is not evidence enough
    while test.result == "none":
        test.add(2)
    assert test.result == "H1" and 5 < test.pairs < 30
    with pytest.raises(ValueError):
        test.add(1)
    with pytest.raises(ValueError):
        pair_cell(0.7)
    elo, low, high = elo_estimate([2, 5, 10, 5, 2])
    assert elo == pytest.approx(0, abs=1e-9) and low < 0 < high


def test_paired_games_share_the_deal_and_swap_the_seats():
    # two different bots: the same seed (the same first seat), the entries swapped
    a, b = (play_game(GameJob(g, 2, ("greedy", "random"), None, None, 5, paired=True))
            for g in (0, 1))  # fmt: skip
    assert a.seat_entry == [0, 1] and b.seat_entry == [1, 0]
    assert a.first == b.first
    # the same deterministic bot in both seats: the two games are one game, move for move
    c, d = (play_game(GameJob(g, 2, ("greedy", "greedy"), None, None, 5, paired=True))
            for g in (0, 1))  # fmt: skip
    assert c.moves_sha1 == d.moves_sha1
    assert c.returns == d.returns  # the seat that won it won it twice: one win each entry
    # unpaired, game 1 has a seed of its own (today's lab, unchanged)
    e = play_game(GameJob(1, 2, ("greedy", "greedy"), None, None, 5))
    assert e.moves_sha1 != c.moves_sha1
    assert GameJob(1, 2, ("greedy",) * 2, None, None, 5).engine_seed() == game_seed(5, 1)
    assert GameJob(7, 3, ("greedy",) * 3, None, None, 5, True).engine_seed() == game_seed(5, 2)
    assert [j.g for _, j in Batch(2, ("greedy",) * 2, 4, None, None, 5, True, 6).jobs(0)] == [
        6, 7, 8, 9]  # fmt: skip
    # every decision is counted against its seat
    assert sum(a.seat_decisions) == a.decisions


def test_a_peeking_bot_is_shown_the_true_state_before_each_decision(monkeypatch):
    seen = []

    class Peeker:
        peeks = True

        def __init__(self):
            self.bot = make_bot("random")
            self.state = None

        def see(self, state):
            self.state = state

        def choose(self, view, seed):
            assert self.state is not None and self.state.view(self.state.current_player) == view
            seen.append(self.state.ply)
            self.state = None  # shown again before the next decision
            return self.bot.choose(view, seed)

    def fake_make_bot(name, budget=None):
        return Peeker() if name == "peeker" else make_bot(name, budget)

    monkeypatch.setattr(game_module, "make_bot", fake_make_bot)
    r = game_module.play_game(GameJob(0, 2, ("peeker", "greedy"), None, None, 1, True))
    assert len(seen) == r.seat_decisions[r.seat_entry.index(0)] > 0


def test_ladder_pairs_round_robin_or_neighbours_and_the_anchor():
    assert ladder_pairs(4, 1, "all") == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert ladder_pairs(5, 1, "adjacent") == [(0, 1), (1, 2), (1, 3), (1, 4), (2, 3), (3, 4)]
    assert whole_deals(5, 2) == 6 and whole_deals(6, 3) == 6 and whole_deals(1, 4) == 4


def _cli_json(capsys, *args: str) -> dict:
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_ladder_json_has_the_promised_keys_and_a_refit_gives_the_same_ratings(capsys, tmp_path):
    kept = tmp_path / "ladder.jsonl"
    run = _cli_json(capsys, "ladder", "--bots", "random,greedy", "--games", "2",
                    "--workers", "1", "--seed", "3", "--out", str(kept))  # fmt: skip
    assert {"ratings", "games", "pairs", "players", "seed", "elapsed_s",
            "think_ms_per_decision"} <= set(run)  # fmt: skip
    assert set(run["ratings"]) == {"random", "greedy"}
    for rating in run["ratings"].values():
        assert {"elo", "ci95", "games", "score"} <= set(rating)
        assert rating["ci95"][0] <= rating["elo"] <= rating["ci95"][1]
    assert run["ratings"]["greedy"]["elo"] == 0.0
    assert run["games"] == 2 and run["players"] == 2 and run["seed"] == 3
    (pair,) = run["pairs"]
    assert pair["w"] + pair["d"] + pair["l"] == 2
    assert set(run["think_ms_per_decision"]) == {"random", "greedy"}
    games, repeats = read_games([str(kept)])
    assert len(games) == 2 and repeats == 0
    assert {g.rotation for g in games} == {0, 1} and {g.deal for g in games} == {0}
    refit = _cli_json(capsys, "ladder", "--refit", str(kept))
    assert refit["ratings"] == run["ratings"] and refit["pairs"] == run["pairs"]
    # the same file twice, and a line cut short by an interrupted run: the same games
    with kept.open("a") as fh:
        fh.write(games[0].line()[:30])
    again = _cli_json(capsys, "ladder", "--refit", str(kept), str(kept))
    assert again["ratings"] == run["ratings"]


def test_ladder_at_three_players_reports_win_shares_against_the_field(capsys, tmp_path):
    out = _cli_json(capsys, "ladder", "--players", "3", "--bots", "random,greedy",
                    "--field", "greedy", "--games", "3", "--workers", "1",
                    "--report", str(tmp_path))  # fmt: skip
    assert out["players"] == 3 and out["field"] == "greedy" and out["games"] == 3
    share = out["shares"]["random"]  # the field itself is parity by construction: not played
    assert set(out["shares"]) == {"random"}
    assert share["parity"] == pytest.approx(1 / 3)
    assert 0 <= share["ci95"][0] <= share["share"] <= share["ci95"][1] <= 1
    assert (tmp_path / "ladder.png").read_bytes()[:4] == b"\x89PNG"


def test_ladder_text_table_and_bad_arguments(capsys):
    assert main(["ladder", "--bots", "greedy,random", "--games", "1", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "rung" in out and "95% interval" in out and "random vs greedy" not in out
    assert "greedy vs random" in out
    assert main(["ladder", "--bots", "greedy,alphago"]) == 2
    assert main(["ladder", "--bots", "random,search:16", "--anchor", "greedy"]) == 2
    assert main(["ladder", "--bots", "greedy,greedy"]) == 2
    assert main(["ladder", "--refit", "/nonexistent.jsonl"]) == 2
    assert main(["sprt", "--bots", "greedy", "--elo0", "0", "--elo1", "5"]) == 2
    assert main(["sprt", "--bots", "greedy,random", "--elo0", "5", "--elo1", "0"]) == 2


def test_sprt_json_has_the_promised_keys(capsys, tmp_path):
    kept = tmp_path / "sprt.jsonl"
    out = _cli_json(capsys, "sprt", "--bots", "greedy,random", "--elo0", "0", "--elo1", "100",
                    "--max-games", "2", "--workers", "1", "--out", str(kept))  # fmt: skip
    assert {"llr", "lower", "upper", "games", "result", "wins", "draws", "losses",
            "pentanomial", "elo", "elo_ci95"} <= set(out)  # fmt: skip
    assert out["games"] == 2 and out["result"] == "none"
    assert out["lower"] == pytest.approx(-2.944, abs=1e-3)
    assert out["wins"] + out["draws"] + out["losses"] == 2 and sum(out["pentanomial"]) == 1
    assert len(read_games([str(kept)])[0]) == 2


def test_sprt_verdict_and_game_count_do_not_depend_on_the_batch_or_the_cores(capsys):
    # greedy against itself, paired: each deal's two games are one game with the seats
    # swapped, so every pair is 1-1 and the test accepts H0 after the same pairs however
    # the pairs were batched
    args = ["sprt", "--bots", "greedy,greedy", "--elo0", "0", "--elo1", "200"]
    one = _cli_json(capsys, *args, "--batch", "1", "--workers", "1")
    three = _cli_json(capsys, *args, "--batch", "3", "--workers", "2")
    assert one["result"] == three["result"] == "H0"
    assert one["games"] == three["games"] == 10
    assert one["pentanomial"] == three["pentanomial"] == [0, 0, 5, 0, 0]


def test_a_kept_game_reads_back_as_it_was_written():
    r = play_game(GameJob(1, 2, ("greedy", "random"), None, None, 2, True))
    game = LadderGame.of(Batch(2, ("greedy", "random"), 2, None, None, 2, True), r)
    assert LadderGame.from_json(json.loads(game.line())) == game
    assert (game.deal, game.rotation) == (0, 1)
    assert game.points(0) == r.returns[r.seat_entry.index(0)]
