"""The table as a Mini App, in a real browser (``tests/e2e/browser.py``), over the real bot, real Redis and the
fake Bot API: two players' pages play a whole match by tapping, a group member's page shows the table only, a
forged launch is refused, a button press shows on the pages, a page that lost its connection catches up."""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiogram import Bot
from aiogram.client.session.aiohttp import AiohttpSession
from aiogram.client.telegram import TelegramAPIServer
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from playwright.async_api import Page

from bot.app import App
from bot.models import Status
from bot.webapp.server import webapp_server
from tests.e2e.browser import (
    DARK,
    LIGHT,
    STUB,
    TELEGRAM_SCRIPT,
    TOKEN,
    chromium,
    init_data,
    need_chromium,
    open_page,
    page_url,
    root,
    until,
)
from tests.e2e.conftest import running_bot
from tests.e2e.driver import move_data, new_match, panel_of, playable, start_bot, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.process import BotProcess, bot_env
from tests.ports import free_port
from tests.redis_server import redis_url

GROUP = -100777
ANNA = FakeUser(9301, "Анна", "anna_app", "ru")
BARTEK = FakeUser(9302, "Bartek", "bartek_app", "pl")
CYRIL = FakeUser(9303, "Кирилл", "cyril_app", "ru")
"""A member of the group who does not play."""
STRANGER = FakeUser(9304, "Obcy", "obcy_app", "pl")
"""Not in the group."""
APP_URL = "https://tables.example/app"
SHORT_NAME = "table"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "miniapp"
SHOTS = {
    "bingo": {("ru", "light"), ("ru", "dark"), ("pl", "light"), ("pl", "dark")},
    "42": {("pl", "dark")},
}
ENABLED = '[data-action]:not([aria-disabled="true"]):not([disabled])'


def web_app_url(panel: Sent) -> str:
    for b in panel.buttons():
        if "web_app" in b:
            return str(b["web_app"]["url"])
    raise AssertionError(f"no web_app button on the panel: {panel.buttons()}")


def table_of(fake: FakeTelegram) -> Sent:
    """The group's newest message with the Mini App's button (the table)."""
    for sent in reversed(fake.chat_messages(GROUP)):
        if any("url" in b and "startapp=" in str(b["url"]) for b in sent.buttons()):
            return sent
    raise AssertionError("no table with the Mini App's button in the group")


class Server:
    """The bot's Mini App server, stopped and started again on its port (a lost connection for every page)."""

    def __init__(self, app: App) -> None:
        assert app.tables is not None
        self.tables = app.tables
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self._serving: Any = None

    async def start(self) -> None:
        self._serving = webapp_server(self.tables, "127.0.0.1", self.port)
        await self._serving.__aenter__()

    async def stop(self) -> None:
        if self._serving is not None:
            await self._serving.__aexit__(None, None, None)
            self._serving = None


async def versions_reach(pages: list[Page], version: int, what: str) -> None:
    for page in pages:
        await until(page, "v => Number(document.getElementById('table').dataset.version) >= v", what, version)


async def tap_latency(tapper: Page, watcher: Page, version: int) -> float | None:
    """Milliseconds from the tap on ``tapper`` to ``watcher`` showing ``version`` (both Date.now())."""
    tapped = await tapper.evaluate("() => window.__tappedAt")
    seen = await watcher.evaluate("v => window.__seen[String(v)]", version)
    return None if tapped is None or seen is None else float(seen - tapped)


async def no_hand(page: Page) -> None:
    assert await page.locator("[data-hand]").count() == 0
    assert await page.locator("[data-action]").count() == 0
    assert (await root(page))["seat"] == ""


