"""The Mini App in a real browser: Debian's chromium driven by Playwright (its own browser download is never used),
the pages opened as Telegram opens them: the app's URL with ``#tgWebAppData=<initData>&tgWebAppThemeParams=...``,
``telegram-web-app.js`` served by a stub that reads them as the real script does, initData signed with the bot's
token by the algorithm Telegram documents."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import shutil
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

import pytest
from playwright.async_api import Browser, Page, Route, async_playwright
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.e2e.fake_telegram import FakeUser

TOKEN = "123456:TEST-token"
"""The tests' bot token (``tests/e2e/conftest.py``): what Telegram signs the launch data with."""
TELEGRAM_SCRIPT = "https://telegram.org/js/telegram-web-app.js"


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def need_chromium() -> str:
    """Chromium's path; without one the test is skipped, except in CI (``.ci/run`` installs it), where it fails."""
    path = chromium_path()
    if path is None:
        message = "no chromium: install Debian's (apt-get install chromium) for the Mini App's browser tests"
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return path


LIGHT = {
    "bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#707579", "link_color": "#3390ec",
    "button_color": "#3390ec", "button_text_color": "#ffffff", "secondary_bg_color": "#f4f4f5",
    "accent_text_color": "#3390ec",
}  # fmt: skip
DARK = {
    "bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa", "link_color": "#8774e1",
    "button_color": "#8774e1", "button_text_color": "#ffffff", "secondary_bg_color": "#0f0f0f",
    "accent_text_color": "#8774e1",
}  # fmt: skip
"""Telegram's own themes' colours (themeParams), light and dark."""

STUB = """
(function () {
  // What telegram-web-app.js does with the launch parameters Telegram puts in the URL's fragment.
  var hash = new URLSearchParams(location.hash.slice(1));
  var initData = hash.get("tgWebAppData") || "";
  var unsafe = {};
  new URLSearchParams(initData).forEach(function (value, key) {
    try { unsafe[key] = (key === "user" || key === "receiver" || key === "chat") ? JSON.parse(value) : value; }
    catch (e) { unsafe[key] = value; }
  });
  var theme = {};
  try { theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"); } catch (e) {}
  var bg = (theme.bg_color || "#ffffff").replace("#", "");
  var r = parseInt(bg.substr(0, 2), 16), g = parseInt(bg.substr(2, 2), 16), b = parseInt(bg.substr(4, 2), 16);
  var scheme = Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120 ? "dark" : "light";
  var style = document.documentElement.style;
  Object.keys(theme).forEach(function (key) {
    style.setProperty("--tg-theme-" + key.replace(/_/g, "-"), theme[key]);
  });
  style.setProperty("--tg-color-scheme", scheme);
  var noop = function () {};
  window.Telegram = { WebApp: {
    initData: initData, initDataUnsafe: unsafe, themeParams: theme, colorScheme: scheme,
    version: hash.get("tgWebAppVersion") || "8.0", platform: hash.get("tgWebAppPlatform") || "android",
    ready: noop, expand: noop, close: noop, onEvent: noop, offEvent: noop,
    HapticFeedback: { impactOccurred: noop, notificationOccurred: noop, selectionChanged: noop },
  } };
})();
"""

WATCH_VERSIONS = """
// Each data-version the page shows, with when (Date.now(): every page of the browser shares the clock).
window.__seen = {};
new MutationObserver(function () {
  var root = document.getElementById("table");
  if (root && root.dataset.version && !(root.dataset.version in window.__seen)) {
    window.__seen[root.dataset.version] = Date.now();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-version"] });
"""


def sign(fields: dict[str, str], token: str = TOKEN) -> str:
    """initData as Telegram signs it: the fields sorted as ``key=value`` lines, their HMAC-SHA-256 with the key
    HMAC-SHA-256(key "WebAppData", the bot's token), in hex, as ``hash``."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    return urlencode({**fields, "hash": hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()})


def init_data(user: FakeUser, *, start_param: str | None = None, auth_date: float | None = None,
              token: str = TOKEN) -> str:  # fmt: skip
    """The launch data Telegram gives ``user``'s page (``start_param``: a direct link's ``startapp``)."""
    who = {"id": user.id, "first_name": user.first_name, "username": user.username,
           "language_code": user.language_code, "allows_write_to_pm": True}  # fmt: skip
    fields = {
        "query_id": f"AAH{user.id}",
        "user": json.dumps(who, ensure_ascii=False, separators=(",", ":")),
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "signature": "c2lnbmVk",  # Telegram's Ed25519 signature for third parties: signed over like any field
    }
    if start_param is not None:
        fields["start_param"] = start_param
    return sign(fields, token)


def page_url(server: str, app_url: str, data: str, theme: dict[str, str]) -> str:
    """The page at ``server`` as Telegram opens ``app_url`` (a panel's ``web_app`` URL, or the app's own URL for
    a direct link), with the launch data in the fragment."""
    parts = urlsplit(app_url)
    query = f"?{parts.query}" if parts.query else ""
    launch = {
        "tgWebAppData": data, "tgWebAppVersion": "8.0", "tgWebAppPlatform": "android",
        "tgWebAppThemeParams": json.dumps(theme, separators=(",", ":")),
    }  # fmt: skip
    fragment = urlencode(launch, quote_via=quote)
    return f"{server}{parts.path}{query}#{fragment}"


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    path = need_chromium()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        )
        try:
            yield browser
        finally:
            await browser.close()


async def open_page(browser: Browser, url: str, *, width: int = 360, scale: float = 1) -> Page:
    """A phone-sized page at ``url`` (``scale``: device pixels a CSS pixel, 2 for a screenshot as a phone shows
    it), Telegram's script served by the stub, the versions it shows watched."""
    context = await browser.new_context(viewport={"width": width, "height": 780}, device_scale_factor=scale)
    page = await context.new_page()

    async def stub(route: Route) -> None:
        await route.fulfill(status=200, content_type="application/javascript", body=STUB)

    await page.route(TELEGRAM_SCRIPT, stub)
    await page.add_init_script(WATCH_VERSIONS)
    await page.goto(url)
    return page


async def until(page: Page, expression: str, what: str, arg: Any = None, timeout: float = 30.0) -> None:
    """Wait until ``expression`` (a JavaScript function of ``arg``) is true on the page; past ``timeout`` seconds,
    fail naming what it waited for and what the page shows."""
    try:
        await page.wait_for_function(expression, arg=arg, timeout=timeout * 1000)
    except PlaywrightTimeout:
        shown = await page.evaluate(
            "() => { const r = document.getElementById('table'); return r ? "
            "[r.dataset.version, r.dataset.state, r.dataset.live, r.innerText.slice(0, 300)] : null; }"
        )
        raise AssertionError(f"{what}: not within {timeout:.0f} s; the page shows {shown}") from None


async def root(page: Page) -> dict[str, str | None]:
    """The page's root element's contract attributes."""
    found: dict[str, str | None] = await page.evaluate(
        "() => { const r = document.getElementById('table'); return {version: r.dataset.version, "
        "seat: r.dataset.seat, state: r.dataset.state, lang: document.documentElement.lang, "
        "live: r.dataset.live || null}; }"
    )
    return found
