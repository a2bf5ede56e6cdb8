"""The command line's tools that the page never runs: benchmarks (they drive Chromium), link
statistics and simulations of play by links. ``python -m nova <command>`` dispatches here;
the site ships only what the page imports (tools/build_site.py, ``page_modules``)."""
