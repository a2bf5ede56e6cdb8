"""The page's main thread in MicroPython (index.html): it only draws what the
game's worker sends and forwards what happens. The game (controller, screens, markup,
saves, bots) is in the worker (game_worker.py, Pyodide); the messages are
nova/web/protocol.py's, as JSON (PageMessage this way, Frame back).

MicroPython: no dataclasses or typing here, JS objects made with JSON.parse. Until the
worker is up, the prerendered first screen takes a level and Start: the clicks wait in a
queue and the wait is said; the game begins when the worker answers.
"""

import asyncio
import json

from page_board import (
    animate, attr, bring_choice, closest, create_named_worker, create_proxy, document, el,
    frame_of, js, named_worker, window, zoom_board,
)  # fmt: skip

root = document.getElementById("app")
body = document.body
CARD_KEYS = "1234567890"

game = {"worker": None, "queue": [], "keys": (), "focus": "", "pace": 300, "id": "",
        "pulling": {}, "failed": False, "name": "nova-game", "starts": 1,
        "restarting": False, "outbox": [], "sending": False}  # fmt: skip
WORKER_SRC = "./game_worker.py"
# a worker that has not answered in this long is taken for dead (a phone out of memory, a
# crash: its calls never settle) and started again from the last save
ANSWER_S = 20
BOOT_S = 60  # the game's worker not up by then counts as failed


# -- what the page reads -----------------------------------------------------------------
def fields():
    """The page's fields (nova.web.protocol / host.fields_of: FormInput's names)."""

    def value(i):
        e = el(document.getElementById(i))
        return str(e.value) if e is not None else None

    seats = []
    for i in range(6):
        if el(document.getElementById("nova-name-" + str(i))) is None and i >= 2:
            break
        seats.append(i)
    slider = el(document.querySelector('[data-ui="replay-seek"]'))
    return {
        "names": [value("nova-name-" + str(i)) for i in seats],
        "colours": [value("nova-colour-" + str(i)) for i in seats],
        "bots": [value("nova-bot-" + str(i)) for i in seats],
        "pace": value("nova-bot-pace"),
        "think_ms": value("nova-bot-think"),
        "seed": value("nova-seed"),
        "seek": str(slider.value) if slider is not None else None,
        "here": str(window.location.href),
    }


def target_of(t):
    """A click's target as protocol.Target says it."""
    if t is None:
        return {"element": False}
    c = closest(t, "[data-move],[data-alt-move],[data-ui],[data-nova-share]")
    d = {
        "element": True,
        "in_share_panel": closest(t, "[data-nova-share-panel]") is not None,
        "on_share_button": closest(t, '[data-ui="share"]') is not None,
        "in_help": closest(t, ".help") is not None,
    }
    if c is not None:
        d["move"] = attr(c, "data-move") or attr(c, "data-alt-move")
        d["ui"] = attr(c, "data-ui")
        d["share"] = attr(c, "data-nova-share")
        d["disabled"] = c.hasAttribute("disabled")
        if attr(c, "aria-disabled") == "true":
            d["why_ui"] = attr(c, "data-why-ui") or ""
        return d
    why = closest(t, "[data-why]")
    if why is not None:
        d["why"] = attr(why, "data-why")
    space = closest(t, "[data-space],[data-stack]")
    if space is not None and closest(t, "svg.board, svg.board-bg") is not None:
        d["space"] = attr(space, "data-space") or attr(space, "data-stack")
    return d


# -- talking to the worker ---------------------------------------------------------------
def busy(change):
    """Count the messages whose frame is not drawn yet: <body data-nova-pending> while any
    is (the bots' pulls are not counted: they go on by themselves). Tests wait for it."""
    game["pending"] = max(0, game.get("pending", 0) + change)
    if game["pending"]:
        body.setAttribute("data-nova-pending", str(game["pending"]))
    else:
        body.removeAttribute("data-nova-pending")


def send(message):
    """Send a message to the game's worker (queued until it is up), one at a time: each
    after the frame of the one before is drawn, as index.html answers each event before
    the next (a Start tapped while the level's frame is on its way reads the level)."""
    busy(1)
    if game["worker"] is None:
        if "fields" in message and not game["starts"] - 1:
            message["early"] = True  # the prerendered form's fields, as the person left them
        game["queue"].append(message)
        if message.get("ask") == "click" and not game["failed"]:
            waiting()
        return
    game["outbox"].append(message)
    if not game["sending"]:
        game["sending"] = True  # (now: the task starts later, and one pump is enough)
        asyncio.create_task(pump())


