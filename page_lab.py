"""The workbench's run on the page (MicroPython, as page.py): a worker starts no worker, so
the page starts the lab workers (lab_worker.py) and feeds them the requests the game's worker
hands out; and ending a worker PyScript started."""

import asyncio
import json

from page_board import create_named_worker, document, el, frame_of, window

body = document.body
LAB_SRC = "./lab_worker.py"
LAB_BOOT_S = 60
lab = {"workers": [], "names": [], "started": 0}


async def lab_boot(name):
    """A lab worker, up and answering hello, or None."""
    async def up():  # (MicroPython's wait_for takes a coroutine, not a JS promise)
        worker = await create_named_worker(
            src=LAB_SRC, name=name, config="./pyscript.toml"
        )
        await worker.hello()
        return worker

    try:
        return await asyncio.wait_for(up(), LAB_BOOT_S)
    except Exception as exc:
        window.console.warn("nova: a workbench worker did not start: " + str(exc))
        return None


async def lab_workers(wanted):
    """Up to ``wanted`` lab workers, kept for later runs; those that cannot start are left out."""
    have = len(lab["workers"])
    if wanted > have:
        try:  # PyScript waits for ever for a script it cannot fetch: ask for it first
            ok = bool((await window.fetch(LAB_SRC)).ok)
        except Exception:
            ok = False
        if ok:
            names = []
            for _ in range(wanted - have):
                names.append("nova-lab-" + str(lab["started"]))
                lab["started"] += 1
            lab["names"] += names
            booted = await asyncio.gather(*[lab_boot(n) for n in names])
            lab["workers"] += [w for w in booted if w is not None]
    return lab["workers"][:wanted]


async def lab_run(wanted, ask, draw):
    """Feed the run's games to the lab workers: each asks the game's worker for a request
    (``ask``, its frame drawn by ``draw``), plays it, and hands the answer back with the next
    ask (host.GameHost.lab)."""
    t0 = window.performance.now()
    body.setAttribute("data-nova-lab-workers", "starting")
    workers = await lab_workers(wanted)
    body.setAttribute("data-nova-lab-workers", str(len(workers)))
    body.setAttribute("data-nova-lab-boot-ms", str(int(window.performance.now() - t0)))
    n = len(workers)

    async def feed(worker):
        answer = None
        while True:
            text = await ask({"ask": "lab", "value": answer, "answer_id": n})
            if text is None:
                return
            frame = frame_of(text)
            draw(frame)
            more = [e for e in frame.get("effects", ()) if e["kind"] in ("lab-game", "lab-more")]
            if not more:
                return
            if worker is None:
                answer = None
                await asyncio.sleep(0)
            else:
                answer = str(await worker.play(more[0]["data"]["request"]))

    await asyncio.gather(*[feed(w) for w in (workers or [None])])


def lab_end():
    """The idle lab workers end: each is a Pyodide of its own (about 150 MB), and a tab
    played for hours must not keep them (the host says when: ``lab-end``)."""
    for name in lab["names"]:
        end_worker(name)
    lab["workers"], lab["names"] = [], []


def end_worker(name):
    """The worker PyScript started as ``name`` ends, and its script tag goes."""
    script = el(document.querySelector('script[worker][name="' + name + '"]'))
    if script is not None:
        try:
            script.xworker.terminate()
        except Exception:
            pass
        script.remove()
