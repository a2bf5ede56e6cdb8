"""The panel of a game by links (docs/LINKS.md, "Fair play by links"): who this device is,
the link to send and to whom, what happens next (who acts, what link comes back), the
invitation, the end audit, and ending the game without a seat that has not answered (behind
a confirmation). A pure function of plain values: everything from a link is escaped."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

LETTERS = "ABCD"


@dataclass(frozen=True)
class LinksPanel:
    names: tuple[str, ...]
    seat: int  # -1: this device holds no seat
    joined: int  # seats taken so far
    started: bool
    over: bool
    send_url: str = ""  # the link to send now ("" when none)
    send_to: tuple[int, ...] = ()
    waiting: int | None = None  # the seat whose link this device waits for
    invitation: bool = False  # an invitation with a free seat, opened on a device without one
    audit: tuple[str, ...] = ()  # the audit's lines, once it has run
    audit_passed: bool | None = None
    can_abandon: bool = False
    confirm_abandon: bool = False  # "has not answered?" pressed: the ending, to confirm
    move_code: str = ""  # shown only once asked for
    abandoned: int = -1
    first_turn: bool = False  # the game has begun and no turn has been sent yet

    def who(self, seat: int) -> str:
        return f"{escape(self.names[seat])} ({LETTERS[seat]})"

    def name(self, seat: int) -> str:
        return escape(self.names[seat])


def _who_list(panel: LinksPanel, seats: tuple[int, ...] | range) -> str:
    names = [panel.who(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def what_to_send(panel: LinksPanel) -> str:
    """What the link to send is, in the words of the sentence "Send ... to X"."""
    if panel.over:
        return "your end link (it carries your secret, for the audit)"
    if not panel.started:
        if panel.seat == 0:
            return "the invitation"
        return "your link back" if 0 in panel.send_to else "the invitation on"
    return "the start link" if panel.first_turn and panel.seat == 0 else "the link of your turn"


def next_words(panel: LinksPanel) -> str:
    """What happens next, said to this seat: who acts, and what link comes back to it."""
    n, w = len(panel.names), panel.waiting
    if w is None:
        if panel.started and not panel.over and panel.seat >= 0:
            return "Your turn: when you end it, its link is here, to send to the others."
        return ""
    if panel.over:
        return (
            f"Waiting for the end link from {panel.who(w)}: it carries their secret. With it, "
            "this device checks every hidden card of the game (the audit)."
        )
    if panel.started:
        return (
            f"Waiting for {panel.who(w)} to play: the link of their turn comes to you. "
            "Open it on this device."
        )
    if panel.seat == 0:
        joiners = range(1, n)
        each = "to join" if n == 2 else "to join, each in turn"
        last = "their link" if n == 2 else f"the link from {panel.name(n - 1)}"
        return (
            f"Waiting for {_who_list(panel, joiners)} {each}: {last} comes back to you, and "
            "opening it on this device starts the game."
        )
    later = range(panel.seat + 1, n)
    if not later:
        return (
            f"Waiting for {panel.who(0)} to start the game: {panel.name(0)} opens your "
            "link, and the start link comes back to you."
        )
    return (
        f"Waiting for {_who_list(panel, later)} to join, then for {panel.who(0)} to start "
        f"the game: the start link comes to you from {panel.name(0)}."
    )


def _me_html(panel: LinksPanel) -> str:
    if panel.seat >= 0:
        return f'<p class="by-links-me">Play by links: you are <b>{panel.who(panel.seat)}</b>.</p>'
    if panel.invitation:
        free, n = panel.joined, len(panel.names)
        then = (
            f"send your link back to {panel.who(0)}, who starts the game"
            if free == n - 1
            else f"send the invitation on to {panel.who(free + 1)}"
        )
        return (
            f'<p class="by-links-me">{panel.who(0)} invites <b>{panel.who(free)}</b> to a game '
            "of Nova Raiders, each player on their own device.</p>"
            f'<button type="button" class="primary" data-ui="join">Take seat '
            f"{LETTERS[free]}: I am {panel.name(free)}</button>"
            f'<p class="by-links-next">Then {then}.</p>'
        )
    return (
        '<p class="by-links-me">You are watching a game by links: this device holds no '
        "seat, so it shows no hand.</p>"
    )


def _send_html(panel: LinksPanel) -> str:
    if not panel.send_url:
        return ""
    group = " (one message to a group chat reaches everyone)" if len(panel.send_to) > 1 else ""
    return (
        f'<div class="by-links-send"><p>Send {what_to_send(panel)} to '
        f"<b>{_who_list(panel, panel.send_to)}</b>{group}:</p>"
        f'<input type="text" readonly data-nova-send-link aria-label="The link to send" '
        f'value="{escape(panel.send_url)}">'
        '<button type="button" data-ui="send-link">Share the link</button></div>'
    )


def _audit_html(panel: LinksPanel) -> str:
    if not panel.audit:
        return ""
    state = "passed" if panel.audit_passed else "failed"
    items = "".join(f"<li>{escape(line)}</li>" for line in panel.audit[1:])
    return (
        f'<div id="nova-audit" class="audit audit-{state}" role="status">'
        f"<p><b>{escape(panel.audit[0])}</b></p>"
        + (f"<ul>{items}</ul>" if items else "")
        + "</div>"
    )


def _move_code_html(panel: LinksPanel) -> str:
    if not (panel.seat >= 0 and panel.started and not panel.over):
        return ""
    if panel.move_code:
        return (
            '<div class="by-links-code"><p>Your private code: open it on your other '
            "device. Never send it to anyone: it holds your secret.</p>"
            f'<input type="text" readonly aria-label="Your private code" '
            f'value="{escape(panel.move_code)}"></div>'
        )
    return '<button type="button" data-ui="move-code">Move my seat to another device</button>'


def _leave_html(panel: LinksPanel) -> str:
    """Ending the game without the seat awaited: last in the panel, and confirmed first."""
    if not panel.can_abandon or panel.waiting is None:
        return ""
    w = panel.waiting
    if not panel.confirm_abandon:
        return (
            f'<p class="by-links-leave"><button type="button" class="secondary" '
            f'data-ui="abandon-ask">{panel.name(w)} has not answered for days?</button></p>'
        )
    return (
        f'<div class="by-links-leave" role="group" aria-label="End the game without '
        f'{panel.name(w)}"><p><b>End the game without {panel.who(w)}?</b> Only if '
        f"{panel.name(w)} has left for good: a link can take days to come. The game ends "
        "now and is scored as it stands; the link that ends it goes to the others, and the "
        f"audit checks every hidden card but {panel.name(w)}'s.</p>"
        f'<button type="button" class="danger" data-ui="abandon">End the game without '
        f"{panel.name(w)}</button> "
        '<button type="button" class="secondary" data-ui="abandon-cancel">Keep waiting'
        "</button></div>"
    )


def links_panel_html(panel: LinksPanel) -> str:
    out = ['<section class="by-links" aria-label="Play by links">', _me_html(panel)]
    out.append(_send_html(panel))
    said = next_words(panel)
    if said:
        out.append(f'<p class="by-links-wait">{said}</p>')
    if panel.abandoned >= 0:
        out.append(
            f'<p class="by-links-wait">The game was ended without {panel.who(panel.abandoned)}.</p>'
        )
    out += [_audit_html(panel), _move_code_html(panel), _leave_html(panel), "</section>"]
    return "".join(out)
