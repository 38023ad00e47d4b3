"""Screenshot a local HTML file or URL in headless Debian Chromium (for the docs).

python benchmarks/screenshot.py docs/ragtruth-eval.html docs/ragtruth-eval.png [--height 2200]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from chromium import launch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page")
    parser.add_argument("out", type=Path)
    parser.add_argument("--width", type=int, default=1300)
    parser.add_argument("--height", type=int, default=2200)
    args = parser.parse_args()
    url = args.page if "://" in args.page else Path(args.page).resolve().as_uri()
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.goto(url)
        page.screenshot(path=str(args.out))
        browser.close()


if __name__ == "__main__":
    main()
