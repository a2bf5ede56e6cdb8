"""Sharing a game as a link, and stepping through a linked game: the page's share UI.

Everything here but :func:`offer` is pure (markup as strings, testable in CPython);
:func:`offer` is the browser glue and imports PyScript only when called. All text that
comes from a game (names, moves, messages) is HTML-escaped before it becomes markup: a
link is untrusted input.

How the page uses it: the share panel is the game screen's (``UiState.share``, drawn with
:func:`share_panel_html`); when it opens, the adapter offers its link with :func:`offer`
(the device's share menu, else the clipboard) and the panel says what that did. The
replay screen (``nova/web/screens/replay.py``) steps a :class:`Replay` through the game
and draws ``Replay.screen_html(colours)``: the step bar over the board, nothing playable.
"""

from __future__ import annotations

from dataclasses import replace
from html import escape
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..links import decode, encode
from ..record import GameRecord, RecordError
from ..rules import State

FRIENDLY_PLAY = (
    "Friendly play only: a game link carries the game's random seed, so someone who "
    "takes the trouble could work out the hidden cards (every hand and the order of the "
    "decks) from it. Share links with people you trust not to peek."
)


WORKBENCH_KEYS = {"lab", "players", "games", "bots", "seed", "variant"}  # nova.lab.workbench


def full_page_address(page_url: str) -> str:
    """The page's address without its fragment and without ``embed``: the full page.

    >>> full_page_address("https://x.example/nova/?embed&lang=en#n1.abc")
    'https://x.example/nova/?lang=en'
    >>> full_page_address("https://x.example/nova/?lab&players=3&snapshot")
    'https://x.example/nova/?snapshot='
    """
    parts = urlsplit(page_url.split("#", 1)[0])
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    # a game shared from a page opened on the workbench opens the game, not the workbench
    drop = {"embed"} | (WORKBENCH_KEYS if any(k == "lab" for k, _ in pairs) else set())
    query = [(k, v) for k, v in pairs if k not in drop]
    return urlunsplit(parts._replace(query=urlencode(query)))


def links_page_address(page_url: str) -> str:
    """The full page opened on the new-game form's "Play by links" (``?links``).

    >>> links_page_address("https://x.example/nova/?embed#n1.abc")
    'https://x.example/nova/?links'
    """
    full = full_page_address(page_url)
    return f"{full}{'&' if '?' in full else '?'}links"


def link_for(record: GameRecord, page_url: str = "") -> str:
    """The full address that opens ``record``: the full page with the game as its fragment.

    A link shared from the embedded game opens the full page (``embed`` is dropped).
    """
    return f"{full_page_address(page_url)}#{encode(record)}"


def open_link(fragment: str) -> tuple[GameRecord | None, str | None]:
    """The game in a ``location.hash`` (record, None), or (None, a player's message)."""
    try:
        return decode(fragment), None
    except RecordError as exc:
        return None, str(exc)


def _players_line(record: GameRecord) -> str:
    return ", ".join(escape(n) for n in record.names)


def share_panel_html(record: GameRecord, url: str, copied: str | None = "") -> str:
    """The share panel: the link in a text field, the friendly-play warning, the buttons.

    ``copied`` says what :func:`offer` managed ("shared", "copied" or "" when the player
    must copy the link from the field by hand; None while it is still offering it). Once
    it is known the panel says so in ``data-nova-share-done`` (the test contract).
    """
    done = {
        "shared": "The link was handed to your device's share menu.",
        "copied": "The link is copied: paste it to a friend.",
    }.get(copied or "", "Copy this link and send it to a friend.")
    decisions = len(record.moves)
    said = "" if copied is None else f' data-nova-share-done="{escape(copied or "none")}"'
    return (
        f'<section class="nova-share" aria-label="Share this game"{said}>'
        "<h2>Share this game</h2>"
        f"<p>{_players_line(record)} — after {decisions} decision{'s' * (decisions != 1)}. "
        "Whoever opens the link continues the game from here, or watches its replay.</p>"
        f'<p class="nova-share-status" role="status">{escape(done)}</p>'
        '<label>Game link <input class="nova-share-link" type="text" readonly '
        f'value="{escape(url, quote=True)}" data-nova-share-link></label>'
        '<p class="nova-share-warning">' + escape(FRIENDLY_PLAY) + "</p>"
        '<button type="button" data-nova-share="copy">Copy link</button> '
        '<button type="button" data-ui="replay">Watch the replay</button> '
        '<button type="button" data-nova-share="close">Close</button>'
        "</section>"
    )


async def offer(url: str, title: str = "Nova Raiders game") -> str:
    """Offer the link: the device's share menu, else the clipboard. Returns "shared",
    "copied" or "" (the player copies it from the panel's field, on screen already, so a
    share sheet or a clipboard prompt that never answers cannot hide the link)."""
    # Browser only; imported here so the module stays importable in CPython.
    from pyscript import window
    from pyscript.ffi import to_js

    nav = window.navigator
    how = ""
    try:
        if hasattr(nav, "share") and hasattr(nav, "canShare"):
            data = to_js({"title": title, "text": title, "url": url})
            if nav.canShare(data):
                await nav.share(data)
                how = "shared"
    except Exception:  # the player closed the share sheet, or it is refused in an iframe
        how = ""
    return how or await _copy(window, url)


