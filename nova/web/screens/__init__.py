"""The page's screens, one module each (docs/PAGE.md, "Adding a screen"): its state (a
frozen dataclass), its intents, how each changes the state, its keys and its markup, in a
:class:`~nova.web.screens.base.ScreenDef` named ``SCREEN``; ``nova.web.controller.SCREENS``
lists them."""
