"""Play by links in Chromium: each browser context is one device with its own storage.

The page's contract (issue 29, docs/PAGE.md "Play by links"): ``[data-ui="by-links"]`` and
``[data-ui="players:N"]`` on the new-game screen, ``[data-ui="new-game"]`` starts the game
as seat A; ``[data-ui="join"]`` takes the next free seat of an invitation; on ``<body>``:
``data-nova-seat``, ``data-nova-send`` with ``data-nova-send-to``, ``data-nova-waiting``,
``data-nova-audit`` (findings in ``#nova-audit``); a refused link's message in a
``role="alert"`` element; moves are ``[data-move]``.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from nova.fair import wire
from nova.fair.device import Device, send_turn
from nova.fair.record import Reveal
from nova_tools.fair.simulate import choose_turn, set_up
from tests.conftest import wait_ready

pytestmark = pytest.mark.browser

LETTERS = "ABCD"


def body(page, name: str) -> str | None:
    return page.get_attribute("body", name)


def open_link(page, server_url: str, fragment: str) -> None:
    """A link clicked in a chat: the page at that address (the same tab if it is open)."""
    if page.url.startswith(server_url) and body(page, "data-nova-ready") is not None:
        page.evaluate("f => { location.hash = f }", fragment)
    else:
        page.goto(f"{server_url}#{fragment}")
        wait_ready(page)


def wait_attr(page, name: str, value: str | None = None, timeout: float = 20_000) -> str:
    js = (
        "([n, v]) => v === null ? document.body.hasAttribute(n)"
        " : document.body.getAttribute(n) === v"
    )
    page.wait_for_function(js, arg=[name, value], timeout=timeout)
    return body(page, name) or ""


def alert_text(page) -> str:
    page.wait_for_selector('[role="alert"]:visible', timeout=10_000)
    return page.inner_text('[role="alert"]:visible')


def fragment_of(url: str) -> str:
    return url.split("#", 1)[1]


def device_from_code(page_factory, server_url: str, device: Device):
    """A browser device holding ``device``'s seat, moved in with its private move code."""
    page = page_factory()
    page.goto(f"{server_url}#{wire.encode(device.record, device.seat, device.secret)}")
    wait_ready(page)
    wait_attr(page, "data-nova-seat", LETTERS[device.seat])
    return page


def join_and_start(a, b, reply_tab, server_url: str):
    """Seat A's invitation (on ``a``) joined on ``b`` (seat B); B's reply opened in
    ``reply_tab``, a new tab of A's browser (a link clicked in a chat), which starts the game
    from what A's device stored; the start link opened on B. Returns (A's tab, B)."""
    assert wait_attr(a, "data-nova-seat", "A") == "A"
    assert wait_attr(a, "data-nova-send-to", "B") == "B"
    invite = body(a, "data-nova-send") or ""
    assert "#f1." in invite and "embed" not in invite
    b.goto(invite)
    wait_ready(b)
    b.click('[data-ui="join"]')
    wait_attr(b, "data-nova-seat", "B")
    assert wait_attr(b, "data-nova-send-to", "A") == "A"
    reply_tab.goto(body(b, "data-nova-send") or "")
    wait_ready(reply_tab)
    assert wait_attr(reply_tab, "data-nova-seat", "A") == "A"
    wait_attr(reply_tab, "data-nova-send-to", "B")
    start = body(reply_tab, "data-nova-send") or ""
    assert start != invite
    open_link(b, server_url, fragment_of(start))
    return reply_tab, b


def play_turns(devices: dict, server_url: str, turns: int) -> str:
    """``turns`` turns of two devices ({"A": page, "B": page}), each a link opened on the
    other: each device shows its own hand only, says whom it sends to and whose link it
    waits for. Returns the last link sent."""
    a = devices["A"]
    link = ""
    for _ in range(turns):
        wait_attr(a, "data-nova-moves")
        mover = next(
            k
            for k, p in devices.items()
            if p.locator("[data-move]:visible").count() and body(p, "data-nova-waiting") is None
        )
        other = "B" if mover == "A" else "A"
        assert body(devices[other], "data-nova-waiting") == mover
        page = devices[mover]
        before = body(page, "data-nova-send")
        # each device shows exactly its own hand
        assert page.locator(".hand [data-move]").count() > 0
        assert devices[other].locator(".hand [data-move]").count() == 0
        for _ in range(3):  # a couple of decisions, then end the turn
            options = page.eval_on_selector_all(
                "[data-move]:visible", "es => es.map(e => e.dataset.move)"
            )
            pick = next((m for m in options if m.startswith("L")), "E")
            page.click(f'[data-move="{pick}"]:visible')
            if pick == "E" or body(page, "data-nova-send") != before:
                break
        if body(page, "data-nova-send") == before:
            page.click('[data-move="E"]:visible')
        sent = wait_attr(page, "data-nova-send-to", other)
        assert sent == other
        link = body(page, "data-nova-send") or ""
        assert link != before and len(fragment_of(link)) < 2000
        open_link(devices[other], server_url, fragment_of(link))
        wait_attr(page, "data-nova-waiting", other)
    return link


