"""The page's events (clicks, keys, fields, the address's link, other tabs' saves) turned
into the controller's intents. A part of :class:`nova.web.app.App` (it mixes this in)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..render.prompts import CARD_KEYS
from .controller import (
    CloseHelp,
    CloseShare,
    FormInput,
    Intent,
    LabEdit,
    OpenLink,
    Play,
    SavesChanged,
    Say,
    WhyNot,
)
from .dom import element, is_button, is_native_button

if TYPE_CHECKING:
    from .controller import Controller


class Events:
    """The browser's events, each to an intent (mixed into ``App``)."""

    c: Controller
    body: Any
    document: Any
    root: Any
    window: Any

    def do(self, intent: Intent) -> None: ...

    def on_hash(self, _event=None) -> None:
        """A game link pasted into the address bar of an open tab opens that game."""
        fragment = str(self.window.location.hash or "")
        if fragment.startswith("#") and len(fragment) > 1:
            self.do(OpenLink(fragment[1:]))  # a bad link: its message, on the screen on show

    def on_storage(self, event) -> None:
        """Another tab saved (the ``storage`` event fires only in the other tabs)."""
        key = event.key
        self.do(SavesChanged(key if isinstance(key, str) else None))

    def on_long_press(self, event) -> None:
        """A long press on a card (a touch screen's context menu) shows its rulebook text:
        the card takes the focus, which shows its tip, instead of the browser's menu."""
        target = event.target
        card = (
            element(target.closest(".card[tabindex], .academy-pick")) if element(target) else None
        )
        if card is not None:
            event.preventDefault()
            card.focus()

    def form_input(self) -> FormInput:
        """The page's fields as they are (the new-game form's, the replay's slider; None: not
        on the page) and its address."""
        doc = self.document
        n = self.c.form.players
        slider = element(doc.querySelector('[data-ui="replay-seek"]'))

        def value(el_id: str) -> str | None:
            el = element(doc.getElementById(el_id))
            return str(el.value) if el is not None else None

        return FormInput(
            names=tuple(value(f"nova-name-{i}") for i in range(n)),
            colours=tuple(value(f"nova-colour-{i}") for i in range(n)),
            bots=tuple(value(f"nova-bot-{i}") for i in range(n)),
            pace=value("nova-bot-pace"),
            think_ms=value("nova-bot-think"),
            seed=value("nova-seed"),
            seek=str(slider.value) if slider is not None else None,
            here=str(self.window.location.href),  # a link is made from the page's address
        )

    def ui(self, name: str) -> None:
        intent = self.c.ui_intent(name, self.form_input())
        if intent is not None:
            self.do(intent)

    def on_change(self, event) -> None:
        """A field of the workbench changed (``data-lab`` names it)."""
        target = event.target
        name = target.getAttribute("data-lab") if element(target) else None
        if isinstance(name, str) and name:
            self.do(LabEdit(name, str(target.value)))

    def on_click(self, event) -> None:
        target = event.target
        panel = self.c.ui.share is not None
        if panel and element(target) and not element(target.closest("[data-nova-share-panel]")):
            if not element(target.closest('[data-ui="share"]')):
                self.close_share()  # a tap beside the share dialog closes it
                return
        el = (
            element(target.closest("[data-move],[data-alt-move],[data-ui],[data-nova-share]"))
            if element(target)
            else None
        )
        if self.c.ui.help_open and element(target) and not element(target.closest(".help")):
            self.do(CloseHelp())  # a click beside the rules dialog closes it
            return
        if el is None:
            self.why_not(target)
            return
        if el.hasAttribute("disabled"):
            return
        if el.getAttribute("aria-disabled") == "true":  # off, but says why (Undo)
            why = el.getAttribute("data-why-ui")
            if isinstance(why, str) and why:
                event.preventDefault()
                self.do(Say(why))
            return
        move = el.getAttribute("data-move")
        if not isinstance(move, str):  # a board Cargo Bay repeats a button's move
            move = el.getAttribute("data-alt-move")
        if isinstance(move, str) and move:
            event.preventDefault()
            self.do(Play(move))
            return
        ui = el.getAttribute("data-ui")
        if isinstance(ui, str) and ui:
            event.preventDefault()
            if panel and ui != "share":  # e.g. its "Watch the replay"
                self.close_share()
            self.ui(ui)
            return
        share = el.getAttribute("data-nova-share")
        if share == "close":
            self.close_share()
        elif share == "copy":  # offered again: the share menu, else the clipboard
            self.ui("share")

    def why_not(self, target) -> None:
        """A tap on something that is not a choice now: a card, an Academy card, a space or
        a ship on the board. The controller says why not (the engine's words)."""
        if not element(target):
            return
        el = element(target.closest("[data-why]"))
        if el is not None:
            self.do(WhyNot(token=str(el.getAttribute("data-why"))))
            return
        el = element(target.closest("[data-space],[data-stack]"))
        if el is None or not element(target.closest("svg.board, svg.board-bg")):
            return
        name = el.getAttribute("data-space")
        if not isinstance(name, str):
            name = el.getAttribute("data-stack")
        self.do(WhyNot(space=str(name)))

    def close_share(self) -> None:
        self.do(CloseShare())

    def on_key(self, event) -> None:
        tag = str(getattr(event.target, "tagName", "") or "").lower()
        if tag in ("input", "select", "textarea") or event.ctrlKey or event.metaKey or event.altKey:
            return
        key = str(event.key)
        focused = element(event.target)
        move = None
        if focused is not None and not is_native_button(focused):
            # a board target or an Academy card (role="button") acts like a button
            token = focused.getAttribute("data-move")
            move = token if isinstance(token, str) and token else None
        intent = self.c.key_intent(key, move, is_button(event.target))
        if intent is None:
            if key in CARD_KEYS and (self.c.on_game() or self.c.on_lesson()):
                self.card_key(key, event)
            return
        event.preventDefault()  # the page takes the key (no scroll on Space, no arrows)
        self.do(intent)

    def card_key(self, key: str, event) -> None:
        """A hand card's digit (stable for the turn): focus its first play, or say why it
        cannot be played now."""
        card = element(self.root.querySelector(f'.hand [data-card-key="{key}"]'))
        if card is None:
            return
        event.preventDefault()
        play = element(card.querySelector("[data-move]"))
        if play is not None:
            play.focus()
            return
        why = element(card.querySelector("[data-why]"))
        if why is not None:
            self.do(WhyNot(token=str(why.getAttribute("data-why"))))
