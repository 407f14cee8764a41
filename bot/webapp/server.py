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
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from aiogram.types import User
from aiogram.utils.web_app import WebAppInitData
from aiohttp import web

from bot.i18n import I18n, Translator
from bot.models import MatchRecord, Rejection, pick_lang
from bot.presenter import Presenter
from bot.routers.common import person, rejection_text
from bot.services import Services
from bot.services.errors import Rejected
from bot.services.rematches import Step
from bot.webapp.auth import init_data_of, signed_in, user_of
from bot.webapp.live import Hub
from bot.webapp.state import viewer_state
from engine import Match

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
HEARTBEAT = 15.0
"""Seconds of silence after which a live stream sends a comment line (proxies close idle connections)."""
STREAMS_PER_USER = 8
"""Live streams one person may hold open in one process (a phone, a desktop, a tab or two more, a table each)."""
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

    async def start(self) -> None:
        self.hub.start()

    async def close(self) -> None:
        await self.hub.close()

    # -- who asks, about what -----------------------------------------------------------

    def _hinted_tr(self, request: web.Request) -> Translator:
        """The language of a refusal before anyone is signed in: the page's hint (Telegram's language code)."""
        return self.i18n[pick_lang(request.query.get("hl"))]

    def _signed(self, request: web.Request) -> WebAppInitData:
        data = signed_in(self.token, init_data_of(request.headers.get("Authorization")), self.clock())
        if data is None:
            raise Refused(401, self._hinted_tr(request)("webapp-unauthorized"))
        return data

    async def _viewer(self, request: web.Request, match_id: str | None = None) -> Viewer:
        data = self._signed(request)
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
        if seat is None and not await self.services.authority.belongs(record.chat_id, user.id):
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
        viewer = await self._viewer(request)
        user_id = viewer.user.id
        if self._streams[user_id] >= STREAMS_PER_USER:
            raise Refused(429, viewer.tr("webapp-too-many"))
        self._streams[user_id] += 1
        try:
            return await self._stream(request, viewer)
        finally:
            self._streams[user_id] -= 1
            if not self._streams[user_id]:
                del self._streams[user_id]

    async def _stream(self, request: web.Request, viewer: Viewer) -> web.StreamResponse:
        """The viewer's state now, then after every change of the match, until the page goes away."""
        response = web.StreamResponse(
            headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)
        with self.hub.watch(viewer.record.id) as changed:
            try:
                while True:
                    try:
                        await asyncio.wait_for(changed.wait(), HEARTBEAT)
                    except TimeoutError:
                        await response.write(b": keep-alive\n\n")
                        continue
                    changed.clear()
                    try:
                        body = json.dumps(await self.state(viewer), ensure_ascii=False)
                    except Rejected:  # the match is gone (expired)
                        break
                    await response.write(f"event: state\ndata: {body}\n\n".encode())
            except (ConnectionResetError, ConnectionError):
                pass
        return response

    async def act(self, request: web.Request) -> web.Response:
        body = await _body(request)
        viewer = await self._viewer(request, str(body.get("m") or ""))
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
            _, match = await self.services.records.peek(record.id)
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
        body = await _body(request)
        viewer = await self._viewer(request, str(body.get("m") or ""))
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


def _json(data: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(
        data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False), headers={"Cache-Control": "no-store"}
    )


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = None
    return body if isinstance(body, dict) else {}


@web.middleware
async def _refusals(request: web.Request, handler: Any) -> web.StreamResponse:
    """A refusal as JSON ``{"error": text}`` with its status."""
    try:
        return await handler(request)  # type: ignore[no-any-return]
    except Refused as refused:
        return _json({"error": refused.text, **refused.extra}, status=refused.status)


def add_routes(app: web.Application, tables: Tables) -> None:
    """The Mini App's routes on ``app`` (the webhook's server or its own); ``tables`` starts and stops with it."""
    app.middlewares.append(_refusals)
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
