"""The rules help (the "Rules" dialog): the actions and cards from the data, what the
Expansion Track's spaces do with their pictures, scoring with the rulebook's examples worked
out by the game's own scoring, and the keys (hidden on a touch phone, by CSS). Pure Python."""

from __future__ import annotations

import json
from functools import lru_cache
from html import escape

from ..rules import layout_for
from ..rules.content import action_label
from ..rules.scoring import best_bay_split, special_groups
from .game import TRACK_ICON
from .shards import shard_icon, shard_legend
from .words import ACTION_TEXT

# What each space of the Expansion Track does (R45-R49), in a player's words; the pictures are
# the track's cells as the game draws them (render/game.py TRACK_ICON, game.css's colours).
TRACK_HELP = (
    ("spawn", "Spawn Energy", "R47", "Every player, starting with the one who moved the token, "
     "draws a Shard from the bag and puts it on an Asteroid space of their choice: new Shards "
     "to raid."),
    ("expansion", "Star Expansion", "R48", "The star grows: an Expansion Ring covers the "
     "innermost ring still open. The ships and Shards on that ring are swallowed, gone for "
     "the rest of the game: move your ships outward before it comes."),
    ("supernova", "Super-Nova", "R49", "The game ends at once, even mid-turn; everyone counts "
     "their points (see Scoring)."),
    ("blank", "A blank space", "R46", "Nothing happens."),
)  # fmt: skip
TRACK_COLOURS = {  # fill, glyph: as game.css draws .track-cell
    "blank": ("#0c122f", "#9aa4d6"),
    "spawn": ("#0c122f", "#7df9ff"),
    "expansion": ("#0c122f", "#ffb347"),
    "supernova": ("#2a0f12", "#ff6a3d"),
}
# the rulebook's examples (R54, R57): three bays that score 6 + 3 + 11 = 20, Special symbols
BAY_EXAMPLE = ("krk", "kkk", "kryr")
SPECIAL_EXAMPLES = ("rrr", "rrky")


def track_space_svg(kind: str, size: int = 26) -> str:
    """One space of the Expansion Track as a small picture, as the game's track shows it."""
    fill, glyph = TRACK_COLOURS.get(kind, TRACK_COLOURS["blank"])
    icon = TRACK_ICON.get(kind, "")
    return (
        f'<svg class="track-pic" width="{size}" height="{size + 3}" viewBox="0 0 26 29" '
        f'aria-hidden="true"><rect x="1" y="1" width="24" height="27" rx="5" fill="{fill}" '
        f'stroke="#2a3566"/><text x="13" y="20" text-anchor="middle" font-size="15" '
        f'fill="{glyph}">{escape(icon)}</text></svg>'
    )


def _track_help(lay) -> str:
    """What the Expansion Track's spaces do, each with its picture and how many the track has."""
    track = list(lay.track)
    items = "".join(
        f"<li>{track_space_svg(kind)}<div><b>{escape(name)}</b> "
        f"<small class='muted'>({track.count(kind)} on this track, {rule})</small><br>"
        f"{escape(text)}</div></li>"
        for kind, name, rule, text in TRACK_HELP
        if kind in track
    )
    return (
        "<section class='help-sec track-help'><h3>The Expansion Track</h3>"
        "<p>Each Unload moves the token one space along the track (R45); the space it "
        "reaches happens at once:</p>"
        f"<ul class='track-help-list'>{items}</ul></section>"
    )


COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}


def _sets_words(table: dict[int, int], what: str, single: str) -> str:
    """ "three different in a row 10, two different in a row 5, a single Shard 1"."""
    return ", ".join(
        f"{COUNT_WORDS.get(n, str(n))} {what} {p}" if n > 1 else f"{single} {p}"
        for n, p in sorted(table.items(), reverse=True)
    )


def _scoring_help(lay) -> str:
    """The end's scoring with the rulebook's examples, worked out by the game's own scoring."""
    bay = _sets_words(lay.bay_sets, "different in a row", "a single Shard")
    sets = _sets_words(lay.special_sets, "alike", "a single symbol")
    rows, total = [], 0
    for n, shards in enumerate(BAY_EXAMPLE, 1):
        points, groups = best_bay_split(shards, lay.bay_sets)
        total += points
        parts = " + ".join(str(lay.bay_sets[len(g)]) for g in groups)
        icons = "".join(shard_icon(c, 15) for c in shards)
        rows.append(f"<li>Bay {n}: {icons} = {parts} = <b>{points}</b></li>")
    sums = " + ".join(str(best_bay_split(s, lay.bay_sets)[0]) for s in BAY_EXAMPLE)
    specials = []
    for symbols in SPECIAL_EXAMPLES:
        groups = sorted(special_groups(symbols, lay.special_sets), key=lambda g: -g[2])
        parts = " + ".join(str(p) for _, _, p in groups)
        icons = "".join(shard_icon(c, 15) for c in symbols)
        points = sum(p for _, _, p in groups)
        said = f"{parts} = <b>{points}</b>" if len(groups) > 1 else f"<b>{points}</b>"
        specials.append(f"<li>{icons} = {said}</li>")
    return (
        "<section class='help-sec scoring-help'><h3>Scoring</h3>"
        "<p>When the star goes Super-Nova, points come from two places; the most wins.</p>"
        "<p><b>Cargo Bays</b> (R50-R54): spread each bay out in the order its Shards went in "
        f"(bottom first) and score runs of different colours: {escape(bay)}. The rulebook's "
        f"example:</p><ul class='score-example'>{''.join(rows)}</ul>"
        f"<p>{sums} = <b>{total}</b> points. The order you unload in is worth points.</p>"
        "<p><b>Special cards</b> (R55-R57): every Special you own (hand, deck and discard "
        "pile) counts by the Shard symbol on it, sorted by colour: "
        f"{escape(sets)}. For example:</p><ul class='score-example'>{''.join(specials)}</ul>"
        "<p>During the game each player shows the points in their bays; your own Specials are "
        "added beside yours, the others' stay secret until the end.</p></section>"
    )


