"""The game's side of the two threads (issue 52): the controller, the screens, the markup,
the saves and the bots, in a worker; the page's main thread only draws the :class:`Frame`
it gets back and forwards what happened (``nova/web/protocol.py``).

A click's target comes as the
DOM described it (:class:`Target`), storage is a mirror of the page's nova keys (handed over
at the start, kept up to date by other tabs' ``storage`` events) whose writes go back in the
frame for the page to perform, and an effect that answers (the share menu, a new tab) comes
back as an ``ANSWER`` by its id. The bots think here too, one decision per ``BOTS`` pull, in
the same Pyodide (no second runtime). Pure Python: tests/test_host.py drives it in CPython.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from itertools import count

from ..lab.workbench import LabRun, worker_count
from ..render.keep import keys_in
from ..render.prompts import CARD_KEYS
from .bot_loop import BotLoop
from .controller import (
    CloseHelp,
    CloseShare,
    Controller,
    FormInput,
    GameScreen,
    Intent,
    LabEdit,
    OpenLink,
    Play,
    SavesChanged,
    Say,
    WhyNot,
)
from .effects import (
    ClearAddress,
    Download,
    Effect,
    Offer,
    OwnPage,
    Refocus,
    Render,
    RunLab,
    SetAddress,
    ShowHelp,
    Think,
)
from .protocol import Ask, Frame, PageEffect, PageMessage, Target
from .saves import BLOCKED, FULL, SaveStore, is_full
from .screens.lab import LAB_DRAW_S, LabAnswer, LabFinished, LabScreen

# the keys a screen may take, tried against the controller for each frame (a hand card's
# digits are the page's: it focuses the card)
# what the player reads when the page had to start the game's worker again
RESTARTED = (
    "The game stopped for a moment (the browser may have run short of memory) and started "
    "again from your last save: nothing you played is lost."
)
KEYS = ("Escape", "?", "h", "Enter", " ", *"abcdefghijklmnopqrstuvwxyz")
# how long a move's travel on the board takes, by the form's pace (page.py animates it)
MOTION_MS = {"watch": 420, "quick": 160}


class StorageRefused(Exception):
    """What the page's storage threw (its ``name``: QuotaExceededError, SecurityError)."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class MirrorStorage:
    """The page's localStorage, as far as the game reads it (its ``nova`` keys), in the
    worker: reads from the copy, writes to the copy and to a journal the frame carries. Once
    the page says its storage refused a write, every write here is refused as it was, so
    the saves say so as they say it on the page (``SaveStore``: full, or blocked)."""

    def __init__(self, items: dict[str, str]) -> None:
        self.items = dict(items)
        self.journal: list[tuple[str, str | None]] = []
        self.refused = ""  # the error the page's storage last threw ("" none)

    def getItem(self, key: str) -> str | None:  # noqa: N802 - the Web Storage names
        return self.items.get(key)

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        if self.refused:
            raise StorageRefused(self.refused)
        self.items[key] = str(value)
        self.journal.append((key, str(value)))

    def removeItem(self, key: str) -> None:  # noqa: N802
        self.items.pop(key, None)
        self.journal.append((key, None))

    def key(self, i: int) -> str | None:
        keys = list(self.items)
        return keys[i] if 0 <= i < len(keys) else None

    @property
    def length(self) -> int:
        return len(self.items)

    def refuse(self, key: str, name: str) -> None:
        """The page's storage refused to write ``key``: writes fail from now on. (What the
        page holds under ``key`` is not known here; the game's own copy stays.)"""
        self.refused = name or "Error"

    def heard(self, key: str, value: str | None) -> None:
        """Another tab wrote ``key`` (not journalled: the page has it already)."""
        if value is None:
            self.items.pop(key, None)
        else:
            self.items[key] = value

    def take(self) -> tuple[tuple[str, str | None], ...]:
        """The writes since the last frame, with a key's only last write kept (in order)."""
        last: dict[str, str | None] = {}
        for k, v in self.journal:
            last.pop(k, None)
            last[k] = v
        self.journal.clear()
        return tuple(last.items())


