"""The game screen: board, track, Academy, seats, the hand with its legal plays, the
played row, the other choices of the moment and the log."""

from __future__ import annotations

from html import escape

from ..rules import layout_for
from .board import SPACE_PREFIXES, board_svg
from .cards import MODE_ICON, card_back, card_html, mode_label
from .keep import keyed
from .prompts import assign_keys, prompt
from .shards import COLOUR_NAMES, shard_icon, shard_legend

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


def track_html(view: dict) -> str:
    track, pos = view["track"], view["track_pos"]
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


def academy_html(view: dict, lay, keys: dict[str, str]) -> str:
    legal = set(view.get("legal", ()))
    cards = []
    for i, cid in enumerate(view["face_up"]):
        token = f"U{i + 1}"
        if cid is None:
            cards.append('<div class="card card-empty">empty</div>')
            continue
        face = card_html(lay, cid)
        if token in legal:
            cards.append(
                f'<div class="academy-pick choice" data-move="{token}" role="button" '
                f'tabindex="0" aria-label="Take {escape(lay.special[cid]["name"], quote=True)}">'
                f"{_kbd(keys.get(token, ''))}{face}</div>"
            )
        else:
            cards.append(face)
    deck_token = "UD" if "UD" in legal else ""
    cards.append(
        card_back(view["academy_count"], "Academy Deck", deck_token, keys.get(deck_token, ""))
    )
    return (
        '<section class="panel academy" aria-label="Space Academy">'
        f'<h3>Space Academy</h3><div class="card-row">{"".join(cards)}</div></section>'
    )


def seats_html(view: dict, names: list[str], colours: list[str], bots: list[str]) -> str:
    rows = []
    for i, d in enumerate(view["seats"]):
        cls = "seat"
        if i == view["turn"]:
            cls += " seat-turn"
        if i == view["seat"]:
            cls += " seat-me"
        bot = f' <span class="bot">{escape(bots[i])} bot</span>' if bots[i] else ""
        bays = "".join(
            f'<span class="bay-mini" title="Bay {b + 1}, bottom to top">'
            + ("".join(shard_icon(c, 13) for c in bay) or "–")
            + "</span>"
            for b, bay in enumerate(d["bays"])
        )
        rows.append(
            f'<li class="{cls}" id="seat-{i}" style="--seat:{escape(colours[i], quote=True)}">'
            f'<div class="seat-name"><span class="swatch"></span>{escape(names[i])}{bot}'
            f'{" ◀ turn" if i == view["turn"] else ""}</div>'
            f'<div class="seat-stats">'
            f'<span title="score now"><b>{d["score_estimate"]} pts</b></span>'
            f'<span title="cards in hand">hand {d["hand_count"]}</span>'
            f'<span title="draw pile">deck {d["draw_count"]}</span>'
            f'<span title="discard pile">discard {len(d["discard"])}</span>'
            f'<span title="ships in Dock">dock {d["dock"]}</span>'
            + (f'<span title="ships lost to the star">lost {d["ships_lost"]}</span>'
               if d["ships_lost"] else "")
            + f'</div><div class="seat-bays">{bays}</div></li>'
        )  # fmt: skip
    return (
        '<section class="panel seats" aria-label="Players">'
        f'<ol class="seat-list">{"".join(rows)}</ol></section>'
    )


def hand_html(view: dict, lay, keys: dict[str, str]) -> str:
    """The viewing seat's hand (only ever its own), each card with its legal plays."""
    me = view["seats"][view["seat"]]
    hand = me.get("hand")
    if hand is None:
        return ""
    legal = view.get("legal", [])
    by_card: dict[str, list[str]] = {}
    for m in legal:
        if m[:1] in ("b", "s") and m[1:2].isdigit():
            by_card.setdefault(m[:-1], []).append(m)
    cards = []
    for cid in hand:
        modes = by_card.get(cid, [])
        buttons = "".join(
            _button(
                m,
                f'<span class="mode-icon">{MODE_ICON[m[-1]]}</span>'
                f"{escape(mode_label(lay, cid, m[-1]))}",
                keys.get(m, ""),
                f' title="Play {escape(cid)} {m[-1]}"',
                cls=f"choice mode mode-{m[-1]}",
            )
            for m in modes
        )
        playable = " playable" if modes else ""
        cards.append(
            f'<li class="hand-card{playable}" id="hand-{escape(cid, quote=True)}">'
            f"{card_html(lay, cid)}"
            f'<div class="modes">{buttons}</div></li>'
        )
    return (
        '<section class="panel hand" aria-label="Your hand">'
        f"<h3>Your hand <small>{len(hand)} cards</small></h3>"
        f'<ul class="card-row hand-row">{"".join(cards)}</ul></section>'
    )


