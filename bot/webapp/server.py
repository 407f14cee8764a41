"""The Mini App's routes: the page, its state, its live stream and its taps, on aiohttp.

- ``GET /app``: the page (``static/``: HTML, CSS and plain JavaScript, no build step).
- ``GET /app/api/state?m=<match>``: the match as the viewer sees it (``bot.webapp.state``).
- ``GET /app/api/live?m=<match>``: the same, pushed as Server-Sent Events after every change (read with
  ``fetch``: an ``EventSource`` cannot send the ``Authorization`` header), the first at once.
- ``POST /app/api/act`` (``{"m", "v", "a", "id"}``): a tap, through the move service as a button press is
  (the version, the legality, the same refusals; ``id`` makes a repeated request count once); the group's
  table and the panels follow as after a press.
- ``POST /app/api/rematch`` (``{"m"}``): the 🔁, as the button.

Every ``/app/api`` request carries ``Authorization: tma <initData>``: no valid launch data, 401 and nothing of
the match (``bot.webapp.auth``). A player sees their hand; a member of the match's chat the table alone; anyone
else, 403. The match is the request's ``m``, else the launch data's ``start_param`` (``m_<match>``: a direct
link's ``startapp``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import secrets
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from aiogram.exceptions import TelegramNetworkError, TelegramRetryAfter, TelegramServerError
from aiogram.types import User
from aiogram.utils.web_app import WebAppInitData
from aiohttp import web
from redis.exceptions import RedisError

from bot.i18n import I18n, Translator
from bot.models import MatchRecord, Rejection, pick_lang
from bot.presenter import Presenter
from bot.routers.common import person, rejection_text
from bot.services import Services
from bot.services.errors import Rejected
from bot.services.rematches import Step
from bot.storage.base import StorageUnavailable
from bot.webapp.auth import MAX_AGE, init_data_of, signed_in, user_of
from bot.webapp.live import Hub
from bot.webapp.state import viewer_state
from engine import Match

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
HEARTBEAT = 15.0
"""Seconds of silence after which a live stream sends a comment line (proxies close idle connections)."""
STREAMS_PER_USER = 8
"""Live streams one person may hold open in one process (a phone, a desktop, a tab or two more, a table each)."""
STREAMS = 1000
"""Live streams one process holds at most, whoever asks (past it: 503, try again later)."""
RECHECK = 60.0
"""Seconds between a live stream's looks at whether its viewer may still see the match (the launch data's age;
for one who does not play, whether they are still in its chat: Telegram's answer is kept as long)."""
WATCH = 1.0
"""Seconds between a live stream's looks at its connection: a page that went away frees its slot within this."""
BODY_LIMIT = 8192
"""Bytes a tap's or a rematch's body may have (a few dozen are used); read only after the sign-in."""
BUDGET_RATE, BUDGET_BURST = 5.0, 20.0
"""Each person's API requests: ``BUDGET_BURST`` at once, then ``BUDGET_RATE`` a second (past it: 429)."""
BUDGETS_KEPT = 50_000
RETRY_AFTER = 5
"""Seconds a 503 (Telegram or Redis busy, the process full of streams) asks the page to wait."""
CSP = (
    "default-src 'none'; script-src 'self' https://telegram.org; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors https://web.telegram.org https://*.telegram.org"
)
"""The page's Content-Security-Policy: its own files and Telegram's script only; framed only by Telegram's web
clients (the apps open it in a view of their own, where ``frame-ancestors`` does not apply). No
``X-Frame-Options``: it would keep web.telegram.org from showing it."""
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
MATCH_ID_CHARS = frozenset("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-")


class Refused(Exception):
    """An API request answered with ``status`` and a text in the viewer's language (``key``)."""

    def __init__(self, status: int, text: str, **extra: Any) -> None:
        super().__init__(text)
        self.status = status
        self.text = text
        self.extra = extra


class Viewer:
    """A signed-in person looking at one match."""

    def __init__(self, user: User, record: MatchRecord, seat: int | None, tr: Translator) -> None:
        self.user = user
        self.record = record
        self.seat = seat
        self.tr = tr