def help_html(players: int = 2, variant: dict | None = None) -> str:
    """What each action and each Special card does, from the data, plus the keys."""
    # the page puts it in every update (hidden until asked): made once per content
    vkey = json.dumps(variant, sort_keys=True) if isinstance(variant, dict) else variant
    return _help_html(players, vkey)


@lru_cache(maxsize=8)
def _help_html(players: int, vkey: str | None) -> str:
    variant = json.loads(vkey) if isinstance(vkey, str) and vkey.startswith("{") else vkey
    lay = layout_for(players, variant)
    actions = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in ACTION_TEXT.items())
    seen: dict[tuple, int] = {}
    for card in lay.special.values():
        key = (card["name"], card["colour"], card["action"], card["alternate"])
        seen[key] = seen.get(key, 0) + 1
    specials = "".join(
        f"<tr><td>{shard_icon(c, 14)}</td><td>{escape(name)}</td>"
        f"<td>{escape(action_label(act))}</td><td>{escape(action_label(alt))}</td>"
        f"<td>{n}</td></tr>"
        for (name, c, act, alt), n in seen.items()
    )
    basics = "".join(
        f"<tr><td>{escape(cid)}</td><td>{escape(action_label(t))}</td>"
        f"<td>{escape(action_label(b))}</td></tr>"
        for cid, (t, b) in lay.basic.items()
    )
    return (
        '<div class="backdrop" data-ui="close-help" aria-hidden="true"></div>'
        '<div class="help" role="dialog" aria-label="Rules help">'
        '<button type="button" data-ui="close-help" class="close" title="Close (Esc)">'
        "✕ Close</button>"
        "<h2>How to play</h2>"
        '<p><button type="button" data-ui="learn" class="secondary">Learn to play</button> '
        "a lesson at a time, on the board.</p>"
        "<p>On your turn play cards from your hand in a row. A basic card played upright "
        "does its top action; rotated, its bottom action; sideways it is a chain link. Two "
        "actions must be joined by a chain link. Raid Shards with your ships, bring them to "
        "your own Jump-Gates and Unload them into your Cargo Bays. Each Unload moves the "
        "Expansion Track; the star grows and finally goes Super-Nova.</p>"
        f"<section class='help-sec'><h3>Actions</h3><dl class='actions'>{actions}</dl></section>"
        "<section class='help-sec'><h3>Special Action cards (Space Academy)</h3>"
        "<p>A Special played upright is a chain link; if one of your Cargo Bays holds a "
        "Shard of its colour it also does its action (or its rotated alternate).</p>"
        "<table class='help-table'><tr><th></th><th>Card</th><th>Upright</th>"
        f"<th>Rotated</th><th>Copies</th></tr>{specials}</table></section>"
        "<section class='help-sec'><h3>Basic cards (each player has all of them)</h3>"
        "<table class='help-table'><tr><th>Card</th><th>Upright</th><th>Rotated</th></tr>"
        f"{basics}</table></section>"
        f"{_track_help(lay)}"
        f"{_scoring_help(lay)}"
        f"<section class='help-sec'><h3>Shards</h3>{shard_legend()}"
        "<p>A number on a ship is its stack's height: the ship and the Shards under it, "
        "drawn small at its foot.</p></section>"
        "<section class='help-sec help-keys'><h3>Keys</h3><ul class='keys'>"
        "<li><kbd>Tab</kbd> moves between the choices; <kbd>Enter</kbd> or <kbd>Space</kbd> "
        "takes the focused one (a space on the board too). After each action the focus "
        "moves to the next choice.</li>"
        "<li><kbd>1</kbd>–<kbd>9</kbd>, <kbd>0</kbd>: the card with that number in your "
        "hand (it keeps its number all turn); letters: the choice marked with that key</li>"
        "<li><kbd>e</kbd> (or <kbd>Enter</kbd> when no choice has the focus): end your "
        "turn; <kbd>Enter</kbd>: “I'm ready” when passing</li>"
        "<li><kbd>u</kbd>: undo (within your turn, until a card or Shard is revealed)</li>"
        "<li><kbd>?</kbd> or <kbd>h</kbd>: this help · <kbd>Esc</kbd>: close it</li></ul>"
        "</section></div>"
    )
