"""Cards as HTML: the upright action on top, the rotated alternate upside down at the
bottom, chain arrows on the sides of basic cards, a Shard symbol on Specials."""

from __future__ import annotations

from html import escape

from ..rules import Layout
from ..rules.content import action_label
from .shards import COLOUR_NAMES, shard_icon

MODE_WORDS = {"u": "upright", "r": "rotated", "s": "sideways (chain link)", "l": "as a chain link"}
MODE_ICON = {"u": "▲", "r": "▼", "s": "⇄", "l": "⇄"}


def card_title(lay: Layout, cid: str) -> str:
    if cid in lay.special:
        return lay.special[cid]["name"]
    top, bottom = lay.basic[cid]
    return f"{action_label(top)} / {action_label(bottom)}"


def mode_label(lay: Layout, cid: str, mode: str) -> str:
    """What playing ``cid`` in ``mode`` does, in a few words (for a button)."""
    if mode in ("s", "l"):
        return "Chain link"
    if cid in lay.basic:
        top, bottom = lay.basic[cid]
        return action_label(top if mode == "u" else bottom)
    card = lay.special[cid]
    return action_label(card["action"] if mode == "u" else card["alternate"])


def card_html(lay: Layout, cid: str, extra_class: str = "", mode: str = "", why: str = "") -> str:
    """One card face. ``mode`` (u/r/s/l) shows how it was played (rotated, sideways).
    ``why``: the decision a tap on it would be (not legal now): the page says why not."""
    played = f" played-{mode}" if mode else ""
    why_attr = f' data-why="{escape(why, quote=True)}"' if why else ""
    if cid in lay.basic:
        top, bottom = lay.basic[cid]
        return (
            f'<div class="card card-basic{played} {extra_class}" '
            f'data-card="{escape(cid)}"{why_attr} '
            f'title="{escape(card_title(lay, cid), quote=True)}">'
            '<span class="chain chain-l" aria-hidden="true">⇄</span>'
            '<span class="chain chain-r" aria-hidden="true">⇄</span>'
            f'<div class="card-top">{escape(action_label(top))}</div>'
            f'<div class="card-bottom">{escape(action_label(bottom))}</div>'
            "</div>"
        )
    if cid not in lay.special:
        return f'<div class="card card-unknown">{escape(cid)}</div>'
    card = lay.special[cid]
    colour = card["colour"]
    alt = action_label(card["alternate"]) if card["alternate"] else ""
    return (
        f'<div class="card card-special card-{colour}{played} {extra_class}" '
        f'data-card="{escape(cid)}"{why_attr} title="{escape(card["name"], quote=True)} '
        f'({COLOUR_NAMES.get(colour, "?")} Special)">'
        f'<span class="card-symbol">{shard_icon(colour, 18)}</span>'
        f'<div class="card-name">{escape(card["name"])}</div>'
        f'<div class="card-top">{escape(action_label(card["action"]))}</div>'
        f'<div class="card-bottom">{escape(alt)}</div>'
        "</div>"
    )


def card_back(count: int, label: str, token: str = "", key: str = "", why: str = "") -> str:
    """A face-down pile with its count; clickable when ``token`` is given (Upgrade's UD);
    ``why``: the decision a tap would be when it is not legal (the page says why not)."""
    attrs = f' data-why="{escape(why, quote=True)}"' if why else ""
    if token:
        attrs = f' data-move="{escape(token, quote=True)}" role="button" tabindex="0"'
    hint = f"<kbd>{escape(key)}</kbd>" if key else ""
    return (
        f'<div class="card card-back{" choice" if token else ""}"{attrs} '
        f'aria-label="{escape(label, quote=True)}: {count}">'
        f'<div class="back-count">{count}</div><div class="back-label">{escape(label)}</div>'
        f"{hint}</div>"
    )
