"""The designer's workbench without a browser: the address that prefills it, the variant its
fields make (and nothing more), the content's validation messages, links that carry a
variant and links that are damaged, a run played through the lab worker's export equal to
the CLI's JSON, stop, and the markup's escaping."""

from __future__ import annotations

import json
import re

import pytest

from nova.lab import cli
from nova.lab.core.game import GameJob, play_game
from nova.lab.core.result import run_result, without_machine
from nova.lab.workbench import (
    MAX_LINK_VARIANT,
    VARIANT_FILE,
    LabForm,
    Workbench,
    moves_digest,
    pack_variant,
    read_query,
    unpack_variant,
)
from nova.render.workbench import workbench_html
from nova.web.controller import (
    Controller,
    LabAnswer,
    LabEdit,
    LabFinished,
    LabResults,
    LabStart,
    LabStop,
    OpenLab,
    ui_intent,
)
from nova.web.effects import ClearAddress, Download, Render, RunLab, SetAddress
from nova.web.lab_worker import play
from nova.web.saves import SaveStore


def play_all(bench: Workbench, size: int = 2) -> None:
    """Play a started run's games through the workers' export, as the page does."""
    run = bench.run
    assert run is not None
    while (request := run.request(size)) is not None:
        run.add(play(request))
    run.finish(1.0)


# -- the address -----------------------------------------------------------------------------
def test_the_address_prefills_the_form():
    form, variant, notes = read_query("?lab&players=2&games=40&bots=greedy,random&seed=7")
    assert form == LabForm(players=2, bots=("greedy", "random"), games=40, seed=7)
    assert variant == {} and notes == []
    form, _, _ = read_query("lab&players=4&bots=search")
    assert form.bots == ("search",) * 4 and form.players == 4


def test_the_address_reads_a_line_up_as_the_cli_does():
    """``search:16`` (a search bot with its budget) is a line-up the CLI takes: so does the
    address, and the form offers it for its seat."""
    from nova.lab.core.game import parse_bots
    from nova.render.workbench import _bot_options

    form, _, notes = read_query("lab&players=2&bots=search:16,greedy")
    assert notes == [] and form.bots == tuple(parse_bots("search:16,greedy", 2))
    assert ("search:16", "Search:16") in _bot_options("search:16")
    _, _, notes = read_query("lab&players=2&bots=search:many")
    assert notes == ["bots: 'search:many': a budget is a whole number, like search:200"]


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("lab&players=5", "players: 5 is not between 2 and 4"),
        ("lab&games=lots", "games: 'lots' is not a whole number"),
        ("lab&games=0", "games: 0 is not between 1"),
        ("lab&bots=greedy,greedy,greedy", "3 names for 2 players"),
        ("lab&bots=clever", "unknown bot 'clever'"),
        ("lab&variant=v1.AAAA", "damaged"),
        ("lab&variant=hello", "not one this page wrote"),
    ],
)
def test_a_bad_address_says_what_and_keeps_the_rest(query, said):
    form, variant, notes = read_query(query + "&seed=9")
    assert any(said in n for n in notes), notes
    assert form.seed == 9 and variant == {}


def test_a_variant_travels_in_a_link_and_a_bomb_does_not_open():
    variant = {"tracks": {"two_three": ["start", "spawn", "supernova"]}, "_doc": "<b>x</b>"}
    assert unpack_variant(pack_variant(variant)) == variant
    import base64
    import zlib

    bomb = base64.urlsafe_b64encode(zlib.compress(b" " * (MAX_LINK_VARIANT * 4))).decode()
    with pytest.raises(ValueError, match="damaged"):
        unpack_variant("v1." + bomb)
    not_a_dict = base64.urlsafe_b64encode(zlib.compress(b"[1, 2]")).decode()
    with pytest.raises(ValueError, match="not a variant"):
        unpack_variant("v1." + not_a_dict)


def test_the_link_opens_the_workbench_as_it_is():
    bench = Workbench(LabForm(3, ("random", "greedy", "search"), 12, 5))
    bench.edit("card:s7.colour", "y")
    again = Workbench.from_query(bench.query())
    assert again.form == bench.form and again.variant == bench.variant
    assert again.note == ""


