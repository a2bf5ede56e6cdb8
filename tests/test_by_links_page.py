"""Play by links through the page's controller, in CPython: each device a Controller with
its own storage (docs/PAGE.md, "Play by links"). The browser tests
(tests/test_page_by_links.py) show the same in Chromium."""

from __future__ import annotations

import json
import random
from html import escape

import pytest

from nova.fair import keys, wire
from nova.web.by_links import STORAGE_PREFIX
from nova.web.controller import Controller, OpenLink, Play, ui_intent
from nova.web.effects import OwnPage
from nova.web.saves import MemoryStorage, SaveStore
from nova.web.screens.links import CURRENT_KEY, LinksScreen
from nova_tools.fair.simulate import seeded_secret


@pytest.fixture(autouse=True)
def seeded_secrets(monkeypatch):
    """Each device's secret from a counter, so that these games are the same every run."""
    made = iter(range(10**6))
    monkeypatch.setattr(keys, "new_secret", lambda: seeded_secret(7, next(made)))


def device(storage: MemoryStorage | None = None) -> Controller:
    c = Controller(SaveStore(storage or MemoryStorage()), rng=random.Random(0))
    c.page_url = "https://example.org/nova/index.html"
    c.start()
    return c


def attrs(c: Controller) -> dict[str, str | None]:
    return c.body_attributes()


def sent(c: Controller) -> str:
    link = attrs(c)["data-nova-send"]
    assert link, "nothing to send"
    return link.split("#", 1)[1]


def set_up(players: int = 2, names=("Ann", "Bea", "Cy", "Di")) -> list[Controller]:
    devs = [device() for _ in range(players)]
    host = devs[0]
    host.dispatch(ui_intent("by-links"))
    host.dispatch(ui_intent(f"players:{players}"))
    host.form.names[:players] = list(names[:players])  # as typed in the form
    host.dispatch(ui_intent("new-game"))
    assert attrs(host)["data-nova-seat"] == "A" and attrs(host)["data-nova-send-to"] == "B"
    for i in range(1, players):
        devs[i].dispatch(OpenLink(sent(devs[i - 1])))
        screen = devs[i].ui.screen
        assert isinstance(screen, LinksScreen) and screen.invitation
        assert f"{escape(names[i])} ({'ABCD'[i]})" in devs[i].markup()  # whom it is for
        devs[i].dispatch(ui_intent("join"))
        expect = "ABCD"[i + 1] if i + 1 < players else "A"
        assert attrs(devs[i])["data-nova-seat"] == "ABCD"[i]
        assert attrs(devs[i])["data-nova-send-to"] == expect
    host.dispatch(OpenLink(sent(devs[-1])))  # back round to the host: it starts the game
    assert attrs(host)["data-nova-send-to"] == ",".join("ABCD"[1:players])
    for c in devs[1:]:
        c.dispatch(OpenLink(sent(host)))
        assert not c.ui.message
    return devs


def play_turn(c: Controller, rng: random.Random) -> str:
    before = attrs(c)["data-nova-send"]
    while attrs(c)["data-nova-send"] == before:
        legal = c.session.view().legal
        c.dispatch(Play("E" if "E" in legal and rng.random() < 0.4 else rng.choice(legal)))
        assert not c.ui.message, c.ui.message
    return sent(c)


def mover(devs: list[Controller]) -> int | None:
    for i, c in enumerate(devs):
        if attrs(c)["data-nova-waiting"] is None and c.session and not c.session.over():
            return i
    return None


def test_a_three_player_game_by_links_through_the_controllers():
    """Fifteen turns by links, then a seat leaves: another ends the game as abandoned by it;
    the two that stay reveal and their audits pass, saying whose cards were not checked."""
    devs = set_up(3)
    rng = random.Random(1)
    for _ in range(15):
        m = mover(devs)
        assert m is not None
        link = play_turn(devs[m], rng)
        assert attrs(devs[m])["data-nova-send-to"] == ",".join("ABC"[i] for i in range(3) if i != m)
        for i, c in enumerate(devs):
            if i != m:
                c.dispatch(OpenLink(link))
                assert not c.ui.message
                assert attrs(c)["data-nova-waiting"] in ("ABC"[(m + 1) % 3], None)
        # each device shows its own hand only
        for i, c in enumerate(devs):
            view = c.session.view()
            assert [(s.hand is not None) for s in view.seats] == [j == i for j in range(3)]
    gone = mover(devs)
    assert gone is not None
    ender = devs[(gone + 1) % 3]
    leave_the_game(ender, devs[gone])
    assert "Waiting for the end link from" in said(ender) and "(the audit)" in said(ender)
    stay = [c for i, c in enumerate(devs) if i != gone]
    for _ in range(2):  # the end link out, then each one's secret back
        for c in stay:
            for other in stay:
                if other is not c and attrs(c)["data-nova-send"]:
                    other.dispatch(OpenLink(sent(c)))
    assert [attrs(c)["data-nova-audit"] for c in stay] == ["passed", "passed"]
    assert "left the game" in stay[0].markup()


