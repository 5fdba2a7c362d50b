"""The account page in Chromium as people use it: a weak password or a name too long is
refused in words beside its field (in the page's language, not a banner), the forms'
buttons look like buttons, and each signed-in device is listed with *Sign out this
device*.  Screenshots of the page (desktop and phone, en/fi/de) go to ``test-artifacts/``.
Skips like tests/test_web_e2e.py without Chromium (never under ``CI=true``).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests import test_web_e2e as e2e
from tests.test_web_e2e import DESKTOP, PHONE, Browser, Server, Watch, shot

server = e2e.server
browser = e2e.browser

PASSWORD = "violet lantern harbour"
PHONE_AGENT = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0.0.0 Mobile Safari/537.36"
)
WEAK = {
    "en": "one of the 10 most common passwords",
    "fi": "yksi 10 yleisimmästä salasanasta",
    "de": "eines der 10 häufigsten Passwörter",
}
LONG = {"en": "at most 24 characters", "fi": "enintään 24 merkkiä", "de": "höchstens 24 Zeichen"}


def account_page(browser: Browser, base: str, lang: str = "en", phone: bool = False) -> Any:
    if phone:
        context = browser.new_context(
            viewport=PHONE, has_touch=True, is_mobile=True, locale=lang, user_agent=PHONE_AGENT
        )
    else:
        context = browser.new_context(viewport=DESKTOP, locale=lang)
    page = context.new_page()
    page.goto(f"{base}/account?lang={lang}")
    page.locator("#register-form").wait_for()
    return page


def sign_up(page: Any, name: str) -> None:
    page.fill("#register-name", name)
    page.fill("#register-password", PASSWORD)
    page.locator("#register-form button[type=submit]").click()
    page.locator("#me-link", has_text=name).wait_for()


@pytest.mark.parametrize("lang", ["en", "fi", "de"])
def test_weak_password_and_long_name_refused_beside_their_fields(
    server: Server, browser: Browser, lang: str
) -> None:
    page = account_page(browser, server.url, lang)
    watch = Watch(page)
    long_name = "Aino" + "x" * 36
    page.fill("#register-name", long_name)
    assert page.input_value("#register-name") == long_name, "the name is not cut silently"
    page.fill("#register-password", PASSWORD)
    page.locator("#register-form button[type=submit]").click()
    error = page.locator("#register-name-error")
    error.wait_for()
    text = error.inner_text()
    assert LONG[lang] in text and "40" in text, text
    assert text[0].isupper(), f"a sentence, not the server's lower-case wording: {text!r}"
    assert page.get_attribute("#register-name", "aria-invalid") == "true"
    assert page.locator("#notice").is_hidden(), "beside the field, not a banner"
    for weak in ("password", "12345678"):
        page.fill("#register-name", f"Aila{lang}")
        page.fill("#register-password", weak)
        page.locator("#register-form button[type=submit]").click()
        error = page.locator("#register-password-error")
        error.wait_for()
        assert WEAK[lang] in error.inner_text(), error.inner_text()
        assert page.locator("#register-name-error").count() == 0
        assert page.locator("#notice").is_hidden()
    shot(page, f"account-weak-password-{lang}")
    assert page.locator("#signed-out").is_visible(), "nothing was created"
    watch.problems = [p for p in watch.problems if "400" not in p]  # the refusals themselves
    watch.check()
    page.context.close()


def test_the_forms_buttons_look_like_buttons(server: Server, browser: Browser) -> None:
    page = account_page(browser, server.url)
    field = page.locator("#login-name")
    for form in ("#login-form", "#register-form"):
        button = page.locator(f"{form} button[type=submit]")
        looks = button.evaluate("b => getComputedStyle(b).backgroundColor")
        assert looks != field.evaluate("f => getComputedStyle(f).backgroundColor"), form
        width = button.bounding_box()["width"]
        assert width < field.bounding_box()["width"] * 0.8, "not stretched like a text box"
    page.context.close()


def test_devices_listed_and_signed_out_one_by_one(server: Server, browser: Browser) -> None:
    desk = account_page(browser, server.url)
    watch = Watch(desk)
    sign_up(desk, "Devina")
    phone = account_page(browser, server.url, phone=True)
    phone.fill("#login-name", "Devina")
    phone.fill("#login-password", PASSWORD)
    phone.locator("#login-form button[type=submit]").click()
    phone.locator("#me-link", has_text="Devina").wait_for()
    desk.reload()
    rows = desk.locator("#devices li")
    rows.nth(1).wait_for()
    assert rows.count() == 2
    mine = desk.locator("#devices li", has=desk.locator(".badge-this"))
    assert mine.count() == 1 and "This device" in mine.inner_text()
    other = desk.locator("#devices li", has_text="Chrome on Android")
    assert other.count() == 1 and other.locator(".badge-this").count() == 0
    assert "Last seen" in other.inner_text()
    shot(desk, "account-devices-en")
    other.locator("button", has_text="Sign out this device").click()
    desk.locator("#devices li").nth(1).wait_for(state="detached")
    assert desk.locator("#devices li").count() == 1
    phone.reload()
    phone.locator("#signed-out").wait_for()
    assert phone.locator("#signed-in").is_hidden()
    # this device's own row signs this browser out
    mine.locator("button", has_text="Sign out this device").click()
    desk.locator("#signed-out").wait_for()
    watch.check()
    for page in (desk, phone):
        page.context.close()


def test_password_change_says_why_beside_the_field(server: Server, browser: Browser) -> None:
    page = account_page(browser, server.url, "fi")
    sign_up(page, "Paavo")
    page.locator("#password-box summary").click()
    page.fill("#current-password", "not my password")
    page.fill("#new-password", "a different lantern")
    page.locator("#password-form button[type=submit]").click()
    page.locator("#current-password-error").wait_for()
    page.fill("#current-password", PASSWORD)
    page.fill("#new-password", "12345678")
    page.locator("#password-form button[type=submit]").click()
    error = page.locator("#new-password-error")
    error.wait_for()
    assert WEAK["fi"] in error.inner_text()
    page.fill("#new-password", "a different lantern")
    page.locator("#password-form button[type=submit]").click()
    page.locator("#notice", has_text="Salasana vaihdettu").wait_for()
    page.context.close()


@pytest.mark.parametrize("lang", ["en", "fi", "de"])
@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_account_page_screenshots(server: Server, browser: Browser, lang: str, phone: bool) -> None:
    page = account_page(browser, server.url, lang, phone=phone)
    size = "phone" if phone else "desktop"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the account page is {width}px wide"
    shot(page, f"account-signed-out-{size}-{lang}")
    sign_up(page, f"Shot{lang}{size}")
    page.locator("#devices li").first.wait_for()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the account page is {width}px wide"
    shot(page, f"account-signed-in-{size}-{lang}")
    page.context.close()