async def pump():
    try:
        while game["outbox"] and game["worker"] is not None:
            message = game["outbox"].pop(0)
            if "fields" in message and not message.pop("early", False):
                message["fields"] = fields()  # the form as it is now, the frames before drawn
            await call(message)
    finally:
        game["sending"] = False
    if game["worker"] is None:  # no worker came up again: what waits goes with the next
        game["queue"] = game["outbox"] + game["queue"]
        game["outbox"] = []


async def ask(message):
    """The worker's frame for ``message``, or None if it did not answer in ANSWER_S. (Its
    answer is taken the moment it comes: frames are drawn in the order the worker made
    them, which its elided parts need.)"""
    worker, box, done = game["worker"], {}, asyncio.Event()

    async def go():
        try:
            box["text"] = str(await worker.handle(json.dumps(message)))
        except Exception as exc:
            window.console.warn("nova: the game's worker failed: " + str(exc))
            box["text"] = None
        done.set()

    asyncio.create_task(go())
    limit = ANSWER_S
    try:
        limit = float(window.novaAnswerS)  # a test's shorter wait
    except Exception:
        pass
    try:
        await asyncio.wait_for(done.wait(), limit)
    except Exception:  # (asyncio.TimeoutError): taken for dead
        pass
    return box.get("text")


async def call(message):
    text = await ask(message)
    if text is None:  # sent again, first, once a worker is up (still counted): nothing lost
        game["outbox"].insert(0, message)
        if game["worker"] is not None:
            await restart()
        return
    draw(frame_of(text))
    busy(-1)


def pull(kind):
    """Ask the worker again (a bot's next decision, the hint), one at a time."""
    if game["pulling"].get(kind):
        return
    game["pulling"][kind] = True

    async def go():
        try:
            text = await ask({"ask": kind})
        finally:
            game["pulling"][kind] = False
        if text is None:
            await restart()
            return
        draw(frame_of(text))

    asyncio.create_task(go())


async def restart():
    """The worker died: end it, start another from the page's storage (the last save),
    which says so in plain words; then send what waited."""
    if game["restarting"] or game["worker"] is None:
        return
    game["restarting"] = True
    game["worker"] = None  # clicks wait in the queue meanwhile
    from page_lab import end_worker  # (the workbench's module: loaded when first needed)

    end_worker(game["name"])
    game["starts"] += 1
    game["name"] = "nova-game-" + str(game["starts"])
    body.setAttribute("data-nova-worker-starts", str(game["starts"]))
    try:
        worker = await create_named_worker(
            src=WORKER_SRC, name=game["name"], config="./pyscript.toml"
        )
        await begin(worker, True)
    except Exception as exc:  # said in plain words, with a way to try again (boot.js)
        window.console.warn("nova: the game's worker did not start again: " + str(exc))
        window.novaFailed("The game's worker did not start again: " + str(exc), True)
    finally:
        game["restarting"] = False


def waiting():
    """A click before the worker is up: say that the game is on its way."""
    if body.hasAttribute("data-nova-error"):
        return  # it could not start: that is said (boot.js)
    box = el(document.getElementById("nova-boot"))
    if box is not None:
        text = el(box.querySelector(".nova-boot-text"))
        if text is not None:
            text.textContent = "Starting the game… it begins as soon as it is ready."
    body.setAttribute("data-nova-queued", "")


# -- drawing a frame ---------------------------------------------------------------------
def draw(frame):
    for key, value in frame.get("writes", ()):
        refused = str(window.novaStorage.write(key, value))  # boot.js: MicroPython cannot
        if refused:  # catch what the storage throws; the game says so
            send({"ask": "refused", "key": key, "how": refused})
            break
    html = frame.get("html")
    if html is not None:
        if leaves_the_menu(frame):  # boot.js: a new screen's markup set, not morphed
            drawn = window.novaReplace(root, html)
        else:
            drawn = window.novaMorph(root, html, True)  # the field typed in is kept
        if drawn is False:
            send({"ask": "redraw"})
        static = frame.get("static")
        if static:
            slot = el(root.querySelector('[data-nova-static="' + static[0] + '"]'))
            if slot is not None and not slot.firstChild:
                slot.innerHTML = static[1]
        game["pace"] = frame.get("pace_ms", 300)
        game["id"] = frame.get("game_id", "")
        animate(game["id"], game["pace"])
        zoom_board()
    for name, value in frame.get("body", {}).items():
        if value is None:
            body.removeAttribute(name)
        else:
            body.setAttribute(name, value)
    game["keys"] = tuple(frame.get("keys", ()))
    for effect in frame.get("effects", ()):
        perform(effect["kind"], effect["data"])
    if frame.get("focus"):
        bring_choice(frame["focus"])
    for kind in frame.get("pull", ()):
        pull(kind)


