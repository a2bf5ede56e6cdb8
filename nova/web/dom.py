"""The page's DOM work that a pure function cannot do: putting the markup on the page
(Idiomorph), the focus on the next choice, the phone's board zoom, the moves' animation,
the board's unchanging layer. A part of :class:`nova.web.app.App` (it mixes this in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..render.zoom import ZoomBox, zoom_window
from .controller import GameScreen, TutorialScreen

if TYPE_CHECKING:
    from .controller import Controller

# how long a ship's travel on the board takes, by the bots' pace (a person's moves too)
MOTION_MS = {"watch": 420, "quick": 160}
PHONE_MAX_PX = 700  # narrower than this, a board choice zooms the board (zoom_board)


class Painting:
    """Drawing what the controller says on the page (mixed into ``App``)."""

    c: Controller
    document: Any
    window: Any
    root: Any
    body: Any
    animated: set[str]

    # where the next choice is, most specific first (the action under way, then the board,
    # the Academy, the hand, End turn); the pass screen's Ready
    CHOICES = (
        ".pass-card [data-ui=ready]",
        ".fold-ways [data-alt-move]",  # the chooser of a place several ways reach
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
        if ui.share is not None:  # the share dialog keeps the focus
            return
        self.drawer_to_top(len(s.record.moves))
        active = element(self.document.activeElement)
        if (
            active is not None
            and active is not self.body
            and bool(active.isConnected)
            and active.getAttribute("aria-disabled") != "true"
            and element(active.closest("[data-move],[data-ui],input,select,a,[tabindex]"))
        ):
            return
        for sel in self.CHOICES:
            el = element(self.root.querySelector(sel))
            if el is None:
                continue
            self.bring(el)
            return

    def drawer_to_top(self, moves: int) -> None:
        """A new decision shows the phone's drawer from its top, where its prompt and the
        choices of the moment are: a drawer left scrolled down by the last one (a hand that
        got shorter) would hide them."""
        if getattr(self, "drawer_at", None) == moves:
            return
        self.drawer_at = moves
        drawer = element(self.root.querySelector(".game .controls"))
        if drawer is not None:
            drawer.scrollTop = 0

    def bring_lesson_choice(self) -> None:
        """In a lesson the focus goes to what the lesson expects next (its first target,
        or "Next lesson" once the goal is met), unless it is on a target already: a
        keyboard player goes through a lesson with Enter alone."""
        active = element(self.document.activeElement)
        if (
            active is not None
            and bool(active.isConnected)
            and active.hasAttribute("data-lesson-target")
        ):
            return
        for sel in ("[data-lesson-target]", '[data-ui="next-lesson"]'):
            el = element(self.root.querySelector(sel))
            if el is not None:
                self.bring(el)
                return

    def zoom_board(self) -> None:
        """On a phone, a board choice zooms the board to frame every choice, each target as
        large as that allows (the renderer gives the targets' box, ``data-zoom``; the scale
        and scroll are ``render/zoom.py``'s arithmetic); otherwise the whole board shows."""
        stage = element(self.root.querySelector(".board-stage"))
        if stage is None:
            return
        keep = getattr(self.window, "novaUserZoom", None)  # the player's pinch (boot.js)
        if keep is not None and keep(stage):
            return
        wrap = stage.parentElement
        spec = stage.getAttribute("data-zoom")
        box = ZoomBox.parse(spec) if isinstance(spec, str) else None
        if box is None or float(self.window.innerWidth) > PHONE_MAX_PX:
            wrap.classList.remove("zoomed")
            for name in ("tabindex", "role", "aria-label"):
                wrap.removeAttribute(name)
            return
        wrap.classList.add("zoomed")
        width = float(wrap.clientWidth) or 1.0
        zv = zoom_window(box, width, float(wrap.clientHeight), float(self.window.innerHeight))
        stage.style.setProperty("--zs", f"{zv.scale:.3f}")
        # the zoomed board scrolls: a keyboard must reach it too (arrow keys scroll it)
        wrap.setAttribute("tabindex", "0")
        wrap.setAttribute("role", "region")
        wrap.setAttribute("aria-label", "The board, zoomed to the choices (scrolls)")
        wrap.scrollLeft = zv.left
        wrap.scrollTop = zv.top

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

    def fill_static_layer(self, wanted: tuple[str, str] | None) -> None:
        """Fill the board's unchanging layer (``Drawing.static``: key, markup) when it is
        new or its key changed.

        The morph leaves a filled layer alone while its key (``data-nova-keep``) stays the
        same; otherwise the slot arrives empty and gets the (cached) markup once.
        """
        if wanted is None:
            return
        key, markup = wanted
        slot = element(self.root.querySelector(f'[data-nova-static="{key}"]'))
        if slot is not None and not slot.firstChild:
            slot.innerHTML = markup

    def download(self, name: str, text: str, mime: str) -> None:
        """Offer ``text`` as a file ``name`` (made here: nothing is sent)."""
        from pyscript.ffi import create_proxy, to_js

        window = self.window
        options = to_js({"type": mime}, dict_converter=window.Object.fromEntries)
        blob = window.Blob.new(to_js([text]), options)
        url = window.URL.createObjectURL(blob)
        a = self.document.createElement("a")
        a.href, a.download = url, name
        self.body.appendChild(a)
        a.click()
        a.remove()
        window.setTimeout(create_proxy(lambda: window.URL.revokeObjectURL(url)), 1000)


def element(x):
    """A DOM element, or None for JS null/undefined (which are not Python None)."""
    return x if x is not None and hasattr(x, "getAttribute") else None


def is_native_button(el) -> bool:
    return str(getattr(el, "tagName", "") or "").lower() == "button"


def is_button(el) -> bool:
    # Enter on a focused button clicks it; do not also end the turn
    tag = str(getattr(el, "tagName", "") or "").lower()
    return tag == "button" or (hasattr(el, "getAttribute") and el.getAttribute("role") == "button")


def new_tab(window, url: str) -> bool:
    """Open ``url`` in a new tab; False if the browser refused (a sandboxed frame without
    ``allow-popups``). The new tab cannot reach back into this page."""
    tab = window.open(url, "_blank")
    if not hasattr(tab, "closed"):
        return False
    tab.opener = None
    return True


def local_storage(window):
    """window.localStorage, or None where touching it throws (private mode, iframes)."""
    try:
        ls = window.localStorage
        if ls is None or not hasattr(ls, "getItem"):
            return None
        return ls
    except Exception:
        return None