def test_a_device_keeps_only_its_own_secret_and_resumes_after_a_reload():
    devs = set_up(2)
    kept_raw = [devs[1].store.read(k) for k in devs[1].store.keys() if k.startswith(STORAGE_PREFIX)]
    assert len(kept_raw) == 1
    data = json.loads(kept_raw[0])
    assert data["seat"] == 1
    record = wire.decode(data["link"]).record
    assert not any(record.secrets)  # no secret in the public link
    host_secret = devs[0].ui.screen.kept.device.secret.hex()
    assert host_secret not in kept_raw[0]
    # a reload of B's page (same storage, no fragment) comes back to the game by links
    again = device(devs[1].store.backend)
    assert isinstance(again.ui.screen, LinksScreen)
    assert attrs(again)["data-nova-seat"] == "B"
    assert again.store.read(CURRENT_KEY)


def test_a_refused_link_leaves_the_game_as_it_was():
    devs = set_up(2)
    rng = random.Random(3)
    m = mover(devs)
    assert m is not None
    first = play_turn(devs[m], rng)
    other = devs[1 - m]
    other.dispatch(OpenLink(first))
    moves = attrs(other)
    record_before = other.ui.screen.kept.device.record
    # the same link with one character changed: damaged
    other.dispatch(OpenLink(first[:25] + ("A" if first[25] != "A" else "B") + first[26:]))
    assert "damaged" in other.ui.message
    assert other.ui.screen.kept.device.record == record_before
    assert attrs(other)["data-nova-seat"] == moves["data-nova-seat"]
    assert 'role="alert"' in other.markup()


def test_names_from_a_link_are_shown_as_text():
    devs = set_up(2, names=("<b>Ann</b>", "Bea<script>x</script>", "", ""))
    html = devs[1].markup()
    assert "<script>x" not in html and "&lt;script&gt;" in html
    assert "<b>Ann</b>" not in html


def test_a_damaged_copy_on_the_device_is_not_used():
    storage = MemoryStorage()
    storage.setItem(CURRENT_KEY, STORAGE_PREFIX + "00")
    storage.setItem(STORAGE_PREFIX + "00", '{"format": "nova-fair-device", "v": 1, "seat": 0}')
    c = device(storage)
    assert not isinstance(c.ui.screen, LinksScreen)  # the start screen, nothing lost


def test_the_start_screen_lists_the_games_by_links_this_device_keeps():
    devs = set_up(2)
    b = devs[1]
    b.dispatch(ui_intent("menu"))
    html = b.markup()
    assert "Games by links" in html and "you are Bea (B)" in html
    game_id = b.store.read(CURRENT_KEY)[len(STORAGE_PREFIX) :]
    b.dispatch(ui_intent(f"links-open:{game_id}"))
    assert isinstance(b.ui.screen, LinksScreen) and attrs(b)["data-nova-seat"] == "B"
    # the words sent with a link say whom it is for
    from nova.web.screens.links import outbox_title

    assert outbox_title(devs[0].ui.screen) == "Nova Raiders by links: for Bea (B)"


def test_a_device_without_a_seat_sees_the_board_and_the_replay_no_hand():
    devs = set_up(2)
    rng = random.Random(4)
    for _ in range(3):
        m = mover(devs)
        link = play_turn(devs[m], rng)
        devs[1 - m].dispatch(OpenLink(link))
    watcher = device()
    watcher.dispatch(OpenLink(link))
    assert attrs(watcher)["data-nova-seat"] is None
    view = watcher.session.view()
    assert all(s.hand is None for s in view.seats) and not view.legal
    html = watcher.markup()
    assert 'class="hand' not in html or "data-move" not in html.split('class="hand', 1)[1][:2000]
    watcher.dispatch(ui_intent("replay"))
    assert watcher.ui.name == "replay"
    watcher.dispatch(ui_intent("replay-first"))
    watcher.dispatch(ui_intent("replay-next"))
    html = watcher.markup()
    assert 'data-ui="replay-play"' not in html and 'data-nova-replay-step="1"' in html
    watcher.dispatch(ui_intent("replay-close"))
    assert isinstance(watcher.ui.screen, LinksScreen)


