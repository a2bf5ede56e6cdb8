"""The PyScript glue: the browser's side of the page (nova/web/controller.py is the rest).

It decides no rule (the engine does) and no screen (the controller does): it turns clicks,
keys, the address's link and other tabs' saves into the controller's intents, and draws
what the controller says, with the DOM work a pure function cannot do (``dom.py``:
morphing, focus, zoom, animation), the web workers (``workers.py``), offering the share
panel's link (the device's share menu, the clipboard), a download, ``localStorage``.

Test contract on ``<body>``: ``data-nova-ready`` once usable, ``data-nova-error`` if it
cannot start, ``data-nova-moves`` = decisions in the current game, ``data-nova-over``
once it has ended; ``data-move`` / ``data-ui`` on everything clickable (docs/PAGE.md).
"""

from __future__ import annotations

import asyncio
import gc
import time

from ..render.keep import keys_in
from .bot_loop import BotLoop
from .controller import (
    Controller,
    Intent,
    Worker,
    WorkerChanged,
)
from .dom import Painting, element, local_storage, new_tab
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
from .events import Events
from .saves import SaveStore
from .screens.base import Drawing
from .screens.lab import LabRunner
from .share import offer
from .workers import Workers


class App(Events, Painting, Workers):
    def __init__(self, document, window) -> None:
        self.document = document
        self.window = window
        self.body = document.body
        # infra's index.html has <main id="app">; create a root if it is missing
        self.root = element(document.getElementById("app")) or element(
            document.getElementById("nova-app")
        )
        if self.root is None:
            self.root = document.createElement("div")
            self.root.id = "nova-app"
            self.body.appendChild(self.root)
        # embedded in someone else's page (boot.js marks <html> for ?embed or an iframe)
        embed = bool(document.documentElement.classList.contains("nova-embed"))
        self.c = Controller(SaveStore(local_storage(window)), embed=embed)
        self.bots = BotLoop(self.c, _breathe, asyncio.sleep, self.bot_moved)
        self.shown: tuple = ()  # shown_now() when the screen was last drawn
        self.render_ms: list[float] = []
        self.animated: set[str] = set()  # arrivals already played (game id: decision-k)
        self.renders = 0  # how many times the screen was drawn (a newer drawing wins)
        # the keyed parts the page shows (render/keep.py): the next markup elides them
        self.kept: frozenset[str] = frozenset()
        self.worker = None  # the bots' worker once it answers
        self.game_seen: object = None  # the session the bots' figures are of
        # the workbench's runs (their workers stay up while it is open)
        self.lab = LabRunner(self.c, self.lab_probe, self.lab_boot, self.body.setAttribute,
                             self.do, self.render, self.lab_end)  # fmt: skip

    # -- starting -------------------------------------------------------------------------
    def start(self) -> None:
        pre = element(self.document.getElementById("nova-prerender"))
        if pre is not None:
            pre.remove()
        fragment = str(self.window.location.hash or "")
        loc = self.window.location
        self.c.page_url = f"{loc.origin}{loc.pathname}"
        effects = self.c.start(
            fragment[1:] if fragment.startswith("#") else "", str(loc.search or "")
        )
        self.apply(effects)
        self.body.setAttribute("data-nova-ready", "")

    # -- intents and effects ---------------------------------------------------------------
    def do(self, intent: Intent) -> None:
        self.apply(self.c.dispatch(intent))

    def apply(self, effects: tuple[Effect, ...]) -> None:
        """Perform each effect, in order, by its kind (``effects.py``)."""
        for effect in effects:
            self.perform(effect)

    def perform(self, effect: Effect) -> None:
        match effect:
            case Render():
                self.render()
            case ShowHelp(open=opened):
                if not self.show_help(opened):
                    self.render()
                close = element(self.root.querySelector(".help .close")) if opened else None
                if close is not None:
                    close.focus()
            case ClearAddress():
                self.set_address("")  # a reload no longer re-opens the link or the workbench
            case SetAddress(query=query):  # a reload, or the address copied, keeps it
                self.set_address(f"?{query}")
            case Offer():
                asyncio.ensure_future(self.offer(effect))
            case OwnPage(links=links_page):
                self.open_full_page(links_page)
            case Think(request=request) if request:
                asyncio.ensure_future(self.ask_hint())
            case RunLab():
                nav = self.window.navigator
                cores = int(getattr(nav, "hardwareConcurrency", 1) or 1)
                memory = getattr(nav, "deviceMemory", None)  # Chromium only; GB, rounded down
                memory = float(memory) if isinstance(memory, int | float) else None
                asyncio.ensure_future(self.lab.run(cores, memory))
            case Download(name=name, text=text, mime=mime):
                self.download(name, text, mime)
            case Refocus(opener=opener):
                self.refocus(opener)

    def set_address(self, search: str) -> None:
        """The page's address: its path and ``search`` (no link in the fragment)."""
        try:
            self.window.history.replaceState(None, "", f"{self.window.location.pathname}{search}")
        except Exception:
            pass

    def show_help(self, open_: bool) -> bool:
        """Open or close the rules dialog over the screen by its layer's ``hidden``
        attribute: the screen under it stays as it is, and a press costs no new screen
        (a slow phone, bots playing). False if the page does not show the layer yet (the
        caller renders). Bots pause while it is open and go on when it closes."""
        # a screen made before this press (a bot's move, made ready in the bot loop) would
        # bring back the layer as it was: it is not drawn (the loop checks ``renders``)
        self.renders += 1
        layer = element(self.root.querySelector("#help-layer"))
        if layer is None or not element(layer.querySelector(".help")):
            return False
        if not open_ and self.shown != self.shown_now():
            return False  # a move was made but not drawn under the help: draw the screen
        if open_:
            layer.removeAttribute("hidden")
        else:
            layer.setAttribute("hidden", "")
        self.body.setAttribute("data-nova-screen", self.c.ui.name)
        if not open_:
            if self.c.session is not None and not self.c.session.bot_to_move():
                self.bring_choice()
            self.resume_bots()
        return True

    # -- drawing --------------------------------------------------------------------------
    def drawing(self) -> Drawing:
        return self.c.drawing(self.kept if self.can_morph() else frozenset())

    def render(self, drawn: Drawing | None = None) -> None:
        """Draw the screen (``drawn``: its drawing, if already made)."""
        self.renders += 1
        t0 = time.perf_counter()
        drawn = self.drawing() if drawn is None else drawn
        t1 = time.perf_counter()
        if not self.morph(drawn.html):  # a part it was told it shows was not there: send all
            self.kept = frozenset()
            drawn = self.drawing()
            self.morph(drawn.html)
        self.kept = keys_in(drawn.html)
        self.shown = self.shown_now()
        self.fill_static_layer(drawn.static)
        self.animate()
        self.zoom_board()
        self.bring_choice()
        self.body.setAttribute("data-nova-markup-ms", f"{(t1 - t0) * 1000:.1f}")
        s = self.c.session
        body = self.body
        body.setAttribute("data-nova-moves", str(len(s.record.moves)) if s else "0")
        body.setAttribute("data-nova-taken", str(s.taken_count()) if s else "0")
        if s is not None and s.state.is_over():
            body.setAttribute("data-nova-over", "")
        else:
            body.removeAttribute("data-nova-over")
        body.setAttribute("data-nova-screen", self.c.ui.name)
        for name, value in self.c.body_attributes().items():  # the tutorial's contract
            if value is None:
                body.removeAttribute(name)
            else:
                body.setAttribute(name, value)
        ms = (time.perf_counter() - t0) * 1000
        self.render_ms.append(ms)
        body.setAttribute("data-nova-render-ms", f"{ms:.1f}")
        self.resume_bots()
        self.lab.end_idle()  # off the workbench, its workers end

    def shown_now(self) -> tuple:
        """What the screen would show: the game, how many moves into it, which screen."""
        s = self.c.session
        return (id(s), len(s.record.moves) if s is not None else -1, self.c.ui.screen)

    # -- bots -----------------------------------------------------------------------------
    def resume_bots(self) -> None:
        """Mark whether a bot is to play on this screen, and start its loop if so."""
        if self.c.session is not self.game_seen:  # another game: its bots start afresh
            self.game_seen = self.c.session
            self.bots.new_game()
        bot_turn = self.c.bots_may_play()
        if bot_turn:
            self.body.setAttribute("data-nova-bot-turn", "")
        else:
            self.body.removeAttribute("data-nova-bot-turn")
        s = self.c.session
        if (bot_turn or (s is not None and any(s.record.bots))) and self.c.ui.worker is Worker.IDLE:
            self.c.dispatch(WorkerChanged(Worker.STARTING))
            asyncio.ensure_future(self.start_worker())
        elif bot_turn and not self.bots.running:
            asyncio.ensure_future(self.bots.run())

    async def bot_moved(self, token: str) -> None:
        """A bot's decision was played: its figures, then the screen, in tasks of their own
        so the page can paint and take a click between them on a slow device."""
        body = self.body
        body.setAttribute("data-nova-bot-move", token)
        body.setAttribute("data-nova-bot-where", "worker" if self.worker else "page")
        for k, v in self.bots.stats.stats().items():
            body.setAttribute(f"data-nova-bot-{k}", v)
        await _breathe()
        if not self.c.on_game():
            # opened meanwhile: the move shows when the game is back on screen (the rules'
            # close and the replay's redraw it), not under them
            return
        renders = self.renders
        drawn = self.drawing()
        await _breathe()
        if self.renders == renders:  # else a click drew a newer screen meanwhile
            self.bots_running_render(drawn)
        await _breathe()  # the next request is a task of its own, too

    def bots_running_render(self, drawn: Drawing | None = None) -> None:
        # render without re-scheduling (the loop is already running)
        running, self.bots.running = self.bots.running, True
        self.render(drawn)
        self.bots.running = running

    async def ask_hint(self) -> None:
        """Ask the strongest bot for the person's decision on screen, as the bots' turns are
        asked (``BotLoop.hint``: in the worker, else on this page in slices); the controller
        shows the answer unless the game moved on meanwhile. The page stays usable."""
        c = self.c
        if c.hint_request() is None:
            return
        if c.ui.worker is Worker.IDLE:
            c.dispatch(WorkerChanged(Worker.STARTING))
            await self.start_worker()
        for _ in range(600):  # started for the bots a moment ago: wait for it to be up
            if c.ui.worker is not Worker.STARTING:
                break
            await asyncio.sleep(0.1)
        intent = await self.bots.hint()
        if intent is not None:
            self.do(intent)

    async def offer(self, effect: Offer) -> None:
        """Put the keyboard where ``effect`` says (the share panel's Copy button), then offer
        its link (the device's share menu, else the clipboard) and say what that did."""
        first = element(self.document.querySelector(effect.focus)) if effect.focus else None
        if first is not None:
            first.focus()
        self.do(effect.answer(await offer(effect.url, effect.title)))

    def open_full_page(self, links_page: bool = False) -> None:
        """Embedded: a new tab of the game's own page, with the game on screen (or play by
        links: ``links_page``); the controller says what the frame shows after."""
        url, opened, refused = self.c.page_of_its_own(str(self.window.location.href), links_page)
        after = opened if new_tab(self.window, url) else refused
        if after is not None:
            self.do(after)

    def refocus(self, opener: str) -> None:
        """A dialog closed: the keyboard goes back to the choice, or to its ``opener``."""
        self.bring_choice()
        button = element(self.root.querySelector(opener))
        if button is not None and self.document.activeElement == self.body:
            button.focus()


async def _breathe() -> None:
    """Give the browser a turn (paint, input) between two slices of bot thinking."""
    await asyncio.sleep(0)


_app: App | None = None


def start() -> App:
    """Entry point called by index.html: ``import nova.web.app as app; app.start()``."""
    global _app
    from pyscript import document, window
    from pyscript.ffi import create_proxy

    try:
        _app = App(document, window)
        document.addEventListener("click", create_proxy(_app.on_click))
        document.addEventListener("keydown", create_proxy(_app.on_key))
        document.addEventListener("change", create_proxy(_app.on_change))
        window.addEventListener("hashchange", create_proxy(_app.on_hash))
        window.addEventListener("storage", create_proxy(_app.on_storage))
        document.addEventListener("contextmenu", create_proxy(_app.on_long_press))
        _app.start()
    except Exception as exc:
        document.body.setAttribute("data-nova-error", f"{exc.__class__.__name__}: {exc}")
        raise
    # what booting made (modules, content, caches) lives as long as the page: the cyclic
    # collector need not walk it again at every collection, a pause on the main thread
    gc.freeze()
    return _app
