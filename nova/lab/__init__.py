"""The designer's balance lab: many seeded bot-vs-bot games, and what they show.

Its modules, each importing only those listed before it (tests/test_lab_package.py reads every
import, including those inside functions, and fails on a circle):

* ``core/``: what runs anywhere, CPython or the page (Pyodide), standard library and the
  game only: ``stats`` (intervals, spreads), ``game`` (:class:`GameJob` -> ``play_game`` ->
  :class:`GameResult`), ``metrics`` (game-quality metrics from the bots' evaluations),
  ``summary`` (a batch's figures) and ``result`` (a run's JSON: what ``--json`` prints and
  the workbench shows). The page ships this and the workbench, no other module of the lab
  (``tools/build_site.py``; tests/test_lab_package.py).
* ``workbench``: the page's workbench (its form, the variant its fields make, a run played in
  web workers, its result as the CLI's JSON); the page ships it with the core.
* ``runners``: where games run: this machine's processes or a Dask cluster, with a progress
  bar (tqdm).
* ``sweep``: grids of variant settings and the aim a cell must meet.
* ``text_report`` and ``html_report`` (matplotlib): the tables and the charts.
* ``bench_cluster``: games per minute on one and two cores and through Dask.
* ``cli``: ``python -m nova lab`` (and its ``sweep`` and ``bench-cluster`` commands).

``python -m nova lab --help`` for the options; docs/LAB.md for the metrics and a walk-through.
"""
