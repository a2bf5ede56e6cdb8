"""PyScript worker entry: the whole game's Python runs here, off the page's main thread
(issue 52; threads.html). The page (page.py, MicroPython) sends each event as a message and
draws the frame it gets back; the bots think here too, in the same Pyodide."""

from nova.web.game_worker import handle, start  # noqa: F401 (exported to the page)

__export__ = ["start", "handle"]
