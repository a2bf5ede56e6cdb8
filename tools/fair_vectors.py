"""Write docs/fair-vectors.json, the test vectors of fair play by links (docs/LINKS.md,
"Test vectors"): ``python tools/fair_vectors.py``. tests/test_fair_vectors.py checks that
the code still makes every value in it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nova_tools.fair.vectors import vectors  # noqa: E402

PATH = ROOT / "docs" / "fair-vectors.json"


def main() -> None:
    PATH.write_text(json.dumps(vectors(), indent=1, ensure_ascii=True) + "\n", encoding="utf-8")
    print(f"wrote {PATH.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