# -- the variant -------------------------------------------------------------------------------
def test_a_field_changes_the_variant_and_changing_it_back_empties_it():
    bench = Workbench()
    assert not bench.changes()
    bench.edit("card:s10.action", "push+orbit:2-4")
    cards = {c["id"]: c for c in bench.variant["academy"]["cards"]}
    assert cards["s10"]["action"] == "push+orbit:2-4"
    assert bench.problems == [] and bench.changes()
    bench.edit("card:s10.action", "push")  # today's again
    assert bench.variant == {}
    bench.edit("setup:hand_size", "6")
    assert bench.variant == {"setup": {"players": {"2": {"hand_size": 6}}}}
    bench.edit("setup:opening_extra_cards", "0, 2")
    assert bench.variant["setup"]["players"]["2"]["opening_extra_cards"] == [0, 2]
    bench.edit("track", "start spawn spawn expansion spawn supernova")
    assert bench.variant["tracks"]["two_three"][-1] == "supernova"
    assert bench.problems == []


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("card:s5.action", "sabotage:0-9", "academy s5.action"),
        ("card:s1.colour", "q", "academy s1.colour: must be one of k, r, y"),
        ("track", "start blank nova", "unknown space kind 'nova'"),
        ("setup:hand_size", "lots", "setup.hand_size"),
    ],
)
def test_the_contents_own_validation_messages_are_shown_and_block_the_run(field, value, problem):
    c = Controller(SaveStore(None))
    c.dispatch(OpenLab("lab&games=2&bots=random"))
    c.dispatch(LabEdit(field, value))
    assert c.bench is not None
    assert any(problem in p for p in c.bench.problems), c.bench.problems
    html = c.markup()
    assert "lab-problems" in html and "cannot be played as it is" in html
    assert c.dispatch(LabStart()) == (Render(),)
    assert "variant has problems" in c.ui.message and c.bench.run is None


def test_a_pasted_file_replaces_the_variant_and_bad_text_is_kept_to_fix():
    bench = Workbench()
    bench.edit("variant", json.dumps({"setup": {"hand_size": 4}}))
    assert bench.variant == {"setup": {"hand_size": 4}} and bench.problems == []
    bench.edit("variant", "{not json")
    assert "not JSON" in bench.note
    assert bench.variant == {"setup": {"hand_size": 4}}  # kept
    assert "{not json" in workbench_html(bench)
    bench.edit("variant", json.dumps({"cards": 3}))
    assert bench.problems == ["variant: unknown section 'cards'"]


def test_markup_escapes_everything_from_a_variant():
    evil = '"><script>alert(1)</script>'
    bench = Workbench()
    bench.edit("card:s1.name", evil)
    bench.edit("variant", json.dumps(dict(bench.variant, _doc="</script><img src=x>")))
    html = workbench_html(bench)
    assert "<script>alert" not in html and "<img" not in html
    bench.run = None
    # the result's JSON cannot close its element either
    bench.form = LabForm(2, ("random", "random"), 1, 1)
    bench.start_run()
    play_all(bench)
    html = workbench_html(bench)
    body = re.search(r'id="nova-lab-result">(.*?)</script>', html, re.S)
    assert body and "</" not in body.group(1)
    assert json.loads(body.group(1)) == bench.run.result.as_json()


# -- a run -------------------------------------------------------------------------------------
def test_a_run_equals_the_clis_json_for_the_same_games(tmp_path, capsys):
    c = Controller(SaveStore(None))
    c.dispatch(OpenLab("lab&players=2&games=3&bots=greedy,random&seed=3"))
    c.dispatch(LabEdit("card:s3.colour", "r"))
    assert c.dispatch(LabStart()) == (Render(), RunLab())
    bench = c.bench
    assert bench is not None and bench.run is not None
    run = bench.run
    while (request := run.request(3)) is not None:
        c.dispatch(LabAnswer(play(request)))
    c.dispatch(LabFinished(2.0, 2))
    assert c.body_attributes()["data-nova-lab-done"] == "done"
    assert c.body_attributes()["data-nova-lab-games"] == "6/6"
    path = tmp_path / VARIANT_FILE
    path.write_text(bench.variant_json())
    assert cli.main(["--players", "2", "--bots", "greedy,random", "--games", "3", "--seed", "3",
                     "--compare", str(path), "--json", "--workers", "1"]) == 0  # fmt: skip
    expected = json.loads(capsys.readouterr().out)
    expected["compare"]["variant"] = VARIANT_FILE
    assert run.result is not None
    assert without_machine(run.result.as_json()) == without_machine(expected)
    assert run.result.workers == 2
    # issue 50: the verdicts and the cards by name in the page, the results to download
    html = workbench_html(bench)
    assert "What the variant changed" in html and "game length, rounds" in html
    assert "Hijack 1-3 (×3)" in html and ">s11<" not in html.split("Results")[-1]
    (got,) = c.dispatch(LabResults("json"))
    assert isinstance(got, Download) and json.loads(got.text) == run.result.as_json()
    (got,) = c.dispatch(LabResults("csv"))
    assert isinstance(got, Download) and got.name.endswith(".csv")
    assert got.text.splitlines()[0].startswith("figure,default,variant,diff,ci95_low")
    assert any(line.startswith("rounds,") for line in got.text.splitlines())
    # today's rules alone: a single batch, no comparison
    c.dispatch(LabEdit("card:s3.colour", "k"))
    c.dispatch(LabStart())
    assert bench.run is not None and len(bench.run.variants) == 1


def test_the_records_are_the_same_games_move_for_move():
    bench = Workbench(LabForm(2, ("greedy", "random"), 3, 8))
    bench.start_run()
    play_all(bench, size=1)
    assert bench.run is not None
    here = [play_game(GameJob(g, 2, ("greedy", "random"), None, None, 8)) for g in range(3)]
    assert bench.run.moves() == moves_digest([[r.moves_sha1 for r in here]])
    assert [bench.run.records[0][g].without_think() for g in range(3)] == [
        r.without_think() for r in here
    ]