def played_html(view: dict, lay) -> str:
    d = view["seats"][view["turn"]]
    if not d["played"]:
        return (
            '<section class="panel played" aria-label="Played this turn">'
            '<h3>Played this turn</h3><p class="muted">Nothing yet.</p></section>'
        )
    row = "".join(card_html(lay, cid, mode=mode) for cid, mode in d["played"])
    return (
        '<section class="panel played" aria-label="Played this turn">'
        f'<h3>Played this turn</h3><div class="card-row played-row">{row}</div></section>'
    )


def _choice_label(token: str, view: dict) -> str:
    """Button text for a decision that is not a space nor a card."""
    pd = view.get("pending") or {}
    if token[0] == "B":
        c = (pd.get("shards") or "?")[0]
        return f"{shard_icon(c, 14)} into Bay {int(token[1]) + 1}"
    if token == "Rt":
        return "Re-order the top Shards"
    if token[0] == "R":
        return f"Re-order Bay {int(token[1]) + 1}"
    if token[0] == "c" and token[1:] in COLOUR_NAMES:
        return f"{shard_icon(token[1], 14)} {COLOUR_NAMES[token[1]]} next"
    if token == "done":
        return "Done"
    if token[0] == "x":
        n = int(token[1:])
        return "Keep all Shards" if n == 0 else f"Leave {n} Shard{'s' * (n != 1)} behind"
    if token == "d+":
        return "Push clockwise ↻"
    if token == "d-":
        return "Push anticlockwise ↺"
    return escape(token)


def choices_html(view: dict, keys: dict[str, str]) -> str:
    """Every legal decision that is neither a space, a card in hand, nor the Academy."""
    out = []
    for m in view.get("legal", []):
        if m == "E" or m[:1] in SPACE_PREFIXES:
            continue
        if m[:1] in ("b", "s") and m[1:2].isdigit():
            continue
        if m[0] == "U":
            continue
        out.append(_button(m, _choice_label(m, view), keys.get(m, "")))
    if not out:
        return ""
    return f'<div class="choices" role="group" aria-label="Choices">{"".join(out)}</div>'


def log_turns_html(
    turns: list[dict], names: list[str], colours: list[str], known: frozenset[str] = frozenset()
) -> str:
    """The log, newest turn first, each turn's lines in the order they happened (a turn
    the page already shows, by its key in ``known``, comes back elided: see keep.py)."""
    out = []
    for g in turns:
        seat = g["seat"]
        lines = "".join(f"<li>{escape(line)}</li>" for line in g["lines"])
        item = (
            f'<li class="log-turn" style="--seat:{escape(colours[seat], quote=True)}">'
            f'<h4><span class="swatch"></span>Round {g["round"] + 1} · {escape(names[seat])}</h4>'
            f'<ol class="log-lines">{lines}</ol></li>'
        )
        out.append(keyed(item, f"log-{g['round']}-{seat}", known))
    return "".join(out)


