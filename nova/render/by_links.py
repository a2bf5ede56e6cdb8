"""The panel of a game by links (docs/LINKS.md, "Fair play by links"): who this device is,
the link to send and to whom, whose link it waits for, the invitation, the end audit.
A pure function of plain values: everything from a link is escaped."""

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
    move_code: str = ""  # shown only once asked for
    abandoned: int = -1

    def who(self, seat: int) -> str:
        return f"{escape(self.names[seat])} ({LETTERS[seat]})"


def _who_list(panel: LinksPanel, seats: tuple[int, ...]) -> str:
    names = [panel.who(s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def links_panel_html(panel: LinksPanel) -> str:
    out = ['<section class="by-links" aria-label="Play by links">']
    if panel.seat >= 0:
        out.append(
            f'<p class="by-links-me">Play by links: you are <b>{panel.who(panel.seat)}</b>.</p>'
        )
    elif panel.invitation:
        free = panel.joined
        out.append(
            f'<p class="by-links-me">{panel.who(0)} invites <b>{panel.who(free)}</b> to a game '
            "of Nova Raiders, each player on their own device.</p>"
            f'<button type="button" class="primary" data-ui="join">Take seat '
            f"{LETTERS[free]}: I am {escape(panel.names[free])}</button>"
        )
    else:
        out.append(
            '<p class="by-links-me">You are watching a game by links: this device holds no '
            "seat, so it shows no hand.</p>"
        )
    if panel.send_url:
        to = _who_list(panel, panel.send_to)
        what = (
            "the invitation"
            if not panel.started and panel.seat == 0 and panel.joined == 1
            else "your secret for the audit"
            if panel.over
            else "this link"
        )
        out.append(
            f'<div class="by-links-send"><p>Send {what} to <b>{to}</b> (one message to a '
            "group chat reaches everyone):</p>"
            f'<input type="text" readonly data-nova-send-link aria-label="The link to send" '
            f'value="{escape(panel.send_url)}">'
            '<button type="button" data-ui="send-link">Share the link</button></div>'
        )
    if panel.waiting is not None:
        verb = "the end link" if panel.over else "link" if panel.started else "the invitation"
        out.append(
            f'<p class="by-links-wait">Waiting for {panel.who(panel.waiting)}\'s {verb}.</p>'
        )
        if panel.can_abandon:
            out.append(
                f'<button type="button" data-ui="abandon">{escape(panel.names[panel.waiting])} '
                "has left: end the game</button>"
            )
    if panel.abandoned >= 0:
        out.append(
            f'<p class="by-links-wait">The game was ended without {panel.who(panel.abandoned)}.</p>'
        )
    if panel.audit:
        state = "passed" if panel.audit_passed else "failed"
        items = "".join(f"<li>{escape(line)}</li>" for line in panel.audit[1:])
        out.append(
            f'<div id="nova-audit" class="audit audit-{state}" role="status">'
            f"<p><b>{escape(panel.audit[0])}</b></p>"
            + (f"<ul>{items}</ul>" if items else "")
            + "</div>"
        )
    if panel.seat >= 0 and panel.started and not panel.over:
        if panel.move_code:
            out.append(
                '<div class="by-links-code"><p>Your private code: open it on your other '
                "device. Never send it to anyone: it holds your secret.</p>"
                f'<input type="text" readonly aria-label="Your private code" '
                f'value="{escape(panel.move_code)}"></div>'
            )
        else:
            out.append(
                '<button type="button" data-ui="move-code">Move my seat to another device</button>'
            )
    out.append("</section>")
    return "".join(out)
