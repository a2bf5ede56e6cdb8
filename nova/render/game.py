"""The game screen: board, track, Academy, seats, the hand with its legal plays, the
played row, the other choices of the moment and the log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

from ..rules import Layout, Move, View
from ..rules import move as mv
from ..rules.scoring import best_bay_split
from .board import TARGET_VERB, bay_gain, board_svg
from .cards import MODE_ICON, MODE_WORDS, card_back, card_html, card_title, mode_label
from .folds import (
    academy_folds_html,
    chooser_html,
    fold_act,
    fold_boxes,
    on_board,
    with_folds,
)
from .keep import keyed
from .log import LogTurn, log_list
from .prompts import assign_keys, card_slots, end_turn_button, leave_html, prompt
from .shards import COLOUR_NAMES, shard_icon, shard_legend
from .zoom import zoom_spec

TRACK_ICON = {"start": "◦", "blank": "·", "spawn": "✦", "expansion": "◎", "supernova": "✺"}
TRACK_NAME = {
    "start": "Start",
    "blank": "nothing happens",
    "spawn": "Spawn Energy",
    "expansion": "Star Expansion",
    "supernova": "Super-Nova: the game ends",
}


def _kbd(key: str) -> str:
    return f"<kbd>{escape(key)}</kbd>" if key else ""


def _button(token: str, label: str, key: str, extra: str = "", cls: str = "choice") -> str:
    return (
        f'<button type="button" class="{cls}" id="move-{escape(token, quote=True)}" '
        f'data-move="{escape(token, quote=True)}"'
        f"{extra}>{_kbd(key)}{label}</button>"
    )


def full_page_button(cls: str = "") -> str:
    """Embedded only: opens the game (or the start screen) in a page of its own."""
    classes = f"{cls} full-page".strip()
    return (
        f'<button type="button" id="ui-full-page" data-ui="full-page" class="{classes}" '
        'title="Open the game in a page of its own">Full page ↗</button>'
    )


def zoom_attr(view: View, folded: dict[str, tuple[str, ...]] | None = None) -> str:
    """``data-zoom="x0 y0 x1 y1 side"``: the box around every one of the board's tap targets
    (the folded destinations too) and the smallest target's side (board units), for a phone
    to zoom the board to them (``zoom.py``, App)."""
    return zoom_spec(view, fold_boxes(view, folded or {}))


def track_html(view: View) -> str:
    track, pos = view.track, view.track_pos
    cells = []
    for i, kind in enumerate(track):
        cls = f"track-cell track-{kind}"
        if i < pos:
            cls += " track-past"
        elif i == pos:
            cls += " track-here"
        token = '<span class="track-token" aria-label="the token">▼</span>' if i == pos else ""
        cells.append(
            f'<li class="{cls}" title="{i}: {TRACK_NAME[kind]}">{token}'
            f'<span class="track-icon">{TRACK_ICON[kind]}</span></li>'
        )
    upcoming = [
        f"{TRACK_NAME[k]} in {i - pos}" for i, k in enumerate(track) if i > pos and k != "blank"
    ][:3]
    nxt = "; ".join(upcoming) or "—"
    return (
        '<section class="panel track" aria-label="Expansion Track">'
        f"<h3>Expansion Track <small>{pos}/{len(track) - 1}</small></h3>"
        f'<ol class="track-row">{"".join(cells)}</ol>'
        f'<p class="track-next">Next: {escape(nxt)}</p>'
        '<p class="track-keys">✦ Spawn Energy · ◎ Star Expansion · ✺ Super-Nova</p>'
        "</section>"
    )


def academy_html(
    view: View, lay: Layout, keys: dict[str, str], folded: dict[str, tuple[str, ...]] | None = None
) -> str:
    """The Space Academy: its face-up cards (takeable during an Upgrade; at the turn's
    step, a card that an Upgrade card in hand takes, by one tap: ``folded``, render/folds.py)
    and its deck."""
    legal = set(view.legal)
    folded = folded or {}
    cards = []
    for i, cid in enumerate(view.face_up):
        token = f"U{i + 1}"
        if cid is None:
            cards.append('<div class="card card-empty">empty</div>')
            continue
        if token in folded:
            # for a pointer, as the board's folded places (keyboard: the Upgrade card first)
            face = card_html(lay, cid, focusable=False)
            name = escape(lay.special[cid]["name"], quote=True)
            cards.append(
                f'<div class="academy-pick choice fold-pick" {fold_act(token, folded[token])} '
                f'title="Upgrade: take {name}">{face}</div>'
            )
            continue
        if token in legal:
            face = card_html(lay, cid, focusable=False)
            key = keys.get(token, "")
            name = escape(lay.special[cid]["name"], quote=True)
            # named by what it shows (the key and the card), "Take" said to screen readers
            cards.append(
                f'<div class="academy-pick choice" id="move-{token}" data-move="{token}" '
                f'role="button" tabindex="0" aria-describedby="tip-{escape(cid, quote=True)}" '
                f'title="Take {name}">'
                f'{_kbd(key)}<span class="sr-only">Take </span>{face}</div>'
            )
        else:
            cards.append(card_html(lay, cid, why=token))
    deck_token = "UD" if "UD" in legal else ""
    deck = card_back(
        view.academy_count, "Academy Deck", deck_token, keys.get(deck_token, ""),
        why="" if deck_token or "UD" in folded else "UD",
    )  # fmt: skip
    if "UD" in folded:
        deck = f'<div class="fold-pick" {fold_act("UD", folded["UD"])}>{deck}</div>'
    cards.append(deck)
    return (
        '<section class="panel academy" aria-label="Space Academy">'
        f'<h3>Space Academy</h3><div class="card-row">{"".join(cards)}</div></section>'
    )


def _points_html(view: View, i: int, lay: Layout) -> str:
    """A seat's points, saying what they count: the final score once the game is over;
    until then every seat's Cargo Bays, the one figure public for all and steady (Shards
    banked stay banked); your own Specials beside yours. An opponent's Specials are not
    counted: those in their hand and deck are secret until the end (R55), and counting
    only the ones on view made the figure jump as they were played and shuffled away."""
    if view.over and view.scores:
        return (
            f'<span class="pts" title="Final score (R50-R58)"><b>{view.scores[i]} pts</b> '
            "final</span>"
        )
    d = view.seats[i]
    bays = sum(best_bay_split(b, lay.bay_sets)[0] for b in d.bays)
    if i == view.seat:
        specials = d.score_estimate - bays
        title = (
            f"Cargo Bays {bays} pts; your Special cards add {specials} at the end (R55): "
            f"{d.score_estimate} pts now"
        )
        return (
            f'<span class="pts" title="{title}"><b>{bays} pts</b> in bays'
            f'<span class="pts-specials"> +{specials} Specials</span></span>'
        )
    title = (
        f"Cargo Bays {bays} pts. Special cards score at the end (R55); theirs are secret "
        "until then, so no seat's are counted here but your own."
    )
    return (
        f'<span class="pts" title="{title}"><b>{bays} pts</b> in bays'
        '<span class="sr-only"> (their Specials count at the end)</span></span>'
    )


def seats_html(view: View, names: list[str], colours: list[str], bots: list[str]) -> str:
    lay = view.layout
    rows = []
    for i, d in enumerate(view.seats):
        cls = "seat"
        if i == view.turn:
            cls += " seat-turn"
        if i == view.seat:
            cls += " seat-me"
        bot = f' <span class="bot">{escape(bots[i])} bot</span>' if bots[i] else ""
        bays = "".join(
            f'<span class="bay-mini" title="Bay {b + 1}, bottom to top">'
            + ("".join(shard_icon(c, 13) for c in bay) or "–")
            + "</span>"
            for b, bay in enumerate(d.bays)
        )
        rows.append(
            f'<li class="{cls}" id="seat-{i}" style="--seat:{escape(colours[i], quote=True)}">'
            f'<div class="seat-name"><span class="swatch"></span>{escape(names[i])}{bot}'
            f'{" ◀ turn" if i == view.turn else ""}</div>'
            f'<div class="seat-stats">{_points_html(view, i, lay)}'
            f'<span title="cards in hand">hand {d.hand_count}</span>'
            f'<span title="draw pile">deck {d.draw_count}</span>'
            f'<span title="discard pile">discard {len(d.discard)}</span>'
            f'<span title="ships in Dock">dock {d.dock}</span>'
            + (f'<span title="ships lost to the star">lost {d.ships_lost}</span>'
               if d.ships_lost else "")
            + f'</div><div class="seat-bays">{bays}</div></li>'
        )  # fmt: skip
    return (
        '<section class="panel seats" aria-label="Players">'
        f'<ol class="seat-list">{"".join(rows)}</ol></section>'
    )


def hand_html(view: View, lay: Layout, keys: dict[str, str], came: Sequence[str] = ()) -> str:
    """The viewing seat's hand (only ever its own), each card with its legal plays;
    ``came``: the cards that came into it this turn (numbers stay put: ``card_slots``)."""
    hand = view.me.hand
    if hand is None:
        return ""
    legal = view.legal
    by_card: dict[str, list[Move]] = {}
    for m in legal:
        if m.kind == mv.PLAY:
            by_card.setdefault(m.card, []).append(m)
    slots = card_slots(view, lay, came)
    cards = []
    for cid in sorted(hand, key=lambda c: slots.get(c, "~")):
        modes = by_card.get(cid, [])
        buttons = "".join(
            _button(
                m,
                f'<span class="mode-icon" aria-hidden="true">{MODE_ICON[m.mode]}</span>'
                f"{escape(mode_label(lay, cid, m.mode))}",
                "",
                f' title="Play {escape(card_title(lay, cid), quote=True)} {MODE_WORDS[m.mode]}"',
                cls=f"choice mode mode-{m.mode}",
            )
            for m in modes
        )
        playable = " playable" if modes else ""
        # a tap on the card says why it cannot be played upright now ("why not?")
        upright = mv.play(cid, "u")
        why = "" if upright in legal else upright
        key = slots.get(cid, "")
        cards.append(
            f'<li class="hand-card{playable}" id="hand-{escape(cid, quote=True)}" '
            f'data-card-key="{key}">'
            f'<span class="card-key" aria-hidden="true">{_kbd(key)}</span>'
            f"{card_html(lay, cid, why=why)}"
            f'<div class="modes">{buttons}</div></li>'
        )
    return (
        '<section class="panel hand" aria-label="Your hand">'
        f"<h3>Your hand <small>{len(hand)} cards</small></h3>"
        f'<ul class="card-row hand-row">{"".join(cards)}</ul></section>'
    )


def played_html(view: View, lay: Layout) -> str:
    d = view.seats[view.turn]
    if not d.played:
        return (
            '<section class="panel played" aria-label="Played this turn">'
            '<h3>Played this turn</h3><p class="muted">Nothing yet.</p></section>'
        )
    row = "".join(card_html(lay, cid, mode=mode) for cid, mode in d.played)
    return (
        '<section class="panel played" aria-label="Played this turn">'
        f'<h3>Played this turn</h3><div class="card-row played-row">{row}</div></section>'
    )


def _choice_label(m: Move, view: View) -> str:
    """Button text for a decision that is not a space nor a card."""
    kind = m.kind
    shards = getattr(view.pending, "shards", "")
    if kind == mv.BAY and shards:
        c, b = shards[0], m.number
        gain = bay_gain(view.seats[view.current].bays[b], c, view.layout)
        return (
            f"{shard_icon(c, 14)} into Bay {b + 1} "
            f'<span class="gain">+{gain} pt{"s" * (gain != 1)}</span>'
        )
    if kind == mv.REORDER:
        return "Re-order the top Shards" if m.number < 0 else f"Re-order Bay {m.number + 1}"
    if kind == mv.COLOUR:
        return f"{shard_icon(m.colour, 14)} {COLOUR_NAMES[m.colour]} next"
    if kind == mv.DONE:
        return "Done"
    if kind == mv.LEAVE:
        n = m.number
        return "Keep all Shards" if n == 0 else f"Leave {n} Shard{'s' * (n != 1)} behind"
    if kind == mv.DIR:
        return "Push clockwise ↻" if m.number == 1 else "Push anticlockwise ↺"
    return escape(m)


def choices_html(view: View, keys: dict[str, str]) -> str:
    """Every legal decision that is neither a space, a card in hand, nor the Academy."""
    out = []
    for m in view.legal:
        kind = m.kind
        if kind in (mv.END, mv.PLAY, mv.UPGRADE) or kind in TARGET_VERB:
            continue
        out.append(_button(m, _choice_label(m, view), keys.get(m, "")))
    if not out:
        return ""
    return f'<div class="choices" role="group" aria-label="Choices">{"".join(out)}</div>'


@dataclass(frozen=True)
class GamePage:
    """What the game screen shows besides the view: the page's own state.

    ``names``, ``colours``, ``bots``: per seat (a bot's name, "" for a person). ``embed``:
    the game sits in someone else's page (an iframe): a "Full page" button opens this game
    in a tab of its own. ``marks``: the moves the board marks (``Session.marks()``).
    ``log_turns``: the log grouped by turn (``Session.log_turns()``), shown instead of the
    flat ``log``. ``known``: the part keys the page already shows; those parts come back
    elided (``keep.py``), the rest whole. ``undo_why``: why Undo is off
    (``Session.undo_block()``), its tooltip and accessible description. ``static_slot``:
    the board's unchanging layer is the page's to fill (:func:`board_svg`).
    ``share_panel``: the share dialog's content (shown when not empty). ``shareable``:
    False for a game by links, which has its own links (no Share, no Hint). ``weighed``:
    the turns a bot weighed (``render/hint.py``: the hint's, a bot's last turn's), under the
    choices of the moment.
    """

    names: tuple[str, ...]
    colours: tuple[str, ...]
    bots: tuple[str, ...] = ()
    log: tuple[str, ...] = ()
    log_turns: tuple[LogTurn, ...] | None = None
    can_undo: bool = False
    undo_why: str = ""
    notice: str = ""
    status: str = ""  # e.g. "saving is off": worth knowing, not an error to announce
    thinking: str = ""  # said instead of the prompt (a bot thinks, the first game narrates)
    static_slot: bool = False
    embed: bool = False
    marks: dict[str, Any] | None = field(default=None, hash=False)
    known: frozenset[str] = frozenset()
    share_panel: str = ""
    shareable: bool = True
    weighed: str = ""
    leave: tuple[int, int] | None = None  # the moving ship's Shards control (leave_html)
    # space -> the ways one tap there plays (render/folds.py), and the one being chosen
    folded: dict[str, tuple[str, ...]] | None = field(default=None, hash=False)
    choosing: str = ""
    came: tuple[str, ...] = ()  # the cards that came into the viewer's hand this turn


def game_html(view: View, page: GamePage) -> str:
    """The whole game screen for ``view`` (one string: the page sets it once per update)."""
    lay = view.layout
    names, colours = list(page.names), list(page.colours)
    bots = list(page.bots) or [""] * view.players
    known = page.known
    keys = assign_keys(view.legal)
    end = end_turn_button(view.legal)
    ask = page.thinking or prompt(view, names, on_board(page.folded or {}), page.choosing)
    log_items = log_list(list(page.log), page.log_turns, names, colours, known)
    notice_html = (
        f'<div class="notice" role="alert">{escape(page.notice)}</div>' if page.notice else ""
    )
    if page.status:
        notice_html += f'<p class="status muted" role="status">{escape(page.status)}</p>'

    def part(markup: str, id_: str) -> str:
        return keyed(markup, id_, known) if markup else ""

    undo = _undo_button(page.can_undo, page.undo_why)
    topbar = _topbar(view, names, colours, undo, page.shareable, page.embed)
    board = board_svg(view, names, colours, True, keys, page.static_slot, page.marks, known)
    board = with_folds(board, view, page.folded or {}, page.choosing)  # one tap's places
    actions = choices_html(view, keys) + leave_html(page.leave)
    ways = (page.folded or {}).get(page.choosing)
    if ways:  # a place several ways reach was tapped: which way (its cards)
        actions = chooser_html(view, page.choosing, ways, page.came) + actions
    # the Academy's cards an Upgrade card takes in one tap (over the hand on a phone)
    takes = academy_folds_html(view, page.folded, page.came) if page.folded and not ways else ""
    share_panel = page.share_panel
    return (
        f'<div class="game" data-seat="{view.seat}" data-decider="{view.current}">'
        f"{part(topbar, 'part-topbar')}"
        f"{notice_html}"
        '<div class="table">'
        '<div class="board-wrap">'
        f'<div class="board-stage"{zoom_attr(view, page.folded)}>{board}</div></div>'
        '<div class="controls">'
        f'<p class="prompt" id="prompt" aria-live="polite">{escape(ask)}</p>'
        + part(f'<div class="action-bar">{actions}{end}</div>', "part-actions")
        + page.weighed
        + part(hand_html(view, lay, keys, page.came), "part-hand")
        + takes
        + part(played_html(view, lay), "part-played")
        + '<div id="share-panel" class="share-dialog" role="dialog" aria-label="Share this game" '
        f"data-nova-share-panel{'' if share_panel else ' hidden'}>{share_panel}</div>"
        + part(seats_html(view, names, colours, bots), "part-seats")
        + part(track_html(view), "part-track")
        + part(academy_html(view, lay, keys, page.folded), "part-academy")
        + part(f'<section class="panel legend-panel">{shard_legend()}</section>', "part-legend")
        + '<section class="panel log" aria-label="Game log"><h3>Log '
        + '<button type="button" id="ui-replay" data-ui="replay" class="small">▶ Replay</button>'
        + "</h3>"
        f"{log_items}"
        "</section></div></div></div>"
    )


def _undo_button(can_undo: bool, undo_why: str) -> str:
    if can_undo:
        return '<button type="button" id="ui-undo" data-ui="undo" title="Undo (u)">↶ Undo</button>'
    why = escape(undo_why or "Nothing to undo", quote=True)
    # aria-disabled, not disabled: a tap or focus still reaches it and says why not
    return (
        f'<button type="button" id="ui-undo" data-ui="undo" aria-disabled="true" '
        f'data-why-ui="{why}" title="{why}">↶ Undo</button>'
    )


def _turn_line(view: View, names: list[str], colours: list[str]) -> str:
    """Whose turn it is in which round, or who won."""
    if view.over:
        winners = view.winners
        who_won = " and ".join(escape(names[w]) for w in winners)
        best = max(view.scores or [0])
        return (
            f"Game over · {who_won} win{'s' * (len(winners) == 1)} with {best} pts"
            if winners
            else "Game over"
        )
    return (
        f'<span class="turn-swatch" '
        f'style="background:{escape(colours[view.turn], quote=True)}"></span>'
        f"Round {view.round + 1} · {escape(names[view.turn])}'s turn"
    )


def _topbar(
    view: View, names: list[str], colours: list[str], undo: str, shareable: bool, embed: bool
) -> str:
    legal = view.legal
    # a hint is for a person's own decision (never while a bot decides or it is over)
    hint_button = (
        '<button type="button" id="ui-hint" data-ui="hint" '
        'title="Show the strongest bot\'s choice for your decision (never played for you)">'
        "Hint</button>"
        if legal and not view.over and shareable
        else ""
    )
    return (
        '<header class="topbar">'
        f'<div class="turn">{_turn_line(view, names, colours)}</div>'
        '<nav class="tools">'
        f"{undo}"
        + (
            '<button type="button" id="ui-share" data-ui="share" '
            'title="Share this game as a link">Share</button>'
            if shareable
            else ""
        )
        + '<button type="button" id="ui-help" data-ui="help" '
        'title="Rules and keys (?)">? Rules</button>'
        f"{hint_button}"
        '<button type="button" id="ui-menu" data-ui="menu" '
        'title="New game, saved games">☰ Games</button>'
        f"{full_page_button() if embed else ''}"
        "</nav></header>"
    )
