"""Cards as HTML: the upright action on top, the rotated alternate upside down at the
bottom, chain arrows on the sides of basic cards, a Shard symbol on Specials."""

from __future__ import annotations

from functools import lru_cache
from html import escape

from ..rules import CardAction, Layout
from ..rules.content import action_label
from ..rules.primitives import PRIMITIVES
from .shards import COLOUR_NAMES, shard_icon


def action_text(action: CardAction | None) -> str:
    """'Orbit 2: Move one of your ships ... (R28-R34)' for a card's action; a composed
    action says each step, then the next (R68 is the rulebook's own such card)."""
    if action is None:
        return ""
    parts = []
    for step in action.steps:
        p = PRIMITIVES[step.name]
        parts.append(f"{step.label()}: {p.text} ({p.rules})")
    return "; then ".join(parts)


def card_text(lay: Layout, cid: str) -> str:
    """A card's full rulebook text, as its tooltip says it (plain text)."""
    if cid in lay.basic:
        top, bottom = lay.basic[cid]
        return (
            f"Upright — {action_text(top)}. Rotated — {action_text(bottom)}. "
            "Sideways — a chain link joining two actions (R23-R24)."
        )
    card = lay.special[cid]
    colour = COLOUR_NAMES.get(card["colour"], "?")
    alt = card["alternate"]
    rotated = f" Rotated — {action_text(alt)} (R27), with a {colour} Shard in a bay." if alt else ""
    return (
        f"{card['name']}, a {colour} Special. Upright — a chain link (R25); with a {colour} "
        f"Shard in one of your Cargo Bays it also does {action_text(card['action'])} "
        f"(R26, R70).{rotated} At the end it scores by its {colour} symbol (R55-R56)."
    )


def _tip(lay: Layout, cid: str) -> str:
    return (
        f'<span class="card-tip" role="tooltip" id="tip-{escape(cid, quote=True)}">'
        f"{escape(card_text(lay, cid))}</span>"
    )


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


# pure, and the same few cards are drawn again at every update: made once each
@lru_cache(maxsize=1024)
def card_html(
    lay: Layout, cid: str, extra_class: str = "", mode: str = "", why: str = "",
    focusable: bool = True,
) -> str:  # fmt: skip
    """One card face. ``mode`` (u/r/s/l) shows how it was played (rotated, sideways; a
    Special is never turned, so it stays readable: a badge says how it was played).
    ``why``: the decision a tap on it would be (not legal now): the page says why not.
    Its full rulebook text shows on hover, focus and a long press (``focusable``: the card
    takes the focus itself; not inside a control that does, such as an Academy pick)."""
    played = f" played-{mode}" if mode else ""
    why_attr = f' data-why="{escape(why, quote=True)}"' if why else ""
    tip_id = f"tip-{escape(cid, quote=True)}"
    focus = (
        f' tabindex="0" role="group" aria-describedby="{tip_id}"'
        f' aria-label="{escape(card_title(lay, cid), quote=True)}"'
        if focusable
        else ""
    )
    if cid in lay.basic:
        top, bottom = lay.basic[cid]
        return (
            f'<div class="card card-basic{played} {extra_class}" '
            f'data-card="{escape(cid)}"{why_attr}{focus}>'
            '<span class="chain chain-l" aria-hidden="true">⇄</span>'
            '<span class="chain chain-r" aria-hidden="true">⇄</span>'
            f'<div class="card-top">{escape(action_label(top))}</div>'
            f'<div class="card-bottom">{escape(action_label(bottom))}</div>'
            f"{_tip(lay, cid)}</div>"
        )
    if cid not in lay.special:
        return f'<div class="card card-unknown">{escape(cid)}</div>'
    card = lay.special[cid]
    colour = card["colour"]
    alt = action_label(card["alternate"]) if card["alternate"] else ""
    badge = ""
    if mode:
        badge = (
            f'<span class="played-badge">{MODE_ICON.get(mode, "")} '
            f"{escape(MODE_WORDS.get(mode, ''))}</span>"
        )
    label = action_label(card["action"])
    # most Specials are named for their action: a small card (a phone's hand) shows it once
    same = " card-name-same" if card["name"] == label else ""
    return (
        f'<div class="card card-special card-{colour}{played} {extra_class}" '
        f'data-card="{escape(cid)}"{why_attr}{focus}>'
        f'<span class="card-symbol">{shard_icon(colour, 18)}</span>'
        f'<div class="card-name{same}">{escape(card["name"])}</div>'
        f'<div class="card-top">{escape(label)}</div>'
        f'<div class="card-bottom">{escape(alt)}</div>'
        f"{badge}{_tip(lay, cid)}</div>"
    )


def card_back(count: int, label: str, token: str = "", key: str = "", why: str = "") -> str:
    """A face-down pile with its count; clickable when ``token`` is given (Upgrade's UD);
    ``why``: the decision a tap would be when it is not legal (the page says why not)."""
    attrs = f' data-why="{escape(why, quote=True)}"' if why else ""
    if token:
        attrs = f' data-move="{escape(token, quote=True)}" role="button" tabindex="0"'
    hint = f"<kbd>{escape(key)}</kbd>" if key else ""
    # named by what it shows (count and label), so the visible words are in its name
    take = '<span class="sr-only">Take the top card of the </span>' if token else ""
    return (
        f'<div class="card card-back{" choice" if token else ""}"{attrs} '
        f'title="{escape(label, quote=True)}: {count} cards">'
        f'{hint}{take}<div class="back-count">{count}</div>'
        f'<div class="back-label">{escape(label)}</div></div>'
    )
