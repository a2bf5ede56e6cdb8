"""Issue 50: a variant as a game a playtester opens (``nova link --variant``, the workbench's
link), the page saying it plays a variant; and the workbench's and the CLI's frictions."""

from __future__ import annotations

import json
from pathlib import Path

from nova.__main__ import main as nova_main
from nova.lab.workbench import Workbench
from nova.links import decode
from nova.render.workbench import workbench_html
from nova.rules import layout_for
from nova.rules.position import variant_tag
from nova.web.controller import Controller
from nova.web.saves import SaveStore
from nova_tools.links import main as link_main

SHORT = Path(__file__).resolve().parent.parent / "nova/data/variants/short-track-2-3.json"


def _opened(fragment: str) -> Controller:
    c = Controller(SaveStore(None))
    c.start(fragment=fragment)
    return c


def test_a_variant_link_opens_a_new_game_under_it_and_the_page_says_so(capsys, tmp_path):
    assert link_main(["--variant", str(SHORT), "--players", "3", "--seed", "7"]) == 0
    fragment = capsys.readouterr().out.strip()
    record = decode(fragment.lstrip("#"))
    variant = json.loads(SHORT.read_text())
    assert record.variant == variant and record.players == 3 and record.moves == []
    assert record.bots == ["", "pilot", "pilot"]  # the playtester, against two Pilots
    c = _opened(fragment.lstrip("#"))
    tag = variant_tag(variant)
    assert c.body_attributes()["data-nova-variant"] == tag
    assert f"Variant {tag}: not today" in c.markup()
    # the game's track is the variant's, not today's
    assert c.ui.session is not None
    track = c.ui.session.state.layout.track
    assert track == layout_for(3, variant).track != layout_for(3).track
    # a named variant is shown by its name; a game of today's rules carries no attribute
    named = {**variant, "_name": "Short track <b>"}
    path = tmp_path / "named.json"
    path.write_text(json.dumps(named))
    assert link_main(["--variant", str(path), "--players", "2", "--seats", ""]) == 0
    c = _opened(capsys.readouterr().out.strip().lstrip("#"))
    assert c.body_attributes()["data-nova-variant"] == "Short track <b>"
    assert "Short track &lt;b&gt;" in c.markup() and "Short track <b>" not in c.markup()
    assert link_main(["--players", "2", "--moves", "3"]) == 0
    c = _opened(capsys.readouterr().out.strip().lstrip("#"))
    assert c.body_attributes()["data-nova-variant"] is None


def test_a_bad_variant_file_gets_no_link_and_says_why(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tracks": {"two_three": ["start", "supernova", "blank"]}}')
    assert link_main(["--variant", str(bad)]) == 2
    err = capsys.readouterr()
    assert err.out == "" and "two_three" in err.err
    assert link_main(["--variant", str(tmp_path / "none.json")]) == 2
    assert "none.json" in capsys.readouterr().err


def test_the_workbench_offers_the_same_playable_link():
    bench = Workbench.from_query("lab&players=2&bots=greedy,novice&seed=5")
    assert bench.play_link() == ""  # today's rules: nothing to hand over
    bench.edit("card:s11.action", "hijack")  # without its getaway orbit
    fragment = bench.play_link()
    record = decode(fragment.lstrip("#"))
    assert record.variant == bench.variant and record.seed == 5
    assert record.bots == ["", "pilot"]  # the novice is the lab's alone: a Pilot instead
    html = workbench_html(bench, page_url="https://example.org/nova/")
    assert f'data-nova-play-link value="https://example.org/nova/{fragment}"' in html


def test_a_broken_paste_blocks_the_run_and_is_said_beside_the_box():
    bench = Workbench()
    bench.edit("variant", '{"tracks": ')
    assert "cannot be read" in bench.why_not_run()
    html = workbench_html(bench)
    said = html.index("the pasted variant is not JSON")
    assert said > html.index('data-lab="track"')  # beside the text box, not at the top
    assert html.count("the pasted variant is not JSON") == 1
    assert 'data-ui="lab-run" class="primary" aria-disabled="true"' in html
    assert bench.play_link() == ""


def test_a_pasted_file_without_the_ocr_notes_changes_no_card():
    bench = Workbench()
    cards = bench.data()["academy"]["cards"]
    plain = [{k: v for k, v in c.items() if k != "ocr"} for c in cards]
    plain[10] = {**plain[10], "action": "hijack"}  # s11, a real change
    bench.edit("variant", json.dumps({"academy": {"cards": plain}}))
    html = workbench_html(bench)
    assert html.count('class="lab-mark">changed<') == 1


def test_validate_is_listed_and_says_a_file_problem_once(capsys, tmp_path):
    assert nova_main(["--help"]) == 0
    assert "validate" in capsys.readouterr().out
    assert nova_main(["validate", str(tmp_path / "none.json")]) == 1
    err = capsys.readouterr().err
    assert err.count("none.json") == 1
    bad = tmp_path / "bad.json"
    bad.write_text('{"academy": {"cards": [{"id": "s1", "colour": "q", "action": "disrupt"}]}}')
    assert nova_main(["validate", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.count("colour") == 1  # a card's problem is the same at 2, 3 and 4 players
