"""A pytest plugin for running the browser suite against threads.html (issue 52), not loaded
by default: after each Playwright action, wait until the page has drawn the frames of what it
sent (``<body data-nova-pending>`` gone). On index.html a click's handler draws before the
click returns; on threads.html the frame comes back from the worker a moment later, so the
tests' immediate reads need this wait (keyboard presses, mouse clicks and a script's evaluate too).

Try it (docs/PAGE.md, "Two threads"): build, copy ``_site/threads.html`` over
``_site/index.html``, then
``PYTHONPATH=tests NOVA_SITE_BUILT=1 .venv/bin/python -m pytest -p threads_settle``
``tests/test_page_game.py -n 1``
(on 2026-11-28: 6 of test_page_game.py's 13 passed so).
"""

from playwright.sync_api import Frame, Keyboard, Locator, Mouse, Page

SETTLE = "!document.body || !document.body.hasAttribute('data-nova-pending')"


def _settle(target):
    try:
        target.wait_for_function(SETTLE, timeout=30_000, polling=20)
    except Exception:
        pass


def _wrap(cls, name, get):
    orig = getattr(cls, name)

    def f(self, *a, **k):
        r = orig(self, *a, **k)
        _settle(get(self))
        return r

    setattr(cls, name, f)


# a page's keyboard and mouse: the sync API hands out one wrapper per page (cached), which
# learns its page here
_page_keyboard = Page.keyboard.fget
_page_mouse = Page.mouse.fget


def _keyboard(self):
    kb = _page_keyboard(self)
    kb._nova_page = self
    return kb


def _mouse(self):
    m = _page_mouse(self)
    m._nova_page = self
    return m


Page.keyboard = property(_keyboard)  # type: ignore[method-assign,assignment]
Page.mouse = property(_mouse)  # type: ignore[method-assign,assignment]
for n in ("press", "type", "down", "insert_text"):
    _wrap(Keyboard, n, lambda s: s._nova_page)
for n in ("click", "dblclick"):
    _wrap(Mouse, n, lambda s: s._nova_page)
# a script's own clicks (page.evaluate dispatching a click) wait for their frames too
for n in ("evaluate", "eval_on_selector", "eval_on_selector_all"):
    _wrap(Page, n, lambda s: s)
for n in ("click", "tap", "select_option", "fill", "check", "dblclick", "press", "dispatch_event"):
    _wrap(Locator, n, lambda s: s.page)
for n in ("click", "tap", "select_option", "fill", "press", "dispatch_event", "goto", "reload"):
    _wrap(Page, n, lambda s: s)
    if hasattr(Frame, n):
        _wrap(Frame, n, lambda s: s)
