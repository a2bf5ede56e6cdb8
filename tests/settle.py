"""After each Playwright action, wait until the page has drawn the frames of what it sent
(``<body data-nova-pending>`` gone). The game's Python answers from its worker a moment after
the event (docs/PAGE.md, "Two threads"), so a test's immediate read after a click, a key, a
script's evaluate needs this wait, in every frame of the page (a publisher's frame holds the
game). Installed by tests/conftest.py for every test.
"""

import contextlib

from playwright._impl._sync_base import mapping
from playwright.sync_api import Frame, Keyboard, Locator, Mouse, Page

SETTLE = "!document.body || !document.body.hasAttribute('data-nova-pending')"


_paused = [False]


@contextlib.contextmanager
def unsettled():
    """Actions that do not wait (a test that looks at the page before the game answers)."""
    _paused[0] = True
    try:
        yield
    finally:
        _paused[0] = False


def _settle(target):
    """Wait in the page and each of its frames (a publisher's frame holds the game)."""
    if _paused[0]:
        return
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
