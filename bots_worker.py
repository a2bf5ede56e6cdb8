"""PyScript worker entry: the bots think here, off the page's main thread.

Started by the page (nova/web/app.py, ``create_named_worker``) once it is ready, with the
same pyscript.toml (the interpreter shim with the precompiled standard library, nova.zip).
It only computes: the page awaits its exports, so no SharedArrayBuffer is needed.
"""

from nova.web.bot_worker import hello, think  # noqa: F401 (exported to the page)

__export__ = ["think", "hello"]
