"""Small modules, short functions: a newcomer reads a module of the renderer whole."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("nova/render",)
MODULE_LINES = 500
FUNCTION_LINES = 80


def too_long(package: Path, root: Path = ROOT) -> list[str]:
    """The modules of ``package`` over MODULE_LINES lines and its functions (methods and
    nested functions too) over FUNCTION_LINES, as ``path[:line] name: N lines``."""
    out = []
    for path in sorted(package.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root)
        lines = len(text.splitlines())
        if lines > MODULE_LINES:
            out.append(f"{name}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > FUNCTION_LINES:
                    out.append(f"{name}:{node.lineno} {node.name}: {length} lines")
    return out


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_over_500_lines_and_no_function_over_80(package):
    assert too_long(ROOT / package) == []


def test_the_size_check_finds_a_long_module_and_a_long_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    (tmp_path / "long.py").write_text("def f():\n" + body + "\n" + "\n" * MODULE_LINES)
    found = too_long(tmp_path, root=tmp_path)
    assert found == ["long.py: 581 lines", "long.py:1 f: 81 lines"]