class Tables:
    """The Mini App of one bot process."""

    def __init__(
        self, services: Services, presenter: Presenter, i18n: I18n, *, token: str, clock: Callable[[], float]
    ) -> None:
        self.services = services
        self.presenter = presenter
        self.i18n = i18n
        self.token = token
        self.clock = clock
        self.hub = Hub(services.stores.live)
        self._streams: Counter[int] = Counter()
        """Open live streams by person."""
        self._budgets: OrderedDict[int, tuple[float, float]] = OrderedDict()
        """Each person's request budget: tokens left and when counted (``BUDGET_RATE``)."""

    async def start(self) -> None:
        self.hub.start()

    async def close(self) -> None:
        await self.hub.close()

    # -- who asks, about what -----------------------------------------------------------

    def _hinted_tr(self, request: web.Request) -> Translator:
        """The language of a refusal before anyone is signed in: the page's hint (Telegram's language code)."""
        return self.i18n[pick_lang(request.query.get("hl"))]

    def _signed(self, request: web.Request) -> WebAppInitData:
        """The signed launch data of the request, its person within their budget (else 401, or 429)."""
        data = signed_in(self.token, init_data_of(request.headers.get("Authorization")), self.clock())
        if data is None:
            raise Refused(401, self._hinted_tr(request)("webapp-unauthorized"))
        assert data.user is not None
        self._spend(data.user.id, request)
        return data

    def _spend(self, user_id: int, request: web.Request) -> None:
        """One request of the person's budget (``BUDGET_BURST`` at once, ``BUDGET_RATE`` a second after)."""
        now = time.monotonic()
        tokens, at = self._budgets.pop(user_id, (BUDGET_BURST, now))
        tokens = min(BUDGET_BURST, tokens + (now - at) * BUDGET_RATE)
        if tokens < 1:
            self._budgets[user_id] = (tokens, now)
            wait = max(1, math.ceil((1 - tokens) / BUDGET_RATE))
            raise Refused(429, self._hinted_tr(request)("webapp-slow-down"), headers={"Retry-After": str(wait)})
        self._budgets[user_id] = (tokens - 1, now)
        while len(self._budgets) > BUDGETS_KEPT:
            self._budgets.popitem(last=False)

    async def _viewer(
        self, request: web.Request, match_id: str | None = None, *, data: WebAppInitData | None = None
    ) -> Viewer:
        data = data or self._signed(request)
        user = user_of(data)
        # As the private panels: the person's /lang, else Telegram's language when it is ours, else the match's.
        own = await self.services.chats.own_lang(user.id, user.language_code)
        match_id = match_id or request.query.get("m") or _start_match(data.start_param)
        if not match_id or len(match_id) > 64 or not set(match_id) <= MATCH_ID_CHARS:
            raise Refused(404, self.i18n[own or pick_lang(None)]("webapp-no-match"))
        try:
            record, _ = await self.services.records.peek(match_id)
        except Rejected:
            raise Refused(404, self.i18n[own or pick_lang(None)]("webapp-no-match")) from None
        seat = record.seat_of(user.id)
        tr = self.i18n[own or record.lang]
        if seat is None and not await self.services.authority.may_watch(record, user.id):
            raise Refused(403, tr("webapp-not-yours"))
        return Viewer(user, record, seat, tr)

    async def state(self, viewer: Viewer) -> dict[str, Any]:
        """The match as stored now, as ``viewer`` sees it."""
        record, match, messages = await self.services.records.screens(viewer.record.id)
        viewer.record = record
        next_match, may_rematch = None, False
        if not record.is_active and viewer.seat is not None:
            next_match = await self._next_match(record, viewer.user.id)
            may_rematch = next_match is None and self.services.rematches.offered(record)
        return viewer_state(
            viewer.tr, record, match, viewer.seat, summary=messages.summary, now=self.clock(),
            next_match=next_match, may_rematch=may_rematch,
        )  # fmt: skip

    async def _next_match(self, record: MatchRecord, user_id: int) -> str | None:
        """The match the player plays now in the finished match's chat against the same opponent (its rematch)."""
        found = await self.services.records.active_match(record.chat_id, user_id)
        if found is None or found == record.id:
            return None
        with contextlib.suppress(Rejected):
            other, _ = await self.services.records.peek(found)
            if {p.id for p in other.players} == {p.id for p in record.players}:
                return found
        return None

    # -- handlers ---------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def get_state(self, request: web.Request) -> web.Response:
        viewer = await self._viewer(request)
        return _json(await self.state(viewer))

    async def live(self, request: web.Request) -> web.StreamResponse:
        data = self._signed(request)
        viewer = await self._viewer(request, data=data)
        user_id = viewer.user.id
        if self._streams[user_id] >= STREAMS_PER_USER:
            raise Refused(429, viewer.tr("webapp-too-many"))
        if self.streams() >= STREAMS:
            raise Refused(503, viewer.tr("webapp-busy"), headers={"Retry-After": str(RETRY_AFTER)})
        self._streams[user_id] += 1
        try:
            return await self._stream(request, viewer, data.auth_date.timestamp())
        finally:
            self._streams[user_id] -= 1
            if not self._streams[user_id]:
                del self._streams[user_id]

    def streams(self) -> int:
        """The live streams this process holds now."""
        return sum(self._streams.values())

    async def _stream(self, request: web.Request, viewer: Viewer, signed: float) -> web.StreamResponse:
        """The viewer's state now, then after every change of the match, until the page goes away (looked at every
        ``WATCH`` seconds), the viewer may no longer see it (``event: gone``: looked at every ``RECHECK``) or Redis
        fails (the stream ends; the page connects again)."""
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)
        quiet = time.monotonic()
        checked = self.clock()  # the bot's clock: a test moves it past RECHECK
        with self.hub.watch(viewer.record.id) as changed:
            try:
                while request.transport is not None and not request.transport.is_closing():
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait(), WATCH)
                    now = time.monotonic()
                    if self.clock() - checked >= RECHECK:
                        checked = self.clock()
                        gone = await self._may_not_watch(viewer, signed)
                        if gone is not None:
                            gone_body = json.dumps({"error": gone}, ensure_ascii=False)
                            await response.write(f"event: gone\ndata: {gone_body}\n\n".encode())
                            break
                    if not changed.is_set():
                        if now - quiet >= HEARTBEAT:
                            quiet = now
                            await response.write(b": keep-alive\n\n")
                        continue
                    changed.clear()
                    quiet = now
                    try:
                        body = json.dumps(await self.state(viewer), ensure_ascii=False)
                    except Rejected:  # the match is gone (expired)
                        break
                    await response.write(f"event: state\ndata: {body}\n\n".encode())
            except (ConnectionResetError, ConnectionError):
                pass
            except (StorageUnavailable, RedisError) as exc:
                log.info("a live stream of match %s ended: storage unavailable (%s)", viewer.record.id, exc)
        return response

    async def _may_not_watch(self, viewer: Viewer, signed: float) -> str | None:
        """Why the viewer may no longer see the match (None: they may): launch data older than ``MAX_AGE``, or, for
        one who does not play, no longer in its chat."""
        if self.clock() - signed > MAX_AGE:
            return viewer.tr("webapp-unauthorized")
        if viewer.seat is None and not await self.services.authority.may_watch(viewer.record, viewer.user.id):
            return viewer.tr("webapp-not-yours")
        return None

    async def act(self, request: web.Request) -> web.Response:
        data = self._signed(request)  # before the body is read
        body = await _body(request)
        viewer = await self._viewer(request, str(body.get("m") or ""), data=data)
        tr, record = viewer.tr, viewer.record
        if viewer.seat is None:
            raise Refused(403, tr("toast-not-player"))
        action, version = body.get("a"), body.get("v")
        if not isinstance(action, str) or not isinstance(version, int) or len(action) > 4:
            raise Refused(400, tr("toast-bad-button"))
        request_id = f"w{str(body.get('id') or secrets.token_hex(6))[:24]}"
        ticket = self.presenter.ticket(record.id)
        try:
            result = await self.services.moves.submit(
                record.id, viewer.user.id, action, version=version, request_id=request_id
            )
        except Rejected as exc:
            try:
                _, match = await self.services.records.peek(record.id)
            except Rejected:
                raise Refused(404, tr("webapp-no-match")) from None
            text = (
                tr("toast-stale")
                if exc.reason is Rejection.STALE
                else rejection_text(tr, exc, _seat_view(match, viewer.seat))
            )
            return _json({"error": text, "state": await self._state_or_none(viewer)}, status=409)
        if not result.duplicate:
            self.presenter.show(result, ticket)
        return _json({"ok": True, "state": await self.state(viewer)})

    async def rematch(self, request: web.Request) -> web.Response:
        data = self._signed(request)  # before the body is read
        body = await _body(request)
        viewer = await self._viewer(request, str(body.get("m") or ""), data=data)
        tr = viewer.tr
        if viewer.seat is None:
            raise Refused(403, tr("toast-not-player"))
        services = self.services
        try:
            done = await services.rematches.press(viewer.record.id, await person(viewer.user, services.chats))
        except Rejected as exc:
            return _json({"error": rejection_text(tr, exc), "state": await self._state_or_none(viewer)}, status=409)
        if done.step is Step.ASKED:
            await self.presenter.rematch_asked(done.old, viewer.seat)
        elif done.step is Step.STARTED:
            assert done.record is not None
            await self.presenter.rematch_started(done.old, done.record)
        toast = {Step.ASKED: "toast-rematch-asked", Step.WAITING: "toast-rematch-waiting"}.get(done.step)
        return _json({
            "ok": True, "toast": tr(toast) if toast else None, "next": done.record.id if done.record else None,
            "state": await self.state(viewer),
        })  # fmt: skip

    async def _state_or_none(self, viewer: Viewer) -> dict[str, Any] | None:
        try:
            return await self.state(viewer)
        except Rejected:
            return None


