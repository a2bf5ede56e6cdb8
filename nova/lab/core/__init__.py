"""The lab's core: play a seeded game, summarize a batch, the game-quality metrics.

Standard library and the game only (no processes, Dask, matplotlib or tqdm), so the same code
runs under CPython and in the page (Pyodide), which ships this package and, of the rest of
``nova.lab``, the workbench alone (``tools/build_site.py``). Modules here import each other one way:
``stats`` <- ``game`` <- ``metrics`` <- ``summary`` <- ``result``.
"""
