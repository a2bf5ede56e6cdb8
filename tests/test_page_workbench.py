"""The designer's workbench in a real browser: the address prefills it, a card changed in its
form, the number of games changed to GAMES a side, played in web workers, and the result
equal to what ``python -m nova lab --compare VARIANT --json`` prints for the same games; a
game of all three bots the same move for move; a broken variant says what is wrong and plays
nothing; stop; a saved link opens the workbench with its variant."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from axe_helpers import WIDTHS
from axe_helpers import clean_at_both_widths as clean
from conftest import wait_ready

from nova.lab.core.game import GameJob, play_game
from nova.lab.core.result import without_machine
from nova.lab.workbench import moves_digest
from nova.rules.position import variant_tag

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "docs" / "screenshots"
QUERY = "?lab&players=2&games=40&bots=greedy,greedy&seed=7"
GAMES = 3  # a side: what the test shows does not need the address's 40


def open_workbench(page, server_url: str, query: str = QUERY) -> None:
    page.goto(server_url + "index.html" + query)
    wait_ready(page)
    page.wait_for_selector('body[data-nova-screen="lab"]')


def edit(page, name: str, value: str) -> None:
    """Change a field as a person does (the page reads it on ``change``), and wait for the
    workbench to be drawn again."""
    field = page.locator(f'[data-lab="{name}"]')
    before = page.locator("#app").inner_html()
    if field.evaluate("e => e.tagName") == "SELECT":
        field.select_option(value)
    else:
        field.fill(value)
        field.dispatch_event("change")
    page.wait_for_function("(b) => document.querySelector('#app').innerHTML !== b", arg=before)


def run_and_wait(page, timeout: float = 600_000) -> dict:
    page.locator('[data-ui="lab-run"]').click()
    page.wait_for_selector("body[data-nova-lab-done]", timeout=timeout)
    return json.loads(page.locator("#nova-lab-result").text_content())


def cli_json(tmp_path: Path, variant: dict, games: int, seed: int, bots: str) -> dict:
    path = tmp_path / "workbench-variant.json"
    path.write_text(json.dumps(variant))
    out = subprocess.run(
        [sys.executable, "-m", "nova", "lab", "--players", "2", "--bots", bots,
         "--games", str(games), "--seed", str(seed), "--compare", str(path), "--json"],
        check=True, capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    result = json.loads(out.stdout)
    result["compare"]["variant"] = "workbench-variant.json"  # the file's name, not its path
    return result


@pytest.mark.slow
@pytest.mark.first_visit  # the workers boot as the page did, lean
def test_a_changed_card_played_in_workers_equals_the_cli(page, server_url, tmp_path):
    said: list[str] = []
    page.on("console", lambda msg: said.append(msg.text))
    sent: list[str] = []  # every request of the page and its workers that is not a GET
    page.context.on("request", lambda r: sent.append(r.url) if r.method != "GET" else None)
    open_workbench(page, server_url)
    # the address prefilled the form
    assert page.locator('[data-lab="players"]').input_value() == "2"
    assert page.locator('[data-lab="games"]').input_value() == "40"
    assert page.locator('[data-lab="seed"]').input_value() == "7"
    assert page.locator('[data-lab="bot:1"]').input_value() == "greedy"
    # Ram's second step orbits 2-4 instead of 1-2, and a Re-order turns red
    edit(page, "card:s3.colour", "r")
    edit(page, "card:s10.action", "push+orbit:2-4")
    assert "Your variant changes today's rules" in page.locator(".lab-state").inner_text()
    variant = json.loads(page.locator('[data-lab="variant"]').input_value())
    cards = {c["id"]: c for c in variant["academy"]["cards"]}
    assert cards["s3"]["colour"] == "r" and cards["s10"]["action"] == "push+orbit:2-4"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "workbench-variant.png"))
    edit(page, "games", str(GAMES))
    assert page.locator('[data-ui="lab-run"]').inner_text() == f"Play {2 * GAMES} games"

    result = run_and_wait(page)
    assert page.locator("body").get_attribute("data-nova-lab-done") == "done"
    workers = int(page.locator("body").get_attribute("data-nova-lab-workers"))
    assert workers >= 1  # played in web workers, not on the page
    assert result["workers"] == workers
    # each worker booted as the page did: the lean boot (nobody asked for the snapshot)
    booted = [t for t in said if t.startswith("nova: snapshot ")]
    assert booted == ["nova: snapshot none: lean visit, not cached yet"] * (1 + workers), said
    assert page.locator("body").get_attribute("data-nova-lab-games") == f"{2 * GAMES}/{2 * GAMES}"
    # the charts are drawn, as SVG, beside today's rules
    assert page.locator(".lab-results svg").count() >= 3
    assert page.locator(".lab-table:not(.lab-differences)").first.locator(
        "thead th"
    ).all_inner_texts()[1:] == ["Today's rules", "Your variant"]
    # issue 50: what the variant changed, figure by figure, with its verdict
    verdicts = page.locator(".lab-differences tbody td:last-child").all_inner_texts()
    assert len(verdicts) >= 3 and all(v.startswith(("changed", "no change")) for v in verdicts)
    page.locator(".lab-results").scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "workbench-results.png"), full_page=True)

    expected = cli_json(tmp_path, variant, GAMES, 7, "greedy,greedy")
    assert without_machine(result) == without_machine(expected)
    # nothing was sent anywhere: no request left the machine, none carried anything
    assert page.nova.external == [] and sent == []


@pytest.mark.slow
def test_a_worker_plays_the_same_game_as_cpython_move_for_move(page, server_url):
    """Every bot, the search bot with a budget of its own (what the line-up's search:4
    says: the same search in fewer simulations than the default's; at 16 the game cost the
    suite 17 CPU-s, most of it the search's)."""
    open_workbench(page, server_url, "?lab&players=3&games=1&bots=greedy,random,search:4&seed=11")
    run_and_wait(page)
    played = page.locator("body").get_attribute("data-nova-lab-moves")
    here = [play_game(GameJob(0, 3, ("greedy", "random", "search:4"), None, None, 11)).moves_sha1]
    assert played == moves_digest([here])


def test_a_broken_variant_says_why_and_plays_nothing(page, server_url):
    open_workbench(page, server_url, "?lab&players=2&games=2&bots=random&seed=1")
    edit(page, "card:s5.action", "sabotage:0-9")
    problems = page.locator(".lab-problems").inner_text()
    assert "academy s5.action" in problems
    page.locator('[data-ui="lab-run"]').click(force=True)  # marked disabled: it says why
    assert "variant has problems" in page.locator(".alert").first.inner_text()
    assert not page.locator("body[data-nova-lab-games]").count()
    # pasting text that is not JSON keeps the variant and says so beside the box; no Play
    edit(page, "variant", "{not json")
    assert "not JSON" in page.locator(".lab-variant .alert").inner_text()
    assert page.locator('[data-ui="lab-run"]').get_attribute("aria-disabled") == "true"
    edit(page, "card:s5.action", "sabotage")
    assert not page.locator(".lab-problems").count()


def test_a_link_opens_the_workbench_with_its_variant_and_a_bad_one_says_so(page, server_url):
    open_workbench(page, server_url, "?lab&players=3&games=5&bots=random&seed=3")
    edit(page, "track", "start spawn spawn expansion spawn blank expansion spawn supernova")
    link = page.locator("[data-nova-lab-link]").input_value()
    assert "variant=v1." in link
    # the address follows the workbench: a reload opens it as it is
    assert page.url.endswith(link.partition("?")[2])
    page.reload()
    wait_ready(page)
    page.wait_for_selector('body[data-nova-screen="lab"]')
    assert page.locator('[data-lab="track"]').input_value().startswith("start spawn spawn exp")
    # the variant saved as a file is the variant the workbench shows
    with page.expect_download() as download:
        page.locator('[data-ui="lab-save"]').click()
    saved = json.loads(Path(download.value.path()).read_text())
    assert saved == json.loads(page.locator('[data-lab="variant"]').input_value())
    assert download.value.suggested_filename == "workbench-variant.json"
    assert saved["tracks"]["two_three"][1:3] == ["spawn", "spawn"]
    # issue 50: the link to play the variant opens a new game under it, and says so
    play = page.locator("[data-nova-play-link]").input_value()
    page.goto(play)
    wait_ready(page)
    page.wait_for_selector("body[data-nova-variant]")
    assert page.locator("body").get_attribute("data-nova-variant") == variant_tag(saved)
    assert "not today's rules" in page.locator("#app").inner_text()
    page.goto(link)
    wait_ready(page)
    page.wait_for_selector('body[data-nova-screen="lab"]')
    assert page.locator('[data-lab="players"]').input_value() == "3"
    assert page.locator('[data-lab="track"]').input_value().startswith("start spawn spawn exp")
    # a cut link: the workbench opens with today's rules and says the variant was damaged
    page.goto(link[:-12])
    wait_ready(page)
    page.wait_for_selector('body[data-nova-screen="lab"]')
    assert "damaged" in page.locator(".alert").first.inner_text()
    assert "Today's rules" in page.locator(".lab-state").inner_text()


def test_stop_ends_the_run_with_the_games_played(page, server_url):
    open_workbench(page, server_url, "?lab&players=2&games=300&bots=random&seed=5")
    page.locator('[data-ui="lab-run"]').click()
    page.wait_for_function(
        "() => { const g = document.body.getAttribute('data-nova-lab-games');"
        " return g && parseInt(g) >= 4; }",
        timeout=180_000,
    )
    page.locator('[data-ui="lab-stop"]').click()
    page.wait_for_selector('body[data-nova-lab-done="stopped"]', timeout=60_000)
    result = json.loads(page.locator("#nova-lab-result").text_content())
    assert 4 <= result["games"] < 300
    assert "Stopped after" in page.locator(".lab-progress").inner_text()


def test_axe_finds_nothing_on_the_workbench(page_factory, server_url):
    """The form, a problem listed, then a run's results and charts: clean at both widths."""
    page = page_factory(bypass_csp=True, viewport=WIDTHS[0])  # axe is injected inline
    open_workbench(page, server_url, "?lab&players=2&games=2&bots=random&seed=2")
    edit(page, "card:s1.action", "orbit:0")
    assert page.locator(".lab-problems").count()
    clean(page, "workbench with a problem")
    edit(page, "card:s1.action", "orbit:2")
    run_and_wait(page)
    assert page.locator(".lab-results svg").count() >= 3
    clean(page, "workbench results")
    assert page.nova.console_errors == [] and page.nova.page_errors == []


def test_a_run_at_two_levels_in_workers_shows_each_levels_figures_and_the_flags(page, server_url):
    open_workbench(page, server_url, "?lab&players=2&games=40&bots=greedy,greedy&seed=3")
    edit(page, "levels", "cadet,pilot,ace")  # the form offers runs of three or five levels
    assert "Play 120 games" in page.locator('[data-ui="lab-run"]').inner_text()
    # a cheaper pair, as an address may name any two levels
    open_workbench(page, server_url, "?lab&players=2&games=3&seed=3&levels=cadet,pilot")
    assert page.locator('[data-lab="levels"]').input_value() == "cadet,pilot"
    page.locator('[data-ui="lab-run"]').click()
    page.wait_for_selector("body[data-nova-lab-done]", timeout=600_000)
    shown = json.loads(page.locator("#nova-lab-levels").text_content())
    assert list(shown["levels"]) == ["cadet", "pilot"]
    for key in ("first_seat", "length", "supernova"):
        assert page.locator(f'.lab-levels tr[data-figure="{key}"] td').count() == 2
    flagged = {f["figure"] for f in shown["flags"]}
    assert flagged  # on three games a level some figure moves past 3 points (a card's, at least)
    for key in flagged:  # every flag is marked in the table and said in words
        assert page.locator(f'.lab-levels tr[data-figure="{key}"][data-flag]').count() == 1
        assert page.locator(f'.lab-levels li[data-flag-figure="{key}"]').count() == 1
