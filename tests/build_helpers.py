"""tools/build_site.py as a module, for the tests that read what it reads (the import graph,
what the page ships): one reader of imports for the build and the tests."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


@cache
def build_site() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_site", ROOT / "tools" / "build_site.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    return build