def test_set_up_and_turns_by_links_between_two_browsers(page_factory, server_url):
    """Invitation, join, start, then turns passed by links: each device shows its own hand
    only, says whom to send to and whose link it waits for."""
    a = page_factory()
    a.goto(server_url)
    wait_ready(a)
    a.click('[data-ui="by-links"]')
    a.click('[data-ui="players:2"]')
    a.click('[data-ui="new-game"]')
    a, b = join_and_start(a, page_factory(), a.context.new_page(), server_url)
    link = play_turns({"A": a, "B": b}, server_url, 6)  # six turns, each a link
    # a device without a seat sees the board, no hand
    watcher = page_factory()
    watcher.goto(link)
    wait_ready(watcher)
    watcher.wait_for_selector("svg.board")
    assert body(watcher, "data-nova-seat") is None
    assert watcher.locator(".hand [data-move]").count() == 0


def test_a_whole_game_by_links_ends_with_a_passed_audit(page_factory, server_url):
    """A short game (two rounds) made in Python, each seat moved into its own browser by
    its private code, played to the end in the pages; both devices' audits pass."""
    game = set_up(2, seed=5, variant={"settings": {"max_rounds": 2}})
    pages = [device_from_code(page_factory, server_url, d) for d in game.devices]
    rng = random.Random(5)
    for _ in range(10):
        if all(body(p, "data-nova-over") is not None for p in pages):
            break
        seat = next(
            i
            for i, p in enumerate(pages)
            if body(p, "data-nova-waiting") is None and p.locator("[data-move]:visible").count()
        )
        page = pages[seat]
        before = body(page, "data-nova-send")
        while body(page, "data-nova-send") == before:
            options = page.eval_on_selector_all(
                "[data-move]:visible", "es => es.map(e => e.dataset.move)"
            )
            pick = "E" if "E" in options and rng.random() < 0.5 else rng.choice(options)
            page.click(f'[data-move="{pick}"]:visible')
        link = fragment_of(body(page, "data-nova-send") or "")
        open_link(pages[1 - seat], server_url, link)
    for p in pages:
        wait_attr(p, "data-nova-over")
    # the end: each reveals its secret in its last link; the other opens it
    for i, p in enumerate(pages):
        link = body(p, "data-nova-send")
        if link:
            open_link(pages[1 - i], server_url, fragment_of(link))
    for p in pages:
        assert wait_attr(p, "data-nova-audit") == "passed"
        assert "passed" in p.inner_text("#nova-audit").lower()


def test_each_cheat_is_refused_when_it_arrives(page_factory, server_url):
    """Edited, older, contradictory, forged and card-less links: each refused with a
    message naming it; the device's game stays as it was."""
    game = set_up(3, seed=8)
    rng = random.Random(8)
    devices = game.devices
    seat = devices[0].table().next_seat
    watcher_seat = (seat + 1) % 3
    page = device_from_code(page_factory, server_url, devices[watcher_seat])
    moves = body(page, "data-nova-moves")
    turn = choose_turn(devices[seat], rng)
    genuine = send_turn(devices[seat], turn)
    other_turn = (
        ["E"]
        if turn != ["E"]
        else [next(m for m in map(str, devices[seat].table().state.legal_moves()) if m != "E"), "E"]
    )
    twin = send_turn(devices[seat], other_turn)
    link = wire.encode(genuine.record)

    def refused(fragment: str, words: str) -> None:
        open_link(page, server_url, fragment)
        text = alert_text(page)
        assert words in text, text
        page.evaluate("document.querySelectorAll('[role=alert]').forEach(e => e.textContent = '')")

    # a damaged link (one character changed)
    refused(link[:30] + ("A" if link[30] != "A" else "B") + link[31:], "damaged")
    assert body(page, "data-nova-moves") == moves
    # a turn made without its seat's device (a wrong key)
    r = devices[seat].record
    reveals = list(r.reveals)
    reveals[seat] = Reveal(r.reveals[seat].count + 1, bytes(16))
    refused(wire.encode(replace(r, reveals=tuple(reveals), moves=r.moves + ("E",))), "not made on")
    # the genuine turn is taken
    open_link(page, server_url, link)
    page.wait_for_function(f"document.body.dataset.novaMoves === '{len(genuine.record.moves)}'")
    # the same turn sent again with different moves
    refused(wire.encode(twin.record), "sent two different turns")
    # an older link after a newer one
    refused(wire.encode(devices[seat].record), "older than the game you have")
    assert body(page, "data-nova-moves") == str(len(genuine.record.moves))


