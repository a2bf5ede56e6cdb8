"""Places on the board where one tap plays several decisions (``nova/folding.py``,
``Session.folded_moves``: space -> the ways that lead there, each a run of decisions): at
the turn's step, the places an action card in hand takes a ship to (with the Chain link
before it when one is needed, R24); at a "choose the ship" step, the places an offered
ship goes to. A place one way reaches plays it (``data-alt-move``); a place several ways
reach, each to a different outcome, asks which (``data-ui="fold:<space>"``: the chooser,
:func:`chooser_html`, one button a way). They repeat, for a pointer, what the cards, the
ship and then the space would do, so the board's targets are hidden from keyboard and
screen reader, which play the cards and choose the ship first as before."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from ..rules import Move, View
from ..rules import move as mv
from .cards import MODE_ICON, card_title, mode_label
from .geometry import BASE_H, BASE_W, geometry_for
from .prompts import card_slots, place_words

Folded = Mapping[str, Sequence[str]]  # space -> the ways there (each "b5s b4u @b0 >b10")


def with_folds(board: str, view: View, folded: Folded, choosing: str = "") -> str:
    """The board's markup with its folded places drawn in it (its last svg), for the game's
    screen and a lesson's alike."""
    if not folded:
        return board
    return board[: -len("</svg>")] + folded_svg(view, folded, choosing) + "</svg>"


def on_board(folded: Folded) -> bool:
    """Whether one of the folded places is on the board (a space, a Cargo Bay): the turn's
    prompt then says "tap a card or a space"; the Academy's cards alone are cards."""
    return any(Move(key).kind != mv.UPGRADE for key, ways in folded.items() if ways)


def fold_act(key: str, ways: Sequence[str]) -> str:
    """What a tap on a folded place does: play its one way, or open the chooser."""
    if len(ways) == 1:
        return f'data-alt-move="{escape(ways[0], quote=True)}"'
    return f'data-ui="fold:{escape(key, quote=True)}"'


def _bay_box(view: View, b: int) -> tuple[float, float, float, float]:
    lay = view.layout
    geo = geometry_for(view.players, view.variant)
    x, y = geo.base_xy[lay.seat_base[view.current]]
    left, top = x - BASE_W / 2, y - BASE_H / 2
    col_w = (BASE_W - 16) / 3
    bx = left + 8 + b * col_w
    return (bx + 1, top + 60, bx + col_w - 1, top + BASE_H - 6)


def folded_svg(view: View, folded: Folded, choosing: str = "") -> str:
    """The folded places as board targets (dashed: a place to go, not a ship; a place
    several ways reach has a second ring; the one being chosen is drawn solid), and the
    Cargo Bays an Unload's first Shard may go into."""
    if not folded:
        return ""
    lay = view.layout
    geo = geometry_for(view.players, view.variant)
    out = ['<g class="fold-targets" aria-hidden="true">']
    for name, ways in folded.items():
        if not ways or Move(name).kind == mv.UPGRADE:  # the Academy's cards, off the board
            continue
        act = fold_act(name, ways)
        chosen = name == choosing
        if Move(name).kind == mv.BAY:
            x0, y0, x1, y1 = _bay_box(view, Move(name).number)
            out.append(
                f'<g class="target bay-target fold-target{" fold-chosen" * chosen}" {act}>'
                f"<title>Unload into {place_words(name)}</title>"
                f'<rect x="{x0:.1f}" y="{y0:.1f}" width="{x1 - x0:.1f}" height="{y1 - y0:.1f}" '
                f'rx="7" fill="#7df9ff" fill-opacity="{".25" if chosen else ".08"}" '
                'stroke="#7df9ff" stroke-width="3" stroke-dasharray="7 5"/></g>'
            )
            continue
        s = lay.name_to_space.get(name)
        if s is None:
            continue
        (x, y), r = geo.space_xy[s], geo.space_r[s]
        if len(ways) == 1:
            title = f"{way_words(view, ways[0])}"
        else:
            title = f"{len(ways)} ways to {name}: tap to choose"
        dash = "" if chosen else ' stroke-dasharray="7 5"'
        out.append(
            f'<g class="target target-dest fold-target{" fold-ways" * (len(ways) > 1)}'
            f'{" fold-chosen" * chosen}" {act}>'
            f"<title>{escape(title)}</title>"
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r + 5:.1f}" fill="#7df9ff" '
            f'fill-opacity="{".25" if chosen else ".08"}" stroke="#7df9ff" stroke-width="3"'
            f"{dash}/>"
            + (
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r + 11:.1f}" fill="none" '
                'stroke="#7df9ff" stroke-width="2" stroke-dasharray="3 5"/>'
                if len(ways) > 1
                else ""
            )
            + "</g>"
        )
    out.append("</g>")
    return "".join(out)


def fold_boxes(view: View, folded: Folded) -> list[tuple[float, float, float, float]]:
    """The folded places' boxes (board units), for the phone's zoom to frame them."""
    lay = view.layout
    geo = geometry_for(view.players, view.variant)
    boxes = []
    for name in folded:
        if Move(name).kind == mv.BAY:
            boxes.append(_bay_box(view, Move(name).number))
            continue
        s = lay.name_to_space.get(name)
        if s is not None:
            (x, y), r = geo.space_xy[s], geo.space_r[s] + 11
            boxes.append((x - r, y - r, x + r, y + r))
    return boxes


