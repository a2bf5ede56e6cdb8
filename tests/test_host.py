"""The game's side of the two threads (nova/web/host.py, nova/web/protocol.py) in CPython:
the page forwards what happened as messages, the host answers with frames, every message
and frame through JSON as between the page and its worker; storage is the page's, written
only by the writes the frames carry."""

from __future__ import annotations

import re

from helpers_async import run

from nova.web.host import GameHost
from nova.web.protocol import Ask, Frame, PageMessage, Target


class Page:
    """What the page's main thread does with frames: keeps its storage (the real one),
    performs the writes, remembers the body's attributes and the last markup."""

    def __init__(
        self,
        storage: dict[str, str] | None = None,
        query: str = "",
        refused: str = "",
        kept: tuple[str, ...] = (),
    ) -> None:
        self.storage = {} if storage is None else storage
        self.body: dict[str, str] = {}
        self.html = ""
        self.frames: list[Frame] = []
        start = PageMessage(
            Ask.START, page_url="https://nova.example/", query=query,
            storage={k: v for k, v in self.storage.items() if k.startswith("nova")},
            how=refused, kept=kept,
        )  # fmt: skip
        self.host = GameHost(PageMessage.from_json(start.to_json()))
        self.take(self.host.first_frame())

    def take(self, frame: Frame) -> Frame:
        frame = Frame.from_json(frame.to_json())
        for key, value in frame.writes:
            if value is None:
                self.storage.pop(key, None)
            else:
                self.storage[key] = value
        for name, value in frame.body.items():
            if value is None:
                self.body.pop(name, None)
            else:
                self.body[name] = value
        if frame.html is not None:
            self.html = frame.html
        self.frames.append(frame)
        return frame

    def send(self, msg: PageMessage) -> Frame:
        return self.take(run(self.host.handle(PageMessage.from_json(msg.to_json()))))

    def click(self, fields: dict | None = None, **target) -> Frame:
        return self.send(PageMessage(Ask.CLICK, target=Target(**target), fields=fields))

    def moves(self) -> int:
        return int(self.body.get("data-nova-moves", "0"))


def legal_on_screen(html: str) -> list[str]:
    return re.findall(r'data-move="([^"]+)"', html)


def test_the_first_frame_draws_the_start_screen_and_says_ready():
    page = Page()
    assert "data-nova-ready" in page.body
    assert page.body["data-nova-screen"] == "new"
    assert 'data-ui="new-game"' in page.html


def test_the_first_frame_leaves_out_what_the_prerendered_screen_shows_already():
    """The page says which keyed parts it shows (the prerendered start screen's rules help,
    most of its elements): the first frame sends them elided, so the page's morph skips
    them; a key the page does not show is sent whole."""
    whole = Page().html
    shown = tuple(re.findall(r'data-nova-keep="([^"]+)"', whole))
    assert shown, "the start screen has no keyed part"
    first = Page(kept=(*shown, "p00000000")).html
    for key in shown:
        assert re.search(rf'<[^>]*data-nova-keep="{key}"[^>]*data-nova-elided', first), key
    assert len(first) < len(whole) / 2
    assert 'data-ui="new-game"' in first


def test_a_game_plays_by_clicks_and_its_save_reaches_the_pages_storage_and_resumes():
    page = Page()
    page.click(ui="new-game", fields={"names": ["Ada", "Bo"], "seed": "5"})
    to_decision(page)
    assert page.body["data-nova-screen"] == "game"
    for _ in range(3):
        page.click(move=legal_on_screen(page.html)[0])
    assert page.moves() == 3
    assert "nova:current" in page.storage
    assert any(k.startswith("nova:save:") for k in page.storage)
    # a reload: a new host from the page's storage shows the same game, the same moves
    again = Page(storage=dict(page.storage))
    assert again.moves() == 3 and again.body["data-nova-screen"] in ("game", "pass")


def test_bots_play_by_pulls_in_the_worker():
    page = Page()
    frame = page.click(
        ui="new-game", fields={"bots": ["random", "random"], "pace": "quick", "seed": "4"}
    )
    assert "bots" in frame.pull and "data-nova-bot-turn" in page.body
    for _ in range(6):
        frame = page.send(PageMessage(Ask.BOTS))
    assert page.moves() == 6
    assert page.body["data-nova-bot-where"] == "worker"
    assert "bots" in frame.pull  # the page asks again


def test_a_tap_beside_the_rules_closes_them_and_keys_are_the_screens():
    page = Page()
    frame = page.send(PageMessage(Ask.KEY, key="?"))
    assert [e.data for e in frame.effects if e.kind == "help"] == [{"open": True}]
    assert "Escape" in frame.keys  # the page keeps the key from the browser
    frame = page.click(element=True)  # on nothing, outside the dialog
    assert [e.data for e in frame.effects if e.kind == "help"] == [{"open": False}]