@pytest.mark.parametrize(
    ("preset", "target", "whole"),
    [
        pytest.param("bingo", 2, True, id="a-whole-bingo-match"),
        # 42 keeps its preset's target (seven marks: some three hundred moves); its draw, bids, passes, trumps
        # and tricks are all on the page within its first deal.
        pytest.param("42", None, False, id="42-bidding-trumps-and-tricks"),
    ],
)
async def test_a_match_played_in_the_mini_app(
    fake: FakeTelegram,
    prefix: str,
    cleanup_redis: None,
    preset: str,
    target: int | None,
    whole: bool,
    tmp_path: Path,
) -> None:
    need_chromium()
    running = running_bot(fake, prefix, webapp_url=APP_URL, webapp_short_name=SHORT_NAME)
    async with running as app, chromium() as browser:
        server = Server(app)
        await server.start()
        await app.services.chats.update_settings(GROUP, lang="ru", target=target)
        for user in (ANNA, BARTEK, CYRIL):
            await start_bot(fake, user)
        fake.outsiders[GROUP] = {STRANGER.id}
        match_id = await new_match(fake, ANNA, BARTEK, GROUP, preset)

        # The buttons that open it: a direct link on the group's table, a web_app button on each panel.
        table = table_of(fake)
        link = next(str(b["url"]) for b in table.buttons() if "url" in b)
        assert link == f"https://t.me/{fake.bot_username}/{SHORT_NAME}?startapp=m_{match_id}"
        assert next(b["text"] for b in table.buttons() if "url" in b) == "🎴 Стол"
        panels = {u.id: panel_of(fake, u) for u in (ANNA, BARTEK)}
        urls = {uid: web_app_url(p) for uid, p in panels.items() if p is not None}
        assert urls == {ANNA.id: f"{APP_URL}?m={match_id}", BARTEK.id: f"{APP_URL}?m={match_id}"}

        anna = await open_page(browser, page_url(server.base, urls[ANNA.id], init_data(ANNA), LIGHT))
        bartek = await open_page(browser, page_url(server.base, urls[BARTEK.id], init_data(BARTEK), DARK))
        # Cyril follows the table's direct link: Telegram opens the app's URL with start_param in the launch data.
        cyril = await open_page(
            browser, page_url(server.base, APP_URL, init_data(CYRIL, start_param=f"m_{match_id}"), LIGHT)
        )
        record, _ = await app.services.records.get(match_id)
        pages = {ANNA.id: anna, BARTEK.id: bartek}
        await versions_reach([anna, bartek, cyril], record.version, "every page to show the match")
        assert (await root(anna))["lang"] == "ru" and (await root(bartek))["lang"] == "pl"
        assert {(await root(anna))["seat"], (await root(bartek))["seat"]} == {"0", "1"}
        await no_hand(cyril)

        # A launch that Telegram did not sign as it is: 401, the page says so in words and shows nothing.
        forged = init_data(ANNA).replace("Bartek", "Barteq").replace("9301", "9302")
        tampered = await open_page(browser, page_url(server.base, urls[ANNA.id], forged, LIGHT))
        await until(tampered, "() => document.getElementById('table').dataset.state === 'error'", "the refusal")
        assert "Telegram" in await tampered.inner_text("#table")
        assert (await root(tampered))["version"] == ""
        assert await tampered.locator("[data-hand], [data-action], svg").count() == 0
        other_bot = init_data(ANNA, token="654321:OTHER-token")
        async with aiohttp.ClientSession() as http:
            for headers in ({}, {"Authorization": f"tma {other_bot}"}, {"Authorization": "tma " + forged}):
                async with http.get(f"{server.base}/app/api/state?m={match_id}", headers=headers) as response:
                    assert response.status == 401
                    assert "match" not in await response.json()
            outsider = {"Authorization": f"tma {init_data(STRANGER)}"}
            async with http.get(f"{server.base}/app/api/state?m={match_id}&hl=pl", headers=outsider) as response:
                assert response.status == 403
                assert "czatu" in (await response.json())["error"]
        await tampered.context.close()

        # The match, by taps: whoever has an enabled control taps one; every page follows.
        rng = random.Random(f"miniapp/{preset}")
        latencies: list[float] = []
        taps = presses = 0
        dropped = shot = False
        tapped: set[str] = set()
        seen: set[str] = set()
        """The kinds of enabled controls the pages offered (B: bids, P: pass, T: trumps, play: a tile)."""
        while True:
            record, match = await app.services.records.get(match_id)
            if not record.is_active or (not whole and {"B", "P", "T", "play"} <= seen and "T" in tapped):
                break
            version = record.version
            turn = match.turn
            assert turn is not None
            actor = record.players[turn]
            page, other = pages[actor.id], pages[record.players[1 - turn].id]
            user = ANNA if actor.id == ANNA.id else BARTEK
            if taps == 3 and not shot:
                shot = True
                await screenshots(browser, server.base, urls, preset, tmp_path)
            if taps in (2, 6) and presses < 2:
                # A button press in Telegram shows on the pages.
                panel = panel_of(fake, user)
                assert panel is not None and version_of(panel) == version
                buttons = playable(panel)
                choice = rng.choice(buttons)
                assert move_data(choice) is not None
                answer = await fake.wait_answer(fake.press(user, panel, choice["callback_data"]))
                assert not answer.get("text"), answer
                presses += 1
                await versions_reach([anna, bartek, cyril], version + 1, "the pages to show a button press")
                continue
            if taps == 4 and not dropped:
                # Every page loses its connection; a move is made meanwhile (a button press); they catch up.
                dropped = True
                await server.stop()
                for p in (anna, bartek, cyril):
                    await until(p, "() => document.getElementById('table').dataset.live === 'off'", "the drop")
                panel = panel_of(fake, user)
                assert panel is not None
                answer = await fake.wait_answer(fake.press(user, panel, rng.choice(playable(panel))["callback_data"]))
                assert not answer.get("text"), answer
                await app.settled()
                await server.start()
                record, _ = await app.services.records.get(match_id)
                await versions_reach([anna, bartek, cyril], record.version, "the pages to catch up after the drop")
                continue
            controls = page.locator(ENABLED)
            count = await controls.count()
            assert count > 0, f"{actor.name} has no enabled control at version {version}"
            assert await other.locator(ENABLED).count() == 0
            offered = await controls.evaluate_all("els => els.map(e => e.dataset.action)")
            seen.update(a[0] if a[0] in "BPT" else "play" for a in offered)
            control = controls.nth(rng.randrange(count))
            action = await control.get_attribute("data-action") or ""
            tapped.add(action[0] if action[0] in "BPT" else "play")
            await control.click()
            taps += 1
            await versions_reach([page, other, cyril], version + 1, f"the pages to show tap {taps}")
            if (latency := await tap_latency(page, other, version + 1)) is not None:
                latencies.append(latency)
            await no_hand(cyril)

        report(preset, taps, presses, latencies, tmp_path)
        if not whole:
            await no_hand(cyril)
            await server.stop()
            return
        record, _ = await app.services.records.get(match_id)
        assert record.status is Status.FINISHED
        for p in (anna, bartek, cyril):
            await until(p, "() => document.getElementById('table').dataset.state === 'over'", "the end")
        for p in (anna, bartek):
            assert await p.locator("[data-result]").count() == 1
            assert await p.locator(ENABLED).count() == 0
        assert await anna.locator("[data-rematch]").count() == 1
        await no_hand(cyril)

        # The group's table and the panels end as after button presses: the result in the group, the last
        # panels without move buttons.
        await app.settled()
        assert panel_of(fake, ANNA) is None and panel_of(fake, BARTEK) is None
        assert any(("🏆" in m.text or "🏁" in m.text) for m in fake.chat_messages(GROUP)), "no result in the group"

        # The 🔁 on both pages: the first asks, the second starts the rematch, and both pages go to it.
        await anna.locator("[data-rematch]").click()
        await until(bartek, "() => !!document.querySelector('[data-rematch]')", "Bartek's 🔁")
        await bartek.locator("[data-rematch]").click()
        await until(bartek, "m => document.getElementById('table').dataset.state === 'active'", "the rematch")
        await until(anna, "() => !!document.querySelector('[data-next]')", "Anna's way to the rematch")

        await server.stop()


