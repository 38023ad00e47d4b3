"""Debian's Chromium, headless, driven by Playwright (which downloads no browser of its own)."""

from __future__ import annotations

import shutil
from typing import Any

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# No background networking: this machine's network is closed, and Chromium would keep trying.
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch(playwright: Any) -> Any:
    """A headless Chromium browser."""
    if CHROMIUM is None:
        raise RuntimeError("Debian's chromium is not installed: apt-get install chromium")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
