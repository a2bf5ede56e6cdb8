"""The PyScript glue: renders the session into the page and routes clicks and keys.

It decides no rule (the engine does) and holds no game logic (``session.py`` does);
it only talks to the browser: the DOM, ``localStorage``, the URL, timers.

Test contract on ``<body>``: ``data-nova-ready`` once usable, ``data-nova-error`` if it
cannot start, ``data-nova-moves`` = decisions in the current game, ``data-nova-over``
once it has ended; ``data-move`` / ``data-ui`` on everything clickable.
"""

from __future__ import annotations

import asyncio
import gc
import random
import re
import time

from ..links import decode
from ..record import DEFAULT_COLOURS, RecordError
from ..render.board import static_layer
from ..render.game import game_html
from ..render.keep import keyed, keys_in
from ..render.prompts import CARD_KEYS, assign_keys
from ..render.screens import (
    BOT_CHOICES,
    NewGameForm,
    help_html,
    new_game_html,
    pass_html,
    scores_html,
)
from ..rules import IllegalMove
from .bot_turns import BotError, BotStats, BotTable, accept, bot_request
from .saves import SaveStore, new_id
from .session import Session
from .share import Replay, full_page_address, link_for, share

HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
BOT_NAMES = {v for v, _ in BOT_CHOICES if v}  # nova.bots is imported only when a bot plays
# seconds a bot decision stays on screen before the next, so people can follow the bots
BOT_PACE = {"watch": 0.45, "quick": 0.05}
# how long a ship's travel on the board takes, by the bots' pace (a person's moves too)
MOTION_MS = {"watch": 420, "quick": 160}
THINK_MS = {250, 1000, 3000}  # the new-game form's thinking times (screens.THINK_CHOICES)
PHONE_MAX_PX = 700  # narrower than this, a board choice zooms the board (zoom_board)
TAP_PX = 48  # the smallest tap target then (44 CSS px is WCAG 2.5.5's, with a margin)
BOARD_UNITS = 1100  # the board's viewBox side (nova/render/geometry.SIZE)
WORKER_SRC = "./bots_worker.py"  # the bots' worker (site root; see tools/build_site.py)
WORKER_BOOT_S = 60.0  # a worker not up by then counts as failed (a cold boot takes seconds)