def game_html(
    view: dict,
    names: list[str],
    colours: list[str],
    bots: list[str] | None = None,
    log: list[str] | None = None,
    can_undo: bool = False,
    notice: str = "",
    thinking: str = "",
    static_slot: bool = False,
    status: str = "",
    embed: bool = False,
    marks: dict | None = None,
    log_turns: list[dict] | None = None,
    known: frozenset[str] = frozenset(),
) -> str:
    """The whole game screen for ``view`` (one string: the page sets it once per update).

    ``embed``: the game sits in someone else's page (an iframe): a "Full page" button
    opens this game in a tab of its own. ``marks``: the moves the board marks
    (``Session.marks()``). ``log_turns``: the log grouped by turn (``Session.log_turns()``),
    shown instead of the flat ``log``. ``known``: the part keys the page already shows;
    those parts come back elided (``keep.py``), the rest whole.
    """
    lay = layout_for(view["players"], view.get("variant"))
    bots = bots or [""] * view["players"]
    legal = view.get("legal", [])
    keys = assign_keys(legal)
    end = ""
    if "E" in legal:
        end = (
            '<button type="button" class="end-turn" id="move-E" data-move="E" '
            'title="End your turn (Enter)"><kbd>↵</kbd>End turn</button>'
        )
    undo = (
        '<button type="button" id="ui-undo" data-ui="undo" title="Undo (u)">↶ Undo</button>'
        if can_undo
        else '<button type="button" id="ui-undo" data-ui="undo" disabled '
        'title="Nothing to undo">↶ Undo</button>'
    )
    who = view["current"]
    ask = thinking or prompt(view, names)
    turn_line = (
        f'<span class="turn-swatch" style="background:{escape(colours[view["turn"]], quote=True)}">'
        f"</span>Round {view['round'] + 1} · {escape(names[view['turn']])}'s turn"
    )
    if log_turns is not None:
        log_items = log_turns_html(log_turns, names, colours, known)
    else:
        log_items = "".join(f"<li>{escape(line)}</li>" for line in (log or [])[-40:][::-1])
    log_list = f"<ul>{log_items}</ul>"
    if log_turns is not None:
        log_list = f'<ol class="log-turns">{log_items}</ol>'
    notice_html = f'<div class="notice" role="alert">{escape(notice)}</div>' if notice else ""
    if status:  # e.g. "saving is off": worth knowing, not an error to announce each time
        notice_html += f'<p class="status muted" role="status">{escape(status)}</p>'

    def part(markup: str, id_: str) -> str:
        return keyed(markup, id_, known) if markup else ""

    topbar = (
        '<header class="topbar">'
        f'<div class="turn">{turn_line}</div>'
        '<nav class="tools">'
        f"{undo}"
        '<button type="button" id="ui-share" data-ui="share" '
        'title="Share this game as a link">Share</button>'
        '<button type="button" id="ui-help" data-ui="help" '
        'title="Rules and keys (?)">? Rules</button>'
        '<button type="button" id="ui-menu" data-ui="menu" '
        'title="New game, saved games">☰ Games</button>'
        f"{full_page_button() if embed else ''}"
        "</nav></header>"
    )
    return (
        f'<div class="game" data-seat="{view["seat"]}" data-decider="{who}">'
        f"{part(topbar, 'part-topbar')}"
        f"{notice_html}"
        '<div class="table">'
        '<div class="board-wrap">'
        f"{board_svg(view, names, colours, True, keys, static_slot, marks, known)}"
        "</div>"
        '<div class="controls">'
        f'<p class="prompt" id="prompt" aria-live="polite">{escape(ask)}</p>'
        + part(f'<div class="action-bar">{choices_html(view, keys)}{end}</div>', "part-actions")
        + part(hand_html(view, lay, keys), "part-hand")
        + part(played_html(view, lay), "part-played")
        + '<div id="share-panel" data-nova-share-panel data-nova-keep="share" hidden></div>'
        + part(seats_html(view, names, colours, bots), "part-seats")
        + part(track_html(view), "part-track")
        + part(academy_html(view, lay, keys), "part-academy")
        + part(f'<section class="panel legend-panel">{shard_legend()}</section>', "part-legend")
        + '<section class="panel log" aria-label="Game log"><h3>Log '
        '<button type="button" id="ui-replay" data-ui="replay" class="small">▶ Replay</button></h3>'
        f"{log_list}"
        "</section></div></div></div>"
    )
