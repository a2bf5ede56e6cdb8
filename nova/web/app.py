"""The PyScript glue: the browser's side of the page (nova/web/controller.py is the rest).

It decides no rule (the engine does) and no screen (the controller does): it turns clicks,
keys, the address's link and other tabs' saves into the controller's intents, and draws
what the controller says, with the DOM work a pure function cannot do: morphing, focus,
zoom, animation, the bots' worker, the share panel, ``localStorage``.

Test contract on ``<body>``: ``data-nova-ready`` once usable, ``data-nova-error`` if it
cannot start, ``data-nova-moves`` = decisions in the current game, ``data-nova-over``
once it has ended; ``data-move`` / ``data-ui`` on everything clickable (docs/PAGE.md).
"""

from __future__ import annotations

import asyncio
import gc
import json
import time

from ..lab.workbench import worker_count
from ..render.keep import keys_in
from ..render.prompts import CARD_KEYS
from .bot_loop import BotLoop
from .bot_turns import BotError, BotTable, accept
from .controller import (
    HINT_BOT,
    CloseHelp,
    Controller,
    Effect,
    FormInput,
    GameScreen,
    HintReady,
    Intent,
    LabAnswer,
    LabEdit,
    LabFinished,
    LabScreen,
    OpenLink,
    Play,
    Ready,
    ReplayGo,
    SavesChanged,
    Say,
    TutorialScreen,
    WhyNot,
    Worker,
    WorkerChanged,
    ui_intent,
)
from .saves import SaveStore
from .share import full_page_address, link_for, share

# how long a ship's travel on the board takes, by the bots' pace (a person's moves too)
MOTION_MS = {"watch": 420, "quick": 160}
PHONE_MAX_PX = 700  # narrower than this, a board choice zooms the board (zoom_board)
TAP_PX = 48  # the smallest tap target then (44 CSS px is WCAG 2.5.5's, with a margin)
BOARD_UNITS = 1100  # the board's viewBox side (nova/render/geometry.SIZE)
FLOOR_PX = 45  # ... and at least this on a screen TALL_PX high or more
TALL_PX = 700
IN_VIEW = 0.35  # the part of the zoomed board its window shows, at least (short screens)
WORKER_SRC = "./bots_worker.py"  # the bots' worker (site root; see tools/build_site.py)
WORKER_BOOT_S = 60.0  # a worker not up by then counts as failed (a cold boot takes seconds)
LAB_WORKER_SRC = "./lab_worker.py"  # the workbench's workers (site root)
LAB_DRAW_S = 0.25  # a run's progress is drawn at most this often


