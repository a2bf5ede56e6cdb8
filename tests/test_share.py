"""The share UI's pure parts (nova/web/share.py): markup is escaped, the replay steps."""

from __future__ import annotations

from html import escape
from html.parser import HTMLParser

from nova.links import decode
from nova.record import GameRecord
from nova.web.share import (
    FRIENDLY_PLAY,
    Replay,
    full_page_address,
    link_for,
    open_link,
    share_panel_html,
)
from nova_tools.links import random_record

EVIL = ["<script>alert(1)</script", '<img src=x onerror="x()">']


class Tags(HTMLParser):
    """Every start tag and attribute name in some markup."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[str] = []
        self.text = ""
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += [name for name, _ in attrs]

    def handle_data(self, data):
        self.text += data


def test_link_for_replaces_any_fragment_of_the_page_address() -> None:
    record = random_record(2, 1, 10)
    url = link_for(record, "https://example.org/nova/index.html#n1.old")
    base, fragment = url.split("#")
    assert base == "https://example.org/nova/index.html"
    assert decode(fragment) == record


def test_links_from_the_embedded_game_open_the_full_page() -> None:
    """A link shared from the publisher's iframe (``?embed``) opens the full page."""
    record = random_record(3, 2, 12)
    url = link_for(record, "https://games.example/nova/?embed&x=1#n1.old")
    base, fragment = url.split("#")
    assert base == "https://games.example/nova/?x=1"
    assert decode(fragment) == record
    assert full_page_address("http://127.0.0.1:8000/index.html?embed") == (
        "http://127.0.0.1:8000/index.html"
    )


def test_embedded_screens_offer_the_full_page_and_never_autofocus() -> None:
    from nova.render.game import GamePage, game_html
    from nova.render.screens import NewGameForm, new_game_html, pass_html
    from nova.rules import new_game

    view = new_game(players=2, seed=1).view(0)
    names, colours = ["A", "B"], ["#ff0000", "#00ff00"]
    for embed in (False, True):
        screens = [
            game_html(view, GamePage(tuple(names), tuple(colours), embed=embed)),
            new_game_html(NewGameForm(), [], embed=embed),
        ]
        assert all(('data-ui="full-page"' in html) == embed for html in screens)
        assert ("autofocus" in pass_html(view, names, colours, 1, embed=embed)) != embed


def test_share_panel_warns_about_friendly_play_and_escapes_names() -> None:
    record = GameRecord(players=2, seed=3, names=EVIL)
    url = link_for(record, "http://127.0.0.1:8000/")
    markup = share_panel_html(record, url, "copied")
    parsed = Tags(markup)
    assert "script" not in parsed.tags and "img" not in parsed.tags
    assert not any(a.startswith("on") for a in parsed.attrs)
    assert EVIL[0] in parsed.text  # shown as text
    assert FRIENDLY_PLAY in parsed.text
    assert "seed" in FRIENDLY_PLAY and "hidden cards" in FRIENDLY_PLAY
    assert "copied" in parsed.text


def test_open_link_returns_the_game() -> None:
    record = random_record(3, 2, 30)
    url = link_for(record, "http://x/")
    assert open_link(url[url.index("#") :]) == (record, None)


def test_replay_steps_through_a_linked_game_move_by_move() -> None:
    record = random_record(3, 4, 25)
    replay = Replay(record)
    assert replay.step == 25 and replay.state == record.state()
    assert replay.go("first") == 0 and replay.state == record.initial_state()
    assert replay.go("prev") == 0
    assert "Set-up" in replay.caption()
    replay.go("next")
    assert replay.state == record.state(1)
    # the replay speaks the log's words, not move notation
    assert replay.caption().startswith("Decision 1 of 25: ")
    assert record.names[record.initial_state().current_player] in replay.caption()
    assert f"played {record.moves[0]}" not in replay.caption()
    assert replay.go("12") == 12 and replay.go("last") == 25 and replay.go("next") == 25
    assert replay.go("replay-prev") == 24 and replay.go("replay-last") == 25
    assert replay.go("junk") == 25 and replay.go("-4") == 0
    replay.go("7")
    cut = replay.record_upto_step()
    assert cut.moves == record.moves[:7] and cut.state() == record.state(7)


def test_play_from_here_keeps_an_old_games_rules_content() -> None:
    """A content-1 game (an old link) cut in the replay still plays content 1's rules."""
    record = GameRecord(players=2, seed=4, content=1)
    s = record.initial_state()
    for _ in range(30):
        record.moves.append(str(s.legal_moves()[-1]))
        s = s.apply(record.moves[-1])
    replay = Replay(record)
    replay.go("20")
    cut = replay.record_upto_step()
    assert cut.content == 1 and cut.state() == record.state(20)


def test_replay_controls_disable_the_ends_and_escape_names() -> None:
    record = GameRecord(players=2, seed=5, names=EVIL)
    s = record.initial_state()
    record.moves.append(str(s.legal_moves()[0]))
    replay = Replay(record, 0)
    markup = replay.controls_html()
    parsed = Tags(markup)
    assert "script" not in parsed.tags and "img" not in parsed.tags
    assert 'data-ui="replay-prev" aria-label="previous decision" disabled' in markup
    replay.go("last")
    assert 'data-ui="replay-next" aria-label="next decision" disabled' in replay.controls_html()


def test_replay_screen_shows_the_board_with_nothing_playable() -> None:
    record = random_record(2, 6, 15)
    replay = Replay(record, 5)
    markup = replay.screen_html(["#e8553d", "#3d8be8"])
    assert "data-move=" not in markup
    assert 'data-ui="replay-next"' in markup and "<svg" in markup
    assert escape(replay.caption()) in markup
