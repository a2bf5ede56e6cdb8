"""Each selected test run N times: ``NOVA_REPEAT=N pytest -p tests.repeat ...`` adds a
parameter ``repeat`` (0 to N-1) to every test. How a rare stall or crash is counted (see
docs/PERFORMANCE.md, "Stalls and crashes"); without ``NOVA_REPEAT`` it changes nothing."""

from __future__ import annotations

import os

import pytest


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    times = int(os.environ.get("NOVA_REPEAT", "0"))
    if times > 0:
        metafunc.fixturenames.append("repeat")
        metafunc.parametrize("repeat", range(times))
