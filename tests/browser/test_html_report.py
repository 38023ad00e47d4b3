"""The evaluation HTML report in a real headless Chromium: it renders, has its plots, no console errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chromium import launch, open_page
from ragaudit import evaluate as ev
from ragaudit.render import render_html

BENCHMARKS = Path(__file__).resolve().parents[3] / "shared" / "benchmarks"


@pytest.fixture(scope="module")
def report_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dataset = BENCHMARKS / "ragtruth" / "test.jsonl"
    if not dataset.exists():
        pytest.skip("shared benchmarks not present")
    examples, skipped = ev.load_examples([dataset], limit=60)
    result = ev.summarize(ev.run(examples, workers=1), [str(dataset)], "offline", skipped, resamples=100)
    path = tmp_path_factory.mktemp("html") / "report.html"
    path.write_text(render_html(result), encoding="utf-8")
    return path


def test_report_renders_with_plots_and_no_console_errors(report_file: Path, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    html = report_file.read_text()
    # Self-contained: no script and nothing fetched from elsewhere (answers may still mention a URL as text).
    assert "<script" not in html
    assert not re.search(r"""(?:src|href)\s*=\s*["']?https?://|url\(\s*["']?https?://|@import""", html)
    with sync_playwright() as p:
        browser = launch(p)
        page, errors = open_page(browser, 1300, 900)
        page.goto(report_file.as_uri())
        assert page.title() == "ragaudit evaluation"
        assert page.locator("#headline table tr").count() == 2
        captions = page.locator("figcaption").all_inner_texts()
        assert any("ROC" in c for c in captions) and any("Precision-recall" in c for c in captions)
        assert any("Reliability" in c for c in captions) and any("Threshold sweep" in c for c in captions)
        # Every curve was drawn with real points inside the plot area.
        for series in page.locator("polyline.series").all():
            box = series.bounding_box()
            assert box is not None and box["width"] > 10
        assert page.locator("#confusion td").count() == 6
        assert page.locator("#worst .err").count() >= 1
        assert page.locator("#worst mark").count() >= 1
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        browser.close()
    assert errors == []
    assert (tmp_path / "report.png").stat().st_size > 10_000
