"""What the page does with a frame besides its markup (page.py draws it; MicroPython, as
page.py): where the keyboard goes next, the phone's board zoom, the moves' animation; and the
small DOM helpers both use."""

import json

# MicroPython's own FFI, not PyScript's pyscript package: the build leaves out the bootstrap
# that wrote that package into MicroPython's files and imported it at every start, most of
# the page's longest start-up task (tools/build_site.py, pyscript_unbooted)
import js as _globals
from jsffi import create_proxy
from polyscript import workers as _workers

document, window = _globals.document, _globals.window

root = document.getElementById("app")
body = document.body
PHONE_MAX_PX = 700
TAP_PX = 48
BOARD_UNITS = 1100
FLOOR_PX = 45
TALL_PX = 700
IN_VIEW = 0.35
MAX_ZOOM = 4.0
CHOICES = (
    ".pass-card [data-ui=ready]",
    ".fold-ways [data-alt-move]",  # the chooser of a place several ways reach
    ".choices [data-move]",
    "svg.board [data-move]",
    ".academy [data-move]",
    ".hand [data-move]",
    "#move-E",
)

# what was shown already: the drawer's decision, each game's animated arrivals
shown = {"drawer_at": None, "animated": {}}


def js(value):
    """A JS object (or array) from a Python value."""
    return window.JSON.parse(json.dumps(value))


async def named_worker(name):
    """A PyScript worker by its name, once it is up (pyscript.workers[name])."""
    return await _globals.Reflect.get(_workers, name)


async def create_named_worker(src, name, config, kind="py"):
    """pyscript.create_named_worker: a worker's script element, then the worker once up."""
    script = document.createElement("script")
    script.type = kind
    script.src = src
    script.setAttribute("worker", "")
    script.setAttribute("name", name)
    script.setAttribute("config", config)
    body.append(script)
    return await named_worker(name)


def frame_of(text):
    """A frame (nova.web.protocol.Frame) from the worker's JSON. The browser parses it: the
    markup, a frame's bulk, is taken whole, and only the rest goes through MicroPython's
    json.loads (7 of the 8 ms a 60 kB frame took under Node; four times that on a phone)."""
    f = window.JSON.parse(text)
    html, layer = f.html, f.static
    window.Reflect.deleteProperty(f, "html")
    window.Reflect.deleteProperty(f, "static")
    frame = json.loads(str(window.JSON.stringify(f)))
    frame["html"] = html if isinstance(html, str) else None
    has_layer = bool(window.Array.isArray(layer)) and layer.length == 2
    frame["static"] = [str(layer[0]), str(layer[1])] if has_layer else None
    return frame


def el(x):
    """A DOM element, or None (JS null and undefined, text nodes)."""
    try:
        return x if x is not None and x.nodeType == 1 else None
    except Exception:
        return None


def attr(e, name):
    """An attribute's value as a str, or None."""
    if e is None or not e.hasAttribute(name):
        return None
    return str(e.getAttribute(name))


def closest(e, selector):
    return el(e.closest(selector)) if e is not None else None


def bring_choice(kind):
    """The keyboard goes to the next choice unless it is on a control still there."""
    if kind == "game":
        drawer_to_top(attr(body, "data-nova-moves"))
    elif kind == "lesson":  # a new lesson, or its next step (the prompt's data-step turns)
        step = el(root.querySelector("#prompt"))
        at = "done" if step is None else (attr(step, "data-step") or "")
        drawer_to_top(str(attr(body, "data-nova-lesson")) + ":" + at)
    active = el(document.activeElement)
    if active is not None and active != body and active.isConnected:
        if kind == "lesson" and active.hasAttribute("data-lesson-target"):
            return
        if kind == "game" and closest(active, "[data-move],[data-ui],input,select,a,[tabindex]"):
            if attr(active, "aria-disabled") != "true":
                return
    chosen = ("[data-lesson-target]", '[data-ui="next-lesson"]') if kind == "lesson" else CHOICES
    for sel in chosen:
        e = el(root.querySelector(sel))
        if e is not None:
            e.focus(js({"preventScroll": True}))
            if kind == "game" and card_shown(e):
                return
            r = e.getBoundingClientRect()
            if r.top < 0 or r.bottom > window.innerHeight:
                e.scrollIntoView(js({"block": "center"}))
            else:
                e.scrollIntoView(js({"block": "nearest", "inline": "nearest"}))
            return


