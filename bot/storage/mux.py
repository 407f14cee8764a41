"""Many commands at once on one connection to Redis: the client of the bot's hot path.

redis-py takes a connection from its pool for each command and gives it back
after the reply: on this machine about 140 µs of CPU a command, more than the
rest of a move's own work. Redis answers the commands of a connection in the
order they came, so one connection can carry every command of the process at
once: each is written as it comes (those of one turn of the event loop in one
write) and its reply, parsed by hiredis, settles the oldest waiting future.
About 25 µs a command, and no pool to wait for.

``MuxRedis`` is redis-py's ``Redis`` (its commands, scripts, response
callbacks and typed errors) whose single commands go this way; pipelines and
transactions keep redis-py's pool. Its connection follows the pool's settings
(``redis://`` and ``unix://`` URLs, password, user, database, client name);
a TLS URL keeps redis-py's connections for everything. As with redis-py, a
command whose connection is lost or that times out (``socket_timeout``: the
connection is then dropped with every command on it) is sent again on a new
connection, with backoff, up to the pool's retries; then the error reaches the
caller.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections import deque
from typing import Any

import hiredis
from redis._parsers.base import BaseParser
from redis.asyncio import Redis
from redis.asyncio.connection import SSLConnection, UnixDomainSocketConnection
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.client import EMPTY_RESPONSE, NEVER_DECODE
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import DataError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.utils import DEFAULT_RESP_VERSION

BLOCKING = frozenset(
    {"BLPOP", "BRPOP", "BRPOPLPUSH", "BLMOVE", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP", "XREAD", "XREADGROUP",
     "WAIT", "WAITAOF", "MONITOR", "SUBSCRIBE", "PSUBSCRIBE", "SSUBSCRIBE"}
)  # fmt: skip
"""Commands that may hold a connection (they keep redis-py's pool: one of them would stall every other)."""
WATCH_EVERY = 0.5
"""Seconds between two looks at whether the oldest command waits longer than the timeout."""


def _encode(value: Any) -> bytes:
    """An argument as redis-py's encoder makes it (a float by its ``repr``, as Redis reads it back)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, bool):
        raise DataError(f"Invalid input of type: 'bool'. Convert to a bytes, string, int or float first: {value!r}")
    if isinstance(value, int):
        return b"%d" % value
    if isinstance(value, float):
        return repr(value).encode()
    if isinstance(value, memoryview):
        return value.tobytes()
    raise DataError(f"Invalid input of type: {type(value).__name__!r}. Convert to a bytes, string, int or float first.")


class _Protocol(asyncio.Protocol):
    """One connection: commands are written in order, replies settle their futures in the same order."""

    def __init__(self, loop: asyncio.AbstractEventLoop, timeout: float | None) -> None:
        self.loop = loop
        self.timeout = timeout
        self.reader = hiredis.Reader(protocolError=RedisConnectionError, replyError=BaseParser.parse_error)
        self.waiting: deque[tuple[asyncio.Future[Any], float]] = deque()
        self.transport: asyncio.Transport | None = None
        self.lost: BaseException | None = None
        self._out: list[bytes] = []
        self._watch: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def send(self, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        """Write a command (with the others of this turn of the loop); its reply settles the future."""
        if self.lost is not None or self.transport is None or self.transport.is_closing():
            raise RedisConnectionError("Connection closed by server.")
        future: asyncio.Future[Any] = self.loop.create_future()
        if not self._out:
            self.loop.call_soon(self._flush)
        command = args[0]
        if isinstance(command, str) and " " in command:  # "SCRIPT LOAD": two words, as redis-py sends them
            args = (*command.split(), *args[1:])
        try:  # hiredis writes str, int, bytes and floats (by their repr) as redis-py's encoder does
            packed = hiredis.pack_command(args)
        except TypeError:  # anything else as redis-py's encoder takes it (or refuses it, a bool say)
            packed = hiredis.pack_command(tuple(_encode(a) for a in args))  # type: ignore[arg-type]
        self._out.append(packed)
        self.waiting.append((future, time.monotonic()))
        if self._watch is None and self.timeout:
            self._watch = self.loop.call_later(WATCH_EVERY, self._look)
        return future

    def _flush(self) -> None:
        if self._out and self.transport is not None and not self.transport.is_closing():
            self.transport.write(b"".join(self._out))
        self._out.clear()

    def _look(self) -> None:
        """Drop the connection when its oldest command has waited longer than the timeout (Redis hangs, or the
        network does): every command on it fails with a timeout, and is sent again on a new connection."""
        self._watch = None
        if not self.waiting or self.timeout is None:
            return
        if time.monotonic() - self.waiting[0][1] > self.timeout:
            self.abort(RedisTimeoutError("Timeout reading from Redis"))
        else:
            self._watch = self.loop.call_later(WATCH_EVERY, self._look)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while True:
            try:
                reply = self.reader.gets()
            except RedisConnectionError as exc:  # garbage from the server: nothing further can be trusted
                self.abort(exc)
                return
            if reply is False:
                return
            if not self.waiting:
                self.abort(RedisConnectionError("a reply that no command waits for"))
                return
            future, _ = self.waiting.popleft()
            if not future.done():
                if isinstance(reply, Exception):
                    future.set_exception(reply)
                else:
                    future.set_result(reply)

    def abort(self, error: BaseException) -> None:
        self._fail(error)
        if self.transport is not None:
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(RedisConnectionError(f"Connection to Redis lost: {exc}" if exc else "Connection closed by server."))

    def _fail(self, error: BaseException) -> None:
        if self.lost is None:
            self.lost = error
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._out.clear()
        while self.waiting:
            future, _ = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)


class Multiplexer:
    """The one connection of a client, opened on first use and again after it is lost."""

    def __init__(self, kwargs: dict[str, Any], *, unix: bool, retry: Retry) -> None:
        self.kwargs = kwargs
        """The pool's connection settings (read at each connect: a test may set ``client_name`` later)."""
        self.unix = unix
        self.retry = retry
        self._protocol: _Protocol | None = None
        self._connecting: asyncio.Future[_Protocol] | None = None

    async def execute(self, args: tuple[Any, ...]) -> Any:
        """Send a command and wait for its reply; lost connections and timeouts are retried."""
        return await self.retry.call_with_retry(lambda: self._once(args), self._failed)

    async def _once(self, args: tuple[Any, ...]) -> Any:
        protocol = self._protocol
        if protocol is None or protocol.lost is not None:
            protocol = await self._connect()
        return await protocol.send(args)

    async def _failed(self, error: Exception) -> None:
        protocol = self._protocol
        if protocol is not None and protocol.lost is not None:
            self._protocol = None

    async def _connect(self) -> _Protocol:
        """The connection, once open and ready (one connect at a time; the others wait for it)."""
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._open())
        connecting = self._connecting
        try:
            return await asyncio.shield(connecting)
        finally:
            if connecting.done() and self._connecting is connecting:
                self._connecting = None

    async def _open(self) -> _Protocol:
        loop = asyncio.get_running_loop()
        k = self.kwargs
        timeout = k.get("socket_timeout")
        connect_timeout = k.get("socket_connect_timeout") or timeout
        try:
            if self.unix:
                opening = loop.create_unix_connection(lambda: _Protocol(loop, timeout), k["path"])
            else:
                opening = loop.create_connection(
                    lambda: _Protocol(loop, timeout), k.get("host", "localhost"), k.get("port", 6379)
                )
            _, protocol = await asyncio.wait_for(opening, connect_timeout)
        except TimeoutError:
            raise RedisTimeoutError("Timeout connecting to server") from None
        except OSError as exc:
            raise RedisConnectionError(f"Error connecting to Redis: {exc}") from exc
        try:
            # The protocol redis-py's own connections speak (RESP3 unless set): its response callbacks expect
            # the replies' shapes of that protocol.
            resp = int(k.get("protocol") or DEFAULT_RESP_VERSION)
            password, user, name = k.get("password"), k.get("username"), k.get("client_name")
            if resp == 3:
                hello: tuple[Any, ...] = ("HELLO", 3)
                if password:
                    hello += ("AUTH", user or "default", password)
                if name:
                    hello += ("SETNAME", name)
                await protocol.send(hello)
            else:
                if password:
                    await protocol.send(("AUTH", user, password) if user else ("AUTH", password))
                if name:
                    await protocol.send(("CLIENT", "SETNAME", name))
            if k.get("db"):
                await protocol.send(("SELECT", k["db"]))
        except BaseException:
            protocol.abort(RedisConnectionError("the connection's set-up failed"))
            raise
        self._protocol = protocol
        return protocol

    def close(self) -> None:
        if self._protocol is not None:
            self._protocol.abort(RedisConnectionError("Connection closed by the client."))
            self._protocol = None


class MuxRedis(Redis):
    """redis-py's client whose single commands share one connection (see the module's text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        pool = self.connection_pool
        kw = pool.connection_kwargs
        retry = kw.get("retry") or Retry(NoBackoff(), 0)
        self._mux: Multiplexer | None = None
        if not issubclass(pool.connection_class, SSLConnection):
            self._mux = Multiplexer(kw, unix=issubclass(pool.connection_class, UnixDomainSocketConnection), retry=retry)

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        if self._mux is None or str(args[0]).upper() in BLOCKING:
            return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        command_name = args[0]
        try:
            response = await self._mux.execute(args)
        except ResponseError:
            if EMPTY_RESPONSE in options:
                return options[EMPTY_RESPONSE]
            raise
        options.pop(EMPTY_RESPONSE, None)
        options.pop(NEVER_DECODE, None)
        options.pop("keys", None)
        callback = self.response_callbacks.get(command_name)
        if callback is None:
            return response
        value = callback(response, **options)
        return await value if inspect.isawaitable(value) else value

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        if self._mux is not None:
            self._mux.close()
        await super().aclose(close_connection_pool)