def leaves_the_menu(frame):
    """The menu's Start (or Learn to play, or the workbench): nothing of the menu stays but
    its keyed parts, so the new screen is set, not morphed (boot.js's novaReplace)."""
    screen = frame.get("body", {}).get("data-nova-screen")
    return screen is not None and screen != "new" and body.getAttribute("data-nova-screen") == "new"


def perform(kind, data):
    if kind == "help":
        layer = el(root.querySelector("#help-layer"))
        if layer is not None:
            if data["open"]:
                layer.removeAttribute("hidden")
                close = el(layer.querySelector(".help .close"))
                if close is not None:
                    close.focus()
            else:
                layer.setAttribute("hidden", "")
    elif kind == "address":
        try:
            window.history.replaceState(None, "", str(window.location.pathname) + data["search"])
        except Exception:
            pass
    elif kind == "tab":
        tab = window.open(data["url"], "_blank")
        opened = tab is not None and hasattr(tab, "closed")
        if opened:
            tab.opener = None
        send({"ask": "answer", "answer_id": data["id"], "how": "opened" if opened else ""})
    elif kind == "offer":
        asyncio.create_task(offer(data))
    elif kind == "download":
        blob = window.Blob.new(js([data["text"]]), js({"type": data["mime"]}))
        url = window.URL.createObjectURL(blob)
        a = document.createElement("a")
        a.href = url
        a.download = data["name"]
        body.appendChild(a)
        a.click()
        a.remove()
    elif kind == "snapshot":  # how the game's worker booted (tests, bench-page)
        document.documentElement.setAttribute("data-nova-snapshot", data["state"])
    elif kind == "lab":
        from page_lab import lab_run

        asyncio.create_task(lab_run(data["workers"], ask, draw))
    elif kind == "lab-end":
        from page_lab import lab_end

        lab_end()
    elif kind == "refocus":
        bring_choice("game")
        button = el(root.querySelector(data["opener"]))
        if button is not None and document.activeElement == body:
            button.focus()


async def offer(data):
    """The device's share menu, else the clipboard; what it did goes back."""
    if data.get("focus"):
        first = el(document.querySelector(data["focus"]))
        if first is not None:
            first.focus()
    how = ""
    nav = window.navigator
    try:
        if hasattr(nav, "share") and nav.share:
            await nav.share(js({"title": data["title"], "url": data["url"]}))
            how = "shared"
    except Exception:
        how = ""
    if not how:
        try:
            await nav.clipboard.writeText(data["url"])
            how = "copied"
        except Exception:
            how = ""
    send({"ask": "answer", "answer_id": data["id"], "how": how})


# -- events ------------------------------------------------------------------------------
def on_click(event):
    target = target_of(el(event.target))
    if target.get("move") or target.get("ui"):
        event.preventDefault()
    tap(target)


def tap(target):
    """A tap on what ``target`` describes (a click now, or one kept from before)."""
    level = target.get("ui") or ""
    if game["worker"] is None and level.startswith("level:"):
        # before the worker is up, the level's tap shows at once, and the form's seats say
        # it (as the start screen's step does: every seat but the first plays the level),
        # so that a Start tapped next reads it from the fields
        buttons = root.querySelectorAll("[data-ui^='level:']")
        for i in range(buttons.length):
            b = buttons.item(i)
            b.setAttribute("aria-pressed", "true" if attr(b, "data-ui") == level else "false")
        for i in range(1, 6):
            seat = el(document.getElementById("nova-bot-" + str(i)))
            if seat is not None:
                seat.value = level[len("level:") :]
    send({"ask": "click", "target": target, "fields": fields()})


def on_key(event):
    t = el(event.target)
    tag = str(t.tagName).lower() if t is not None else ""
    if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
        return
    key = str(event.key)
    move = None
    if t is not None and tag != "button":
        move = attr(t, "data-move")
    on_button = tag == "button" or attr(t, "role") == "button"
    if key in CARD_KEYS and key in game["keys"]:
        card = el(root.querySelector('.hand [data-card-key="' + key + '"]'))
        if card is None:
            return
        event.preventDefault()
        play = el(card.querySelector("[data-move]"))
        if play is not None:
            play.focus()
            return
        why = el(card.querySelector("[data-why]"))
        if why is not None:
            send({"ask": "click", "target": {"why": attr(why, "data-why")}, "fields": fields()})
        return
    if key in game["keys"] or (move and key in ("Enter", " ")):
        if on_button and key in ("Enter", " ") and not move:
            return  # the browser clicks the focused button
        event.preventDefault()
        send({"ask": "key", "key": key, "value": move, "on_button": on_button})


