"""Awkward Guests on the ``parlour serve`` page, in headless Chromium at desktop and phone
sizes: the notebook grid with the person's own marks (kept through moves and a reload), the
candidates the notebook still allows (with the aids on), and the end screen's accusations."""

from __future__ import annotations

import pytest

from tests.web.browser import (
    SETTLE_MS,
    axe_violations,
    close_page,
    open_page,
    play_visible,
    start,
)
from tests.web.conftest import Live


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_own_marks_in_the_notebook_survive_moves_and_a_reload(
    browser, live: Live, size: str
) -> None:
    page = open_page(browser, live.url, size)
    start(page, "guests", 3, ["guests.deducer", "random"], seed=12, hints=True)
    assert "Murderer" in page.inner_text(".gx-remaining")  # the aids: what is still possible
    section = page.locator("#table details.gx-section").first
    key = section.get_attribute("data-panel")
    section.locator("summary").click()
    mark = section.locator("button.mark").first
    label = mark.get_attribute("aria-label")
    assert mark.inner_text() == "·"
    mark.click()
    assert page.locator("#table details.gx-section button.mark").first.inner_text() == "✓"
    mark.press("Enter")  # (the keyboard too)
    assert page.locator("#table details.gx-section button.mark").first.inner_text() == "✗"
    play_visible(page, seed=3, until=2)  # the table is drawn again
    again = page.locator(f"#table details[data-panel='{key}']")
    assert again.get_attribute("open") is not None  # still open
    assert again.locator("button.mark").first.inner_text() == "✗"
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#table details.gx-section", timeout=SETTLE_MS)
    kept = page.locator(f"#table details[data-panel='{key}'] button.mark").first
    assert kept.text_content() == "✗" and kept.get_attribute("aria-label") != label
    assert axe_violations(page) == []
    close_page(page)


def test_without_the_aids_no_candidates_are_listed(browser, live: Live) -> None:
    page = open_page(browser, live.url)
    start(page, "guests", 2, ["guests.deducer"], seed=13, hints=False)
    assert page.locator(".gx-remaining").count() == 0
    assert page.locator("#table details.gx-section").count() > 0
    close_page(page)
