"""Rendering: pure functions from what one player may see (a view) to markup.

Nothing here imports the browser; the same code runs under CPython (tests) and in the
page. Everything that makes a move when clicked carries ``data-move="<token>"`` with the
engine's own token; UI-only controls carry ``data-ui="<name>"``. All text that comes from
names, saves or data is escaped.
"""
