"""Telegram's budgets per chat: how many sends and edits a chat may get, and when the next one may go.

- A group gets at most ``group_budget`` sends plus edits in any
  ``group_window`` seconds (Telegram: about 20 a minute). Telegram counts a
  call when it arrives, somewhere between the moment the bot counted it and
  the moment the answer came back: a group's call is counted again when it
  ends (``done``), and the window is counted with a margin (2.5 %, at least
  a quarter of a second) for the rest. Edits leave ``edit_reserve`` of those
  for new messages and are paced evenly.
- A private chat gets at most one send or edit every ``private_gap`` seconds.

``LocalLimiter`` keeps the count in this process. ``SharedLimiter`` keeps
it in Redis (a sliding window per chat, taken in one script), so that any
number of processes share one budget per chat; when Redis does not answer it
counts in this process meanwhile, so the bot can still say that storage is
down.
"""

from __future__ import annotations

import enum
import logging
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from redis.exceptions import RedisError

from bot.storage.base import StorageUnavailable
from bot.storage.budgets import BudgetStore

log = logging.getLogger(__name__)

WINDOW_MARGIN = 0.025
MIN_MARGIN = 0.25
"""Seconds: the least margin of a group's window (on the tests' compressed clock 2.5 % is only 50 ms)."""
RETRY_REDIS_AFTER = 5.0
"""Seconds the shared limiter counts in the process after Redis failed, before it asks Redis again."""


@dataclass(frozen=True)
class Budget:
    group_budget: int = 20
    group_window: float = 60.0
    private_gap: float = 1.0
    edit_reserve: int = 4

    @property
    def window(self) -> float:
        """The group window as counted (a little over, see the module's text)."""
        return self.group_window + max(self.group_window * WINDOW_MARGIN, MIN_MARGIN)

    def limit(self, *, edit: bool) -> int:
        """How many calls of the window a send (or an edit) may find taken and still go."""
        reserve = min(self.edit_reserve, self.group_budget - 1) if edit else 0
        return self.group_budget - reserve

    @property
    def edit_gap(self) -> float:
        """Seconds between two edits in a group (paced evenly over the window)."""
        return self.window / self.group_budget


class Limiter(Protocol):
    async def take(self, chat_id: int, *, edit: bool) -> float:
        """0 when a call to the chat may go now (it is then counted), else the seconds to wait first."""
        ...

    async def done(self, chat_id: int) -> None:
        """The call counted by the chat's last ``take`` has ended; Telegram took it before now.

        A process makes one call at a time to a chat (the outbox's lanes), so the last one counted is this one.
        """
        ...


@dataclass
class _Chat:
    sent: deque[float] = field(default_factory=deque)
    last_any: float = -1e9
    last_edit: float = -1e9


class LocalLimiter:
    """The budgets, counted in this process."""

    def __init__(self, budget: Budget, clock: Callable[[], float]) -> None:
        self.budget = budget
        self.clock = clock
        self._chats: dict[int, _Chat] = {}

    async def take(self, chat_id: int, *, edit: bool) -> float:
        return self.take_now(chat_id, edit=edit)

    def take_now(self, chat_id: int, *, edit: bool) -> float:
        chat = self._chats.setdefault(chat_id, _Chat())
        now = self.clock()
        b = self.budget
        if chat_id < 0:
            while chat.sent and chat.sent[0] <= now - b.window:
                chat.sent.popleft()
            limit = b.limit(edit=edit)
            wait = 0.0
            if len(chat.sent) >= limit:
                wait = chat.sent[len(chat.sent) - limit] + b.window - now
            if edit:
                wait = max(wait, chat.last_edit + b.edit_gap - now)
        else:
            wait = chat.last_any + b.private_gap - now
        if wait > 0:
            return wait
        if chat_id < 0:
            chat.sent.append(now)
        chat.last_any = now
        if edit:
            chat.last_edit = now
        return 0.0

    async def done(self, chat_id: int) -> None:
        self.done_now(chat_id)

    def done_now(self, chat_id: int) -> None:
        chat = self._chats.get(chat_id)
        if chat_id < 0 and chat is not None and chat.sent:
            # The call may have waited in this process (or on the way) before it reached Telegram: counting
            # it from its end keeps the window whatever the delay.
            taken, now = chat.sent[-1], self.clock()
            if now > taken:
                chat.sent[-1] = chat.last_any = now
                if chat.last_edit == taken:
                    chat.last_edit = now


