"""Where the lab's games run: this machine's cores or a Dask distributed cluster.

Every batch of every run (a single batch, a ``--compare`` pair, all the cells of a sweep) goes
out as **one stream of tasks**, so no core or cluster worker waits for a slow batch to finish
before the next one starts. A game depends only on its seed, line-up and variant (the variant
travels as data, not as a file path, so a worker on another machine needs only the ``nova``
package), so the results are the same game for game whatever plays them; only the measured
think times differ.

Dask and tqdm are imported here only when asked for: the page never loads this module
(``tools/build_site.py`` ships only ``nova.lab.core`` in ``nova.zip``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from .core.game import Batch, GameJob, GameResult, play_game

LAB_EXTRA = "pip install -e '.[lab]'"  # what a user runs when a lab package is missing


class LabSetupError(Exception):
    """The run cannot start (no cluster there, a package missing); the message says why."""


def read_variant(path: str | None) -> dict | None:
    """A variant file's JSON as data, so that workers elsewhere need no copy of the file."""
    if path is None:
        return None
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


Chunk = list[tuple[int, GameJob]]


def play_chunk(jobs: Chunk) -> list[tuple[int, GameResult]]:
    """Play a few games in one task: (batch index, the game's record) for each."""
    return [(index, play_game(job)) for index, job in jobs]


def chunked(jobs: Chunk, size: int) -> list[Chunk]:
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def chunk_size(total: int, slots: int) -> int:
    # About 8 tasks per slot keeps every slot busy to the end (games differ in length) while
    # the per-task overhead (a Dask task costs about a millisecond) stays far below a game's.
    return max(1, min(50, total // max(1, slots * 8)))


def nova_fingerprint() -> str:
    """A hash of the nova package's code and data: equal on client and workers, equal games."""
    root = Path(__file__).resolve().parents[1]  # the nova package, not only its lab
    h = hashlib.sha256()
    for p in sorted(root.rglob("*")):
        if p.suffix in (".py", ".json") and "__pycache__" not in p.parts:
            h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


class Progress:
    """A tqdm bar on stderr (games done, games/s, time left); silent when asked or missing."""

    def __init__(self, total: int, show: bool, label: str) -> None:
        self.bar = None
        if show:
            try:
                from tqdm import tqdm
            except ImportError:  # the lab still runs without its extra, only without a bar
                if sys.stderr.isatty():  # say so once, rather than minutes of silence
                    print(f"lab: no progress bar without tqdm: {LAB_EXTRA}", file=sys.stderr)
                return
            # disable=None: tqdm itself stays quiet when stderr is not a terminal
            self.bar = tqdm(
                total=total, desc=label, unit="game", file=sys.stderr, disable=None, smoothing=0.1
            )

    def update(self, n: int, note: str | None = None) -> None:
        if self.bar is not None:
            self.bar.update(n)
            if note:
                self.bar.set_postfix_str(note, refresh=False)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _local_stream(chunks: list[Chunk], workers: int) -> Iterator[list[tuple[int, GameResult]]]:
    if workers <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield play_chunk(chunk)
        return
    import multiprocessing as mp

    ctx = mp.get_context("fork" if hasattr(os, "fork") else "spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(play_chunk, chunks)


def connect(address: str, timeout: float = 10.0):
    """A Dask client for the scheduler at ``address``, with a clear message if there is none."""
    try:
        from distributed import Client
    except ImportError:
        raise LabSetupError(f"--scheduler needs Dask distributed: {LAB_EXTRA}") from None
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as exc:
        raise LabSetupError(f"--scheduler {address}: no Dask scheduler answered ({exc})") from None


def check_workers(client) -> list[str]:
    """Warnings for workers whose nova differs from ours (their games could differ)."""
    ours = nova_fingerprint()
    try:
        theirs = client.run(nova_fingerprint)
    except Exception as exc:  # a worker without nova cannot even unpickle the question
        raise LabSetupError(
            f"the Dask workers cannot run nova ({type(exc).__name__}: {exc}); install this "
            f"repository on every worker machine: {LAB_EXTRA}"
        ) from None
    if not theirs:
        return ["the Dask scheduler has no workers yet: the games wait until one joins"]
    return [
        f"worker {addr} runs a different nova ({fp} here {ours}): its games may differ"
        for addr, fp in sorted(theirs.items())
        if fp != ours
    ]


def _dask_stream(chunks: list[Chunk], client) -> Iterator[list[tuple[int, GameResult]]]:
    from distributed import as_completed

    # pure=False: every chunk is new work; hashing the arguments to deduplicate would only cost
    futures = client.map(play_chunk, chunks, pure=False)
    try:
        for _future, result in as_completed(futures, with_results=True):
            yield result
    finally:
        client.cancel(futures)


def run_batches(
    batches: list[Batch],
    workers: int = 1,
    scheduler: str | None = None,
    progress: bool = False,
    label: str = "games",
    note: Callable[[list[list[GameResult]]], str] | None = None,
    client=None,
    on_result: Callable[[int, GameResult], None] | None = None,
) -> tuple[list[list[GameResult]], float]:
    """Play every batch as one stream; each batch's results in game order, and the seconds.

    ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``) or ``client`` (a connected
    Dask client) sends the games to a Dask cluster; otherwise ``workers`` local processes.
    ``note`` turns the results so far into a short text beside the progress bar;
    ``on_result(batch index, record)`` hears of each game as it arrives (in the order games
    finish, not game order), so a caller can keep them before the run is over.
    """
    jobs = [job for i, b in enumerate(batches) for job in b.jobs(i)]
    results: list[list[GameResult]] = [[] for _ in batches]
    own_client = None
    if scheduler is not None and client is None:
        client = own_client = connect(scheduler)
    try:
        if client is not None:
            for warning in check_workers(client):
                print(f"lab: {warning}", file=sys.stderr)
            slots = sum(client.nthreads().values()) or 1
            stream = _dask_stream(chunked(jobs, chunk_size(len(jobs), slots)), client)
        else:
            stream = _local_stream(chunked(jobs, chunk_size(len(jobs), workers)), workers)
        bar = Progress(len(jobs), progress, label)
        start = time.perf_counter()
        try:
            for done in stream:
                for index, result in done:
                    results[index].append(result)
                    if on_result is not None:
                        on_result(index, result)
                bar.update(len(done), note(results) if note else None)
        finally:
            bar.close()
        elapsed = time.perf_counter() - start
    finally:
        if own_client is not None:
            own_client.close()
    for rs in results:
        rs.sort(key=lambda r: r.g)
    return results, elapsed