def to_decision(page: Page) -> None:
    if 'data-ui="ready"' in page.html:  # pass-and-play: the seat's hand-over
        page.click(ui="ready")


def test_another_tabs_save_is_heard_and_the_newest_offered():
    page = Page()
    page.click(ui="new-game", fields={"seed": "9"})
    to_decision(page)
    page.click(move=legal_on_screen(page.html)[0])
    other = Page(storage=dict(page.storage))
    to_decision(other)
    for _ in range(2):
        other.click(move=legal_on_screen(other.html)[0])
        to_decision(other)
    changed = [k for k, v in other.storage.items() if page.storage.get(k) != v]
    assert changed
    for key in changed:  # the storage event, in the first tab
        page.send(PageMessage(Ask.STORAGE, key=key, value=other.storage[key]))
    assert 'data-ui="open-newest"' in page.html and "3 decisions" in page.html
    page.click(ui="open-newest")
    assert page.moves() == 3


def test_a_tap_on_no_choice_says_why_not():
    page = Page()
    page.click(ui="new-game", fields={"seed": "9"})
    to_decision(page)
    frame = page.click(space="a1")
    assert frame.html is not None
    said = re.findall(r'role="alert"[^>]*>([^<]*)', frame.html)
    assert said and "not a choice now" in said[0], said


def test_a_worker_started_again_resumes_the_last_save_and_says_so():
    page = Page()
    page.click(ui="new-game", fields={"seed": "5"})
    to_decision(page)
    for _ in range(2):
        page.click(move=legal_on_screen(page.html)[0])
        to_decision(page)
    start = PageMessage(
        Ask.START, page_url="https://nova.example/", storage=dict(page.storage), restarted=True
    )
    again = GameHost(PageMessage.from_json(start.to_json()))
    frame = again.first_frame()
    assert frame.body["data-nova-moves"] == "2"
    assert frame.html is not None and "nothing you played is lost" in frame.html


def test_a_write_the_pages_storage_refused_is_said_and_the_game_plays_on():
    page = Page()
    page.click(ui="new-game", fields={"seed": "5"})
    to_decision(page)
    key = next(k for k in page.storage if k.startswith("nova:save:"))
    page.send(PageMessage(Ask.REFUSED, key=key, how="QuotaExceededError"))
    assert "storage is full" in page.html
    page.click(move=legal_on_screen(page.html)[0])
    assert page.moves() == 1 and "storage is full" in page.html


def lab_run(workers: int) -> Page:
    """A workbench run fed as the page feeds it: one feeder a lab worker, each playing its
    request as lab_worker.play does; with none, one feeder and the games played in the host."""
    from nova.web.lab_worker import play

    page = Page(query="?lab&players=2&games=2&bots=random,random&seed=3")
    assert page.body["data-nova-screen"] == "lab"
    frame = page.click(ui="lab-run")
    [lab] = [e.data for e in frame.effects if e.kind == "lab"]
    assert lab["workers"] >= 1
    answers: list[str | None] = [None] * max(workers, 1)
    while True:
        asked = False
        for i, answer in enumerate(answers):
            frame = page.send(PageMessage(Ask.LAB, value=answer, answer_id=workers))
            games = [e.data["request"] for e in frame.effects if e.kind == "lab-game"]
            more = [e for e in frame.effects if e.kind == "lab-more"]
            answers[i] = play(games[0]) if games else None
            asked = asked or bool(games or more)
        if not asked:
            break
    return page


def test_a_workbench_run_in_the_pages_lab_workers_or_in_the_host_gives_the_same_games():
    """Every answer taken, the run ends with all its games, the same whether the page's lab
    workers played them or the host did (no lab worker could start)."""
    in_workers, here = lab_run(2), lab_run(0)
    for page in (in_workers, here):
        assert page.body.get("data-nova-lab-done") == "done"
        assert page.body["data-nova-lab-games"] == "2/2"
    assert in_workers.body["data-nova-lab-moves"] == here.body["data-nova-lab-moves"]


def test_a_storage_full_at_the_start_opens_the_saved_game_and_says_it_is_full():
    """The page's probe write was refused (QuotaExceededError): the saves still read, the
    game opens, and the person reads that storage is full, not that saving is off."""
    page = Page()
    page.click(ui="new-game", fields={"seed": "5"})
    to_decision(page)
    page.click(move=legal_on_screen(page.html)[0])
    again = Page(storage=dict(page.storage), refused="QuotaExceededError")
    assert again.moves() == 1
    assert "storage is full" in again.html and "Saving is off" not in again.html
