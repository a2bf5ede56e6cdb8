"""How the tests and ``bench-page`` start Chromium: Debian's when installed, else Playwright's.

Playwright cannot download its own browser on every machine (this project's CI cannot), so an
installed ``/usr/bin/chromium`` is preferred. The flags keep a headless Chromium from calling
home: on a machine with no network those calls fail, many at a time.

Debian's ``chromium --headless`` is the whole browser without a screen: every new context opens
a window whose address bar builds its omnibox popups (``chrome://omnibox-popup.top-chrome/``,
two WebUI pages in a renderer of their own), about 0.5 CPU-s a context that no test or
benchmark looks at. ``DISABLED_FEATURES`` turns them off. Chromium reads only the last
``--disable-features`` on its command line, so the list repeats the features Playwright
disables with its own (tests/test_chromium.py checks that it still holds all of them).
"""

from __future__ import annotations

import os

CHROMIUM = "/usr/bin/chromium"
# Playwright 1.65.2's own --disable-features (its chromiumSwitches.ts), kept in force
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
# the address bar's WebUI popups a headless window has no use for
OMNIBOX_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
DISABLED_FEATURES = PLAYWRIGHT_DISABLED_FEATURES + OMNIBOX_FEATURES
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(DISABLED_FEATURES),
]


def launch_chromium(playwright, extra_args: list[str] | None = None, **kwargs):
    """A Chromium browser from Playwright's sync API (``playwright.chromium.launch``);
    ``extra_args`` go after the usual flags (the tests add Chromium's logging)."""
    extra = list(extra_args or [])
    if os.path.exists(CHROMIUM):
        return playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS + extra, **kwargs
        )
    return playwright.chromium.launch(args=CHROMIUM_ARGS[1:] + extra, **kwargs)


def launch_persistent_chromium(playwright, user_data_dir: str, **kwargs):
    """A Chromium context with a profile on disk, as a player's browser keeps one: its HTTP
    cache and code cache outlive the page (an incognito context's do not)."""
    if os.path.exists(CHROMIUM):
        return playwright.chromium.launch_persistent_context(
            user_data_dir, executable_path=CHROMIUM, args=CHROMIUM_ARGS, **kwargs
        )
    return playwright.chromium.launch_persistent_context(
        user_data_dir, args=CHROMIUM_ARGS[1:], **kwargs
    )
