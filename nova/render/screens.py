"""The other screens: new game (with saved games), pass-and-play, scores, rules help."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from html import escape
from typing import Any

from ..record import DEFAULT_COLOURS
from ..rules import View, layout_for
from .board import board_svg
from .game import full_page_button
from .rules_help import help_html as help_html  # the rules help has a module of its own
from .shards import shard_icon
from .words import end_reason_text

# weakest to strongest (docs/BOTS.md: the ladder)
BOT_CHOICES = [("", "Human"), ("random", "Random bot (weakest)"), ("greedy", "Greedy bot"),
               ("search", "Search bot"), ("best", "Best bot (strongest)")]  # fmt: skip


@dataclass(frozen=True)
class LevelChoice:
    """An opponent level as the new-game form offers it (nova.bots.levels.Level's figures)."""

    name: str
    title: str
    elo: int  # on the 2-player ladder, Pilot (greedy) = 0
    words: str


# The opponent levels, weakest first: nova.bots.LEVELS (tests/test_levels.py keeps the two the
# same; drawing the form must not import the bots, which a game imports when a bot decides).
LEVEL_CHOICES = (
    LevelChoice("cadet", "Cadet", -386, "plays sensibly, slips often: for a first game"),
    LevelChoice("pilot", "Pilot", 0, "plans each turn for the most it can carry home"),
    LevelChoice("ace", "Ace", 206, "weighs its turns on the cards you may hold"),
    LevelChoice("captain", "Captain", 454, "weighs more ways to play each turn"),
    LevelChoice("admiral", "Admiral", 623, "weighs each step of its turn: the strongest"),
)


def elo_text(elo: int) -> str:
    """A rating as a player reads it: "+251", "0", "−386" (a true minus sign)."""
    return f"{elo:+d}".replace("-", "\u2212") if elo else "0"


PALETTE = ["#e8553d", "#3d8be8", "#3dbf6e", "#b45ce0", "#f0a020", "#20b8c8", "#e05c9c", "#9aa0b0"]


@dataclass(frozen=True)
class NewGameForm:
    """The new-game choices (kept between screens in the page's state; the page reads the
    inputs into a new one)."""

    players: int = 2
    seed: int = 1
    names: list[str] = field(default_factory=lambda: ["Ada", "Bo", "Cy", "Di"])
    colours: list[str] = field(default_factory=lambda: list(DEFAULT_COLOURS))
    bots: list[str] = field(default_factory=lambda: ["", "", "", ""])
    pace: str = "watch"  # how long each bot decision stays on screen: "watch" or "quick"
    think_ms: int = 1000  # a search bot's thinking time per search (see THINK_CHOICES)
    by_links: bool = False  # each player on their own device (docs/LINKS.md)


# On the publisher's page a visitor is alone: the form seats the weakest level against them
# (a person can still choose Human for each seat).
EMBED_BOTS = ["", *[LEVEL_CHOICES[0].name] * 3]


def new_form(seed: int, embed: bool = False) -> NewGameForm:
    """The page's first new-game form: in the publisher's frame, against the computer."""
    return NewGameForm(seed=seed, bots=list(EMBED_BOTS)) if embed else NewGameForm(seed=seed)


def _alert(message: str) -> str:
    return f'<div class="notice" role="alert">{escape(message)}</div>' if message else ""


def _ago(saved: float) -> str:
    if not saved:
        return ""
    mins = int(max(0, time.time() - saved) // 60)
    if mins < 1:
        return "just now"
    if mins < 60:
        return f"{mins} min ago"
    if mins < 60 * 24:
        return f"{mins // 60} h ago"
    return f"{mins // 1440} days ago"


def saves_html(entries: list, saving_error: str = "") -> str:
    if saving_error:
        note = f'<p class="muted" role="status">{escape(saving_error)}</p>'
    else:
        note = ""
    if not entries:
        return (
            '<section class="panel saves"><h2>Saved games</h2>'
            f'{note}<p class="muted">No saved games yet.</p></section>'
        )
    rows = []
    for e in entries:
        gid = escape(e.id, quote=True)
        if e.error:
            rows.append(
                f'<li class="save save-bad"><span>Damaged save: {escape(e.error)}</span>'
                f'<button type="button" data-ui="delete:{gid}">Delete</button></li>'
            )
            continue
        status = "finished" if e.over else f"{e.moves} decisions"
        rows.append(
            f'<li class="save"><span class="save-title">{escape(e.title)}</span> '
            f"<small>{status} · {escape(_ago(e.saved))}</small> "
            f'<button type="button" data-ui="resume:{gid}">Resume</button>'
            f'<button type="button" data-ui="delete:{gid}" class="danger">Delete</button></li>'
        )
    return (
        f'<section class="panel saves"><h2>Saved games</h2>{note}'
        f'<ul class="save-list">{"".join(rows)}</ul></section>'
    )


def new_game_html(
    form: NewGameForm, entries: list, message: str = "", saving_error: str = "",
    can_return: bool = False, embed: bool = False, by_links: list | None = None,
    links_note: str = "", links_first: bool = False,
) -> str:  # fmt: skip
    """The start screen: choices for a new game and the list of saved games.

    ``embed``: inside someone else's page, with a way out to the full page. ``by_links``:
    the games by links this device keeps, as (game id, title). ``links_note``: why a
    game by links cannot begin here, said on the by-links form before anything is sent.
    ``links_first``: the message refuses a link that cannot name its game: the games by
    links come with it, before the form, so that each one's "Open" is in the first screen.
    """
    side = layout_for(form.players).board_title
    counts = "".join(
        f'<button type="button" data-ui="players:{n}" class="seg'
        f'{" seg-on" if n == form.players else ""}" '
        f'aria-pressed="{str(n == form.players).lower()}">'
        f"{n} players</button>"
        for n in (2, 3, 4)
    )
    back = (
        '<button type="button" data-ui="back" class="secondary">Back to the game</button>'
        if can_return
        else ""
    )
    # embedded on the publisher's page, visitors come to learn: the tutorial comes first
    learn = '<button type="button" data-ui="learn" class="{}">Learn to play</button>'
    learn_top = f'<p class="learn">{learn.format("primary")}</p>' if embed else ""
    learn_below = "" if embed else learn.format("secondary")
    games = _by_links_html(by_links or [], first=links_first)
    buttons = (
        '<div class="start-buttons">'
        '<button type="button" data-ui="new-game" class="primary">Start game</button>'
        f"{back}"
        f"{learn_below}"
        '<button type="button" data-ui="help" class="secondary">Rules</button>'
        f"{full_page_button('secondary') if embed else ''}"
        # the designer's tool: not on the publisher's page, where players come to play
        f"{'' if embed else WORKBENCH_BUTTON}</div>"
    )
    return (
        '<div class="start">'
        '<header class="hero"><h1>Nova Raiders</h1>'
        "<p>Raid the orbits for Shards before the star goes Super-Nova.</p>"
        f"{learn_top}</header>"
        f"{_alert(message)}{games if links_first else ''}"
        '<section class="panel new-game"><h2>New game</h2>'
        f"{_mode_html(form, links_note)}"
        f'<div class="segs" role="group" aria-label="Players">{counts}</div>'
        f'<p class="muted">Board: {escape(side)}</p>'
        # a level's tap, then Start right under it (in the same screen of a phone); the
        # seats' names, colours and bots after, for who wants to change them; by links the
        # names come first (they go out with the invitation)
        + (
            f"{_seat_forms_html(form)}{buttons}"
            if form.by_links
            else f"{_levels_html(form)}{buttons}{_levels_note(form.players)}"
            f"{_seat_forms_html(form)}{_bots_html(form)}"
        )
        + "</section>"
        f"{saves_html(entries, saving_error)}{'' if links_first else games}"
        "</div>"
    )


def _mode_html(form: NewGameForm, links_note: str) -> str:
    """On this device or by links, and what playing by links is."""
    modes = "".join(
        f'<button type="button" data-ui="{ui}" class="seg{" seg-on" if on else ""}" '
        f'aria-pressed="{str(on).lower()}">{label}</button>'
        for ui, on, label in (
            ("one-device", not form.by_links, "On this device"),
            ("by-links", form.by_links, "Play by links"),
        )
    )
    note = (
        '<p class="muted">Play by links: each player on their own device. You are the first '
        "seat; the game makes an invitation for each of the others, who join in turn; then "
        "each turn is one link to send to the others. Nobody can see another hand, foresee a "
        "draw or change a turn: the end-of-game audit checks every hidden card.</p>"
        if form.by_links
        else ""
    )
    if form.by_links and links_note:
        note += f'<p class="notice" role="status">{escape(links_note)}</p>'
    return f'<div class="segs" role="group" aria-label="Where">{modes}</div>{note}'


def _seat_forms_html(form: NewGameForm) -> str:
    seats = []
    for i in range(form.players):
        opts = _who_options(form.bots[i])
        colour = escape(form.colours[i], quote=True)
        # by links every seat is a person on their own device: no bot (its hand would be
        # seen by whoever runs it)
        who = (
            "" if form.by_links else f'<label>Who <select id="nova-bot-{i}">{opts}</select></label>'
        )
        seats.append(
            f'<li class="seat-form" style="--seat:{colour}">'
            f'<label>Seat {i + 1} <input id="nova-name-{i}" maxlength="24" '
            f'value="{escape(form.names[i], quote=True)}" autocomplete="off"></label>'
            f'<label>Colour <input id="nova-colour-{i}" type="color" value="{colour}"></label>'
            f"{who}</li>"
        )
    return f'<ol class="seat-forms">{"".join(seats)}</ol>'


def _who_options(chosen: str) -> str:
    """A seat's choices: a person, a level, or (under "By algorithm") a bot by its name."""

    def option(value: str, label: str) -> str:
        return f'<option value="{value}"{" selected" if chosen == value else ""}>{label}</option>'

    levels = "".join(
        option(lv.name, f"{lv.title} (rated {elo_text(lv.elo)})") for lv in LEVEL_CHOICES
    )
    algorithms = "".join(option(v, label) for v, label in BOT_CHOICES if v)
    return f'{option("", "Human")}{levels}<optgroup label="By algorithm">{algorithms}</optgroup>'


def _levels_html(form: NewGameForm) -> str:
    """One tap for a game against the computer: every seat but the first plays the level."""
    rest = form.bots[1 : form.players]
    buttons = "".join(
        f'<button type="button" data-ui="level:{lv.name}" class="level" '
        f'aria-pressed="{str(all(b == lv.name for b in rest)).lower()}">'
        f'<b>{escape(lv.title)}</b> <span class="level-elo">rated {elo_text(lv.elo)}</span>'
        f"<small>{escape(lv.words)}</small></button>"
        for lv in LEVEL_CHOICES
    )
    return (
        '<div class="levels-pick"><h3>Play the computer</h3>'
        f'<div class="levels" role="group" aria-label="Opponent level">{buttons}</div></div>'
    )


def _levels_note(players: int) -> str:
    """What the levels' ratings mean, under Start (which a level's tap must leave in view).
    They are 2-player figures; at 4 players the step between the top two is told in a 4-player
    figure (the Admiral won 40.0% of 40 games against three Captains, parity 25%, the 95%
    interval 27.5 to 52.5%: docs/BOTS.md, "Rollouts that end after the replies"), which a
    player choosing by strength should know."""
    four = (
        " At 4 players the Admiral wins about 4 games in 10 against three Captains."
        if players == 4
        else ""
    )
    return (
        '<p class="muted levels-note">Weakest first. A level\'s rating is its Elo on our '
        f"ladder of 2-player games (Pilot 0): 100 more wins about 64 games in 100.{four} You "
        "take seat 1; the level takes every other seat. New to the game? Start with Cadet.</p>"
    )


def _bots_html(form: NewGameForm) -> str:
    """The bots, their pace and thinking time, and the seed: on this device only. The bots
    by algorithm and the search's thinking time are under "More" (a level plays its own
    fixed setting)."""
    return (
        f"{_pace_html(form.pace)}"
        '<details class="more"><summary>More</summary>'
        '<p class="muted bots-note">Bots by algorithm, weakest to strongest: Random (plays '
        "any legal move), Greedy (the best-looking move now; the Pilot level), Search (tries "
        "whole turns ahead, on the cards it might meet; it beats Greedy most games), Best "
        "(the strongest we have measured, docs/BOTS.md). The thinking time is theirs; a "
        "level plays its own fixed setting.</p>"
        f"{_think_html(form.think_ms)}</details>"
        f'<label>Seed <input id="nova-seed" type="number" min="0" step="1" '
        f'value="{form.seed}"></label> '
        '<button type="button" data-ui="reseed" class="secondary">New seed</button>'
    )


def _by_links_html(games: list, first: bool = False) -> str:
    """The games by links this device keeps, each with "Open"; ``first``: shown with the
    refusal of a link that cannot name its game, which may be for one of them."""
    if not games:
        return ""
    rows = "".join(
        f'<li class="save"><span class="save-title">{escape(title)}</span> '
        f'<button type="button" data-ui="links-open:{escape(gid, quote=True)}">Open</button></li>'
        for gid, title in games
    )
    said = (
        '<p class="muted">If the link was for one of these games, open it here: it is as '
        "this device last kept it. Then ask for the link again.</p>"
        if first
        else ""
    )
    return (
        f'<section class="panel saves by-links-games"><h2>{"Your games" if first else "Games"} '
        f'by links</h2>{said}<ul class="save-list">{rows}</ul></section>'
    )


WORKBENCH_BUTTON = (
    '<button type="button" data-ui="lab" class="secondary">Designer\'s workbench</button>'
)
PACE_CHOICES = [("watch", "step by step"), ("quick", "quickly")]
# a search bot's thinking time per search, in ms (nova.web.bot_turns.THINK_CHOICES agrees)
THINK_CHOICES = [(250, "¼ second"), (1000, "1 second"), (3000, "3 seconds")]


def _pace_html(pace: str) -> str:
    opts = "".join(
        f'<option value="{v}"{" selected" if pace == v else ""}>{label}</option>'
        for v, label in PACE_CHOICES
    )
    return f'<label class="pace">Bots play <select id="nova-bot-pace">{opts}</select></label>'


def _think_html(think_ms: int) -> str:
    opts = "".join(
        f'<option value="{v}"{" selected" if think_ms == v else ""}>{label}</option>'
        for v, label in THINK_CHOICES
    )
    return (
        '<label class="pace">Search bot thinks <select id="nova-bot-think">'
        f"{opts}</select> a move</label>"
    )


def pass_html(
    view: View,
    names: list[str],
    colours: list[str],
    seat: int,
    embed: bool = False,
    marks: dict[str, Any] | None = None,
    notice: str = "",
) -> str:
    """'Pass to <name>': the public board only, and a Ready button. No hand is drawn.

    Embedded, the button is not autofocused: browsers refuse that in a cross-origin frame.
    """
    board = board_svg(view, names, colours, interactive=False, marks=marks)
    name = escape(names[seat])
    return (
        '<div class="pass">'
        f'<div class="board-wrap dim">{board}</div>'
        f'<div class="pass-card" style="--seat:{escape(colours[seat], quote=True)}">'
        f"{_alert(notice)}<h2>Pass to {name}</h2>"
        f"<p>{name}, take the device. Your cards stay hidden until you tap Ready.</p>"
        f'<button type="button" data-ui="ready" class="primary"{"" if embed else " autofocus"}>'
        "I'm ready</button>"
        '<p><button type="button" data-ui="menu" class="secondary">☰ Games</button> '
        '<button type="button" data-ui="help" class="secondary">? Rules</button></p>'
        "</div></div>"
    )


def scores_html(view: View, names: list[str], colours: list[str]) -> str:
    """The score screen: each bay's split, each Special set, the winner(s)."""
    winners, scores = view.winners, view.scores
    title = " and ".join(escape(names[w]) for w in winners)
    verb = "win" if len(winners) > 1 else "wins"
    why = end_reason_text(view.end_reason)
    reason = escape(why[0].upper() + why[1:]) if why else ""
    cols = []
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    for i in order:
        b = view.breakdown[i]
        bays = []
        for k, bay in enumerate(b.bays):
            groups = (
                " + ".join("".join(shard_icon(c, 13) for c in g) for g in bay.groups) or "empty"
            )
            bays.append(
                f"<tr><th>Bay {k + 1}</th><td>{groups}</td><td class='pts'>{bay.points}</td></tr>"
            )
        specials = (
            "".join(
                f"<tr><th>Special set</th><td>{shard_icon(sp.colour, 13) * sp.size}</td>"
                f"<td class='pts'>{sp.points}</td></tr>"
                for sp in b.specials
            )
            or "<tr><th>Specials</th><td>none</td><td class='pts'>0</td></tr>"
        )
        crown = ' <span class="crown">★ winner</span>' if i in winners else ""
        cols.append(
            f'<section class="score-card{" winner" if i in winners else ""}" '
            f'style="--seat:{escape(colours[i], quote=True)}">'
            f"<h3>{escape(names[i])}{crown}</h3>"
            f'<table class="score-table">{"".join(bays)}{specials}'
            f"<tr class='total'><th>Total</th><td></td><td class='pts'>{b.total}</td></tr>"
            "</table></section>"
        )
    return (
        '<div class="backdrop" data-ui="close-scores" aria-hidden="true"></div>'
        '<div class="scores" role="dialog" aria-label="Final scores">'
        '<button type="button" data-ui="close-scores" class="close" '
        'title="Close (Esc)">✕ See the board</button>'
        f"<h2>{title} {verb}!</h2><p class='muted'>{reason}</p>"
        f'<div class="score-cards">{"".join(cols)}</div>'
        '<div class="start-buttons">'
        '<button type="button" data-ui="menu" class="primary">New game</button>'
        '<button type="button" data-ui="share">Share this game</button>'
        '<button type="button" data-ui="replay">Watch the replay</button>'
        "</div></div>"
    )
