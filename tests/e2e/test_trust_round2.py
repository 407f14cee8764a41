"""Trust, round two (``security-2026-12b``): each finding's attack, over the fake Bot API on real Redis, fails.

M1: a forged move button never strips or re-edits a message that is not the seat's own panel of that match.
M2: an inline challenge stays bound to its own message. M3: no match without a table, nothing sent forever (the
delivery's bounded retries are in ``tests/bot/test_delivery.py``). M4 and L5: the doors a stranger can knock on
have limits (membership cached, the Mini App's and inline mode's budgets). L1-L4, L6: the Mini App server as a
hardened web server. L7: who may watch an inline match.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.models import INLINE_CHATS, Player
from tests.e2e.browser import init_data
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, challenge, new_match, panel_of, start_bot, surrender
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.simclock import SimClock
from tests.e2e.test_thumb import app_server

GROUP = -100980
ANN = FakeUser(9801, "Ann", "ann_trust2", "ru")
BOB = FakeUser(9802, "Bob", "bob_trust2", "ru")
CYRIL = FakeUser(9803, "Cyril", "cyril_trust2", "ru")
MALLORY = FakeUser(9804, "Mallory", "mallory_trust2", "ru")
"""A member of the group with a modified client: any callback data on any message of the bot's."""


def touched(fake: FakeTelegram, chat_id: int, since: int) -> list[tuple[str, int]]:
    """The edits and strips of the chat's messages from call ``since`` on: (method, message id)."""
    methods = ("editMessageText", "editMessageReplyMarkup", "editMessageCaption", "deleteMessage")
    return [
        (c.method, int(c.params["message_id"]))
        for c in fake.calls[since:]
        if c.method in methods and str(c.params.get("chat_id")) == str(chat_id) and "message_id" in c.params
    ]


async def pressed(fake: FakeTelegram, user: FakeUser, sent: Sent, data: str) -> dict[str, Any]:
    return await fake.wait_answer(fake.press(user, sent, data))