async def screenshots(browser: Any, base: str, urls: dict[int, str], preset: str, out: Path) -> None:
    """The page at 360 px (``SHOTS``: Bingo's in both themes and both languages, Anna reading Russian and Bartek
    Polish; 42's in one), kept in docs/miniapp/ when ``MINIAPP_SCREENSHOTS`` is set."""
    shots = SHOTS[preset]
    for user, lang in ((ANNA, "ru"), (BARTEK, "pl")):
        for theme_name, theme in (("light", LIGHT), ("dark", DARK)):
            if (lang, theme_name) not in shots:
                continue
            page = await open_page(browser, page_url(base, urls[user.id], init_data(user), theme), scale=2)
            await until(page, "() => document.getElementById('table').dataset.state === 'active'", "the screenshot")
            width = await page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 360, f"the page is {width} px wide on a 360 px phone"
            path = out / f"miniapp-{preset}-{lang}-{theme_name}.png"
            await page.screenshot(path=str(path), full_page=True)
            assert path.stat().st_size > 10_000
            if os.environ.get("MINIAPP_SCREENSHOTS"):
                DOCS.mkdir(exist_ok=True)
                shutil.copy(path, DOCS / path.name)
            await page.context.close()


def report(preset: str, taps: int, presses: int, latencies: list[float], out: Path) -> None:
    """The tap-to-other-page times, printed (docs/benchmarks.md keeps them; never asserted)."""
    assert taps > 0 and latencies, "no tap was measured"
    figures = {
        "preset": preset, "taps": taps, "presses": presses, "measured": len(latencies),
        "median_ms": statistics.median(latencies), "max_ms": max(latencies),
    }  # fmt: skip
    print(f"\nmini app {preset}: {json.dumps(figures)}")
    if path := os.environ.get("MINIAPP_LATENCY_OUT"):
        with open(path, "a", encoding="utf-8") as file:
            file.write(json.dumps({**figures, "samples": latencies}) + "\n")
    (out / "latency.json").write_text(json.dumps(figures))