def test_a_turn_in_progress_survives_a_reload():
    """The moves of the turn in progress are kept on the device: a reload after any of them
    (forced moves the page made included) comes back to the same position."""
    forced = 0
    for game in range(4):
        devs = set_up(2)
        c = devs[mover(devs)]
        rng = random.Random(game)
        for _ in range(8):
            legal = [x for x in c.session.view().legal if x != "E"]
            if not legal or c.session.turn_done():
                break
            c.dispatch(Play(rng.choice(legal)))
            if c.session.turn_done():
                break
            n = len(c.session.record.moves)
            forced += sum(c.session.taken_for_player(i) for i in range(n - 1, n))
            again = device(c.store.backend)  # the page reloaded: same storage, no link
            assert again.session.draft == c.session.draft and again.session.my_turn()
            assert again.session.state.position() == c.session.state.position()
    assert forced  # some reload came after a move the page made for the player


# -- issue 40: a game by links begins only where its seat's secret is kept ------------------
class Refusing(MemoryStorage):
    """Storage that a browser refuses (a third-party frame, storage off): every call throws."""

    def setItem(self, key: str, value: str) -> None:  # noqa: N802 - the Web Storage names
        raise RuntimeError("SecurityError: access is denied for this document")


class FillsUp(MemoryStorage):
    """Storage that takes the probe but nothing as large as a game by links (full)."""

    def setItem(self, key: str, value: str) -> None:  # noqa: N802
        if len(value) > 64:
            raise RuntimeError("QuotaExceededError: the quota has been exceeded")
        super().setItem(key, value)


def framed(storage: MemoryStorage | None = None) -> Controller:
    """The game in the publisher's frame (``embed``), its storage refused unless given."""
    c = Controller(SaveStore(storage or Refusing()), embed=True, rng=random.Random(0))
    c.page_url = "https://example.org/nova/index.html"
    c.start()
    return c


@pytest.mark.parametrize("storage", [None, MemoryStorage()], ids=["blocked", "partitioned"])
def test_play_by_links_in_a_frame_opens_a_page_of_its_own(storage):
    """In a frame, whatever its storage, "Play by links" makes no seat and no invitation:
    it opens the by-links form in a page of the game's own, where the links will open."""
    from nova.web.screens.links import page_of_its_own

    c = framed(storage)
    effects = c.dispatch(ui_intent("by-links"))
    assert OwnPage(links=True) in effects
    assert not c.form.by_links and attrs(c)["data-nova-seat"] is None
    here = "https://example.org/nova/index.html?embed"
    assert page_of_its_own(c.ui, here) == "https://example.org/nova/index.html?links"
    url, opened, refused = c.page_of_its_own(here, links_page=True)
    assert url.endswith("?links") and "new tab" in getattr(opened, "text", "")
    assert f"open {url} to play by links" in getattr(refused, "text", "")  # no allow-popups
    # a "Start game" that reached the controller anyway begins nothing here either
    from nova.web.screens.start import StartByLinks

    assert OwnPage(links=True) in c.dispatch(StartByLinks())
    assert not isinstance(c.ui.screen, LinksScreen)
    assert not [k for k in (storage or MemoryStorage()).data if k.startswith(STORAGE_PREFIX)]
    # the page that tab opens (?links) shows the by-links form
    tab = device()
    tab.start(query="?links")
    assert tab.form.by_links and 'aria-pressed="true">Play by links' in tab.markup()


def test_an_invitation_opened_in_a_frame_is_taken_in_a_page_of_its_own():
    """An invitation opened in the frame says, before the seat is taken, that the seat is
    kept in the game's own page; "Take seat" opens it there, with the invitation."""
    from nova.web.screens.links import IN_A_FRAME, page_of_its_own

    host = device()
    host.dispatch(ui_intent("by-links"))
    host.dispatch(ui_intent("new-game"))
    invitation = sent(host)
    c = framed()
    c.dispatch(OpenLink(invitation))
    assert escape(IN_A_FRAME) in c.markup()
    assert OwnPage(links=True) in c.dispatch(ui_intent("join"))
    assert attrs(c)["data-nova-seat"] is None
    address = page_of_its_own(c.ui, "https://example.org/nova/index.html?embed#x")
    assert address == f"https://example.org/nova/index.html#{invitation}"


