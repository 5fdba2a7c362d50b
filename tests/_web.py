"""The browser helpers the web's end-to-end tests share: a page of a new browser on a
desktop or a phone, signing up to a new account, and whether an element fits the
screen's width."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from tests.test_web_e2e import PHONE

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
"""The desktop's window."""
PASSWORD = "violet lantern harbour"
"""Every test account's password."""
NUMBERS = itertools.count(1)


def page_of(browser: Browser, lang: str = "en", phone: bool = False) -> Page:
    """A page of a new browser: a desktop, or a phone (390x844, touch) when ``phone``."""
    if phone:
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, locale=lang)
    else:
        context = browser.new_context(viewport=DESKTOP, locale=lang)
    return context.new_page()


def sign_up(page: Page, base: str, name: str | None = None, lang: str = "en") -> str:
    """Sign the page's browser up to a new account (``name``, else a new one); its name."""
    name = name or f"Solver{next(NUMBERS)}"
    page.goto(f"{base}/account?lang={lang}")
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.locator("#register-form button[type=submit]").click()
    page.locator("#me-link", has_text=name).wait_for()
    return name


def person(browser: Browser, base: str, name: str, lang: str = "en", phone: bool = False) -> Any:
    """A page of a new browser signed in to a new account ``name``, on the lobby (its
    friends' panel drawn)."""
    page = page_of(browser, lang, phone)
    sign_up(page, base, name, lang)
    page.goto(f"{base}/?lang={lang}")
    page.locator("#friends-list").wait_for(state="attached")
    return page


def names() -> tuple[str, str]:
    """Two new account names, ``Anna<n>`` and ``Ben<n>``."""
    n = next(NUMBERS)
    return f"Anna{n}", f"Ben{n}"


def fits(page: Page, selector: str, width: int) -> bool:
    """Whether the element ``selector`` lies within the page's first ``width`` pixels."""
    box = page.locator(selector).bounding_box()
    return box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1


__all__ = ["DESKTOP", "PASSWORD", "fits", "names", "page_of", "person", "sign_up"]
