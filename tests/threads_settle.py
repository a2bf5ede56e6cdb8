"""A pytest plugin for running the browser suite against threads.html (issue 52), not loaded
by default: after each Playwright action, wait until the page has drawn the frames of what it
sent (``<body data-nova-pending>`` gone). On index.html a click's handler draws before the
click returns; on threads.html the frame comes back from the worker a moment later, so the
tests' immediate reads need this wait (after keyboard presses, mouse clicks and a script's
evaluate too, in every frame of the page).

Try it (docs/PAGE.md, "Two threads"): build, copy ``_site/threads.html`` over
``_site/index.html``, then
``PYTHONPATH=tests NOVA_SITE_BUILT=1 .venv/bin/python -m pytest -p threads_settle``
``tests/test_page_game.py``
(on 2026-11-28, 19:55 UTC: all of test_page_game.py but the test of a bots' worker that
cannot start; docs/PAGE.md lists the other files and what fails).
"""

from playwright._impl._sync_base import mapping
from playwright.sync_api import Frame, Keyboard, Locator, Mouse, Page

SETTLE = "!document.body || !document.body.hasAttribute('data-nova-pending')"


def _settle(target):
    """Wait in the page and each of its frames (a publisher's frame holds the game)."""
    page = target if isinstance(target, Page) else target.page
    for frame in page.frames:
        try:
            frame.wait_for_function(SETTLE, timeout=30_000, polling=20)
        except Exception:
            pass


def _wrap(cls, name, get):
    orig = getattr(cls, name)

    def f(self, *a, **k):
        r = orig(self, *a, **k)
        _settle(get(self))
        return r

    setattr(cls, name, f)


def _own_page(s):
    """A keyboard's or a mouse's page (its implementation's)."""
    return mapping.from_impl(s._impl_obj._page)


for n in ("press", "type", "down", "insert_text"):
    _wrap(Keyboard, n, _own_page)
for n in ("click", "dblclick"):
    _wrap(Mouse, n, _own_page)
for n in ("click", "tap", "select_option", "fill", "check", "dblclick", "press", "dispatch_event"):
    _wrap(Locator, n, lambda s: s.page)
# a script's own clicks (an evaluate dispatching a click) wait for their frames too
_PAGE = ("click", "tap", "select_option", "fill", "press", "dispatch_event", "goto", "reload")
for n in (*_PAGE, "evaluate", "eval_on_selector", "eval_on_selector_all"):
    _wrap(Page, n, lambda s: s)
    if hasattr(Frame, n):
        _wrap(Frame, n, lambda s: s)