def test_the_audit_names_a_card_played_from_the_draw_pile(page_factory, server_url):
    """A link can only carry decisions the mover's cards allow (docs/LINKS.md): a card the
    seat does not own cannot even be written. One from its own draw pile can, and the
    end-of-game audit names it, on any device."""
    from tests.test_fair import cheat_from_draw_pile

    record, secrets, cheater, card = cheat_from_draw_pile(21)
    ended = replace(record, abandoned=1 - cheater, abandoned_by=cheater)
    for seat, k in enumerate(secrets):
        ended = ended.with_secret(seat, k)
    page = page_factory()
    page.goto(f"{server_url}#{wire.encode(ended)}")
    wait_ready(page)
    assert wait_attr(page, "data-nova-audit") == "failed"
    text = page.inner_text("#nova-audit")
    assert f"played {card} from the draw pile" in text and record.who(cheater) in text


@pytest.mark.slow
def test_axe_finds_nothing_on_the_screens_of_play_by_links(page_factory, server_url):
    """WCAG 2.2 A/AA (axe-core) on the by-links form, an invitation, and a game on a seat,
    at desktop and phone width."""
    from tests.axe_helpers import WIDTHS, clean_at_both_widths

    game = set_up(2, seed=4)
    page = page_factory(bypass_csp=True, viewport=WIDTHS[0])
    page.goto(server_url)
    wait_ready(page)
    page.click('[data-ui="by-links"]')
    clean_at_both_widths(page, "the by-links form")
    page.click('[data-ui="new-game"]')
    wait_attr(page, "data-nova-seat", "A")
    clean_at_both_widths(page, "seat A's invitation to send")
    invited = page_factory(bypass_csp=True, viewport=WIDTHS[0])
    invited.goto(body(page, "data-nova-send") or "")
    wait_ready(invited)
    invited.wait_for_selector('[data-ui="join"]')
    clean_at_both_widths(invited, "an invitation opened")
    seat = page_factory(bypass_csp=True, viewport=WIDTHS[0])
    d = game.devices[1]
    seat.goto(f"{server_url}#{wire.encode(d.record, d.seat, d.secret)}")
    wait_ready(seat)
    wait_attr(seat, "data-nova-seat", "B")
    clean_at_both_widths(seat, "a game on seat B")


@pytest.mark.parametrize(
    "size", [(1280, 800), (390, 844)], ids=["desktop-1280x800", "phone-390x844"]
)
def test_a_damaged_link_shows_the_refusal_and_the_games_by_links_in_the_first_screen(
    page_factory, server_url, size
):
    """Issue 43: a damaged link of a game by links cannot name its game; opened on a
    device with a game by links (a new tab, as from a chat), the refusal and that game's
    "Open" are both in the first screen, without scrolling; "Open" opens the game."""
    from tests.phone_helpers import measure

    w, h = size
    phone = w < 500
    context = {"viewport": {"width": w, "height": h}}
    if phone:
        context |= {"has_touch": True, "is_mobile": True}
    a = page_factory(**context)
    a.goto(server_url)
    wait_ready(a)
    a.click('[data-ui="by-links"]')
    a.click('[data-ui="new-game"]')
    wait_attr(a, "data-nova-seat", "A")
    invite = fragment_of(body(a, "data-nova-send") or "")
    i = len(invite) // 2
    broken = invite[:i] + ("A" if invite[i] != "A" else "B") + invite[i + 1 :]
    tab = page_factory(context=a.context)  # the damaged link, opened from a chat
    tab.goto(f"{server_url}#{broken}")
    wait_ready(tab)
    assert "damaged" in alert_text(tab)
    got = measure(tab, {"alert": '[role="alert"]', "open": '[data-ui^="links-open:"]'})
    assert got["alert"] == [1, True], got
    assert got["open"] == [1, True], got
    assert got["scroll"] == [0, 0], got
    if phone:
        tab.tap('[data-ui^="links-open:"]')
    else:
        tab.click('[data-ui^="links-open:"]')
    assert wait_attr(tab, "data-nova-seat", "A") == "A"