async def _copy(window, url: str) -> str:
    try:
        await window.navigator.clipboard.writeText(url)
        return "copied"
    except Exception:  # no clipboard (http, an iframe without permission): the field stays
        return ""


class Replay:
    """A linked game watched move by move: ``state`` is the position after ``step`` moves."""

    def __init__(
        self,
        record: GameRecord,
        step: int | None = None,
        states: list[State] | None = None,
        public: bool = False,
    ) -> None:
        """``states``: the game's states when the record alone cannot replay it (a game by
        links, as this device knows it); ``public``: show no hand (a game by links' hands
        are on their own devices) and offer no "Play from here"."""
        self.record = record
        self.states: list[State] = states if states is not None else record.states()
        self.public = public
        self.step = len(record.moves) if step is None else max(0, min(step, len(record.moves)))

    @property
    def state(self) -> State:
        return self.states[self.step]

    @property
    def last(self) -> int:
        return len(self.record.moves)

    def go(self, where: str) -> int:
        """Move the cursor: "first", "prev", "next", "last", or a number; returns the step.

        The page's ``data-ui`` names ("replay-next") are accepted as they are.
        """
        where = where.removeprefix("replay-")
        if where == "first":
            self.step = 0
        elif where == "prev":
            self.step = max(0, self.step - 1)
        elif where == "next":
            self.step = min(self.last, self.step + 1)
        elif where == "last":
            self.step = self.last
        else:
            try:
                self.step = max(0, min(self.last, int(where)))
            except ValueError:
                pass
        return self.step

    def caption(self) -> str:
        """Plain text, in the log's words: which decision this is and what it did. A choice
        that is only part of an action (a ship picked, say) names the action it is part of."""
        if self.step == 0:
            return f"Set-up: {self.record.names[self.states[0].turn]} to start"
        return f"Decision {self.step} of {self.last}: {self.words(self.step - 1)}"

    def words(self, i: int) -> str:
        """The log's line for decision ``i``, or the line of the action it belongs to."""
        from ..render.words import describe  # the renderer's words; imported when shown

        names = self.record.names
        moves = self.record.moves
        line = describe(self.states[i], moves[i], self.states[i + 1], names)
        if line:
            return line
        for j in range(i + 1, min(len(moves), i + 12)):
            line = describe(self.states[j], moves[j], self.states[j + 1], names)
            if line:
                return f"choosing, for: {line}"
        return f"{names[self.states[i].current_player]} is choosing"

    def controls_html(self) -> str:
        """The replay bar: caption, step buttons and a slider, all escaped."""
        off = ' disabled aria-disabled="true"'
        at_start, at_end = self.step == 0, self.step == self.last

        def button(action: str, label: str, text: str, disabled: bool) -> str:
            return (
                f'<button type="button" data-ui="replay-{action}" aria-label="{label}"'
                f"{off if disabled else ''}>{text}</button>"
            )

        return (
            f'<div class="nova-replay" data-nova-replay-step="{self.step}" '
            f'data-nova-replay-last="{self.last}">'
            f'<p class="nova-replay-caption" aria-live="polite">{escape(self.caption())}</p>'
            + button("first", "first decision", "|◀", at_start)
            + button("prev", "previous decision", "◀", at_start)
            + f'<input type="range" min="0" max="{self.last}" value="{self.step}" '
            'aria-label="decision" data-ui="replay-seek">'
            + button("next", "next decision", "▶", at_end)
            + button("last", "latest decision", "▶|", at_end)
            + (
                ""
                if self.public
                else '<button type="button" data-ui="replay-play">Play from here</button>'
            )
            + '<button type="button" data-ui="replay-close">Back to the game</button>'
            "</div>"
        )

    def record_upto_step(self) -> GameRecord:
        """The game cut at this step: "Play from here" continues from the shown position."""
        r = self.record
        # replace() keeps every field, the rules content among them (an old game stays old)
        return replace(
            r, names=list(r.names), colours=list(r.colours), bots=list(r.bots),
            moves=list(r.moves[: self.step]),
        )  # fmt: skip

    def screen_html(self, colours: list[str]) -> str:
        """The replay screen: the step bar over the board as the deciding seat saw it.

        Nothing on it is playable (the view has no legal moves); "Play from here"
        (``data-ui="replay-play"``) is how to continue from the shown position.
        """
        from ..render.game import GamePage, game_html  # the page's renderer, when drawn

        s = self.state
        view = s.view(s.current_player).but(legal=())
        if self.public:
            me = replace(view.me, hand=None, draw_cards=None)
            view = view.but(seats=view.seats[: view.seat] + (me,) + view.seats[view.seat + 1 :])
        r = self.record
        marks = None
        if self.step:  # the shown decision's moves, marked and played on the board
            from ..render.marks import step_marks

            a, move = self.states[self.step - 1], r.moves[self.step - 1]
            marks = step_marks(a, s, a.turn, f"r{self.step}", move)
        page = GamePage(
            tuple(r.names), tuple(colours), tuple(r.bots), (self.caption(),), marks=marks
        )
        board = game_html(view, page)
        return f'<div class="nova-replay-screen">{self.controls_html()}{board}</div>'