def fields_of(d: dict | None) -> FormInput:
    """The page's fields as it read them (FormInput's names; missing: not on the page)."""
    d = d or {}
    return FormInput(
        names=tuple(d.get("names", ())),
        colours=tuple(d.get("colours", ())),
        bots=tuple(d.get("bots", ())),
        pace=d.get("pace"),
        think_ms=d.get("think_ms"),
        seed=d.get("seed"),
        seek=d.get("seek"),
        here=str(d.get("here", "")),
    )


def click_intents(c: Controller, t: Target, form: FormInput) -> list[Intent]:
    """What a click means (from the DOM's description of its
    target): a tap beside a dialog closes it; a move plays; a control's name is the
    screen's intent; a tap on what is no choice says why not."""
    panel = c.ui.share is not None
    if panel and t.element and not t.in_share_panel and not t.on_share_button:
        return [CloseShare()]
    if c.ui.help_open and t.element and not t.in_help:
        return [CloseHelp()]
    if not t.control:
        if t.why:
            return [WhyNot(token=t.why)]
        return [WhyNot(space=t.space)] if t.space else []
    if t.disabled:
        return []
    if t.why_ui is not None:
        return [Say(t.why_ui)] if t.why_ui else []
    if t.move:
        return [Play(t.move)]
    if t.ui:
        first: list[Intent] = [CloseShare()] if panel and t.ui != "share" else []
        intent = c.ui_intent(t.ui, form)
        return first + ([intent] if intent is not None else [])
    if t.share == "close":
        return [CloseShare()]
    if t.share == "copy":
        intent = c.ui_intent("share", form)
        return [intent] if intent is not None else []
    return []