async def test_polling_serves_it_on_its_port(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """``python -m bot`` polling with ``WEBAPP_PORT``: the page and its API on that port, nothing without a
    launch Telegram signed (the refusal in the language the page hints)."""
    port = free_port()
    env = bot_env(
        telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix, webapp_url=APP_URL,
        webapp_host="127.0.0.1", webapp_port=str(port),
    )  # fmt: skip
    process = await BotProcess(env).start()
    try:
        await process.wait_line(lambda line: "the Mini App is served" in line, what="the Mini App's server")
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/app") as response:
                assert response.status == 200 and 'id="table"' in await response.text()
            async with http.get(f"{base}/app/static/app.js") as response:
                assert response.status == 200
            async with http.get(f"{base}/app/api/live?m=abc&hl=pl", headers={"Authorization": "tma x"}) as response:
                assert response.status == 401
                assert "Telegramie" in (await response.json())["error"]
            signed = {"Authorization": f"tma {init_data(ANNA)}"}
            async with http.get(f"{base}/app/api/state?m=no-such", headers=signed) as response:
                assert response.status == 404
    finally:
        await process.close()


async def test_the_fake_bot_api_refuses_buttons_telegram_refuses(fake: FakeTelegram) -> None:
    """As Telegram: a ``web_app`` button outside a private chat, callback data over 64 bytes, a button of two
    kinds."""
    bot = Bot(TOKEN, session=AiohttpSession(api=TelegramAPIServer.from_base(fake.base)))
    fake.started.add(ANNA.id)
    web_app = InlineKeyboardButton(text="🎴", web_app=WebAppInfo(url=APP_URL))
    try:
        with pytest.raises(TelegramBadRequest, match="BUTTON_TYPE_INVALID"):
            await bot.send_message(GROUP, "x", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[web_app]]))
        await bot.send_message(ANNA.id, "x", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[web_app]]))
        long = InlineKeyboardButton(text="x", callback_data="x" * 65)
        with pytest.raises(TelegramBadRequest, match="BUTTON_DATA_INVALID"):
            await bot.send_message(GROUP, "x", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[long]]))
        plain = InlineKeyboardButton(text="x", url="http://example.org", callback_data="c")
        with pytest.raises(TelegramBadRequest, match="Text buttons"):
            await bot.send_message(GROUP, "x", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[plain]]))
    finally:
        await bot.session.close()


async def test_the_page_takes_only_telegrams_tags(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    """L4 of security-2026-12b: the page rebuilds the server's texts from an allow-list of Telegram's HTML tags, so
    a text the server failed to escape runs nothing (here the state is altered on its way, as such a text would
    be); the player to act reads «your turn»."""
    need_chromium()
    async with (
        running_bot(fake, prefix, webapp_url=APP_URL, webapp_short_name=SHORT_NAME) as app,
        chromium() as browser,
    ):
        server = Server(app)
        await server.start()
        try:
            for user in (ANNA, BARTEK):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANNA, BARTEK, GROUP, "bingo")
            _, match = await app.services.records.get(match_id)
            mover = (ANNA, BARTEK)[match.turn or 0]
            async with aiohttp.ClientSession() as http:
                headers = {"Authorization": f"tma {init_data(mover)}"}
                async with http.get(f"{server.base}/app/api/state?m={match_id}", headers=headers) as response:
                    state = await response.json()
            hostile = '<img src=x onerror="window.__xss=1"><b>bold</b> <a href="javascript:window.__xss=2">x</a>'
            state["title"] = hostile + state["title"]
            state["lines"] = [*state["lines"], "<script>window.__xss=3</script><i>ok</i>"]
            body = f"event: state\ndata: {json.dumps(state, ensure_ascii=False)}\n\n"

            async def forged(route: Any) -> None:
                await route.fulfill(status=200, content_type="text/event-stream", body=body)

            context = await browser.new_context(viewport={"width": 360, "height": 780})
            page = await context.new_page()
            await page.route(TELEGRAM_SCRIPT, _stub_route)
            await page.route("**/app/api/live*", forged)
            await page.goto(page_url(server.base, f"{APP_URL}?m={match_id}", init_data(mover), LIGHT))
            await until(page, "() => document.querySelector('h1 b') !== null", "the title drawn")
            assert await page.evaluate("() => window.__xss") is None
            assert await page.locator("#table img, #table script").count() == 0
            assert await page.locator("h1 a").get_attribute("href") is None
            assert await page.locator("#table i").count() >= 1
            assert await page.locator("[data-your-turn]").count() == 1
        finally:
            await server.stop()


async def _stub_route(route: Any) -> None:
    await route.fulfill(status=200, content_type="application/javascript", body=STUB)
