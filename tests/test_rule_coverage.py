"""Every rule of the rulebook (R1-R70 in shared/rulebook/RULE-INDEX.md) is named by a test.

A test names a rule in its function name (``test_r30_...``, ``test_r39_r41_...``) or in its
docstring ("R30", "R39-R41" counts R39, R40 and R41). The test functions are found with
``ast``, so a rule named only in a comment or in a helper does not count.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
RULES_DOC = ROOT / "docs" / "RULES.md"
NAME_RULE = re.compile(r"(?:^|_)r(\d{1,2})(?=_|$)")
DOC_RULE = re.compile(r"\bR(\d{1,2})(?:\s*[-–]\s*R?(\d{1,2}))?\b")


def rule_index_path() -> Path | None:
    """RULE-INDEX.md sits in the shared folder beside the repository (../shared/rulebook)."""
    for base in (ROOT, *ROOT.parents):
        candidate = base / "shared" / "rulebook" / "RULE-INDEX.md"
        if candidate.exists():
            return candidate
    return None


def indexed_rules(text: str) -> set[int]:
    return {int(n) for n in re.findall(r"^- R(\d+)\b", text, flags=re.MULTILINE)}


def rules_in_docstring(doc: str) -> set[int]:
    out: set[int] = set()
    for lo, hi in DOC_RULE.findall(doc):
        a = int(lo)
        b = int(hi) if hi else a
        out.update(range(a, b + 1) if a <= b <= a + 20 else (a,))
    return out


def rules_named_by_tests() -> dict[int, list[str]]:
    named: dict[int, list[str]] = {}
    for path in sorted(TESTS.glob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not node.name.startswith("test"):
                continue
            rules = {int(n) for n in NAME_RULE.findall(node.name)}
            rules |= rules_in_docstring(ast.get_docstring(node) or "")
            for r in rules:
                named.setdefault(r, []).append(f"{path.name}::{node.name}")
    return named


def test_docstring_ranges_are_read():
    assert rules_in_docstring("R39-R41 and R70") == {39, 40, 41, 70}
    assert rules_in_docstring("R14–R16") == {14, 15, 16}
    assert {int(n) for n in NAME_RULE.findall("test_r3_r30_x")} == {3, 30}


def test_every_rule_of_the_rule_index_is_named_by_a_test():
    """Fidelity: each R-number of RULE-INDEX.md is named by at least one test."""
    path = rule_index_path()
    if path is None:
        pytest.skip("shared/rulebook/RULE-INDEX.md is not beside this checkout")
    rules = indexed_rules(path.read_text(encoding="utf-8"))
    assert rules == set(range(1, 71)), "RULE-INDEX.md should number R1-R70"
    named = rules_named_by_tests()
    missing = sorted(rules - set(named))
    assert not missing, "rules without a test: " + ", ".join(f"R{r}" for r in missing)


@pytest.mark.skipif(not RULES_DOC.exists(), reason="docs/RULES.md not written yet")
def test_every_rule_is_explained_in_docs_rules():
    """docs/RULES.md says, for every R-number, where it lives and how we read it."""
    text = RULES_DOC.read_text(encoding="utf-8")
    found = set()
    for lo, hi in DOC_RULE.findall(text):
        a = int(lo)
        b = int(hi) if hi else a
        found.update(range(a, b + 1) if a <= b <= a + 20 else (a,))
    missing = sorted(set(range(1, 71)) - found)
    assert not missing, "docs/RULES.md lacks " + ", ".join(f"R{r}" for r in missing)