def _seat_view(match: Match, seat: int | None) -> Any:
    return None if seat is None else match.deal.view(seat)


def _start_match(start_param: str | None) -> str | None:
    """The match of a direct link's ``startapp`` (``m_<match>``)."""
    if start_param and start_param.startswith("m_"):
        return start_param[2:]
    return None


def _json(data: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response(
        data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False),
        headers={"Cache-Control": "no-store", **(headers or {})},
    )  # fmt: skip


async def _body(request: web.Request) -> dict[str, Any]:
    """A tap's JSON object, at most ``BODY_LIMIT`` bytes, read as UTF-8 whatever the request says: anything else
    (too long, not JSON, nested a thousand deep, a number of ten thousand digits) is a 400."""
    if (request.content_length or 0) > BODY_LIMIT:
        raise Refused(400, "bad request")
    raw = await request.content.read(BODY_LIMIT + 1)
    if len(raw) > BODY_LIMIT:
        raise Refused(400, "bad request")
    try:
        body = json.loads(raw.decode("utf-8")) if raw else {}
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise Refused(400, "bad request") from None
    if not isinstance(body, dict):
        raise Refused(400, "bad request")
    return body


BUSY = (TelegramRetryAfter, TelegramNetworkError, TelegramServerError, StorageUnavailable, RedisError)
"""What makes the API answer 503 with ``Retry-After``: Telegram (asked who is in a chat) or Redis busy or away."""


