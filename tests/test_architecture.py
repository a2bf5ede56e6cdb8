"""The engine's shape: imports in nova/rules run one way, and every kind of action under
way is handled everywhere a player or a bot meets it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from nova.bots.planner import PLANS
from nova.rules.actions import REGISTRY, Action
from nova.rules.content import SPECIAL_ACTIONS, STEP_WORDS
from nova.rules.primitives import IMMEDIATE, PRIMITIVES
from tests.build_helpers import build_site

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "nova" / "rules"


def _module(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, root: Path = ROOT, package: str = "nova.rules") -> set[str]:
    """Every module of ``package`` that ``path`` imports at run time, inside functions too
    (imports under ``if TYPE_CHECKING:`` are for the type checker only and never run): the
    build's own reader of imports."""
    found = build_site().imported_modules(path, _module(path, root))
    return {m for m in found if m.startswith(package)}


def module_graph(
    folder: Path, root: Path = ROOT, package: str = "nova.rules"
) -> dict[str, set[str]]:
    """Module -> the modules of ``folder`` it imports; a module's import of a package it
    is inside (``from . import x`` runs the package's ``__init__``, already under way) is
    not counted, so that only a true circle shows."""
    files = {_module(p, root): p for p in folder.rglob("*.py")}
    graph = {}
    for name, path in files.items():
        graph[name] = {
            m
            for m in _imports(path, root, package)
            if m in files and m != name and not name.startswith(m + ".")
        }
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == 1:
                return stack[stack.index(m) :] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_nova_rules_has_no_import_circle():
    """No module of nova/rules imports, even inside a function, one that imports it back."""
    graph = module_graph(RULES)
    assert len(graph) > 15
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


def test_the_circle_finder_finds_a_circle_inside_a_function(tmp_path):
    pkg = tmp_path / "nova" / "rules"
    pkg.mkdir(parents=True)
    (pkg / "a.py").write_text("from . import b\n")
    (pkg / "b.py").write_text("def f():\n    from .a import x\n")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"
    )
    graph = module_graph(pkg, tmp_path)
    assert find_cycle(graph) is not None
    assert graph["nova.rules.c"] == set()  # a TYPE_CHECKING import does not run


def test_every_kind_of_action_has_words_and_a_prompt():
    """A kind of action under way is told in the log and prompted in the page by its own
    module (the bots search any kind's choices unless PLANS has a plan of its own)."""
    primitives = {name for name, p in PRIMITIVES.items() if p.action is not None}
    assert primitives < set(REGISTRY) and set(REGISTRY) - primitives == {"unload_bays"}
    for kind, cls in REGISTRY.items():
        assert cls.told is not Action.told, kind
        assert cls.prompt is not Action.prompt, kind
    assert set(PLANS) <= set(REGISTRY)


def test_every_primitive_of_the_data_is_an_action_or_acts_at_once():
    assert list(PRIMITIVES) == list(STEP_WORDS)
    for name in SPECIAL_ACTIONS:
        p = PRIMITIVES[name]
        assert p.word == STEP_WORDS[name]
        assert (name in IMMEDIATE) != (name in REGISTRY)
        assert p.action is None or p.action is REGISTRY[name]


def test_the_kept_stdlib_census_is_the_one_for_the_games_imports():
    """A fresh clone's build takes the module census from tools/stdlib-census.json when its
    key is that of the game's imports (tools/build_site.py, module_census); a key left stale
    by a changed import makes every fresh build play the census's games again (17 s of
    ``make test``'s set-up). Rebuild and commit the file when this fails."""
    build = build_site()
    if not (build.NODE_MODULES / "@pyscript" / "core" / "dist").is_dir():
        pytest.skip("the key reads PyScript's imports from node_modules: `make node` first")
    kept = json.loads(build.CENSUS.read_text())["key"]
    assert kept == build._imports_key(build.package_files()), (
        "tools/stdlib-census.json is stale: run tools/build_site.py and commit it"
    )


def test_the_site_ships_and_snapshots_what_the_page_imports_and_nothing_else():
    """nova.zip and the memory snapshot hold the nova modules that the page's workers (the
    game's, the workbench's) import, followed through the package; not the command line or
    the tools."""
    build = build_site()
    shipped = set(build.page_modules())
    assert {"nova.web.game_worker", "nova.web.host", "nova.web.lab_worker"} <= shipped
    assert {
        "nova.rules.state",
        "nova.bots.search",
        "nova.fair.wire",
        "nova.lab.core.game",
    } <= shipped
    for name in ("nova.__main__", "nova.bots.bench", "nova.lab.cli", "nova.web.bot_worker"):
        assert name not in shipped
    files = {
        build._module_name(rel): path for rel, path in build.package_files() if rel.endswith(".py")
    }
    assert set(files) == shipped
    for name, path in files.items():  # whatever a shipped module imports of nova is shipped
        for target in build.imported_modules(path, name):
            module = ROOT / Path(*target.split("."))
            if module.with_suffix(".py").is_file() or (module / "__init__.py").is_file():
                assert target in shipped, (name, target)
    snapshot = build.snapshot_modules(build.package_files())
    assert {m for m in snapshot if m.startswith("nova")} == shipped
    assert not (ROOT / "nova" / "benchmarks").exists()


WEB = ROOT / "nova" / "web"


def test_the_pages_modules_and_functions_are_small():
    """No module of nova/web or nova/render over 500 lines, no function over 80: a module
    is split by what it holds."""
    for folder in (WEB, ROOT / "nova" / "render"):
        for path in sorted(folder.rglob("*.py")):
            text = path.read_text()
            assert len(text.splitlines()) <= 500, path
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    assert lines <= 80, (str(path), node.name, lines)


def test_the_screens_import_one_another_one_way_and_never_inside_a_function():
    """A screen imports another at the top of its module, never back (a screen hands an
    intent to one it does not import with the effect ``Then``); a step never imports."""
    screens = WEB / "screens"
    graph = module_graph(screens, package="nova.web.screens")
    assert {"nova.web.screens.start", "nova.web.screens.links"} <= set(graph)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])
    for path in sorted(screens.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = [n for n in ast.walk(node) if isinstance(n, ast.Import | ast.ImportFrom)]
                assert not [n for n in inner if "screens" in (getattr(n, "module", "") or "")
                            or getattr(n, "level", 0) == 1], (str(path), node.name)  # fmt: skip


def test_a_step_changes_no_state_behind_its_back():
    """The screens and the page's steps return the new state: nothing in nova/web sets the
    controller's state but ``Controller`` itself, and no drawing writes into it."""
    for path in sorted(WEB.rglob("*.py")):
        text = path.read_text()
        assert "c.set(" not in text and ".static =" not in text, path
        if path.name != "controller.py":
            assert "self.ui =" not in text and "c.ui =" not in text, path
