"""The review page end to end in headless Chromium against a real `ragaudit serve`.

Submit an audit through the API, find it in the queue, open it, see the highlighted evidence,
label with the keyboard, decide, and see the review recorded through the API.
"""

from __future__ import annotations

from pathlib import Path

from chromium import launch, open_page
from service_helpers import Server

REQUEST = {
    "answer": "The Lakeside plant opened in 2010. It employs 1,200 people. It was built by Norsk Hydro.",
    "sources": [
        {"id": "1", "text": "The Lakeside aluminium plant opened in 2012 after three years of construction."},
        {"id": "2", "text": "Today the plant employs 1200 people, most of them on two shifts."},
    ],
    "risk_level": "high",
    "trace_id": "browser-e2e",
}


def test_reviewer_works_an_audit_with_the_keyboard(server: Server, tmp_path: Path) -> None:
    from playwright.sync_api import expect, sync_playwright

    with server.client() as admin:
        reviewer_key = admin.post("/v1/keys", json={"name": "ana", "role": "reviewer"}).json()["key"]
        audit = admin.post("/v1/audits", json={**REQUEST, "answer": REQUEST["answer"] + " It is painted red."}).json()
        audit_id = audit["id"]
        claims = audit["report"]["claims"]
    # The gate at high risk sends contradictions to block; the page's queue filter shows them.
    assert audit["decision"]["action"] == "block"
    with sync_playwright() as p:
        browser = launch(p)
        page, errors = open_page(browser, 1400, 900)
        page.goto(server.url + "/review")
        page.fill("#key", reviewer_key)
        page.keyboard.press("Enter")
        page.select_option("#f-decision", "block")
        item = page.locator(f'.item[data-id="{audit_id}"]')
        expect(item).to_be_visible()
        expect(page.locator("#answer .claim")).to_have_count(len(claims))
        # The first claim is selected: its contradicting evidence is highlighted inside source 1.
        expect(page.locator(".claim.sel")).to_contain_text("The Lakeside plant opened in 2010")
        expect(page.locator('.source[data-source="1"] mark.ev')).to_contain_text("opened in 2012")
        expect(page.locator("#claim-info")).to_contain_text("contradicted")
        expect(page.locator("#reasons li").first).to_contain_text("CONTRADICTION")
        # Keyboard: label c1 contradicted (4), move to c2 (j) and confirm supported (1), then reject (r).
        page.keyboard.press("4")
        page.keyboard.press("j")
        expect(page.locator(".claim.sel")).to_contain_text("It employs 1,200 people")
        expect(page.locator('.source[data-source="2"] mark.ev')).to_contain_text("employs 1200 people")
        page.keyboard.press("1")
        page.screenshot(path=str(tmp_path / "review.png"))
        page.keyboard.press("r")
        expect(page.locator(f'.item[data-id="{audit_id}"]')).to_have_count(0)
        browser.close()
    assert errors == []
    with server.client(reviewer_key) as reviewer:
        (review,) = reviewer.get(f"/v1/reviews/{audit_id}").json()
    assert review["reviewer"] == "ana" and review["decision"] == "reject"
    assert review["claim_labels"]["c1"] == "contradicted" and review["claim_labels"]["c2"] == "supported"