def refusals(i18n: I18n) -> Any:
    """The API's middleware (``_refusals``), saying a 503 in the page's language hint."""

    @web.middleware
    async def middleware(request: web.Request, handler: Any) -> web.StreamResponse:
        return await _refusals(request, handler, i18n)

    return middleware


async def _refusals(request: web.Request, handler: Any, i18n: I18n) -> web.StreamResponse:
    """A refusal as JSON ``{"error": text}`` with its status; Telegram or Redis busy: 503 with ``Retry-After``; any
    other failure a JSON 500, logged once (never a traceback to the page). Only for the Mini App's API: the
    webhook's own routes on the same server are left as they are."""
    if not request.path.startswith("/app/api/"):
        return await handler(request)  # type: ignore[no-any-return]
    try:
        return await handler(request)  # type: ignore[no-any-return]
    except Refused as refused:
        headers = refused.extra.pop("headers", None)
        return _json({"error": refused.text, **refused.extra}, status=refused.status, headers=headers)
    except BUSY as exc:
        log.info("Mini App %s: busy (%s: %s)", request.path, type(exc).__name__, exc)
        tr = i18n[pick_lang(request.query.get("hl"))]
        return _json({"error": tr("webapp-busy")}, status=503, headers={"Retry-After": str(RETRY_AFTER)})
    except web.HTTPException:
        raise
    except Exception:
        log.exception("Mini App %s failed", request.path)
        return _json({"error": "internal error"}, status=500)


async def _secured(request: web.Request, response: web.StreamResponse) -> None:
    """Every response: no server version; the page and its files also its security headers."""
    response.headers["Server"] = "domino"
    if request.path == "/app" or request.path.startswith("/app/"):
        response.headers.update(SECURITY_HEADERS)


def add_routes(app: web.Application, tables: Tables) -> None:
    """The Mini App's routes on ``app`` (the webhook's server or its own); ``tables`` starts and stops with it."""
    app.middlewares.append(refusals(tables.i18n))
    app.on_response_prepare.append(_secured)
    app.router.add_get("/app", tables.page)
    app.router.add_get("/app/", tables.page)
    app.router.add_static("/app/static", STATIC, append_version=False)
    app.router.add_get("/app/api/state", tables.get_state)
    app.router.add_get("/app/api/live", tables.live)
    app.router.add_post("/app/api/act", tables.act)
    app.router.add_post("/app/api/rematch", tables.rematch)

    async def start(_: web.Application) -> None:
        await tables.start()

    async def stop(_: web.Application) -> None:
        await tables.close()

    app.on_startup.append(start)
    app.on_cleanup.append(stop)


@contextlib.asynccontextmanager
async def webapp_server(tables: Tables, host: str, port: int) -> AsyncIterator[web.AppRunner]:
    """The Mini App on its own port (long polling), until the block ends."""
    app = web.Application()
    add_routes(app, tables)
    runner = web.AppRunner(app, handle_signals=False, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        log.info("the Mini App is served on %s:%s", host, port)
        yield runner
    finally:
        await runner.cleanup()