class SharedLimiter:
    """The budgets, counted in Redis for every process; in this process while Redis does not answer."""

    def __init__(self, store: BudgetStore, budget: Budget, clock: Callable[[], float]) -> None:
        self.store = store
        self.budget = budget
        self.clock = clock
        self._local = LocalLimiter(budget, clock)
        self._down = False
        self._try_at = 0.0
        self._counted: dict[int, tuple[str, bool]] = {}
        """Each group's last call this process counted in Redis (its member, whether an edit), until it ends."""

    async def take(self, chat_id: int, *, edit: bool) -> float:
        b = self.budget
        group = chat_id < 0
        window = b.window if group else b.private_gap
        now = self.clock()
        self._counted.pop(chat_id, None)
        if self._down and now < self._try_at:
            return self._local.take_now(chat_id, edit=edit)
        member = secrets.token_hex(6)
        try:
            wait_ms = await self.store.take(
                chat_id,
                now_ms=now * 1000,
                window_ms=window * 1000,
                limit=b.limit(edit=edit) if group else 1,
                edit_gap_ms=b.edit_gap * 1000 if edit and group else None,
                member=member,
            )
        except (RedisError, OSError) as exc:
            if not self._down:
                log.warning("rate limits: Redis does not answer (%s); counting in this process meanwhile", exc)
                self._down = True
            # Not every call waits for a Redis that is down: it is asked again in a while.
            self._try_at = now + RETRY_REDIS_AFTER
            return self._local.take_now(chat_id, edit=edit)
        if self._down:
            log.info("rate limits: Redis answers again; counting there")
            self._down = False
        if wait_ms <= 0 and group:
            self._counted[chat_id] = (member, edit)
        return max(0.0, float(wait_ms) / 1000)

    async def done(self, chat_id: int) -> None:
        # A group's call counts from its end, as in one process: a call slow on its way (a picture's upload, a
        # loaded machine) would otherwise reach Telegram in a later window than it was counted in, and the
        # window's margin be all there is for the delay. One round trip a group call: at most 20 a minute.
        counted = self._counted.pop(chat_id, None)
        if counted is None:  # a private chat, or a call counted in this process while Redis was down
            if self._down:
                self._local.done_now(chat_id)
            return
        member, edit = counted
        b = self.budget
        try:
            await self.store.finish(chat_id, now_ms=self.clock() * 1000, member=member, edit=edit,
                                    window_ms=b.window * 1000, edit_gap_ms=b.edit_gap * 1000)  # fmt: skip
        except (RedisError, OSError) as exc:
            # It stays counted from when it was taken: the window's margin covers the delay then.
            log.info("rate limits: a call's end not counted in Redis (%s)", exc)


class Flood(enum.Enum):
    """What becomes of one member's command in a group (``CommandFlood``)."""

    ANSWER = 0
    NOTICE = 1
    """The first one over the limit: no answer, a single short notice."""
    SILENT = 2


class CommandFlood:
    """One member's commands in a group: at most ``limit`` answered in any ``window`` seconds, counted in Redis
    (every process shares the count). When Redis does not answer, the command is answered: the handler then
    says what it can."""

    def __init__(self, store: BudgetStore, *, limit: int, window: float, clock: Callable[[], float]) -> None:
        self.store = store
        self.limit = limit
        self.window = window
        self.clock = clock

    async def take(self, chat_id: int, user_id: int) -> Flood:
        try:
            found = await self.store.take_command(
                chat_id, user_id, now_ms=self.clock() * 1000, window_ms=self.window * 1000, limit=self.limit,
                member=secrets.token_hex(8),
            )  # fmt: skip
        except (RedisError, StorageUnavailable):
            return Flood.ANSWER
        return Flood(found)
