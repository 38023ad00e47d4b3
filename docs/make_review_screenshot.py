"""Regenerate docs/review-page.png: a real server, one audit, the review page in headless Chromium.

python docs/make_review_screenshot.py
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from chromium import launch  # noqa: E402
from service_helpers import Server  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(f"sqlite:///{tmp}/audits.db").start()
        try:
            request = json.loads((ROOT / "examples" / "request.json").read_text())
            with server.client() as admin:
                key = admin.post("/v1/keys", json={"name": "docs", "role": "reviewer"}).json()["key"]
                admin.post("/v1/audits", json={**request, "risk_level": "high"})
            with sync_playwright() as p:
                browser = launch(p)
                page = browser.new_page(viewport={"width": 1400, "height": 820})
                page.goto(server.url + "/review")
                page.fill("#key", key)
                page.keyboard.press("Enter")
                page.select_option("#f-decision", "block")
                page.wait_for_selector(".claim.sel")
                page.screenshot(path=str(ROOT / "docs" / "review-page.png"))
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