def test_a_device_that_cannot_keep_a_secret_says_so_and_sends_no_invitation():
    """Storage off on the game's own page: the by-links form says so before anything is
    sent; "Start game" and "Take seat" begin nothing and say why."""
    from nova.web.screens.links import NO_STORAGE

    c = device(Refusing())
    c.dispatch(ui_intent("by-links"))
    assert escape(NO_STORAGE) in c.markup()
    c.dispatch(ui_intent("new-game"))
    assert c.ui.message == NO_STORAGE and attrs(c)["data-nova-send"] is None
    host = device()
    host.dispatch(ui_intent("by-links"))
    host.dispatch(ui_intent("new-game"))
    c.dispatch(OpenLink(sent(host)))
    assert escape(NO_STORAGE) in c.markup()  # said with the invitation, before "Take seat"
    c.dispatch(ui_intent("join"))
    assert c.ui.message == NO_STORAGE and attrs(c)["data-nova-seat"] is None


def test_storage_that_refuses_the_seat_begins_no_game():
    """Storage that takes nothing as large as a seat (full): no seat, no invitation, said."""
    storage = FillsUp()
    c = device(storage)
    c.dispatch(ui_intent("by-links"))
    c.dispatch(ui_intent("new-game"))
    assert "could not be kept" in c.ui.message and attrs(c)["data-nova-send"] is None
    assert not isinstance(c.ui.screen, LinksScreen)
    assert not [k for k in storage.data if k.startswith(STORAGE_PREFIX)]


def test_a_game_in_a_frame_without_storage_says_how_to_keep_it_from_the_start():
    """Saving off in a frame: the start screen and the game's first screen say how to keep
    the game (a page of its own, or its link) before anything is lost."""
    c = framed()
    assert "Full page" in c.markup() and "Saving is off" in c.markup()
    c.dispatch(ui_intent("new-game"))
    c.dispatch(ui_intent("ready"))
    html = c.markup()
    assert "Saving is off in this frame" in html and "Full page ↗ or Share its link" in html
    top = device(Refusing())  # the game's own page with storage off: no frame to leave
    top.dispatch(ui_intent("new-game"))
    top.dispatch(ui_intent("ready"))
    assert "Saving is off" in top.markup() and "Full page" not in top.markup()


# -- issue 43: words a person would say; a damaged link in view of the games ---------------
def said(c: Controller) -> str:
    """The page's text as a player reads it (tags dropped, entities read)."""
    import re
    from html import unescape

    text = re.sub(r"</?(b|kbd)>", "", c.markup())  # inline: part of the sentence
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", text)).split())


def leave_the_game(ender: Controller, gone: Controller) -> None:
    """Ending the game without the seat awaited: not at the first glance (no ending button
    under the link), asked first, and "Keep waiting" keeps the game."""
    html = ender.markup()
    who = gone.ui.screen.kept.device.record.who(gone.ui.screen.kept.device.seat)
    name = who.split(" (")[0]
    assert 'data-ui="abandon"' not in html and "end the game" not in said(ender)
    ask = html.index('data-ui="abandon-ask"')
    assert html.index(f"Waiting for {who} to play") < ask  # after what happens next
    assert f"{name} has not answered for days?" in said(ender)
    ender.dispatch(ui_intent("abandon"))  # a stray press of an old button: asked, not ended
    assert not ender.session.over()
    assert f"End the game without {who}? Only if {name} has left for good" in said(ender)
    ender.dispatch(ui_intent("abandon-cancel"))
    assert not ender.session.over() and 'data-ui="abandon"' not in ender.markup()
    ender.dispatch(ui_intent("abandon-ask"))
    assert 'data-ui="abandon-cancel"' in ender.markup()
    ender.dispatch(ui_intent("abandon"))
    assert ender.session.over()
    assert f"The game was ended without {who}" in said(ender)