class App:
    def __init__(self, document, window) -> None:
        self.document = document
        self.window = window
        self.body = document.body
        # infra's index.html has <main id="app">; create a root if it is missing
        self.root = _el(document.getElementById("app")) or _el(document.getElementById("nova-app"))
        if self.root is None:
            self.root = document.createElement("div")
            self.root.id = "nova-app"
            self.body.appendChild(self.root)
        # embedded in someone else's page (boot.js marks <html> for ?embed or an iframe)
        embed = bool(document.documentElement.classList.contains("nova-embed"))
        self.c = Controller(SaveStore(_local_storage(window)), embed=embed)
        self.bots = BotLoop(self.c, _breathe, asyncio.sleep, self.bot_moved)
        self.shown: tuple = ()  # shown_now() when the screen was last drawn
        self.render_ms: list[float] = []
        self.animated: set[str] = set()  # arrivals already played (game id: decision-k)
        self.renders = 0  # how many times the screen was drawn (a newer drawing wins)
        # the keyed parts the page shows (render/keep.py): the next markup elides them
        self.kept: frozenset[str] = frozenset()
        self.worker = None  # the bots' worker once it answers
        self.game_seen: object = None  # the session the bots' figures are of
        self.lab_workers: list = []  # the workbench's workers, once started (kept for the next run)
        self.lab_drawn = 0.0  # when a run's progress was last drawn

    # -- starting -------------------------------------------------------------------------
    def start(self) -> None:
        pre = _el(self.document.getElementById("nova-prerender"))
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

    def on_hash(self, _event=None) -> None:
        """A game link pasted into the address bar of an open tab opens that game."""
        fragment = str(self.window.location.hash or "")
        if fragment.startswith("#") and len(fragment) > 1:
            self.do(OpenLink(fragment[1:]))  # a bad link: its message, on the screen on show

    def on_storage(self, event) -> None:
        """Another tab saved (the ``storage`` event fires only in the other tabs)."""
        key = event.key
        self.do(SavesChanged(key if isinstance(key, str) else None))

    def on_long_press(self, event) -> None:
        """A long press on a card (a touch screen's context menu) shows its rulebook text:
        the card takes the focus, which shows its tip, instead of the browser's menu."""
        target = event.target
        card = _el(target.closest(".card[tabindex], .academy-pick")) if _el(target) else None
        if card is not None:
            event.preventDefault()
            card.focus()

    # -- intents and effects ---------------------------------------------------------------
    def do(self, intent: Intent) -> None:
        self.apply(self.c.dispatch(intent))

    def apply(self, effects: frozenset[Effect]) -> None:
        if Effect.CLEAR_LINK in effects:
            try:  # the game is saved now: a reload resumes it instead of re-opening the link
                self.window.history.replaceState(None, "", self.window.location.pathname)
            except Exception:
                pass
        if Effect.HELP_LAYER in effects:
            opened = self.c.ui.help_open
            if not self.show_help(opened):
                self.render()
            if opened:
                close = _el(self.root.querySelector(".help .close"))
                if close is not None:
                    close.focus()
        if Effect.RENDER in effects:
            self.render()
        if Effect.SHARE in effects:
            self.start_share()
        if Effect.FULL_PAGE in effects:
            self.open_full_page()
        if Effect.HINT in effects:
            asyncio.ensure_future(self.ask_hint())
        if Effect.LAB_RUN in effects:
            asyncio.ensure_future(self.run_lab())
        if Effect.LAB_SAVE in effects:
            self.save_variant()
        if Effect.LAB_ADDRESS in effects and self.c.bench is not None:
            try:  # a reload, or the address copied, opens the workbench as it is now
                path = self.window.location.pathname
                self.window.history.replaceState(None, "", f"{path}?{self.c.bench.query()}")
            except Exception:
                pass

    def form_input(self) -> FormInput:
        """The new-game form's fields as they are on the page (None: not on the page)."""
        doc = self.document
        n = self.c.form.players

        def value(el_id: str) -> str | None:
            el = _el(doc.getElementById(el_id))
            return str(el.value) if el is not None else None

        return FormInput(
            names=tuple(value(f"nova-name-{i}") for i in range(n)),
            colours=tuple(value(f"nova-colour-{i}") for i in range(n)),
            bots=tuple(value(f"nova-bot-{i}") for i in range(n)),
            pace=value("nova-bot-pace"),
            think_ms=value("nova-bot-think"),
            seed=value("nova-seed"),
        )

    def ui(self, name: str) -> None:
        intent = ui_intent(name, self.form_input())
        if isinstance(intent, ReplayGo) and intent.where == "seek":
            slider = _el(self.document.querySelector('[data-ui="replay-seek"]'))
            intent = ReplayGo(str(slider.value) if slider is not None else "")
        if intent is not None:
            self.do(intent)

    def show_help(self, open_: bool) -> bool:
        """Open or close the rules dialog over the screen by its layer's ``hidden``
        attribute: the screen under it stays as it is, and a press costs no new screen
        (a slow phone, bots playing). False if the page does not show the layer yet (the
        caller renders). Bots pause while it is open and go on when it closes."""
        # a screen made before this press (a bot's move, made ready in the bot loop) would
        # bring back the layer as it was: it is not drawn (the loop checks ``renders``)
        self.renders += 1
        layer = _el(self.root.querySelector("#help-layer"))
        if layer is None or not _el(layer.querySelector(".help")):
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
    def markup(self) -> str:
        return self.c.markup(self.kept if self.can_morph() else frozenset())

    def render(self, html: str | None = None) -> None:
        """Draw the screen (``html``: its markup, if already made)."""
        self.renders += 1
        t0 = time.perf_counter()
        html = self.markup() if html is None else html
        t1 = time.perf_counter()
        if not self.morph(html):  # a part it was told it shows was not there: send all
            self.kept = frozenset()
            html = self.markup()
            self.morph(html)
        self.kept = keys_in(html)
        self.shown = self.shown_now()
        self.fill_static_layer()
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
        drawn = self.renders
        html = self.markup()
        await _breathe()
        if self.renders == drawn:  # else a click drew a newer screen meanwhile
            self.bots_running_render(html)
        await _breathe()  # the next request is a task of its own, too

    def bots_running_render(self, html: str | None = None) -> None:
        # render without re-scheduling (the loop is already running)
        running, self.bots.running = self.bots.running, True
        self.render(html)
        self.bots.running = running

    # where the next choice is, most specific first (the action under way, then the board,
    # the Academy, the hand, End turn); the pass screen's Ready
    CHOICES = (
        ".pass-card [data-ui=ready]",
        ".choices [data-move]",
        "svg.board [data-move]",
        ".academy [data-move]",
        ".hand [data-move]",
        "#move-E",
    )

    def bring_choice(self) -> None:
        """After each action the keyboard focus moves to the next choice (unless it is on
        one that is still there), and the choice is scrolled into view if it is out of
        it, so nothing asked is below the fold. Not under a dialog (help, share panel)."""
        ui = self.c.ui
        if isinstance(ui.screen, TutorialScreen) and not ui.help_open:
            self.bring_lesson_choice()
            return
        if not self.c.on_game() or not isinstance(ui.screen, GameScreen):
            return
        s = self.c.session
        if s is None or s.bot_to_move() or (s.state.is_over() and not ui.screen.scores_closed):
            return
        panel = _el(self.document.querySelector("[data-nova-share-panel]:not([hidden])"))
        if panel is not None:
            return
        active = _el(self.document.activeElement)
        if (
            active is not None
            and active is not self.body
            and bool(active.isConnected)
            and active.getAttribute("aria-disabled") != "true"
            and _el(active.closest("[data-move],[data-ui],input,select,a,[tabindex]"))
        ):
            return
        for sel in self.CHOICES:
            el = _el(self.root.querySelector(sel))
            if el is None:
                continue
            self.bring(el)
            return

    def bring_lesson_choice(self) -> None:
        """In a lesson the focus goes to what the lesson expects next (its first target,
        or "Next lesson" once the goal is met), unless it is on a target already: a
        keyboard player goes through a lesson with Enter alone."""
        active = _el(self.document.activeElement)
        if (
            active is not None
            and bool(active.isConnected)
            and active.hasAttribute("data-lesson-target")
        ):
            return
        for sel in ("[data-lesson-target]", '[data-ui="next-lesson"]'):
            el = _el(self.root.querySelector(sel))
            if el is not None:
                self.bring(el)
                return

    def zoom_board(self) -> None:
        """On a phone, a board choice zooms the board to the choices so each target is at
        least TAP_PX CSS px (the renderer gives the targets' box, ``data-zoom``), and the
        board's window is scrolled to their centre; otherwise the whole board shows."""
        stage = _el(self.root.querySelector(".board-stage"))
        if stage is None:
            return
        wrap = stage.parentElement
        spec = stage.getAttribute("data-zoom")
        if not isinstance(spec, str) or float(self.window.innerWidth) > PHONE_MAX_PX:
            wrap.classList.remove("zoomed")
            for name in ("tabindex", "role", "aria-label"):
                wrap.removeAttribute(name)
            return
        try:
            x0, y0, x1, y1, side = (float(v) for v in spec.split())
        except ValueError:
            return
        wrap.classList.add("zoomed")
        width = float(wrap.clientWidth) or 1.0
        scale = max(1.0, TAP_PX * BOARD_UNITS / (max(side, 1.0) * width))
        # at least a third of the board stays in the window (the window shows 1/scale² of
        # it): where the screen is short (the publisher's frame) the targets get smaller
        # first, on a phone's own page they keep FLOOR_PX
        least = FLOOR_PX * BOARD_UNITS / (max(side, 1.0) * width)
        cap = (float(wrap.clientHeight) / (IN_VIEW * width)) ** 0.5
        if float(self.window.innerHeight) >= TALL_PX:
            cap = max(cap, least)
        scale = max(1.0, min(scale, cap))
        stage.style.setProperty("--zs", f"{scale:.3f}")
        # the zoomed board scrolls: a keyboard must reach it too (arrow keys scroll it)
        wrap.setAttribute("tabindex", "0")
        wrap.setAttribute("role", "region")
        wrap.setAttribute("aria-label", "The board, zoomed to the choices (scrolls)")
        px = width * scale / BOARD_UNITS
        wrap.scrollLeft = (x0 + x1) / 2 * px - float(wrap.clientWidth) / 2
        wrap.scrollTop = (y0 + y1) / 2 * px - float(wrap.clientHeight) / 2

    def bring(self, el) -> None:
        """Focus ``el`` and scroll it into view only if it is out of view (a page that
        jumps on every decision would lose the player)."""
        from pyscript.ffi import to_js

        def js(d: dict):
            return to_js(d, dict_converter=self.window.Object.fromEntries)

        el.focus(js({"preventScroll": True}))
        r = el.getBoundingClientRect()
        height = float(self.window.innerHeight)
        if float(r.top) < 0 or float(r.bottom) > height:
            el.scrollIntoView(js({"block": "center"}))
        else:  # on screen, but maybe outside a panel that scrolls (a phone's drawer)
            el.scrollIntoView(js({"block": "nearest", "inline": "nearest"}))

    def can_morph(self) -> bool:
        return (
            getattr(self.window, "novaMorph", None) is not None
            and getattr(self.window, "Idiomorph", None) is not None
        )

    def morph(self, html: str) -> bool:
        """Update the page in place (Idiomorph, through assets/boot.js's ``novaMorph``): an
        element that stays on screen stays the same DOM node, so a press on a control is
        never split from its release by a repaint (a bot's move, say). Parts the page
        already shows come elided (``render/keep.py``) and are left alone; False if one of
        them was not found (then the caller sends the whole markup)."""
        if self.can_morph():
            return self.window.novaMorph(self.root, html) is not False
        # Idiomorph failed to load: replacing the whole screen still works
        self.root.innerHTML = html
        return True

    def animate(self) -> None:
        """Play each newly arrived stack's way on the board once (its ``data-nova-path``,
        drawn by the renderer from the session's data), at the bots' pace; not at all
        when the player asks the system for reduced motion."""
        els = self.root.querySelectorAll("[data-nova-motion]")
        if not els.length:
            return
        try:
            reduce = bool(self.window.matchMedia("(prefers-reduced-motion: reduce)").matches)
        except Exception:
            reduce = False
        from pyscript.ffi import to_js

        ms = MOTION_MS.get(self.c.form.pace, 300)
        for i in range(els.length):
            el = els.item(i)
            key = f"{self.c.game_id}:{el.getAttribute('data-nova-motion')}"
            if key in self.animated:
                continue
            if len(self.animated) > 4096:
                self.animated.clear()
            self.animated.add(key)
            path = str(el.getAttribute("data-nova-path") or "")
            frames = []
            for pair in path.split():
                x, _, y = pair.partition(",")
                try:
                    frames.append({"transform": f"translate({float(x):.1f}px,{float(y):.1f}px)"})
                except ValueError:
                    frames = []
                    break
            if reduce or len(frames) < 2:
                continue
            el.setAttribute("data-nova-animated", "")
            el.animate(
                to_js(frames, dict_converter=self.window.Object.fromEntries),
                to_js(
                    {"duration": ms, "easing": "ease-in-out"},
                    dict_converter=self.window.Object.fromEntries,
                ),
            )

    def fill_static_layer(self) -> None:
        """Fill the board's unchanging layer when it is new or its key changed.

        The morph leaves a filled layer alone while its key (``data-nova-keep``) stays the
        same; otherwise the slot arrives empty and gets the (cached) markup once.
        """
        wanted, self.c.static = self.c.static, None
        if wanted is None:
            return
        key, markup = wanted
        slot = _el(self.root.querySelector(f'[data-nova-static="{key}"]'))
        if slot is not None and not slot.firstChild:
            slot.innerHTML = markup

    async def start_worker(self) -> None:
        """Start the bots' worker (after the page is ready: it never delays the first paint).

        A second Pyodide in a PyScript named worker with ``sync_main_only``: the page only
        awaits its exports, so no SharedArrayBuffer and no COOP/COEP (the page stays
        embeddable). If it cannot start, the bots think on this page, in slices, and the
        page says so.
        """
        self.body.setAttribute("data-nova-worker", "starting")
        t0 = time.perf_counter()
        try:
            from pyscript import create_named_worker

            # PyScript waits forever for a worker whose script cannot be fetched (offline
            # before the cache has it, a proxy): ask for it first, and fail at once
            probe = await self.window.fetch(WORKER_SRC)
            if not probe.ok:
                raise RuntimeError(f"{WORKER_SRC}: HTTP {probe.status}")
            worker = await asyncio.wait_for(
                create_named_worker(src=WORKER_SRC, name="nova-bots", config="./pyscript.toml"),
                WORKER_BOOT_S,
            )
            await asyncio.wait_for(worker.hello(), WORKER_BOOT_S)
        except Exception as exc:  # blocked by the browser, a CSP, a network fault, a bug
            self.body.setAttribute("data-nova-worker", "failed")
            note = (
                "The bots' helper could not start "
                f"({exc.__class__.__name__}), so they think on this page: "
                "it may answer a little slower while they do."
            )
            self.c.dispatch(WorkerChanged(Worker.FAILED, note))
        else:
            self.worker = worker
            self.bots.ask = worker.think
            self.c.dispatch(WorkerChanged(Worker.READY))
            self.body.setAttribute("data-nova-worker", "ready")
            ms = (time.perf_counter() - t0) * 1000
            self.body.setAttribute("data-nova-worker-ms", f"{ms:.0f}")
        self.render()  # and the bots play on (resume_bots)

    async def ask_hint(self) -> None:
        """Ask the strongest bot for the person's decision on screen, in the worker (on
        this page, in slices, if the worker cannot start); the controller shows the answer
        unless the game moved on meanwhile. The page stays usable while it thinks."""
        c = self.c
        s, asked = c.session, c.hint_request()
        if s is None or asked is None:
            return
        seat, at = s.state.current_player, s.moves
        try:
            if c.ui.worker is Worker.IDLE:
                c.dispatch(WorkerChanged(Worker.STARTING))
                await self.start_worker()
            for _ in range(600):  # started for the bots a moment ago: wait for it to be up
                if c.ui.worker is not Worker.STARTING:
                    break
                await asyncio.sleep(0.1)
            if self.worker is not None:
                answer = await self.worker.think(asked)
                token, _ = accept(s.state, seat, HINT_BOT, answer)
            else:
                data = json.loads(asked)
                table = BotTable(data["bots"], time_ms=data["time_ms"])
                token = await table.decide(s.state, seat, data["seed"], _breathe,
                                           cancelled=lambda: s.moves != at)  # fmt: skip
        except BotError as exc:
            self.do(Say(f"No hint this time: {exc}."))
            return
        if token is not None:
            self.do(HintReady(token, at))

    # -- the workbench ---------------------------------------------------------------------
    async def start_lab_workers(self, wanted: int) -> list:
        """Up to ``wanted`` lab workers (booted from the snapshot, as the page was), kept for
        later runs; those that cannot start are left out (none: the games play on the page)."""
        from pyscript import create_named_worker

        async def one(i: int):
            worker = await asyncio.wait_for(
                create_named_worker(
                    src=LAB_WORKER_SRC, name=f"nova-lab-{i}", config="./pyscript.toml"
                ),
                WORKER_BOOT_S,
            )
            await asyncio.wait_for(worker.hello(), WORKER_BOOT_S)
            return worker

        have = len(self.lab_workers)
        if wanted > have:
            try:  # PyScript waits for ever for a script it cannot fetch: ask for it first
                probe = await self.window.fetch(LAB_WORKER_SRC)
                ok = bool(probe.ok)
            except Exception:
                ok = False
            if ok:
                started = await asyncio.gather(
                    *(one(i) for i in range(have, wanted)), return_exceptions=True
                )
                self.lab_workers += [w for w in started if not isinstance(w, BaseException)]
        return self.lab_workers[:wanted]

    async def run_lab(self) -> None:
        """Play the workbench's run: its games go out one at a time to each of the lab's
        workers (as many as the machine has cores), and each answer is drawn as progress."""
        bench = self.c.bench
        run = bench.run if bench is not None else None
        if run is None:
            return
        t0 = time.perf_counter()
        nav = self.window.navigator
        cores = int(getattr(nav, "hardwareConcurrency", 1) or 1)
        memory = getattr(nav, "deviceMemory", None)  # Chromium only; GB, rounded down
        memory = float(memory) if isinstance(memory, int | float) else None
        self.body.setAttribute("data-nova-lab-workers", "starting")
        workers = await self.start_lab_workers(worker_count(cores, memory, run.total))
        self.body.setAttribute("data-nova-lab-workers", str(len(workers)))
        self.body.setAttribute("data-nova-lab-boot-ms", f"{(time.perf_counter() - t0) * 1000:.0f}")
        run.workers = len(workers)

        async def feed(worker) -> None:
            while (request := run.request(1)) is not None:
                self.lab_answer(run, await worker.play(request))

        if workers:
            await asyncio.gather(*(feed(w) for w in workers))
        else:  # no worker could start: the page plays the games, one per task
            from .lab_worker import play

            while (request := run.request(1)) is not None:
                await asyncio.sleep(0)
                self.lab_answer(run, play(request))
        if bench is not None and bench.run is run:
            self.do(LabFinished(time.perf_counter() - t0, len(workers)))

    def lab_answer(self, run, answer: str) -> None:
        bench = self.c.bench
        if bench is None or bench.run is not run:
            return  # a newer run replaced it
        self.c.dispatch(LabAnswer(str(answer)))
        now = time.perf_counter()
        if isinstance(self.c.ui.screen, LabScreen) and now - self.lab_drawn > LAB_DRAW_S:
            self.lab_drawn = now
            self.render()

    def save_variant(self) -> None:
        """Download the workbench's variant as a JSON file (made here: nothing is sent)."""
        bench = self.c.bench
        if bench is None:
            return
        from pyscript.ffi import create_proxy, to_js

        from ..lab.workbench import VARIANT_FILE

        window = self.window
        options = to_js({"type": "application/json"}, dict_converter=window.Object.fromEntries)
        blob = window.Blob.new(to_js([bench.variant_json() + "\n"]), options)
        url = window.URL.createObjectURL(blob)
        a = self.document.createElement("a")
        a.href, a.download = url, VARIANT_FILE
        self.body.appendChild(a)
        a.click()
        a.remove()
        window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 1000)

    def on_change(self, event) -> None:
        """A field of the workbench changed (``data-lab`` names it)."""
        target = event.target
        name = target.getAttribute("data-lab") if _el(target) else None
        if isinstance(name, str) and name:
            self.do(LabEdit(name, str(target.value)))

    # -- events ---------------------------------------------------------------------------
    def share_panel(self):
        """The share panel when it is open, else None."""
        return _el(self.document.querySelector("[data-nova-share-panel]:not([hidden])"))

    def on_click(self, event) -> None:
        target = event.target
        panel = self.share_panel()
        if panel is not None and _el(target) and not _el(target.closest("[data-nova-share-panel]")):
            if not _el(target.closest('[data-ui="share"]')):
                self.share_action("close")  # a tap beside the share dialog closes it
                return
        el = (
            _el(target.closest("[data-move],[data-alt-move],[data-ui],[data-nova-share]"))
            if _el(target)
            else None
        )
        if self.c.ui.help_open and _el(target) and not _el(target.closest(".help")):
            self.do(CloseHelp())  # a click beside the rules dialog closes it
            return
        if el is None:
            self.why_not(target)
            return
        if el.hasAttribute("disabled"):
            return
        if el.getAttribute("aria-disabled") == "true":  # off, but says why (Undo)
            why = el.getAttribute("data-why-ui")
            if isinstance(why, str) and why:
                event.preventDefault()
                self.do(Say(why))
            return
        move = el.getAttribute("data-move")
        if not isinstance(move, str):  # a board Cargo Bay repeats a button's move
            move = el.getAttribute("data-alt-move")
        if isinstance(move, str) and move:
            event.preventDefault()
            self.do(Play(move))
            return
        ui = el.getAttribute("data-ui")
        if isinstance(ui, str) and ui:
            event.preventDefault()
            if panel is not None and ui != "share":  # e.g. its "Watch the replay"
                self.share_action("close")
            self.ui(ui)
            return
        share = el.getAttribute("data-nova-share")
        if isinstance(share, str):
            self.share_action(share)

    def why_not(self, target) -> None:
        """A tap on something that is not a choice now: a card, an Academy card, a space or
        a ship on the board. The controller says why not (the engine's words)."""
        if not _el(target):
            return
        el = _el(target.closest("[data-why]"))
        if el is not None:
            self.do(WhyNot(token=str(el.getAttribute("data-why"))))
            return
        el = _el(target.closest("[data-space],[data-stack]"))
        if el is None or not _el(target.closest("svg.board, svg.board-bg")):
            return
        name = el.getAttribute("data-space")
        if not isinstance(name, str):
            name = el.getAttribute("data-stack")
        self.do(WhyNot(space=str(name)))

    def start_share(self) -> None:
        asyncio.ensure_future(self.share_and_focus())

    async def share_and_focus(self) -> None:
        """Open the share dialog and put the keyboard in it (its Copy button)."""
        session = self.c.session
        if session is None:
            return
        task = asyncio.ensure_future(share(session.record, str(self.window.location.href)))
        await asyncio.sleep(0)  # share() fills and shows the panel before it first waits
        first = _el(self.document.querySelector("[data-nova-share-panel] button"))
        if first is not None:
            first.focus()
        await task

    def open_full_page(self) -> None:
        """Embedded: open the full page in a new tab, with the current game as its link."""
        here = str(self.window.location.href)
        s = self.c.session
        url = link_for(s.record, here) if s is not None else full_page_address(here)
        tab = self.window.open(url, "_blank")
        if hasattr(tab, "closed"):
            tab.opener = None  # the new tab need not reach back into this frame
        elif s is not None:
            # a sandboxed frame refuses new tabs: show the share panel, whose link is the same
            self.start_share()
        else:
            self.do(Say(f"This browser refused to open a new tab; the full page is at {url}"))

    def share_action(self, what: str) -> None:
        panel = _el(self.document.querySelector("[data-nova-share-panel]"))
        if what == "close" and panel is not None:
            panel.hidden = True
            self.bring_choice()
            opener = _el(self.root.querySelector('[data-ui="share"]'))
            if opener is not None and self.document.activeElement == self.body:
                opener.focus()
        elif what == "copy" and self.c.session is not None:
            self.start_share()

    def on_key(self, event) -> None:
        tag = str(getattr(event.target, "tagName", "") or "").lower()
        if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
            return
        key = str(event.key)
        if key == "Escape" and self.share_panel() is not None:  # the topmost dialog
            self.share_action("close")
            return
        focused = _el(event.target)
        move = None
        if focused is not None and not _is_native_button(focused):
            # a board target or an Academy card (role="button") acts like a button
            token = focused.getAttribute("data-move")
            move = token if isinstance(token, str) and token else None
        intent = self.c.key_intent(key, move, _is_button(event.target))
        if intent is None:
            if key in CARD_KEYS and (self.c.on_game() or self.c.on_lesson()):
                self.card_key(key, event)
            return
        if isinstance(intent, Play | Ready | ReplayGo):
            event.preventDefault()
        self.do(intent)

    def card_key(self, key: str, event) -> None:
        """A hand card's digit (stable for the turn): focus its first play, or say why it
        cannot be played now."""
        card = _el(self.root.querySelector(f'.hand [data-card-key="{key}"]'))
        if card is None:
            return
        event.preventDefault()
        play = _el(card.querySelector("[data-move]"))
        if play is not None:
            play.focus()
            return
        why = _el(card.querySelector("[data-why]"))
        if why is not None:
            self.do(WhyNot(token=str(why.getAttribute("data-why"))))


async def _breathe() -> None:
    """Give the browser a turn (paint, input) between two slices of bot thinking."""
    await asyncio.sleep(0)


def _el(x):
    """A DOM element, or None for JS null/undefined (which are not Python None)."""
    return x if x is not None and hasattr(x, "getAttribute") else None


def _is_native_button(el) -> bool:
    return str(getattr(el, "tagName", "") or "").lower() == "button"


def _is_button(el) -> bool:
    # Enter on a focused button clicks it; do not also end the turn
    tag = str(getattr(el, "tagName", "") or "").lower()
    return tag == "button" or (hasattr(el, "getAttribute") and el.getAttribute("role") == "button")


def _local_storage(window):
    """window.localStorage, or None where touching it throws (private mode, iframes)."""
    try:
        ls = window.localStorage
        if ls is None or not hasattr(ls, "getItem"):
            return None
        return ls
    except Exception:
        return None


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
