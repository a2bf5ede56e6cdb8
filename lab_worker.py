"""PyScript worker entry: the workbench's bot games are played here, off the page's main
thread, in as many of these workers as the machine's cores allow.

Started by the page (page.py, ``create_named_worker``) when a run starts, with
pyscript.toml (so it boots from the memory snapshot as the game's worker does).
"""

from nova.web.lab_worker import hello, play  # noqa: F401 (exported to the page)

__export__ = ["play", "hello"]
