"""The page's code in pieces a newcomer can read (issue 44): no module of nova/web or
nova/render over 500 lines, no function there over 80 (from its def to its last line, its
docstring and comments included)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("nova/web", "nova/render")
MODULE_LINES = 500
FUNCTION_LINES = 80


def modules() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def long_functions(path: Path, limit: int) -> list[str]:
    """``module:line name (n lines)`` of each function or method in ``path`` over ``limit``."""
    tree = ast.parse(path.read_text(), str(path))
    rel = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name
    return [
        f"{rel}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno is not None
        and node.end_lineno - node.lineno + 1 > limit
    ]


def test_the_folders_hold_modules():
    assert len(modules()) > 10


def test_no_module_over_500_lines():
    lines = {p.relative_to(ROOT).as_posix(): len(p.read_text().splitlines()) for p in modules()}
    assert {m: n for m, n in lines.items() if n > MODULE_LINES} == {}


def test_no_function_over_80_lines():
    found = [f for path in modules() for f in long_functions(path, FUNCTION_LINES)]
    assert found == [], found


def test_a_long_function_is_found(tmp_path: Path):
    body = "\n".join(f"    x{i} = {i}" for i in range(81))
    (tmp_path / "m.py").write_text(f"def short():\n    pass\n\n\ndef long():\n{body}\n")
    found = long_functions(tmp_path / "m.py", FUNCTION_LINES)
    assert [f.split(" ", 1)[1] for f in found] == ["long (82 lines)"]