def card_shown(e):
    """A play of a card in hand whose card shows (its top in the drawer's view and on screen):
    a game's choice not scrolled to (a lesson's target is). On a phone the drawer scrolled
    to a card's lowest play hid End turn under the held instruction."""
    card = closest(e, ".hand-card")
    if card is None:
        return False
    top, low, high = card.getBoundingClientRect().top, 0, window.innerHeight
    drawer = closest(card, ".controls")
    if drawer is not None:
        view = drawer.getBoundingClientRect()
        low, high = max(low, view.top), min(high, view.bottom)
    return low <= top < high


def drawer_to_top(at):
    """A new decision (``at`` names it: the decision count, a lesson's step) shows the
    phone's drawer from its top, not where the last one had scrolled it."""
    if shown.get("drawer_at") == at:
        return
    shown["drawer_at"] = at
    drawer = el(root.querySelector(".game .controls"))
    if drawer is not None:
        drawer.scrollTop = 0


def zoom_board():
    """A phone zooms the board to its choices (the player's own pinch
    kept: boot.js's novaUserZoom); the scale and scroll are nova/render/zoom.py's
    zoom_window, the same arithmetic (MicroPython has no dataclasses to import it)."""
    stage = el(root.querySelector(".board-stage"))
    if stage is None:
        return
    keep = window.novaUserZoom
    if keep and keep(stage):
        return
    wrap = stage.parentElement
    box = zoom_box(attr(stage, "data-zoom"))
    if box is None or window.innerWidth > PHONE_MAX_PX:
        wrap.classList.remove("zoomed")
        for name in ("tabindex", "role", "aria-label"):
            wrap.removeAttribute(name)
        return
    wrap.classList.add("zoomed")
    scale, left, top = zoom_window(
        box, float(wrap.clientWidth) or 1.0, float(wrap.clientHeight), float(window.innerHeight)
    )
    stage.style.setProperty("--zs", f"{scale:.3f}")
    wrap.setAttribute("tabindex", "0")
    wrap.setAttribute("role", "region")
    wrap.setAttribute("aria-label", "The board, zoomed to the choices (scrolls)")
    wrap.scrollLeft = left
    wrap.scrollTop = top


def zoom_box(spec):
    """ZoomBox.parse: (x0, y0, x1, y1, side), or None."""
    try:
        x0, y0, x1, y1, side = [float(v) for v in str(spec).split()]
    except ValueError:
        return None
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1, side


def zoom_window(box, width, height, screen_height):
    """nova/render/zoom.py's zoom_window: (scale, left, top)."""
    x0, y0, x1, y1, side = box
    width, height = max(width, 1.0), max(height, 1.0)
    side = max(side, 1.0)
    tap = TAP_PX * BOARD_UNITS / (side * width)
    cap = (height / (IN_VIEW * width)) ** 0.5
    if screen_height >= TALL_PX:
        cap = max(cap, FLOOR_PX * BOARD_UNITS / (side * width))
    fit = min(BOARD_UNITS / (x1 - x0), BOARD_UNITS * height / (width * (y1 - y0)))
    scale = max(min(1.0, fit), min(tap, cap, fit, MAX_ZOOM))
    px = width * scale / BOARD_UNITS
    left = (x0 + x1) / 2 * px - width / 2
    top = (y0 + y1) / 2 * px - height / 2
    left = min(max(left, 0.0), max(0.0, width * scale - width))
    top = min(max(top, 0.0), max(0.0, width * scale - height))
    return scale, left, top


def animate(game_id, pace):
    """Each newly arrived stack's way on the board, once (not under reduced motion), in
    ``pace`` ms; remembered by ``game_id``."""
    els = root.querySelectorAll("[data-nova-motion]")
    if not els.length:
        return
    reduce = bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)
    for i in range(els.length):
        e = els.item(i)
        key = game_id + ":" + str(e.getAttribute("data-nova-motion"))
        if key in shown["animated"]:
            continue
        shown["animated"][key] = True
        frames = []
        for pair in str(attr(e, "data-nova-path") or "").split():
            x, _, y = pair.partition(",")
            try:
                frames.append({"transform": f"translate({float(x):.1f}px,{float(y):.1f}px)"})
            except ValueError:
                frames = []
                break
        if reduce or len(frames) < 2:
            continue
        e.setAttribute("data-nova-animated", "")
        e.animate(js(frames), js({"duration": pace, "easing": "ease-in-out"}))