class TestM1ForgedMoveButtons:
    """M1: a forged ``a:`` or ``h:`` press, of a finished match or with a version ahead, on any message of the
    bot's that is not the seat's own panel of that match: a toast, and no message touched."""

    async def test_a_finished_match_on_other_messages(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, CYRIL, MALLORY):
                await start_bot(fake, user)
            finished = await new_match(fake, ANN, BOB, GROUP)
            result = await surrender(fake, BOB, GROUP, finished)
            await app.settled()
            open_challenge = await challenge(fake, CYRIL, GROUP)
            signup = await ask(fake, MALLORY, GROUP, "/tournament")
            await app.settled()
            targets = {"a challenge": open_challenge, "a sign-up": signup, "the result's 🔁": result}
            for user in (MALLORY, ANN):  # a stranger to the match, and one of its players
                for what, message in targets.items():
                    kept = message.buttons()
                    since = len(fake.calls)
                    for data in (f"a:{finished}:0:66", f"h:{finished}:0"):
                        answer = await pressed(fake, user, message, data)
                        assert answer.get("text") == tr("toast-bad-button"), (what, answer)
                    await app.settled()
                    assert touched(fake, GROUP, since) == [], f"{user.first_name} on {what}"
                    assert fake.messages[(GROUP, message.message_id)].buttons() == kept, what

    async def test_a_version_ahead_on_a_group_message(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """A player of an active match presses their own match's button with a version far ahead on a message of
        the group (one with buttons, one without): nothing shown again, nothing stripped; on their own panel it
        still means Redis lost writes (the match is shown again from what Redis holds)."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, CYRIL):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            open_challenge = await challenge(fake, CYRIL, GROUP)
            rules = await ask(fake, ANN, GROUP, "/rules")
            await app.settled()
            record, _ = await app.services.records.get(match_id)
            ahead = f"a:{match_id}:{record.version + 50}:66"
            for message in (open_challenge, rules):
                since = len(fake.calls)
                answer = await pressed(fake, ANN, message, ahead)
                assert answer.get("text") == tr("toast-bad-button")
                await app.settled()
                assert touched(fake, GROUP, since) == [] and touched(fake, ANN.id, since) == []
                assert touched(fake, BOB.id, since) == []
            assert fake.messages[(GROUP, open_challenge.message_id)].buttons() == open_challenge.buttons()
            panel = panel_of(fake, ANN)
            assert panel is not None
            since = len(fake.calls)
            await pressed(fake, ANN, panel, ahead)
            await app.settled()
            assert ("editMessageReplyMarkup", panel.message_id) in touched(fake, ANN.id, since)


FRIENDS = 424_243_000
"""Anna's chat with Bartek, where she posts an inline challenge (the bot is not in it)."""
MALLORYS = 424_243_001
"""Mallory's own chat, where she posts an inline result of her own."""


def join_of(sent: Sent, prefix: str = "j:") -> str:
    return next(str(b["callback_data"]) for b in sent.buttons() if str(b.get("callback_data", "")).startswith(prefix))


async def posted(fake: FakeTelegram, user: FakeUser, chat: int, *, feedback: bool = True) -> tuple[str, str, Sent]:
    """``user`` posts an inline challenge (Bingo) in ``chat``: its challenge id, inline message id and message."""
    query = fake.inline_query(user, "бинго")
    result = str((await fake.wait_inline(query))["results"][0]["id"])
    inline_id, message = fake.choose_inline(user, query, result, chat, feedback=feedback)
    if feedback:
        await fake.done(fake.newest_update)
    return result, inline_id, message


def sent_to_made_up_chats(fake: FakeTelegram) -> list[str]:
    return [c.method for c in fake.calls if str(c.params.get("chat_id", "0")).lstrip("-").isdigit()
            and int(c.params.get("chat_id", 0)) <= INLINE_CHATS]  # fmt: skip


class TestM2InlineBinding:
    """M2: an inline challenge stays bound to its own message: a press carried from another inline message never
    rebinds it, and a refused press changes nothing."""

    async def test_a_forged_press_from_another_message(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        fake.absent.update({FRIENDS, MALLORYS})
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, MALLORY):
                await start_bot(fake, user)
            challenge_id, inline_id, message = await posted(fake, ANN, FRIENDS)
            _, her_id, _ = await posted(fake, MALLORY, MALLORYS)
            for data in (f"w:{challenge_id}", f"j:{challenge_id}"):
                answer = await fake.wait_answer(fake.press_inline(MALLORY, her_id, data))
                assert answer.get("text") == tr("toast-bad-button"), (data, answer)
            found = await app.services.challenges.challenge(challenge_id)
            assert found is not None and found.inline_message_id == inline_id
            # Bob's accept on Anna's message: her message is the table, Mallory's is untouched.
            assert not (await fake.wait_answer(fake.press_inline(BOB, inline_id, join_of(message)))).get("text")
            await app.settled()
            match_id = await app.services.records.user_matches(ANN.id)
            record, _ = await app.services.records.get(match_id[0])
            assert record.inline_message_id == inline_id
            assert len(fake.inline_messages[her_id].history) == 1
            assert sent_to_made_up_chats(fake) == []

    async def test_unbound_until_the_accepting_press(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        """Inline feedback off: the bot hears of Anna's message only from a press on it. Mallory's forged withdraw
        from her own message is refused and binds nothing; Bartek, who has not started the bot, is sent to it;
        his deep link is refused (press accept on the message); his press on the message accepts, and that
        message is the table."""
        fake.absent.update({FRIENDS, MALLORYS})
        fake.inline_feedback = False
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (ANN, MALLORY):
                await start_bot(fake, user)
            challenge_id, inline_id, message = await posted(fake, ANN, FRIENDS, feedback=False)
            _, her_id, _ = await posted(fake, MALLORY, MALLORYS, feedback=False)
            answer = await fake.wait_answer(fake.press_inline(MALLORY, her_id, f"w:{challenge_id}"))
            assert answer.get("text") == tr("toast-only-creator")
            found = await app.services.challenges.challenge(challenge_id)
            assert found is not None and found.inline_message_id is None
            answer = await fake.wait_answer(fake.press_inline(BOB, inline_id, join_of(message)))
            assert f"start=j_{challenge_id}" in str(answer.get("url"))
            reply = await ask(fake, BOB, BOB.id, f"/start j_{challenge_id}")
            assert reply.text == tr("inline-press-accept")
            assert await app.services.records.user_matches(BOB.id) == []
            assert not (await fake.wait_answer(fake.press_inline(BOB, inline_id, join_of(message)))).get("text")
            await app.settled()
            [match_id] = await app.services.records.user_matches(BOB.id)
            record, _ = await app.services.records.get(match_id)
            assert record.inline_message_id == inline_id
            assert sent_to_made_up_chats(fake) == []


class TestM3NoTable:
    """M3: no match without a table, and nothing is ever sent to an inline challenge's made-up chat id."""

    async def test_unposted_results_make_no_matches(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Every result of an inline query is a challenge whose id its creator's client gets: a second account's
        deep links to them open nothing."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            for user in (MALLORY, CYRIL):
                await start_bot(fake, user)
            ids = []
            for words in ("", "42", "бинго"):
                ids += [str(r["id"]) for r in (await fake.wait_inline(fake.inline_query(MALLORY, words)))["results"]]
            for challenge_id in ids:
                reply = await ask(fake, CYRIL, CYRIL.id, f"/start j_{challenge_id}")
                assert reply.text == tr("inline-press-accept")
            await app.settled()
            assert await app.services.records.user_matches(CYRIL.id) == []
            assert sent_to_made_up_chats(fake) == []

    async def test_a_match_without_a_table(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A match of an inline challenge whose message nobody knows (as one accepted before this fix could be):
        it has no group, its players play it in private to its end, and nothing goes to its made-up chat."""
        async with running_bot(fake, prefix) as app:
            for user in (ANN, BOB):
                await start_bot(fake, user)
            services = app.services
            opened = await services.challenges.open(
                INLINE_CHATS - 77, Player(id=ANN.id, name=ANN.first_name), "bingo", "ru"
            )
            raw = await services.stores.challenges.read(opened.id)
            assert raw is not None
            record = await services.challenges._accept_as_read(raw, Player(id=BOB.id, name=BOB.first_name), None, None)
            assert record is not None and record.inline_message_id is None
            app.presenter.start_match(record)
            await app.settled()
            assert panel_of(fake, ANN) and panel_of(fake, BOB)
            result = await services.moves.surrender(record.id, ANN.id)
            app.presenter.show(result)
            await app.settled()
            assert await services.stores.matches.screens_due() == []
            assert sent_to_made_up_chats(fake) == []
            with pytest.raises(ValueError, match="not a Telegram chat"):  # bot.outbox.NotAChat
                await app.outbox.send(record.chat_id, "x")
            assert sent_to_made_up_chats(fake) == []


# -- the Mini App's server (M4, L1-L4) ------------------------------------------------------------------------------

APP_URL = "https://tables.example/app"


def member_calls(fake: FakeTelegram) -> int:
    return sum(1 for c in fake.calls if c.method == "getChatMember")


class AppScene:
    """A match of Ann and Bob in the group, its Mini App served; requests as anyone (``get``, ``post``)."""

    def __init__(self, fake: FakeTelegram, app: Any, base: str, match_id: str, http: aiohttp.ClientSession) -> None:
        self.fake, self.app, self.base, self.match_id, self.http = fake, app, base, match_id, http

    def auth(self, user: FakeUser, **kwargs: Any) -> dict[str, str]:
        return {"Authorization": f"tma {init_data(user, **kwargs)}"}

    async def get(self, user: FakeUser | None, path: str = "/app/api/state", **kwargs: Any) -> tuple[int, Any, Any]:
        headers = self.auth(user, **kwargs) if user is not None else {}
        async with self.http.get(f"{self.base}{path}?m={self.match_id}", headers=headers) as response:
            body = await response.json() if response.content_type == "application/json" else await response.read()
            return response.status, body, response.headers


@contextlib.asynccontextmanager
async def app_scene(fake: FakeTelegram, prefix: str, **settings: Any) -> AsyncIterator[AppScene]:
    async with (
        running_bot(fake, prefix, webapp_url=APP_URL, webapp_short_name="table", **settings) as app,
        app_server(app) as base,
        aiohttp.ClientSession() as http,
    ):
        for user in (ANN, BOB, CYRIL):
            await start_bot(fake, user)
        match_id = await new_match(fake, ANN, BOB, GROUP)
        yield AppScene(fake, app, base, match_id, http)


class TestM4Doors:
    """M4: a stranger's requests cost Telegram one question a minute per chat and person, each person has a budget,
    and Telegram busy is a JSON 503 with Retry-After."""

    async def test_membership_is_asked_once_a_minute(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        fake.outsiders[GROUP] = {MALLORY.id}
        async with app_scene(fake, prefix) as s:
            before = member_calls(fake)
            for _ in range(15):  # within the budget's burst
                assert (await s.get(CYRIL))[0] == 200
                assert (await s.get(MALLORY))[0] == 403
            assert member_calls(fake) - before == 2

    async def test_a_budget_per_person(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        async with app_scene(fake, prefix) as s:
            statuses = [(await s.get(ANN))[0] for _ in range(40)]
            assert statuses[:20] == [200] * 20 and 429 in statuses
            _, body, headers = next(r for r in [await s.get(ANN)] if r[0] == 429)
            assert body["error"] == s.app.presenter.i18n["ru"]("webapp-slow-down") and int(headers["Retry-After"]) >= 1
            assert (await s.get(BOB))[0] == 200, "another person's budget is their own"

    async def test_telegram_busy_is_a_503(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        async with app_scene(fake, prefix) as s:
            fake.method_429["getChatMember"] = 3
            status, body, headers = await s.get(CYRIL)
            assert status == 503 and headers["Retry-After"] and "error" in body


class TestL1Bodies:
    """L1: the sign-in comes before the body, of 8 KiB at most; bad JSON of any kind is a 400, never a traceback."""

    async def test_bad_bodies(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, caplog: pytest.LogCaptureFixture
    ) -> None:
        async with app_scene(fake, prefix) as s:
            bodies = {
                "nested": b"[" * 100_000,
                "digits": b'{"v": ' + b"9" * 5000 + b"}",
                "large": b'{"m": "' + b"x" * 1_500_000 + b'"}',
                "not json": b"\xff\xfe{",
                "a list": b"[1, 2]",
            }
            for name, body in bodies.items():
                async with s.http.post(f"{s.base}/app/api/act", data=body) as response:
                    assert response.status == 401, name  # nobody signed in: nothing read
                for content_type in ("application/json", "application/json; charset=x-nope"):
                    headers = {**s.auth(ANN), "Content-Type": content_type}
                    async with s.http.post(f"{s.base}/app/api/act", data=body, headers=headers) as response:
                        assert response.status in (400, 413), (name, content_type, response.status)
                        if response.status == 400:
                            assert "error" in await response.json()
            assert not [r for r in caplog.records if r.levelname == "ERROR"], [r.getMessage() for r in caplog.records]


class TestL2L3Streams:
    """L2: a stream that went away frees its slot at once. L3: a stream re-checks its viewer while it lives."""

    async def test_a_dropped_stream_frees_its_slot(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        async with app_scene(fake, prefix) as s:
            tables = s.app.tables
            sessions = [aiohttp.ClientSession() for _ in range(9)]
            responses = []
            try:
                for http in sessions:
                    response = await http.get(f"{s.base}/app/api/live?m={s.match_id}", headers=s.auth(ANN))
                    responses.append(response)
                assert [r.status for r in responses] == [200] * 8 + [429]
            finally:
                for http in sessions:
                    await http.close()
            await s.fake.wait_for(lambda: tables.streams() == 0, what="the slots of the streams closed")
            status, _, _ = await s.get(ANN, "/app/api/state")
            assert status == 200

    async def test_a_stream_ends_when_its_viewer_leaves(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None
    ) -> None:
        clock = SimClock()
        async with clock.ticking(step=0.01, every=0.005), app_scene(fake, prefix, clock=clock) as s:
            headers = s.auth(CYRIL, auth_date=clock.time())
            async with s.http.get(f"{s.base}/app/api/live?m={s.match_id}", headers=headers) as response:
                assert response.status == 200
                first = await response.content.readuntil(b"\n\n")
                assert first.startswith(b"event: state")
                fake.outsiders[GROUP] = {CYRIL.id}
                clock.advance(120)  # past the stream's look and the membership kept
                seen = b""
                while b"event: gone" not in seen:
                    chunk = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 30)
                    assert chunk, "the stream ended without saying why"
                    seen += chunk
                assert s.app.presenter.i18n["ru"]("webapp-not-yours").encode() in seen


class TestL4Headers:
    """L4: the page and its files carry a CSP that lets Telegram's web clients frame it, nosniff and no referrer;
    no response says the server's version."""

    async def test_headers(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        async with app_scene(fake, prefix) as s:
            for path in ("/app", "/app/static/app.js", "/app/api/state"):
                async with s.http.get(f"{s.base}{path}", headers=s.auth(ANN)) as response:
                    headers = response.headers
                    assert "frame-ancestors https://web.telegram.org" in headers["Content-Security-Policy"], path
                    assert headers["X-Content-Type-Options"] == "nosniff"
                    assert headers["Referrer-Policy"] == "no-referrer"
                    assert "X-Frame-Options" not in headers
                    assert "aiohttp" not in headers.get("Server", "") and "Python" not in headers.get("Server", "")


# -- inline queries (L5) ------------------------------------------------------------------------------------------


class TestL5InlineFlood:
    async def test_a_hundred_queries(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A hundred queries from one person in a second (a keystroke each): the same challenges offered again, the
        open ones capped, the keys bounded."""
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, MALLORY)
            queries = [fake.inline_query(MALLORY, ["", "42", "бинго", "классика", "domino"][i % 5]) for i in range(100)]
            answers = [await fake.wait_inline(q) for q in queries]
            ids = {str(r["id"]) for a in answers for r in a["results"]}
            assert 1 <= len(ids) <= 10
            assert (
                len({str(r["id"]) for r in answers[0]["results"]} & {str(r["id"]) for r in answers[5]["results"]}) == 2
            )
            open_now = await app.services.stores.challenges.open_inline(MALLORY.id, time.time())
            assert len(open_now) <= 10
            # Each update's mark (``upd:``, a few minutes) aside: the keys of the challenges offered, bounded.
            keys = [k async for k in app.redis.scan_iter(match=f"{prefix}*") if b":upd:" not in k]
            assert len(keys) < 40, sorted(keys)


# -- the proxy (L6) and who watches an inline match (L7) -----------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def test_l6_the_proxy_has_the_limits() -> None:
    """L6: aiohttp has no header or body timeout: the proxy in front is required, and has them."""
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    for directive in ("client_header_timeout", "client_body_timeout", "limit_req ", "limit_conn ", "server_tokens off",
                      "server worker:8080 resolve", "client_max_body_size 8k"):  # fmt: skip
        assert directive in conf, directive
    assert "The proxy is required" in (ROOT / "docs" / "operations.md").read_text()


class TestL7InlineWatchers:
    async def test_only_its_players(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """L7: an inline match's table in the Mini App and its replay are its players' only; the match's id, in a
        link or a forward, opens nothing to a stranger."""
        fake.absent.add(FRIENDS)
        async with (
            running_bot(fake, prefix, webapp_url=APP_URL, webapp_short_name="table") as app,
            app_server(app) as base,
            aiohttp.ClientSession() as http,
        ):
            tr = app.presenter.i18n["ru"]
            for user in (ANN, BOB, MALLORY):
                await start_bot(fake, user)
            _, inline_id, message = await posted(fake, ANN, FRIENDS)
            assert not (await fake.wait_answer(fake.press_inline(BOB, inline_id, join_of(message)))).get("text")
            await app.settled()
            [match_id] = await app.services.records.user_matches(BOB.id)
            for user, wanted in ((ANN, 200), (BOB, 200), (MALLORY, 403)):
                headers = {"Authorization": f"tma {init_data(user)}"}
                async with http.get(f"{base}/app/api/state?m={match_id}", headers=headers) as response:
                    assert response.status == wanted, user.first_name
            result = await app.services.moves.surrender(match_id, ANN.id)
            app.presenter.show(result)
            await app.settled()
            reply = await ask(fake, MALLORY, MALLORY.id, f"/start r_{match_id}")
            assert reply.text == tr("replay-not-member")
            reply = await ask(fake, BOB, BOB.id, f"/start r_{match_id}")
            assert reply.text == tr("replay-empty"), "a player may (this match has no move to replay)"
