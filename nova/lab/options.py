"""What the lab's commands share in their command lines (cli.py, strength.py)."""

from __future__ import annotations

import argparse


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1 (a batch of no games has no figures)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{n}: at least 1")
    return n
