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


def open_page(browser: Any, width: int = 1280, height: int = 720) -> tuple[Any, list[str]]:
    """A new page of ``browser`` and the list its console errors, page errors and dialogs are appended to
    (a dialog is dismissed, as Playwright does when no one listens)."""
    errors: list[str] = []

    def on_dialog(dialog: Any) -> None:
        errors.append("a dialog opened: " + dialog.message)
        dialog.dismiss()

    page = browser.new_page(viewport={"width": width, "height": height})
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", on_dialog)
    return page, errors


def launch(playwright: Any) -> Any:
    """A headless Chromium browser."""
    if CHROMIUM is None:
        raise RuntimeError("Debian's chromium is not installed: apt-get install chromium")
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