def on_change(event):
    t = el(event.target)
    name = attr(t, "data-lab")
    if name:
        send({"ask": "change", "key": name, "value": str(t.value)})


def on_hash(event):
    fragment = str(window.location.hash or "")
    if len(fragment) > 1:
        send({"ask": "hash", "value": fragment[1:]})


def on_storage(event):
    key = event.key
    if isinstance(key, str) and key.startswith("nova"):
        value = event.newValue
        send({"ask": "storage", "key": key, "value": value if isinstance(value, str) else None})


def on_long_press(event):
    card = closest(el(event.target), ".card[tabindex], .academy-pick")
    if card is not None:
        event.preventDefault()
        card.focus()


def stored():
    """The storage's nova keys, or None where the page's storage is off (boot.js reads
    them: where storage is denied, touching it throws past MicroPython's try)."""
    return json.loads(str(window.novaStorage.items()))


async def main():
    for name, handler, where in (
        ("click", on_click, document), ("keydown", on_key, document),
        ("change", on_change, document), ("contextmenu", on_long_press, document),
        ("hashchange", on_hash, None), ("storage", on_storage, None),
    ):  # fmt: skip
        if where is None:  # the window's own (MicroPython's window proxy calls it unbound)
            document.defaultView.addEventListener(name, create_proxy(handler))
        else:
            where.addEventListener(name, create_proxy(handler))
    body.setAttribute("data-nova-page", "mpy")
    # the taps made before this page listened (assets/taps.js), in order: each as if now
    early = window.novaEarlyTaps
    body.removeAttribute("data-nova-pending")
    for i in range(early.length if early else 0):
        tap(target_of(el(early[i])))

    async def up():  # (PyScript waits for ever for a worker whose script fails: a bound)
        await begin(await named_worker("nova-game"), False)

    try:
        await asyncio.wait_for(up(), BOOT_S)
    except Exception as exc:  # said in plain words, with a way to try again (boot.js)
        game["failed"] = True
        window.console.warn("nova: the game's worker did not start: " + str(exc))
        window.novaFailed("The game's worker did not start: " + str(exc))


def memory_gb():
    """navigator.deviceMemory (Chromium only), or None."""
    try:
        m = window.navigator.deviceMemory
        return float(m) if isinstance(m, (int, float)) else None
    except Exception:
        return None


def shown_keys():
    """The data-nova-keep keys of the parts on screen (nova/render/keep.py)."""
    parts = root.querySelectorAll("[data-nova-keep]")
    return [str(parts.item(i).getAttribute("data-nova-keep")) for i in range(parts.length)]


async def begin(worker, restarted):
    """The worker is up: start the game there, draw its first frame, send what waited."""
    loc = window.location
    start = {
        "ask": "start",
        "page_url": str(loc.origin) + str(loc.pathname),
        "query": "" if restarted else str(loc.search or ""),
        "value": "" if restarted else str(loc.hash or "")[1:],
        "embed": bool(document.documentElement.classList.contains("nova-embed")),
        "storage": stored(),
        "how": str(window.novaStorage.probe()),  # a write refused already (full storage)
        "restarted": restarted,
        "cores": int(window.navigator.hardwareConcurrency or 1),
        "memory_gb": memory_gb(),
        # the first install of the service worker: the worker hands its downloads over
        "hand_over": (not restarted) and bool(await window.novaFirstInstall),
        # what the page shows already (the prerendered screen's rules help: three quarters
        # of its elements) comes back elided, and the first frame's morph skips it
        "kept": shown_keys(),
    }
    text = await worker.start(json.dumps(start))
    game["worker"] = worker
    # the worker's first screen morphs the prerendered one (index.html's): what is the same
    # stays on screen as it was, not painted again (the page's largest paint stays early)
    draw(frame_of(str(text)))
    body.removeAttribute("data-nova-queued")
    queued, game["queue"] = game["queue"], []
    # a returning visitor's game (or a link's) is on screen, not the form tapped meanwhile:
    # those taps were on a screen that is gone
    gone = not restarted and attr(body, "data-nova-screen") != "new"
    for message in queued:
        busy(-1)  # counted when it was queued; send counts it again
        if not (gone and message.pop("early", False)):
            send(message)


asyncio.create_task(main())
