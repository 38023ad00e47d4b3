"""The review page with hostile text (issue 11, row 13), in headless Chromium against a real serve.

Emoji (two UTF-16 units each) before claims must not shift the highlighted spans; the page runs
under its strict Content-Security-Policy without a single violation; audited text never runs.
"""

from __future__ import annotations

from chromium import launch, open_page
from service_helpers import Server

REQUEST = {
    "answer": "🎉🎉🎉 Summary:\nThe plant opened in 2010.\n👍🏽 It employs 1,200 people.\n<img src=x onerror=alert(1)> It is red.",
    "sources": [
        {"id": "1", "text": "😀 The plant opened in 2012. 🏭 Today the plant employs 1200 people."},
        {"id": "<b>2</b>", "text": "<script>alert(1)</script> It is red."},
    ],
    "risk_level": "high",
}


def test_claims_and_evidence_are_cut_by_code_points_under_the_csp(server: Server) -> None:
    from playwright.sync_api import expect, sync_playwright

    with server.client() as admin:
        reviewer_key = admin.post("/v1/keys", json={"name": "ana", "role": "reviewer"}).json()["key"]
        audit = admin.post("/v1/audits", json=REQUEST).json()
    claims = audit["report"]["claims"]
    action = audit["decision"]["action"]
    assert action != "deliver" and len(claims) >= 2  # it lands in a review queue
    with sync_playwright() as p:
        browser = launch(p)
        page, errors = open_page(browser)
        page.goto(server.url + "/review")
        page.fill("#key", reviewer_key)
        page.keyboard.press("Enter")
        page.select_option("#f-decision", action)
        item = page.locator(f'.item[data-id="{audit["id"]}"]')
        expect(item).to_be_visible()
        item.click()
        expect(page.locator("#answer .claim")).to_have_count(len(claims))
        shown = page.locator("#answer .claim").all_inner_texts()
        # Each highlighted claim is exactly the claim's text (UTF-16 slicing cut them mid-emoji).
        assert shown == [c["text"] for c in claims]
        evidence = page.locator('.source[data-source="1"] mark.ev').all_inner_texts()
        assert evidence and all(e in REQUEST["sources"][0]["text"] for e in evidence)  # type: ignore[index]
        assert page.locator("#sources img, #sources script, #answer img").count() == 0
        browser.close()
    assert errors == []
