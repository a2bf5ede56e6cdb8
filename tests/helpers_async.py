"""``run(coro)``: ``asyncio.run`` in a thread of its own. A pytest-xdist worker that has also
run a browser test holds Playwright's event loop in its main thread, where ``asyncio.run``
refuses to start another."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
