"""The browser code's waits can fail: Playwright's ``wait_for_function`` does not await what its
predicate returns, so a predicate that returns a promise (an ``async`` function, ``.then``)
is truthy at once and the wait passes before anything happened. The release test waited so
for a new service worker, and reloaded while it installed (issue 32, docs/PERFORMANCE.md).
A wait on something only a promise tells belongs in ``page.evaluate``, which awaits it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [
    *ROOT.glob("tests/*.py"),
    *ROOT.glob("nova_tools/benchmarks/*.py"),
    *ROOT.glob("tools/*.py"),
]
PROMISE = re.compile(r"\basync\b|\bawait\b|\.then\(|\bPromise\b")


def predicates(tree: ast.Module):
    """Each ``wait_for_function`` call's predicate text, where the source says it (a string
    literal, or a module-level name bound to one), with its line."""
    names = {
        target.id: node.value.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        if getattr(node.func, "attr", None) != "wait_for_function":
            continue
        first = node.args[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            yield node.lineno, first.value
        elif isinstance(first, ast.Name) and first.id in names:
            yield node.lineno, names[first.id]


def test_the_check_finds_a_predicate_that_returns_a_promise():
    tree = ast.parse(
        "SWAPPED = 'async () => (await caches.keys()).length === 1'\n"
        "page.wait_for_function(SWAPPED)\n"
        "page.wait_for_function('() => caches.keys().then((k) => k.length)', timeout=5)\n"
        "page.wait_for_function('() => document.body.dataset.novaMoves >= 3')\n"
    )
    found = [line for line, text in predicates(tree) if PROMISE.search(text)]
    assert found == [2, 3]


def test_no_wait_for_function_is_given_a_predicate_that_returns_a_promise():
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in SOURCES
        for line, text in predicates(ast.parse(path.read_text()))
        if PROMISE.search(text)
    ]
    assert offenders == []