def safe_colours(colours: list[str]) -> list[str]:
    """Only #rrggbb reaches a style attribute; anything else gets the default colour."""
    return [c if HEX.match(c or "") else DEFAULT_COLOURS[i % 4] for i, c in enumerate(colours)]


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
        self.store = SaveStore(_local_storage(window))
        self.form = NewGameForm(seed=random.randrange(1, 10**6))
        self.session: Session | None = None
        self.game_id = ""
        self.screen = "new"
        self.help_open = False
        self.shown: tuple = ()  # shown_now() when the screen was last drawn
        self.scores_closed = False
        self.message = ""
        self.bots_running = False
        self.bot_stats = BotStats()
        self.bot_table: BotTable | None = None  # the fallback, if the worker cannot start
        self.worker = None  # the bots' worker once it answers
        self.worker_state = ""  # "" (not asked for) / "starting" / "ready" / "failed"
        self.render_ms: list[float] = []
        self.static_wanted: tuple[str, str] | None = None
        self.replay: Replay | None = None  # while watching a replay
        self.animated: set[str] = set()  # arrivals already played (game id: decision-k)
        self.renders = 0  # how many times the screen was drawn (a newer drawing wins)
        # the keyed parts the page shows (render/keep.py): the next markup elides them
        self.kept: frozenset[str] = frozenset()
        # embedded in someone else's page (boot.js marks <html> for ?embed or an iframe)
        self.embed = bool(document.documentElement.classList.contains("nova-embed"))

    # -- starting -------------------------------------------------------------------------
    def start(self) -> None:
        pre = _el(self.document.getElementById("nova-prerender"))
        if pre is not None:
            pre.remove()
        fragment = str(self.window.location.hash or "")
        if fragment.startswith("#") and len(fragment) > 1:
            self.open_link(fragment[1:])
        elif self.store.current():
            self.resume(self.store.current(), quiet=True)
        self.render()
        self.body.setAttribute("data-nova-ready", "")

    def open_link(self, fragment: str) -> None:
        try:
            record = decode(fragment)
            session = Session(record)
        except RecordError as exc:
            self.message = f"This game link could not be opened: {exc}"
            return
        except Exception as exc:  # a decoder bug must not break the page
            self.message = f"This game link could not be opened ({exc.__class__.__name__})."
            return
        self.set_session(session, new_id(random.randrange(4096)))
        self.autosave()
        try:  # the game is saved now: a reload resumes it instead of re-opening the link
            self.window.history.replaceState(None, "", self.window.location.pathname)
        except Exception:
            pass

    def on_long_press(self, event) -> None:
        """A long press on a card (a touch screen's context menu) shows its rulebook text:
        the card takes the focus, which shows its tip, instead of the browser's menu."""
        target = event.target
        card = _el(target.closest(".card[tabindex], .academy-pick")) if _el(target) else None
        if card is not None:
            event.preventDefault()
            card.focus()

    def on_hash(self, _event=None) -> None:
        """A game link pasted into the address bar of an open tab opens that game."""
        fragment = str(self.window.location.hash or "")
        if not fragment.startswith("#") or len(fragment) < 2:
            return
        self.help_open = False
        self.replay = None
        self.open_link(fragment[1:])  # a bad link: its message, on the screen on show
        self.render()

    def resume(self, game_id: str, quiet: bool = False) -> None:
        try:
            record = self.store.load(game_id)
            session = Session(record)
        except RecordError as exc:
            self.message = f"The saved game could not be opened: {exc}"
            self.store.clear_current()
            self.screen = "new"
            return
        self.set_session(session, game_id)

    def set_session(self, session: Session, game_id: str) -> None:
        self.session = session
        self.bot_stats = BotStats()
        self.bot_table = None
        if any(session.record.bots) and not self.worker_state:
            asyncio.ensure_future(self.start_worker())
        self.game_id = game_id
        self.screen = "game"
        self.scores_closed = False
        self.message = ""

    def new_game(self) -> None:
        if not self.read_form():
            return
        f = self.form
        n = f.players
        session = Session.new(n, f.seed, f.names[:n], safe_colours(f.colours[:n]), f.bots[:n])
        self.set_session(session, new_id(f.seed))
        self.form.seed = random.randrange(1, 10**6)  # the next game gets a fresh seed
        self.autosave()

    def read_form(self) -> bool:
        doc = self.document
        f = self.form
        for i in range(f.players):
            name = _el(doc.getElementById(f"nova-name-{i}"))
            colour = _el(doc.getElementById(f"nova-colour-{i}"))
            bot = _el(doc.getElementById(f"nova-bot-{i}"))
            if name is not None:
                f.names[i] = str(name.value)[:24] or f"Player {i + 1}"
            if colour is not None and HEX.match(str(colour.value)):
                f.colours[i] = str(colour.value)
            if bot is not None:
                value = str(bot.value)
                f.bots[i] = value if value in BOT_NAMES else ""
        pace = _el(doc.getElementById("nova-bot-pace"))
        if pace is not None and str(pace.value) in BOT_PACE:
            f.pace = str(pace.value)
        think = _el(doc.getElementById("nova-bot-think"))
        if think is not None and str(think.value).isdigit() and int(think.value) in THINK_MS:
            f.think_ms = int(think.value)
        seed = _el(doc.getElementById("nova-seed"))
        if seed is not None:
            text = str(seed.value).strip()
            if not text.isdigit() or len(text) > 18:
                self.message = "The seed must be a whole number (0 or more)."
                return False
            f.seed = int(text)
        return True

    def show_help(self, open_: bool) -> bool:
        """Open or close the rules dialog over the screen by its layer's ``hidden``
        attribute: the screen under it stays as it is, and a press costs no new screen
        (a slow phone, bots playing). False if the page does not show the layer yet (the
        caller renders). Bots pause while it is open and go on when it closes."""
        self.help_open = open_
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
        self.body.setAttribute("data-nova-screen", self.current_screen())
        if not open_:
            if self.session is not None and not self.session.bot_to_move():
                self.bring_choice()
            self.resume_bots()
        return True

    # -- saving ---------------------------------------------------------------------------
    def autosave(self) -> None:
        if self.session is not None and self.game_id:
            self.store.save(self.game_id, self.session.record, self.session.state.is_over())

    # -- drawing --------------------------------------------------------------------------
    def markup(self) -> str:
        """The screen on show; the rules help is a dialog over it, so the screen under it
        (and every control on it) stays the same elements while the help is open."""
        html = self.screen_markup()
        s = self.session
        players = s.record.players if s else self.form.players
        variant = s.record.variant if s else None
        # always on the page, hidden while closed: opening and closing the rules is then one
        # attribute (show_help), not a new screen, and the page sends the text only once
        body = keyed(
            f'<div class="help-body">{help_html(players, variant)}</div>',
            "help-body",
            self.kept if self.can_morph() else frozenset(),
        )
        hidden = "" if self.help_open else " hidden"
        html += f'<div class="help-layer" id="help-layer"{hidden}>{body}</div>'
        return html

    def screen_markup(self) -> str:
        s = self.session
        if self.replay is not None:  # the replay screen
            return self.replay.screen_html(safe_colours(self.replay.record.colours))
        if self.screen == "new" or s is None:
            return new_game_html(
                self.form,
                self.store.entries(),
                self.message,
                self.store.error,
                can_return=s is not None,
                embed=self.embed,
            )
        names = s.record.names
        colours = safe_colours(s.record.colours)
        view = s.view()
        if s.needs_pass():
            return pass_html(
                view, names, colours, s.state.current_player, self.embed, s.marks(),
                self.message,
            )  # fmt: skip
        thinking = ""
        if s.bot_to_move():
            seat = s.state.current_player
            thinking = f"{names[seat]} ({s.record.bots[seat]} bot) is thinking…"
            if self.worker_state == "starting":
                thinking = f"{names[seat]} ({s.record.bots[seat]} bot) is getting ready…"
        status = " ".join(
            x for x in ("" if self.store.available else self.store.error, self.worker_note) if x
        )
        html = game_html(
            view, names, colours, s.record.bots, s.log, s.can_undo(), self.message, thinking,
            True, status, self.embed, marks=s.marks(), log_turns=s.log_turns(),
            known=self.kept if self.can_morph() else frozenset(), undo_why=s.undo_block(),
        )  # fmt: skip
        self.static_wanted = static_layer(view, colours)
        if s.state.is_over() and not self.scores_closed:
            html += scores_html(view, names, colours)
        return html

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
        s = self.session
        body = self.body
        body.setAttribute("data-nova-moves", str(len(s.record.moves)) if s else "0")
        body.setAttribute("data-nova-taken", str(s.taken_count()) if s else "0")
        if s is not None and s.state.is_over():
            body.setAttribute("data-nova-over", "")
        else:
            body.removeAttribute("data-nova-over")
        body.setAttribute("data-nova-screen", self.current_screen())
        ms = (time.perf_counter() - t0) * 1000
        self.render_ms.append(ms)
        body.setAttribute("data-nova-render-ms", f"{ms:.1f}")
        self.resume_bots()

    def shown_now(self) -> tuple:
        """What the screen would show: the game and how many moves into it."""
        s = self.session
        return (id(s), len(s.record.moves) if s is not None else -1, self.screen, id(self.replay))

    def resume_bots(self) -> None:
        """Mark whether a bot is to play on this screen, and start its loop if so."""
        body = self.body
        bot_turn = self.bots_may_play(self.session)
        if bot_turn:
            body.setAttribute("data-nova-bot-turn", "")
        else:
            body.removeAttribute("data-nova-bot-turn")
        if bot_turn and not self.bots_running:
            if not self.worker_state:
                asyncio.ensure_future(self.start_worker())
            else:
                asyncio.ensure_future(self.run_bots())

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
        if self.help_open or self.replay is not None or self.screen != "game":
            return
        s = self.session
        if s is None or s.bot_to_move() or (s.state.is_over() and not self.scores_closed):
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
        width = float(wrap.clientWidth) or 1.0
        scale = max(1.0, TAP_PX * BOARD_UNITS / (max(side, 1.0) * width))
        stage.style.setProperty("--zs", f"{scale:.3f}")
        wrap.classList.add("zoomed")
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

        ms = MOTION_MS.get(self.form.pace, 300)
        for i in range(els.length):
            el = els.item(i)
            key = f"{self.game_id}:{el.getAttribute('data-nova-motion')}"
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
        wanted, self.static_wanted = self.static_wanted, None
        if wanted is None:
            return
        key, markup = wanted
        slot = _el(self.root.querySelector(f'[data-nova-static="{key}"]'))
        if slot is not None and not slot.firstChild:
            slot.innerHTML = markup

    def current_screen(self) -> str:
        s = self.session
        if self.help_open:
            return "help"
        if self.screen == "new" or s is None:
            return "new"
        if s.needs_pass():
            return "pass"
        if s.state.is_over() and not self.scores_closed:
            return "scores"
        return "game"

    # -- bots -----------------------------------------------------------------------------
    async def start_worker(self) -> None:
        """Start the bots' worker (after the page is ready: it never delays the first paint).

        A second Pyodide in a PyScript named worker with ``sync_main_only``: the page only
        awaits its exports, so no SharedArrayBuffer and no COOP/COEP (the page stays
        embeddable). If it cannot start, the bots think on this page, in slices, and the
        page says so.
        """
        self.worker_state = "starting"
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
            self.worker_state = "failed"
            self.body.setAttribute("data-nova-worker", "failed")
            self.worker_note = (
                "The bots' helper could not start "
                f"({exc.__class__.__name__}), so they think on this page: "
                "it may answer a little slower while they do."
            )
        else:
            self.worker, self.worker_state = worker, "ready"
            self.body.setAttribute("data-nova-worker", "ready")
            ms = (time.perf_counter() - t0) * 1000
            self.body.setAttribute("data-nova-worker-ms", f"{ms:.0f}")
        if self.bots_may_play(self.session) and not self.bots_running:
            asyncio.ensure_future(self.run_bots())
        self.render()

    worker_note = ""

    async def run_bots(self) -> None:
        """Play the bot seats' decisions one after another, while a bot is to decide.

        A decision is asked of the worker with what the seat may see; the engine checks
        the answer. An answer that comes back after undo, a new game, the menu, help or a
        replay is stale and dropped (the loop asks again about what is on screen then).
        """
        if self.bots_running:
            return
        self.bots_running = True
        try:
            while self.bots_may_play(self.session):
                if self.worker_state == "starting":
                    return  # start_worker() restarts this loop once the worker is up
                s = self.session
                seat, at = s.state.current_player, s.moves
                name = s.record.bots[seat]
                seed = s.record.seed * 1_000_003 + at
                started = time.perf_counter()

                def moved_on(s=s, at=at) -> bool:  # undo, a new game, the menu, help, replay
                    return s.moves != at or not self.bots_may_play(s)

                try:
                    if self.worker is not None:
                        request = bot_request(
                            s.state, seat, s.record.bots, seed, self.form.think_ms,
                            f"{self.game_id}:{id(s)}",
                        )  # fmt: skip
                        answer = await self.worker.think(request)
                        if moved_on():
                            continue  # stale: ask again about what is on screen now
                        token, data = accept(s.state, seat, name, answer)
                        wall = (time.perf_counter() - started) * 1000
                        stats = self.bot_stats
                        stats.add(data.get("searched", False), data.get("positions", 0),
                                  data.get("ms", 0.0), wall)  # fmt: skip
                    else:
                        if self.bot_table is None:
                            self.bot_table = BotTable(s.record.bots, time_ms=self.form.think_ms)
                            self.bot_stats = self.bot_table
                        token = await self.bot_table.decide(
                            s.state, seat, seed, _breathe, cancelled=moved_on
                        )
                        if token is None:
                            continue
                except BotError as exc:
                    if moved_on():
                        continue
                    # never expected (the bots are tested to choose only legal moves); say so
                    # and play on with the first legal decision, so the game is not stuck
                    token = str(s.state.legal_moves()[0])
                    self.message = f"{exc}; it plays {token!r} instead."
                wait = BOT_PACE.get(self.form.pace, 0.0) - (time.perf_counter() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                if moved_on():
                    continue
                s.play(token)
                body = self.body
                body.setAttribute("data-nova-bot-move", token)
                body.setAttribute("data-nova-bot-where", "worker" if self.worker else "page")
                for k, v in self.bot_stats.stats().items():
                    body.setAttribute(f"data-nova-bot-{k}", v)
                # saving, making the markup and morphing the page are separate tasks, so
                # the page can paint and take a click between them on a slow device
                await _breathe()
                self.autosave()
                await _breathe()
                if self.help_open or self.replay is not None or self.screen != "game":
                    # opened meanwhile: the move shows when the game is back on screen (the
                    # rules' close and the replay's redraw it), not under them
                    continue
                drawn = self.renders
                html = self.markup()
                await _breathe()
                if self.renders == drawn:  # else a click drew a newer screen meanwhile
                    self.bots_running_render(html)
                await _breathe()  # the next request is a task of its own, too
        finally:
            self.bots_running = False

    def bots_may_play(self, s: Session | None) -> bool:
        """A bot decides only in the game on screen, not under the rules or a replay."""
        return (
            s is not None
            and s is self.session
            and self.screen == "game"
            and not self.help_open
            and self.replay is None
            and s.bot_to_move()
        )

    def bots_running_render(self, html: str | None = None) -> None:
        # render without re-scheduling (this loop is already running)
        running, self.bots_running = self.bots_running, True
        self.render(html)
        self.bots_running = running

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
        if self.help_open and _el(target) and not _el(target.closest(".help")):
            self.ui("close-help")  # a click beside the rules dialog closes it
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
                self.message = why
                self.render()
            return
        move = el.getAttribute("data-move")
        if not isinstance(move, str):  # a board Cargo Bay repeats a button's move
            move = el.getAttribute("data-alt-move")
        if isinstance(move, str) and move:
            event.preventDefault()
            self.play(move)
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
        a ship on the board. Say why not, in words naming the rule (the engine's)."""
        s = self.session
        if s is None or self.screen != "game" or self.replay is not None or not _el(target):
            return
        if s.state.is_over() or s.needs_pass():
            return
        why = ""
        el = _el(target.closest("[data-why]"))
        if el is not None:
            why = s.why_not(str(el.getAttribute("data-why")))
        else:
            el = _el(target.closest("[data-space],[data-stack]"))
            if el is None or not _el(target.closest("svg.board, svg.board-bg")):
                return
            name = el.getAttribute("data-space")
            if not isinstance(name, str):
                name = el.getAttribute("data-stack")
            why = s.why_not_space(str(name))
        if why and why != self.message:
            self.message = why
            self.render()

    def play(self, token: str) -> None:
        s = self.session
        if s is None or self.screen != "game" or s.bot_to_move() or self.replay is not None:
            return
        if self.help_open:  # the rules dialog is over the board
            return
        t0 = time.perf_counter()
        try:
            s.play(token)
        except IllegalMove as exc:
            self.message = str(exc)
            self.render()
            return
        self.message = ""
        t1 = time.perf_counter()
        self.autosave()
        t2 = time.perf_counter()
        self.body.setAttribute("data-nova-play-ms", f"{(t1 - t0) * 1000:.1f}")
        self.body.setAttribute("data-nova-save-ms", f"{(t2 - t1) * 1000:.1f}")
        self.render()

    def ui(self, name: str) -> None:
        s = self.session
        self.message = "" if name not in ("help", "close-help") else self.message
        if not name.startswith("replay") and name not in ("share", "help", "close-help"):
            self.replay = None  # any other control leaves the replay
        if name == "new-game":
            self.help_open = False
            self.new_game()
        elif name == "ready" and s is not None:
            s.ready()
        elif name == "undo" and s is not None:
            s.undo()
            self.autosave()
        elif name == "help":
            if not self.show_help(True):
                self.render()
            close = _el(self.root.querySelector(".help .close"))
            if close is not None:
                close.focus()
            return
        elif name == "close-help":
            if self.show_help(False):
                return
        elif name == "menu":
            self.read_form_quietly()
            self.screen = "new"
        elif name == "back" and s is not None:
            self.screen = "game"
        elif name == "close-scores":
            self.scores_closed = True
        elif name == "reseed":
            self.read_form_quietly()
            self.form.seed = random.randrange(1, 10**6)
        elif name.startswith("players:"):
            self.read_form_quietly()
            n = int(name.split(":")[1]) if name.split(":")[1] in ("2", "3", "4") else 2
            self.form.players = n
        elif name.startswith("resume:"):
            self.resume(name.split(":", 1)[1])
        elif name.startswith("delete:"):
            gid = name.split(":", 1)[1]
            self.store.delete(gid)
            if gid == self.game_id:
                self.session = None
                self.game_id = ""
        elif name == "share" and s is not None:
            self.start_share()
            return
        elif name == "full-page":
            self.open_full_page()
            return
        elif name.startswith("replay"):  # watch the game move by move
            self.replay_ui(name, s)
        self.render()

    def replay_ui(self, name: str, s: Session | None) -> None:
        """The share panel's "Watch the replay" and the replay bar's buttons."""
        if name == "replay" and s is not None:
            self.replay = Replay(s.record)
        elif self.replay is None:
            return
        elif name == "replay-close":
            self.replay = None
        elif name == "replay-play":  # continue from the shown step, as a new saved game
            record = self.replay.record_upto_step()
            self.replay = None
            self.set_session(Session(record), new_id(random.randrange(4096)))
            self.autosave()
        elif name == "replay-seek":
            slider = _el(self.document.querySelector('[data-ui="replay-seek"]'))
            self.replay.go(str(slider.value) if slider is not None else "")
        else:
            self.replay.go(name)

    def read_form_quietly(self) -> None:
        if self.screen == "new" and not self.help_open:
            keep = self.message
            self.read_form()
            self.message = keep

    def start_share(self) -> None:
        asyncio.ensure_future(self.share_and_focus())

    async def share_and_focus(self) -> None:
        """Open the share dialog and put the keyboard in it (its Copy button)."""
        task = asyncio.ensure_future(share(self.session.record, str(self.window.location.href)))
        await asyncio.sleep(0)  # share() fills and shows the panel before it first waits
        first = _el(self.document.querySelector("[data-nova-share-panel] button"))
        if first is not None:
            first.focus()
        await task

    def open_full_page(self) -> None:
        """Embedded: open the full page in a new tab, with the current game as its link."""
        here = str(self.window.location.href)
        s = self.session
        url = link_for(s.record, here) if s is not None else full_page_address(here)
        tab = self.window.open(url, "_blank")
        if hasattr(tab, "closed"):
            tab.opener = None  # the new tab need not reach back into this frame
        elif s is not None:
            # a sandboxed frame refuses new tabs: show the share panel, whose link is the same
            self.start_share()
        else:
            self.message = f"This browser refused to open a new tab; the full page is at {url}"
            self.render()

    def share_action(self, what: str) -> None:
        panel = _el(self.document.querySelector("[data-nova-share-panel]"))
        if what == "close" and panel is not None:
            panel.hidden = True
            self.bring_choice()
            opener = _el(self.root.querySelector('[data-ui="share"]'))
            if opener is not None and self.document.activeElement == self.body:
                opener.focus()
        elif what == "copy" and self.session is not None:
            self.start_share()

    def on_key(self, event) -> None:
        tag = str(getattr(event.target, "tagName", "") or "").lower()
        if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
            return
        key = str(event.key)
        s = self.session
        if key == "Escape":  # closes the topmost dialog: share, then help, then the scores
            if self.share_panel() is not None:
                self.share_action("close")
            elif self.help_open:
                self.ui("close-help")
            elif self.current_screen() == "scores":
                self.ui("close-scores")
            return
        if key in ("?", "h"):
            self.ui("help")
            return
        if self.replay is not None:  # arrows step through the replay
            step = {"ArrowLeft": "replay-prev", "ArrowRight": "replay-next"}.get(key)
            if step:
                event.preventDefault()
                self.ui(step)
            return
        if s is None or self.screen != "game" or self.help_open:
            return
        if s.needs_pass():
            if key in ("Enter", " "):
                event.preventDefault()
                self.ui("ready")
            return
        if key == "u":
            self.ui("undo")
            return
        legal = [str(m) for m in s.view().get("legal", [])]
        focused = _el(event.target)
        if key in ("Enter", " ") and focused is not None and not _is_native_button(focused):
            # a board target or an Academy card (role="button") acts like a button
            token = focused.getAttribute("data-move")
            if isinstance(token, str) and token:
                event.preventDefault()
                self.play(token)
                return
        if key == "e" or (key == "Enter" and not _is_button(event.target)):
            if "E" in legal:
                event.preventDefault()
                self.play("E")
            return
        if key in CARD_KEYS:
            self.card_key(key, event)
            return
        for token, k in assign_keys(legal).items():
            if k == key:
                event.preventDefault()
                self.play(token)
                return

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
        if why is not None and self.session is not None:
            self.message = self.session.why_not(str(why.getAttribute("data-why")))
            self.render()


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
        window.addEventListener("hashchange", create_proxy(_app.on_hash))
        document.addEventListener("contextmenu", create_proxy(_app.on_long_press))
        _app.start()
    except Exception as exc:
        document.body.setAttribute("data-nova-error", f"{exc.__class__.__name__}: {exc}")
        raise
    # what booting made (modules, content, caches) lives as long as the page: the cyclic
    # collector need not walk it again at every collection, a pause on the main thread
    gc.freeze()
    return _app