class GameHost:
    """The game in the worker: one per page."""

    def __init__(self, start: PageMessage, controller: Controller | None = None) -> None:
        self.storage = MirrorStorage(start.storage) if start.storage is not None else None
        if self.storage is not None and start.how:  # the page's probe write was refused
            self.storage.refuse("", start.how)
        self.c = controller or Controller(SaveStore(self.storage), embed=start.embed)
        self.c.page_url = start.page_url
        self.here = start.page_url
        # the keyed parts the page shows: sent elided (empty), so that its morph skips them
        self.kept: frozenset[str] = frozenset(start.kept)
        self.shown: tuple = ()
        self.drawn = False  # a screen was sent since the last frame
        self.html: str | None = None
        self.layer: tuple[str, str] | None = None  # the board's unchanging layer
        self.page_effects: list[PageEffect] = []
        self.pulls: list[str] = []
        self.focus = ""
        self.answers: dict[int, Callable[[str], Intent | None]] = {}
        self.ids = count(1)
        self.body: dict[str, str | None] = {}
        # the bots think here in slices (BotTable), so that a click between two slices is
        # answered at once (a whole think would hold this worker for up to 3 s)
        self.bots = BotLoop(self.c, _breathe, asyncio.sleep, self._bot_shown)
        self.game_seen: object = None
        # the workbench's run: its games played by the page's lab workers
        self.cores, self.memory_gb = start.cores, start.memory_gb
        self.lab_run: LabRun | None = None  # the run being fed
        self.lab_out = 0  # its requests handed out and not answered yet
        self.lab_t0 = 0.0
        self.lab_drawn = 0.0
        self.lab_used = False  # the page has lab workers up (they end once idle)
        fragment = start.value or ""
        self.started = self.c.start(fragment.removeprefix("#"), start.query)
        # the page's last worker died: this one took the last save, and says so (again after
        # the page's first message, which may be the decision the dead worker never answered
        # and would clear the alert)
        self.say_restarted = start.restarted
        if start.restarted:
            self.started += self.c.dispatch(Say(RESTARTED))

    # -- messages ------------------------------------------------------------------------
    def first_frame(self) -> Frame:
        self.apply(self.started)
        self.body["data-nova-ready"] = ""
        # index.html's contract: the bots' worker is up (here the bots think in this worker,
        # which is up once it answers)
        self.body["data-nova-worker"] = "ready"
        self.body["data-nova-bot-where"] = "worker"
        return self.frame()

    async def handle(self, msg: PageMessage) -> Frame:
        """One page message; the frame that answers it."""
        c = self.c
        match msg.ask:
            case Ask.CLICK if msg.target is not None:
                form = fields_of(msg.fields)
                self.here = form.here or self.here
                for intent in click_intents(c, msg.target, form):
                    self.do(intent)
            case Ask.KEY:
                self.maybe(c.key_intent(msg.key, msg.value, msg.on_button))
            case Ask.CHANGE:
                self.do(LabEdit(msg.key, msg.value or ""))
            case Ask.HASH if msg.value:
                self.do(OpenLink(msg.value.removeprefix("#")))
            case Ask.STORAGE:
                if self.storage is not None:
                    self.storage.heard(msg.key, msg.value)
                self.do(SavesChanged(msg.key or None))
            case Ask.ANSWER:
                answer = self.answers.pop(msg.answer_id, None)
                self.maybe(answer(msg.how) if answer is not None else None)
            case Ask.REFUSED:
                if self.storage is not None:
                    self.storage.refuse(msg.key, msg.how)
                self.do(Say(FULL if is_full(StorageRefused(msg.how)) else BLOCKED))
            case Ask.REDRAW:
                self.kept = frozenset()
                self.render()
            case Ask.BOTS:
                if c.bots_may_play():
                    await self.bots.one()
            case Ask.HINT:
                self.maybe(await self.bots.hint())
            case Ask.LAB:
                self.lab(msg.value, msg.answer_id)
        if self.say_restarted and msg.ask is not Ask.BOTS:
            self.say_restarted = False
            self.do(Say(RESTARTED))
        return self.frame()

    # -- intents and effects ---------------------------------------------------------------
    def do(self, intent: Intent) -> None:
        self.apply(self.c.dispatch(intent))

    def maybe(self, intent: Intent | None) -> None:
        if intent is not None:
            self.do(intent)

    def apply(self, effects: tuple[Effect, ...]) -> None:
        for effect in effects:
            self.perform(effect)

    def perform(self, effect: Effect) -> None:
        match effect:
            case Render():
                self.render()
            case ShowHelp(open=help_open):
                if self.shown != self.shown_now() or self.html is None and not self.drawn:
                    self.render()  # a move was made but not drawn: the screen with it
                self.page_effects.append(PageEffect("help", {"open": help_open}))
                self.body["data-nova-screen"] = self.c.ui.name
            case ClearAddress():
                self.page_effects.append(PageEffect("address", {"search": ""}))
            case SetAddress(query=query):
                self.page_effects.append(PageEffect("address", {"search": f"?{query}"}))
            case Offer():
                i = next(self.ids)
                self.answers[i] = effect.answer
                data = {"id": i, "url": effect.url, "title": effect.title, "focus": effect.focus}
                self.page_effects.append(PageEffect("offer", data))
            case OwnPage(links=links_page):
                url, opened, refused = self.c.page_of_its_own(self.here, links_page)
                i = next(self.ids)
                self.answers[i] = lambda how: opened if how == "opened" else refused
                # (a refused tab: the share panel, or words; an opened one: maybe words)
                self.page_effects.append(PageEffect("tab", {"id": i, "url": url}))
            case Think(request=request) if request:
                self.pulls.append("hint")
            case RunLab():
                run = self.c.bench.run if self.c.bench is not None else None
                if run is not None:
                    self.lab_run, self.lab_out, self.lab_t0 = run, 0, time.perf_counter()
                    n = worker_count(self.cores, self.memory_gb, run.total)
                    self.lab_used = True
                    self.page_effects.append(PageEffect("lab", {"workers": n}))
            case Download(name=name, text=text, mime=mime):
                data = {"name": name, "text": text, "mime": mime}
                self.page_effects.append(PageEffect("download", data))
            case Refocus(opener=opener):
                self.page_effects.append(PageEffect("refocus", {"opener": opener}))

    # -- the workbench's run ------------------------------------------------------------
    def lab(self, answer: str | None, workers: int) -> None:
        """A feeder of the run asks: its lab worker's answer taken, the next request handed
        out (to the page's lab workers); with none, a game played
        here. Once every request is answered, the run is finished."""
        run = self.lab_run
        bench = self.c.bench
        if run is None or bench is None or bench.run is not run:
            return  # a newer run replaced it (or none)
        if answer is not None:
            self.lab_out -= 1
            self.lab_answer(answer)
        request = run.request(1)
        if request is not None and workers:
            self.lab_out += 1
            self.page_effects.append(PageEffect("lab-game", {"request": request}))
        elif request is not None:
            from .lab_worker import play

            self.lab_answer(play(request))
            self.page_effects.append(PageEffect("lab-more"))
        elif self.lab_out <= 0:
            self.lab_run = None
            self.do(LabFinished(time.perf_counter() - self.lab_t0, workers))

    def lab_answer(self, text: str) -> None:
        """The answer added, its progress drawn now and then."""
        self.c.dispatch(LabAnswer(str(text)))
        now = time.perf_counter()
        if isinstance(self.c.ui.screen, LabScreen) and now - self.lab_drawn > LAB_DRAW_S:
            self.lab_drawn = now
            self.render()

    def lab_idle(self) -> None:
        """Off the workbench with no run going, the page's lab workers end (``lab-end``)."""
        if not self.lab_used or isinstance(self.c.ui.screen, LabScreen):
            return
        run = self.c.bench.run if self.c.bench is not None else None
        if run is not None and not run.finished:
            return
        self.lab_used = False
        self.page_effects.append(PageEffect("lab-end"))

    # -- drawing ---------------------------------------------------------------------------
    def shown_now(self) -> tuple:
        s = self.c.session
        return (id(s), len(s.record.moves) if s is not None else -1, self.c.ui.screen)

    def render(self) -> None:
        """The screen's markup (parts the page shows already elided), and its attributes."""
        t0 = time.perf_counter()
        drawn = self.c.drawing(self.kept)
        self.html, self.layer = drawn.html, drawn.static
        self.kept = keys_in(drawn.html)
        self.shown = self.shown_now()
        self.drawn = True
        self.focus = "lesson" if self.c.on_lesson() else "game" if self.choice_next() else ""
        c, body = self.c, self.body
        s = c.session
        body["data-nova-markup-ms"] = f"{(time.perf_counter() - t0) * 1000:.1f}"
        body["data-nova-moves"] = str(len(s.record.moves)) if s else "0"
        body["data-nova-taken"] = str(s.taken_count()) if s else "0"
        body["data-nova-over"] = "" if s is not None and s.state.is_over() else None
        body["data-nova-screen"] = c.ui.name
        body.update(c.body_attributes())
        self.lab_idle()

    def choice_next(self) -> bool:
        """Does the keyboard go to the person's next choice (page.py's bring_choice)? On
        the game with nothing over it, the person to decide, no scores or share on show."""
        c, ui = self.c, self.c.ui
        s = c.session
        if not c.on_game() or not isinstance(ui.screen, GameScreen) or s is None:
            return False
        if s.bot_to_move() or (s.state.is_over() and not ui.screen.scores_closed):
            return False
        return ui.share is None

    async def _bot_shown(self, token: str) -> None:
        self.body["data-nova-bot-move"] = token
        self.body["data-nova-bot-where"] = "worker"
        for k, v in self.bots.stats.stats().items():
            self.body[f"data-nova-bot-{k}"] = v
        if self.c.on_game():
            self.render()

    def frame(self) -> Frame:
        """What the page does now; and the pull to make next, while a bot is to play."""
        c = self.c
        if c.session is not self.game_seen:  # another game: its bots start afresh
            self.game_seen = c.session
            self.bots.new_game()
        bot_turn = c.bots_may_play()
        self.body["data-nova-bot-turn"] = "" if bot_turn else None
        pulls = tuple(dict.fromkeys([*self.pulls, *(["bots"] if bot_turn else [])]))
        keys = tuple(k for k in KEYS if c.key_intent(k, None, False) is not None)
        if c.on_game() or c.on_lesson():
            keys += tuple(CARD_KEYS)  # the page focuses the card
        frame = Frame(
            html=self.html,
            static=self.layer,
            body=dict(self.body),
            writes=self.storage.take() if self.storage is not None else (),
            effects=tuple(self.page_effects),
            focus=self.focus if self.drawn else "",
            pace_ms=MOTION_MS.get(c.form.pace, 300),
            game_id=c.game_id,
            keys=keys,
            pull=pulls,
        )
        self.html, self.layer, self.drawn, self.focus = None, None, False, ""
        self.page_effects, self.pulls, self.body = [], [], {}
        return frame


async def _breathe() -> None:
    await asyncio.sleep(0)