def test_stop_keeps_the_games_played_on_every_side():
    bench = Workbench(LabForm(2, ("random", "random"), 50, 2))
    bench.edit("setup:hand_size", "6")
    run = bench.start_run()
    assert run is not None
    # games go out game by game across the two sides: what was played pairs up
    for _ in range(3):
        request = run.request(2)
        assert request is not None
        assert [b for b, _ in json.loads(request)["jobs"]] == [0, 1]
        run.add(play(request))
    run.request(1)  # one side of game 3 is out when the stop comes: it does not count
    run.stop()
    assert run.request(1) is None
    run.finish(1.0)
    assert run.status == "stopped" and run.result is not None
    assert run.result.base.games == 3 and run.result.compare.games == 3


def test_a_worker_that_fails_says_why_and_the_run_stops():
    answer = play(json.dumps({"players": 2, "bots": ["greedy", "greedy"], "seed": 1,
                              "variants": [{"setup": "oops"}], "jobs": [[0, 0]]}))  # fmt: skip
    assert "error" in json.loads(answer)
    bench = Workbench(LabForm(2, ("random", "random"), 2, 1))
    run = bench.start_run()
    assert run is not None
    run.add(answer)
    assert run.status == "stopped" and "ContentError" in run.error
    assert run.request(1) is None


def test_the_menu_and_the_address_open_the_workbench():
    c = Controller(SaveStore(None))
    # the address follows the workbench (a reload keeps it) and is dropped on leaving it
    effects = c.start("", "?lab&games=3")
    assert c.ui.name == "lab" and c.bench is not None and c.bench.form.games == 3
    assert effects == (Render(), SetAddress(c.bench.query())) and "games=3" in c.bench.query()
    assert c.dispatch(LabEdit("games", "9")) == (Render(), SetAddress(c.bench.query()))
    assert "games=9" in c.bench.query()
    assert c.dispatch(ui_intent("menu")) == (Render(), ClearAddress())  # type: ignore[arg-type]
    assert c.ui.name == "new" and 'data-ui="lab"' in c.markup()
    c.dispatch(ui_intent("lab"))  # type: ignore[arg-type]
    assert c.ui.name == "lab" and c.bench.form.games == 9  # as it was left
    embedded = Controller(SaveStore(None), embed=True)
    embedded.start()
    assert 'data-ui="lab"' not in embedded.markup()  # not on the publisher's page


def test_run_json_matches_the_summary_of_each_side():
    records = [play_game(GameJob(g, 2, ("random", "random"), None, None, 4)) for g in range(3)]
    result = run_result([records, records], [None, "x.json"], 2, ["random", "random"], 4, None,
                        3.0, 1).as_json()  # fmt: skip
    assert result["games"] == 3 and result["compare"]["variant"] == "x.json"
    assert without_machine(result)["compare"] == {
        k: v for k, v in without_machine(result).items() if k not in ("compare", "seed",
                                                                        "budget", "variant",
                                                                        "differences", "detect",
                                                                        "alpha")
    } | {"variant": "x.json"}  # fmt: skip
    # the same games on both sides: nothing changed, figure by figure
    assert result["differences"] and all(
        d["diff"] == 0 and d["verdict"] == "no change found" for d in result["differences"]
    )


def test_a_stopped_runs_stop_intent_is_ignored_without_a_run():
    c = Controller(SaveStore(None))
    c.dispatch(OpenLab())
    assert c.dispatch(LabStop()) == (Render(),)
    assert c.body_attributes()["data-nova-lab-done"] is None


def test_each_card_reads_as_the_engine_reads_it():
    bench = Workbench()
    bench.edit("card:s10.action", "push+orbit:2-4")
    bench.edit("card:s11.action", "hijack:7")
    html = workbench_html(bench)
    row = re.search(r'data-lab="card:s10.alternate".*?lab-reads">([^<]*)<', html, re.S)
    assert row and row.group(1) == "Push + Orbit 2-4; sideways: Jump-Push"
    row = re.search(r'data-lab="card:s11.alternate".*?lab-reads">([^<]*)<', html, re.S)
    assert row and row.group(1).startswith("?")  # the problems list says why
    assert any("s11.action" in p for p in bench.problems)


def test_a_run_gets_a_worker_per_core_within_memory_and_games():
    from nova.lab.workbench import MAX_WORKERS, worker_count

    assert worker_count(2, None, 80) == 2
    assert worker_count(16, None, 80) == MAX_WORKERS
    assert worker_count(8, 2, 80) == 2  # a phone that says it has 2 GB
    assert worker_count(4, None, 3) == 3
    assert worker_count(0, 0.5, 10) == 1


def test_a_game_shared_from_the_workbenchs_address_opens_the_game():
    from nova.web.share import full_page_address

    here = "https://x.example/nova/?lab&players=3&games=40&bots=greedy&seed=7&variant=v1.x"
    assert full_page_address(here) == "https://x.example/nova/"
    assert full_page_address("https://x.example/?seed=3") == "https://x.example/?seed=3"