def test_two_new_players_read_who_acts_next_and_what_link_comes_back():
    """Ada invites Bo, Bo joins, Ada starts, turns go by: each screen says, in plain words,
    what to send to whom, who acts next and what link comes back."""
    ada, bo = device(), device()
    ada.dispatch(ui_intent("by-links"))
    ada.form.names[:2] = ["Ada", "Bo"]
    ada.dispatch(ui_intent("new-game"))
    steps = [said(ada)]
    assert "Send the invitation to Bo (B):" in steps[-1]
    assert (
        "Waiting for Bo (B) to join: their link comes back to you, and opening it on this "
        "device starts the game." in steps[-1]
    )
    bo.dispatch(OpenLink(sent(ada)))
    steps.append(said(bo))
    assert "Ada (A) invites Bo (B)" in steps[-1]
    assert "Then send your link back to Ada (A), who starts the game." in steps[-1]
    bo.dispatch(ui_intent("join"))
    steps.append(said(bo))
    assert "Send your link back to Ada (A):" in steps[-1]
    assert (
        "Waiting for Ada (A) to start the game: Ada opens your link, and the start link "
        "comes back to you." in steps[-1]
    )
    ada.dispatch(OpenLink(sent(bo)))
    steps.append(said(ada))
    assert "Send the start link to Bo (B):" in steps[-1]
    bo.dispatch(OpenLink(sent(ada)))
    steps.append(said(bo))
    devs = [ada, bo]
    m = mover(devs)
    assert m is not None
    waiter = devs[1 - m]
    mine, theirs = ("Ada (A)", "Bo (B)") if m == 0 else ("Bo (B)", "Ada (A)")
    assert "Your turn: when you end it, its link is here, to send to the others." in said(devs[m])
    assert f"Waiting for {mine} to play: the link of their turn comes to you." in said(waiter)
    link = play_turn(devs[m], random.Random(2))
    steps.append(said(devs[m]))
    assert f"Send the link of your turn to {theirs}:" in steps[-1]
    assert f"Waiting for {theirs} to play: the link of their turn comes to you." in steps[-1]
    waiter.dispatch(OpenLink(link))
    steps.append(said(waiter))
    for text in steps:
        assert "'s the" not in text and ")'s" not in text, text
        assert "group chat" not in text  # one seat to reach: no group to speak of
    leave_the_game(devs[m], waiter)


def test_three_players_read_whom_the_invitation_goes_on_to():
    devs = [device() for _ in range(3)]
    ada = devs[0]
    ada.dispatch(ui_intent("by-links"))
    ada.dispatch(ui_intent("players:3"))
    ada.form.names[:3] = ["Ada", "Bo", "Cy"]
    ada.dispatch(ui_intent("new-game"))
    assert (
        "Waiting for Bo (B) and Cy (C) to join, each in turn: the link from Cy comes back to "
        "you, and opening it on this device starts the game." in said(ada)
    )
    devs[1].dispatch(OpenLink(sent(ada)))
    assert "Then send the invitation on to Cy (C)." in said(devs[1])
    devs[1].dispatch(ui_intent("join"))
    assert "Send the invitation on to Cy (C):" in said(devs[1])
    assert (
        "Waiting for Cy (C) to join, then for Ada (A) to start the game: the start link "
        "comes to you from Ada." in said(devs[1])
    )
    devs[2].dispatch(OpenLink(sent(devs[1])))
    devs[2].dispatch(ui_intent("join"))
    ada.dispatch(OpenLink(sent(devs[2])))
    assert "Send the start link to Bo (B) and Cy (C) (one message to a group chat" in said(ada)


def damaged(fragment: str) -> str:
    i = len(fragment) // 2
    return fragment[:i] + ("A" if fragment[i] != "A" else "B") + fragment[i + 1 :]


def test_a_damaged_link_is_refused_with_this_devices_games_by_links_before_the_form():
    """A damaged link cannot name its game: the refusal comes with the games by links this
    device keeps, each with "Open", before the new-game form; a person's next action puts
    the form first again."""
    devs = set_up(2)
    link = sent(devs[0])
    c = Controller(SaveStore(devs[1].store.backend), rng=random.Random(0))  # a new tab
    c.page_url = "https://example.org/nova/index.html"
    c.start(fragment=damaged(link))
    assert c.ui.name == "new" and "damaged" in c.ui.message
    html = c.markup()
    alert, games = html.index('role="alert"'), html.index("Your games by links")
    opens, form = html.index('data-ui="links-open:'), html.index('class="panel new-game"')
    assert alert < games < opens < form
    assert "If the link was for one of these games, open it here" in said(c)
    c.dispatch(ui_intent(html[opens:].split('"')[1]))  # Open: the game as it was kept
    assert isinstance(c.ui.screen, LinksScreen) and attrs(c)["data-nova-seat"] == "B"
    c.dispatch(ui_intent("menu"))  # no refusal on show: the form first, the games below
    html = c.markup()
    assert html.index('class="panel new-game"') < html.index("Games by links")
    # a device with no game by links: the refusal alone, over the form
    other = device()
    other.start(fragment=damaged(link))
    assert "damaged" in other.ui.message and "games by links" not in said(other)