def way_words(view: View, way: str, came: Sequence[str] = ()) -> str:
    """A way in words (plain text): its cards by their number in the hand and what each
    does, the ship, the place ("card 5 Chain link, card 4 Orbit 2, ship on b0 to b10")."""
    lay = view.layout
    slots = card_slots(view, lay, came)
    parts = []
    for token in way.split():
        m = Move(token)
        if m.kind == mv.PLAY:
            key = slots.get(m.card, "")
            parts.append(f"card {key} {mode_label(lay, m.card, m.mode)}".replace("  ", " "))
        elif m.kind == mv.SHIP:
            parts.append(f"ship on {m.space}")
        elif m.kind == mv.DEST:
            parts.append(f"to {m.space}")
        elif m.kind == mv.TARGET:
            parts.append(f"at the ship on {m.space}")
        elif m.kind in (mv.BAY, mv.UPGRADE):
            parts.append(f"to {place_words(token)}")
    return ", ".join(parts)


def _card_chip(view: View, token: str, slots: Mapping[str, str]) -> str:
    """A card of a way: its number in the hand, how it is played and what that does, and
    the card by its face ("Unload / Orbit 1"): two ways that differ only in which card they
    spend differ here, in the words printed on the cards."""
    lay = view.layout
    m = Move(token)
    key = escape(slots.get(m.card, ""))
    icon = f'<span aria-hidden="true">{MODE_ICON[m.mode]}</span>'
    what = "link" if m.mode in "sl" else escape(mode_label(lay, m.card, m.mode))
    face = escape(card_title(lay, m.card))
    return (
        f'<span class="way-card"><kbd>{key}</kbd>{icon} {what}'
        f'<small class="way-face">{face}</small></span>'
    )


def _way_button(
    view: View, way: str, slots: Mapping[str, str], came: Sequence[str], ships: bool,
    shared: frozenset[str],
) -> str:  # fmt: skip
    """A way as a small button: the cards it plays that not every way plays (``shared``
    are said once, above), and the ship when ways differ in it."""
    bits = []
    for token in way.split():
        m = Move(token)
        if m.kind == mv.PLAY and token not in shared:
            bits.append(_card_chip(view, token, slots))
        elif m.kind == mv.SHIP and ships:
            bits.append(f'<span class="way-ship">ship on {escape(m.space)}</span>')
    if not bits:  # the ways differ in nothing a card or a ship says: the whole way
        bits.append(escape(way_words(view, way, came)))
    title = escape(way_words(view, way, came), quote=True)
    return (
        f'<button type="button" class="choice fold-way" data-alt-move="{escape(way, quote=True)}"'
        f' title="{title}">{" ".join(bits)}</button>'
    )


def chooser_html(view: View, space: str, ways: Sequence[str], came: Sequence[str] = ()) -> str:
    """The ways to ``space`` the person tapped, one button each, and Cancel. What every
    way plays is said once before them, so each button shows only what it decides: which
    card is spent (by its number and its face), which ship goes."""
    slots = card_slots(view, view.layout, came)
    ships = len({m for w in ways for m in w.split() if Move(m).kind == mv.SHIP}) > 1
    plays = [[t for t in w.split() if Move(t).kind == mv.PLAY] for w in ways]
    shared = frozenset(t for t in plays[0] if all(t in p for p in plays[1:]))
    lead = ""
    if shared:
        chips = " ".join(_card_chip(view, t, slots) for t in plays[0] if t in shared)
        lead = f'<p class="fold-shared">Each way plays {chips}</p>'
    buttons = "".join(_way_button(view, w, slots, came, ships, shared) for w in ways)
    return (
        f'<div class="choices fold-ways" role="group" '
        f'aria-label="Ways to {escape(place_words(space), quote=True)}">'
        f'{lead}{buttons}<button type="button" class="secondary" data-ui="fold:">Cancel</button>'
        "</div>"
    )


def academy_folds_html(view: View, folded: Folded, came: Sequence[str] = ()) -> str:
    """At the turn's step, the Academy's cards an Upgrade card in hand takes, as small
    buttons between the choices and the hand (the Academy's panel is far down a phone's
    drawer): one tap
    plays the Upgrade card (with the Chain link before it when one is needed) and takes
    that card, or asks which way when several do (the chooser)."""
    lay = view.layout
    out = []
    for i, cid in [*enumerate(view.face_up, 1), (0, None)]:
        key = f"U{i}" if i else "UD"
        ways = folded.get(key)
        if not ways:
            continue
        name = lay.special[cid]["name"] if cid is not None else "Deck"
        what = f"Take {name}" if cid is not None else "Take the Academy Deck's top card"
        out.append(
            f'<button type="button" class="choice fold-take" {fold_act(key, ways)} '
            f'title="{escape(what, quote=True)}">{escape(name)}</button>'
        )
    if not out:
        return ""
    return (
        '<div class="choices academy-takes" role="group" aria-label="Upgrade: take a card">'
        f'<span class="muted">Upgrade:</span>{"".join(out)}</div>'
    )
