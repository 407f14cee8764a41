"""A fake Telegram Bot API server (aiohttp) for end-to-end tests.

The real bot talks HTTP to it through aiogram's own aiohttp session. It keeps
chats and messages, hands out updates to ``getUpdates``, records every call
with its time, and behaves like Telegram where the bot must cope: 403 for a
private chat whose user never started the bot, 400 "can't parse entities"
for HTML that Telegram would refuse, 400 "message is not modified" for an
identical edit, 429 on demand.

Forums as Telegram has them: a supergroup made a forum (``make_forum``) says
``is_forum`` in its Chat objects and getChat, and has topics, each with the id
of the service message that created it (``forum_topic_created``). A message a
user writes in a topic carries ``message_thread_id``, ``is_topic_message`` and,
as its ``reply_to_message``, the topic's creation message (a reply in the
General topic carries the ``message_thread_id`` of its reply thread, but no
``is_topic_message``). A message sent with a ``message_thread_id`` that is no
open topic of the chat answers 400 "message thread not found", into a closed
topic (or, without one, into a closed General topic) 400 "TOPIC_CLOSED"; a
bot that is an admin of the chat may still write there (Telegram lets
admins with can_manage_topics post in closed topics). A reply without a
``message_thread_id`` goes to the topic of the message it replies to. Edits and
deletions of messages in a closed topic work (closing stops new messages); a
deleted topic takes its messages with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import itertools
import json
import random
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import ClientError, ClientSession, web


@dataclass
class FakeUser:
    id: int
    first_name: str
    username: str
    language_code: str = "ru"
    is_bot: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "is_bot": self.is_bot,
            "first_name": self.first_name,
            "username": self.username,
            "language_code": self.language_code,
        }


@dataclass
class Call:
    at: float
    method: str
    params: dict[str, Any]
    status: int
    description: str = ""
    """The error's description (empty when the call succeeded)."""
    real: float = field(default_factory=time.monotonic)
    """When the call arrived in real time (``at`` may be a simulated clock's)."""
    thread: int | None = None
    """The forum topic of the message the call sent or edited, as Telegram answered (None: not in a topic)."""
    message_id: int | None = None
    """The message Telegram answered with (the one sent, or edited as a Message), if any."""


@dataclass
class Topic:
    """A forum topic; its id is the id of the service message that created it."""

    thread_id: int
    name: str
    created: dict[str, Any]
    """The service message with ``forum_topic_created``."""
    closed: bool = False


@dataclass
class Forum:
    """A supergroup with topics."""

    topics: dict[int, Topic] = field(default_factory=dict)
    general_closed: bool = False


WAIT_FOR = 30.0
"""Real seconds ``wait_for`` waits by default. A match's result waits for the match card and the last deal's
review from worker processes the bot spawns on first use: on a shared machine under CI's own load (four test
workers beside the Cluster step on two cores) that took more than 10 s."""


@dataclass
class Sent:
    """A message the bot sent, as it stands now."""

    chat_id: int
    message_id: int
    text: str
    reply_markup: dict[str, Any] | None
    history: list[str] = field(default_factory=list)
    markups: list[dict[str, Any] | None] = field(default_factory=list)
    """Every keyboard the message had, the first one first."""
    sent_at: float = field(default_factory=time.monotonic)
    """When the bot sent it (real time)."""
    photo: bytes | None = None
    """A picture's PNG (``text`` is then its caption)."""
    thread: int | None = None
    """The forum topic the message is in (None: not a forum, or its General topic)."""

    def buttons(self) -> list[dict[str, Any]]:
        if not self.reply_markup:
            return []
        return [b for row in self.reply_markup.get("inline_keyboard", []) for b in row]


THUMB_HOLD = 10.0
"""Real seconds at most a send's answer waits for the fastest thumb's act on its message (a bot that made the press
wait for the send's answer would hold both until then; the sweep then fails saying the press waited)."""


@dataclass
class Acted:
    """What the fastest thumb did to one message."""

    message: Sent
    method: str
    """The call that sent it (``sendMessage``, ``sendPhoto``)."""
    in_the_gap: bool
    """Whether the act ended while the send's answer was still held from the bot (it did not have to wait for it)."""
    result: Any = None


@dataclass
class Thumb:
    """The fastest thumb: a person who acts on a message the instant Telegram shows it, before the answer to the
    bot's send reaches the bot (the bot has not yet learnt the message's id, let alone written it down).

    ``act`` is shown every message the bot sends (while the thumb is set); for one it acts on it returns a coroutine
    (a press, a deep link followed, the Mini App opened) and the send's answer is held until that ends
    (``THUMB_HOLD`` seconds at most). ``times``: how many messages it acts on before it is spent."""

    act: Callable[[Sent], Awaitable[Any] | None]
    times: int = 1
    acted: list[Acted] = field(default_factory=list)


HTML_TAGS = {
    "b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "tg-emoji", "code", "pre",
    "blockquote",
}  # fmt: skip
TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)(\s[^<>]*)?>")
ENTITY = re.compile(r"&(lt|gt|amp|quot|#[0-9]+|#x[0-9a-fA-F]+);")


def html_error(text: str) -> str | None:
    """Why Telegram would refuse ``text`` with ``parse_mode=HTML`` (None if it would not)."""
    open_tags: list[str] = []
    pos = 0
    for m in [*TAG.finditer(text), None]:
        plain = text[pos : m.start() if m else len(text)]
        if "<" in plain:
            return f'can\'t parse entities: unexpected "<" at byte offset {pos + plain.index("<")}'
        if "&" in ENTITY.sub("", plain):
            return "can't parse entities: unsupported character entity"
        if m is None:
            break
        closing, name = m.group(1), m.group(2).lower()
        if name not in HTML_TAGS:
            return f'can\'t parse entities: unsupported start tag "{name}"'
        if not closing:
            open_tags.append(name)
        elif not open_tags or open_tags.pop() != name:
            return f"can't parse entities: can't find end tag corresponding to start tag \"{name}\""
        pos = m.end()
    if open_tags:
        return f"can't parse entities: can't find end tag corresponding to start tag \"{open_tags[-1]}\""
    return None


JSON_FIELDS = {
    "reply_markup", "commands", "scope", "link_preview_options", "reply_parameters", "entities", "allowed_updates",
    "results", "button",
}  # fmt: skip
BUTTON_KINDS = {
    "url", "callback_data", "web_app", "login_url", "switch_inline_query", "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat", "copy_text", "callback_game", "pay",
}  # fmt: skip
"""The fields of an inline keyboard button of which exactly one is set."""
UNASKED = ("chat_member", "message_reaction", "message_reaction_count")
"""Update types Telegram sends only to a bot that lists them in ``allowed_updates``."""
TEXT_BUTTONS = "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
SENT_OR_EDITED = ("sendMessage", "sendPhoto", "editMessageText", "editMessageCaption", "editMessageReplyMarkup")
"""The calls that put something in a chat (Telegram's limits count them)."""
LEGACY = frozenset({"disable_web_page_preview", "reply_to_message_id", "allow_sending_without_reply"})
"""Parameters the Bot API replaced (``link_preview_options``, ``reply_parameters``): Telegram still takes them, the
bot must not send them."""
NO_SUCH_CHATS = -(4 * 10**15)
"""Chat ids at or below this belong to no chat Telegram knows (the bot's inline challenges make them up): any call for
one answers 400 "chat not found", as Telegram does."""
BOT_ID = 123456
"""The bot's id, as in its token (``123456:TEST-token``), as Telegram has it."""


def png_size(data: bytes) -> tuple[int, int] | None:
    """A PNG's width and height from its header (None: not a PNG)."""
    if len(data) < 24 or data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


class FakeTelegram:
    def __init__(
        self,
        bot_username: str = "domino_test_bot",
        *,
        rejected_tokens: frozenset[str] = frozenset(),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bot_username = bot_username
        self.clock = clock
        """What a call's ``at`` is measured with (a simulated clock in tests of Telegram's real limits)."""
        self.rejected_tokens = rejected_tokens
        """Tokens answered 401 Unauthorized (as Telegram answers a revoked or mistyped token)."""
        self.calls: list[Call] = []
        self.users: dict[int, FakeUser] = {}
        """Every user who wrote or pressed something, by id."""
        self.updates: list[dict[str, Any]] = []
        self.delivered = 0
        self.polls = 0
        """``getUpdates`` calls received (the first one: the bot is polling)."""
        self._update_ids = itertools.count(1)
        self._again: list[dict[str, Any]] = []
        self.last_update_id = 0
        """The id of the update the last press made."""
        self.newest_update = 0
        """The id of the newest update of any kind (the last message written, press, inline query...)."""
        self.update_of: dict[str, int] = {}
        """The update each press came in (by its callback query id; a press delivered again: the newest)."""
        self.handled: set[int] = set()
        """The updates a bot said it has finished with (``bot.middlewares.Handled``)."""
        self._handled_events: dict[int, asyncio.Event] = {}
        self.listening = 0
        """How many bots (in this test's process) tell the fake when they are done with an update (``listen``):
        while none does (a bot that runs as a process of its own), ``done`` waits for nothing."""
        self.thumb: Thumb | None = None
        """The fastest thumb (``Thumb``): while set, a person acts on a message the moment it is sent, before the
        send's answer reaches the bot."""
        self._message_ids = itertools.count(100)
        self._callback_ids = itertools.count(9000)
        self.pressed: list[str] = []
        self._new_update = asyncio.Event()
        self.messages: dict[tuple[int, int], Sent] = {}
        self._chats: dict[int, dict[int, Sent]] = {}
        self._chat_events: dict[int, asyncio.Event] = {}
        self._answer_events: dict[str, asyncio.Event] = {}
        self.answered_at: dict[str, float] = {}
        """When (``clock``) each callback was answered."""
        self.pressed_at: dict[str, float] = {}
        """When (``clock``) each press was made."""
        """The same messages by chat (``chat_messages`` without a scan of every chat's)."""
        self.started: set[int] = set()
        self.admins: dict[int, set[int]] = {}
        """Each group's admins (``getChatMember``: ``administrator``)."""
        self.creators: dict[int, int] = {}
        """Each group's creator (``getChatMember``: ``creator``)."""
        self.outsiders: dict[int, set[int]] = {}
        """Users who are not in a group (``getChatMember``: ``left``); anyone else is a member."""
        self.files: dict[str, bytes] = {}
        """Pictures the bot sent, by the ``file_id`` Telegram gave them (sent again by it)."""
        self.photos_by_id: list[str] = []
        """The ``file_id``s the bot sent pictures by."""
        self.answers: dict[str, dict[str, Any]] = {}
        self.commands: list[dict[str, Any]] = []
        self.fail_with_429 = 0
        self.method_429: dict[str, int] = {}
        """How many of the next calls of a method answer 429 (``{"setMyCommands": 5}``)."""
        self.calls_429: dict[str, set[int]] = {}
        """Which calls of a method answer 429, counted from 1 (``{"getMe": {1, 3}}``)."""
        self._counted: Counter[str] = Counter()
        self.retry_after = 1
        self.flood_ratio = 0.0
        """The share of calls (``getUpdates`` aside: Telegram does not limit it) answered 429 at random."""
        self.random = random.Random(0)
        self.flood_until = 0.0
        """Until this time (``clock``) every method answers 429 (a burst)."""
        self.chat_flood_until: dict[int, float] = {}
        """Until this time (``clock``), anything sent to that chat answers 429 (a flood wait of one group)."""
        self.latency = 0.0
        """Seconds each call (long polls aside) takes before it is answered (a slow or distant Telegram)."""
        self.frozen = False
        """While set, requests are held unanswered and then dropped unprocessed (Telegram unreachable)."""
        self._thawed = asyncio.Event()
        self.held: set[str] = set()
        """Methods whose calls are held unanswered until ``thaw``, then dropped unprocessed (a call in flight
        as the bot is killed)."""
        self.held_calls: list[tuple[str, dict[str, Any]]] = []
        """The calls held so far: method and parameters."""
        self.blocked: set[int] = set()
        """Users who blocked the bot: 403 to anything sent to them."""
        self.migrated: dict[int, int] = {}
        """Groups that became supergroups (old id -> new id): sends to the old id answer 400 with the new one."""
        self.kicked: set[int] = set()
        """Groups that removed the bot: 403 to anything sent there."""
        self.absent: set[int] = set()
        """Chats the bot is not in (a chat between two people where they post an inline result): anything sent
        there answers 403, as Telegram does."""
        self.inline_answers: dict[str, dict[str, Any]] = {}
        """``answerInlineQuery`` by the query's id: its parameters (``results`` parsed)."""
        self.inline_messages: dict[str, Sent] = {}
        """Messages posted "via @bot" from an inline result, by their ``inline_message_id``."""
        self._inline_ids = itertools.count(1)
        self.inline_queries: dict[str, str] = {}
        """Each inline query's text, by its id."""
        self.inline_feedback = True
        """@BotFather's ``/setinlinefeedback``: a chosen inline result comes as a ``chosen_inline_result`` update
        (to a bot that asks for them in ``allowed_updates``)."""
        self.allowed_updates: list[str] | None = None
        """The update types the bot last asked for (``getUpdates`` or ``setWebhook``; Telegram keeps the last
        list): updates of other types never reach it. None: Telegram's default (all but ``chat_member`` and the
        reactions)."""
        self.no_photos: set[int] = set()
        """Groups where members may not send pictures: ``sendPhoto`` answers 400 there."""
        self.forums: dict[int, Forum] = {}
        """Supergroups with topics, by chat id."""
        self._threads: dict[tuple[int, int], int | None] = {}
        """The topic of each message users wrote in a forum (a reply to it goes there)."""
        self.unknown_methods: list[str] = []
        self.raw_answers: dict[str, list[tuple[int, str, str]]] = {}
        """Answers given as they are to the next calls of a method, before anything else: status, content type and
        body (a proxy's HTML 502, a wrong path's 404)."""
        self.legacy: list[tuple[str, list[str]]] = []
        """Calls that used a parameter the Bot API replaced (``LEGACY``): the method and those parameters."""
        self.webhook: dict[str, Any] | None = None
        """What ``setWebhook`` set (url, secret_token, allowed_updates); while set, updates are posted there."""
        self.route: Callable[[dict[str, Any]], str] | None = None
        """Where an update is posted (tests: several processes behind one URL); unset: the webhook's URL."""
        self.posts: list[tuple[int, str, int]] = []
        """Every webhook post: update id, URL, the HTTP status it got (or 0: no answer)."""
        self._hooked: set[int] = set()
        self._senders: set[asyncio.Task[None]] = set()
        self._client: ClientSession | None = None
        self._runner: web.AppRunner | None = None
        self.base = ""

    # -- server ----------------------------------------------------------------

    async def start(self, port: int = 0) -> str:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        server = site._server
        assert server is not None
        port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]
        self.base = f"http://127.0.0.1:{port}"
        return self.base

    def freeze(self) -> None:
        """From now on hold every request and drop it unprocessed (as if Telegram were unreachable)."""
        self.frozen = True
        self._thawed.clear()

    def thaw(self) -> None:
        """Answer again; the held requests get a 502 and took no effect."""
        self.latency = 0.0
        """Seconds each call (long polls aside) takes before it is answered (a slow or distant Telegram)."""
        self.frozen = False
        self.held.clear()
        self._thawed.set()

    def wake(self) -> None:
        """End a waiting long poll now (so that the bot stops polling without waiting for it)."""
        self._new_update.set()

    async def stop(self) -> None:
        for task in self._senders:
            task.cancel()
        await asyncio.gather(*self._senders, return_exceptions=True)
        if self._client is not None:
            await self._client.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        # The time a request arrives is the closest the fake gets to when the bot decided to send it.
        arrived = self.clock()
        method = request.match_info["method"]
        if request.match_info["token"] in self.rejected_tokens:
            self.calls.append(Call(arrived, method, {}, 401, "Unauthorized"))
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        raw = await request.post() if request.can_read_body else {}
        if self.raw_answers.get(method):
            status, content_type, text = self.raw_answers[method].pop(0)
            self.calls.append(Call(arrived, method, {}, status, text[:80]))
            return web.Response(status=status, text=text, content_type=content_type)
        if self.frozen or method in self.held:
            if not self.frozen:
                self.held_calls.append((method, dict(raw)))
                self._thawed.clear()
            await self._thawed.wait()
            return web.json_response({"ok": False, "error_code": 502, "description": "Bad Gateway"}, status=502)
        params: dict[str, Any] = {}
        for key, value in raw.items():
            if isinstance(value, web.FileField):
                params[key] = value.file.read()
                continue
            text = value if isinstance(value, str) else str(value)
            params[key] = json.loads(text) if key in JSON_FIELDS else text
        if LEGACY & set(params):
            self.legacy.append((method, sorted(LEGACY & set(params))))
        if self.latency and method != "getUpdates":
            await asyncio.sleep(self.latency)
        status, body = await self._dispatch(method, params)
        result = body.get("result")
        thread = result.get("message_thread_id") if isinstance(result, dict) else None
        message_id = result.get("message_id") if isinstance(result, dict) else None
        self.calls.append(
            Call(arrived, method, params, status, body.get("description", ""), thread=thread, message_id=message_id)
        )
        if self.thumb is not None and status == 200 and method in ("sendMessage", "sendPhoto") and message_id:
            await self._thumb(method, int(params["chat_id"]), int(message_id))
        return web.json_response(body, status=status)

    async def _thumb(self, method: str, chat_id: int, message_id: int) -> None:
        """The fastest thumb acts on the message just sent, while its send's answer waits (``Thumb``)."""
        thumb, sent = self.thumb, self.messages.get((chat_id, message_id))
        if thumb is None or sent is None:
            return
        job = thumb.act(sent)
        if job is None:
            return
        thumb.times -= 1
        if thumb.times <= 0:
            self.thumb = None
        task = asyncio.ensure_future(job)
        finished, _ = await asyncio.wait({task}, timeout=THUMB_HOLD)
        acted = Acted(sent, method, bool(finished))
        thumb.acted.append(acted)
        if finished:
            acted.result = task.result()
        else:
            task.add_done_callback(lambda t: setattr(acted, "result", None if t.cancelled() else t.result()))

    async def _dispatch(self, method: str, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        now = self.clock()
        chat = p.get("chat_id")
        flood = now < self.flood_until or (chat is not None and now < self.chat_flood_until.get(int(chat), 0.0))
        if self.flood_ratio and method != "getUpdates" and self.random.random() < self.flood_ratio:
            flood = True
        if self.method_429.get(method, 0) > 0:
            self.method_429[method] -= 1
            flood = True
        self._counted[method] += 1
        if self._counted[method] in self.calls_429.get(method, ()):
            flood = True
        if method == "getUpdates" and self.webhook is not None:
            return self._error(409, "Conflict: can't use getUpdates method while webhook is active")
        if method == "getUpdates" and not flood:
            return 200, {"ok": True, "result": await self._get_updates(p)}
        if flood or (method in SENT_OR_EDITED and self.fail_with_429 > 0):
            if not flood:
                self.fail_with_429 -= 1
            wait = self.retry_after
            if chat is not None and int(chat) in self.chat_flood_until:
                wait = max(1, round(self.chat_flood_until[int(chat)] - now))
            return 429, {
                "ok": False,
                "error_code": 429,
                "description": f"Too Many Requests: retry after {wait}",
                "parameters": {"retry_after": wait},
            }
        if chat is not None and int(chat) <= NO_SUCH_CHATS:
            return self._error(400, "Bad Request: chat not found")
        if chat is not None and int(chat) in self.blocked:
            return self._error(403, "Forbidden: bot was blocked by the user")
        if chat is not None and int(chat) in self.migrated:
            return 400, {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: group chat was upgraded to a supergroup chat",
                "parameters": {"migrate_to_chat_id": self.migrated[int(chat)]},
            }
        if chat is not None and int(chat) in self.absent and method != "getChatMember":
            return self._error(403, "Forbidden: bot is not a member of the chat")
        if chat is not None and int(chat) in self.kicked:
            return self._error(403, "Forbidden: bot was kicked from the supergroup chat")
        handler = getattr(self, f"_m_{method}", None)
        if handler is not None and method in SENT_OR_EDITED and (bad := self._bad_markup(chat, p.get("reply_markup"))):
            return bad
        if handler is None:
            self.unknown_methods.append(method)
            return 404, {"ok": False, "error_code": 404, "description": "Not Found: method not found"}
        result: tuple[int, dict[str, Any]] = handler(p)
        return result

    async def _get_updates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        """As Telegram: the updates from ``offset`` on; an update below an offset once asked for is confirmed
        and never comes again (a new process polling without an offset gets only the unconfirmed ones),
        except one handed to ``deliver_again``."""
        self.polls += 1
        self._ask_for(p.get("allowed_updates"))
        offset = int(p.get("offset", 0) or 0)
        timeout = float(p.get("timeout", 0) or 0)
        if offset:
            self.delivered = max(self.delivered, offset - 1)
        if not self._pending(offset) and not self._again and timeout:
            self._new_update.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new_update.wait(), min(timeout, 0.5))
        pending = self._pending(offset)
        again, self._again = self._again, []
        # Listed first: the bot's next offset follows the last update of the list.
        return [*again, *pending]

    def _pending(self, offset: int) -> list[dict[str, Any]]:
        start = max(offset, self.delivered + 1)
        return [u for u in self.updates if u["update_id"] >= start and self._wanted(u)]

    def _ask_for(self, allowed: Any) -> None:
        """``allowed_updates`` of a call, kept as Telegram keeps it (absent: the last list stays; empty: all)."""
        if isinstance(allowed, str):
            allowed = json.loads(allowed)
        if allowed is not None:
            self.allowed_updates = list(allowed) or None

    def _wanted(self, update: dict[str, Any]) -> bool:
        """Whether Telegram hands the update to the bot (its type is one it asked for)."""
        kind = next(k for k in update if k != "update_id")
        if self.allowed_updates is None:
            return kind not in UNASKED
        return kind in self.allowed_updates

    # -- Bot API methods ---------------------------------------------------------

    def _ok(self, result: Any) -> tuple[int, dict[str, Any]]:
        return 200, {"ok": True, "result": result}

    def _error(self, code: int, description: str) -> tuple[int, dict[str, Any]]:
        return code, {"ok": False, "error_code": code, "description": description}

    def _m_getMe(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        return self._ok({"id": BOT_ID, "is_bot": True, "first_name": "Domino", "username": self.bot_username})

    def _m_deleteWebhook(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.webhook = None
        return self._ok(True)

    def _m_setWebhook(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.webhook = {
            "url": p["url"],
            "secret_token": p.get("secret_token"),
            "allowed_updates": p.get("allowed_updates"),
        }
        self._ask_for(p.get("allowed_updates"))
        for update in self.updates:
            if update["update_id"] not in self._hooked and self._wanted(update):
                self._post_later(update)
        return self._ok(True)

    def _m_getWebhookInfo(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        pending = sum(1 for u in self.updates if u["update_id"] not in self._hooked)
        return self._ok({"url": (self.webhook or {}).get("url", ""), "has_custom_certificate": False,
                         "pending_update_count": pending})  # fmt: skip

    # -- webhook delivery ----------------------------------------------------------

    def _post_later(self, update: dict[str, Any]) -> None:
        task = asyncio.create_task(self._post(update))
        self._senders.add(task)
        task.add_done_callback(self._senders.discard)

    async def _post(self, update: dict[str, Any]) -> None:
        """Post an update to the webhook as Telegram does: again after a while until it is answered 200."""
        if self._client is None:
            self._client = ClientSession()
        delay = 0.05
        while self.webhook is not None:
            url = self.route(update) if self.route is not None else self.webhook["url"]
            headers = {"X-Telegram-Bot-Api-Secret-Token": self.webhook.get("secret_token") or ""}
            try:
                async with self._client.post(url, json=update, headers=headers) as response:
                    status = response.status
                    await response.read()
            except (ClientError, OSError):
                status = 0
            self.posts.append((update["update_id"], url, status))
            if status == 200:
                if update["update_id"] not in self._hooked:
                    self._hooked.add(update["update_id"])
                    self.delivered += 1
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)

    def _m_setMyCommands(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.commands.append(p)
        return self._ok(True)

    def _m_getChatMember(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        chat_id, user_id = int(p["chat_id"]), int(p["user_id"])
        if chat_id in self.kicked:
            return self._error(403, "Forbidden: bot was kicked from the supergroup chat")
        status = "administrator" if user_id in self.admins.get(chat_id, set()) else "member"
        if self.creators.get(chat_id) == user_id:
            status = "creator"
        elif user_id in self.outsiders.get(chat_id, set()):
            status = "left"
        user = {"id": user_id, "is_bot": False, "first_name": str(user_id)}
        member: dict[str, Any] = {"status": status, "user": user}
        if status == "creator":
            member["is_anonymous"] = False
        if status == "administrator":
            member.update(
                can_be_edited=False,
                is_anonymous=False,
                can_manage_chat=True,
                can_delete_messages=True,
                can_manage_video_chats=True,
                can_restrict_members=True,
                can_promote_members=False,
                can_change_info=True,
                can_invite_users=True,
                can_post_stories=False,
                can_edit_stories=False,
                can_delete_stories=False,
                can_send_welcome_messages=False,
            )
        return self._ok(member)

    def _chat(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.forums:
            return {"id": chat_id, "type": "supergroup", "title": "Domino club", "is_forum": True}
        if chat_id < 0:
            return {"id": chat_id, "type": "supergroup", "title": "Domino club"}
        return {"id": chat_id, "type": "private", "first_name": str(chat_id)}

    def _m_getChat(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        gifts = {"unlimited_gifts": True, "limited_gifts": True, "unique_gifts": True, "premium_subscription": True}
        info = {**self._chat(int(p["chat_id"])), "accent_color_id": 0, "max_reaction_count": 11}
        return self._ok({**info, "accepted_gift_types": gifts})

    def _in_topic(self, message: dict[str, Any], chat_id: int, thread: int | None, *, nested: bool = True) -> None:
        """Mark a message as written in a topic, as Telegram does: its thread, and (unless it is itself a reply's
        copy, which Telegram never nests) a reply to the topic's creation message."""
        topic = self.forums[chat_id].topics.get(thread) if thread is not None and chat_id in self.forums else None
        if topic is None:
            return
        message["message_thread_id"] = thread
        message["is_topic_message"] = True
        if nested and message["message_id"] != thread:
            message.setdefault("reply_to_message", topic.created)

    def _message_dict(self, sent: Sent, *, nested: bool = True) -> dict[str, Any]:
        message: dict[str, Any] = {
            "message_id": sent.message_id,
            "date": int(time.time()),
            "chat": self._chat(sent.chat_id),
            "from": {"id": BOT_ID, "is_bot": True, "first_name": "Domino", "username": self.bot_username},
        }
        self._in_topic(message, sent.chat_id, sent.thread, nested=nested)
        if sent.photo is None:
            message["text"] = sent.text
        else:
            width, height = png_size(sent.photo) or (0, 0)
            file = {"file_id": f"photo-{sent.message_id}", "file_unique_id": f"u{sent.message_id}"}
            message["photo"] = [{**file, "width": width, "height": height, "file_size": len(sent.photo)}]
            message["caption"] = sent.text
        if sent.reply_markup:
            message["reply_markup"] = sent.reply_markup
        return message

    def _bad_markup(self, chat: Any, markup: Any) -> tuple[int, dict[str, Any]] | None:
        """As Telegram: an inline keyboard's each button has a text and exactly one kind (``callback_data`` of 1-64
        bytes, an ``http(s)``/``tg`` ``url``, a ``web_app`` with an https URL: in private chats only, ...)."""
        if markup is None:
            return None
        rows = markup.get("inline_keyboard") if isinstance(markup, dict) else None
        if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
            return self._error(400, "Bad Request: can't parse inline keyboard button: InlineKeyboardButton expected")
        for row in rows:
            for button in row:
                if not isinstance(button, dict) or not button.get("text") or len(set(button) & BUTTON_KINDS) != 1:
                    return self._error(400, f"Bad Request: {TEXT_BUTTONS}")
                data = button.get("callback_data")
                if data is not None and not 1 <= len(str(data).encode()) <= 64:
                    return self._error(400, "Bad Request: BUTTON_DATA_INVALID")
                url = button.get("url")
                if url is not None and not re.match(r"^(https?|tg)://\S+$", str(url)):
                    return self._error(400, "Bad Request: BUTTON_URL_INVALID")
                if "web_app" in button:
                    app = button["web_app"]
                    if chat is None or int(chat) < 0:
                        return self._error(400, "Bad Request: BUTTON_TYPE_INVALID")
                    if not isinstance(app, dict) or not str(app.get("url", "")).startswith("https://"):
                        return self._error(400, "Bad Request: BUTTON_URL_INVALID")
        return None

    def _bad_html(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]] | None:
        error = html_error(p["text"]) if p.get("parse_mode") == "HTML" else None
        return None if error is None else self._error(400, f"Bad Request: {error}")

    def _store(self, sent: Sent) -> tuple[int, dict[str, Any]]:
        """Keep a message the bot sent (and its picture, by its ``file_id``); Telegram's answer to it."""
        if sent.photo is not None:
            self.files[f"photo-{sent.message_id}"] = sent.photo
        sent.history.append(sent.text)
        sent.markups.append(sent.reply_markup)
        self.messages[(sent.chat_id, sent.message_id)] = sent
        self._chats.setdefault(sent.chat_id, {})[sent.message_id] = sent
        self._changed(sent.chat_id)
        return self._ok(self._message_dict(sent))

    def _replied_id(self, p: dict[str, Any]) -> int | None:
        if p.get("reply_to_message_id"):
            return int(p["reply_to_message_id"])
        parameters = p.get("reply_parameters")
        return int(parameters["message_id"]) if isinstance(parameters, dict) else None

    def _thread_of(self, chat_id: int, message_id: int) -> int | None:
        sent = self.messages.get((chat_id, message_id))
        return sent.thread if sent is not None else self._threads.get((chat_id, message_id))

    def _place(self, chat_id: int, p: dict[str, Any]) -> tuple[int | None, tuple[int, dict[str, Any]] | None]:
        """The topic a message to send goes to, or Telegram's refusal (see the module's text)."""
        thread = int(p["message_thread_id"]) if p.get("message_thread_id") else None
        forum = self.forums.get(chat_id)
        if forum is None:
            return None, None if thread is None else self._error(400, "Bad Request: message thread not found")
        replied = self._replied_id(p)
        if thread is None and replied is not None:
            thread = self._thread_of(chat_id, replied)
        admin = BOT_ID in self.admins.get(chat_id, set())
        if thread is None:
            closed = forum.general_closed and not admin
            return None, self._error(400, "Bad Request: TOPIC_CLOSED") if closed else None
        topic = forum.topics.get(thread)
        if topic is None:
            return None, self._error(400, "Bad Request: message thread not found")
        if topic.closed and not admin:
            return None, self._error(400, "Bad Request: TOPIC_CLOSED")
        return thread, None

    def _m_sendMessage(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        chat_id = int(p["chat_id"])
        if chat_id > 0 and chat_id not in self.started:
            return self._error(403, "Forbidden: bot can't initiate conversation with a user")
        if bad := self._bad_html(p):
            return bad
        thread, refused = self._place(chat_id, p)
        if refused is not None:
            return refused
        sent = Sent(chat_id, next(self._message_ids), p["text"], p.get("reply_markup"), thread=thread)
        return self._store(sent)

    def _m_sendPhoto(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """As Telegram: a picture uploaded as a file, with a caption of at most 1024 characters (HTML checked);
        bytes that are no image are refused (IMAGE_PROCESS_FAILED)."""
        chat_id = int(p["chat_id"])
        if chat_id > 0 and chat_id not in self.started:
            return self._error(403, "Forbidden: bot can't initiate conversation with a user")
        photo = p.get("photo")
        if isinstance(photo, str) and photo.startswith("attach://"):
            photo = p.get(photo.removeprefix("attach://"))  # as aiogram uploads a file: a part of its own
        elif isinstance(photo, str):  # a file_id of a picture sent before
            self.photos_by_id.append(photo)
            photo = self.files.get(photo)
        if not isinstance(photo, bytes):
            return self._error(400, "Bad Request: wrong remote file identifier specified")
        if png_size(photo) is None:
            return self._error(400, "Bad Request: IMAGE_PROCESS_FAILED")
        caption = p.get("caption", "")
        if bad := self._bad_html({**p, "text": caption}):
            return bad
        if len(html.unescape(TAG.sub("", caption))) > 1024:
            return self._error(400, "Bad Request: message caption is too long")
        if chat_id in self.no_photos:
            return self._error(400, "Bad Request: not enough rights to send photos to the chat")
        thread, refused = self._place(chat_id, p)
        if refused is not None:
            return refused
        sent = Sent(chat_id, next(self._message_ids), caption, p.get("reply_markup"), photo=photo, thread=thread)
        return self._store(sent)

    def _edited(self, sent: Sent, text: str, markup: dict[str, Any] | None) -> None:
        """An edit Telegram took: the message's new text (or caption) and buttons, kept in its history."""
        sent.text, sent.reply_markup = text, markup
        sent.history.append(text)
        sent.markups.append(markup)
        self._changed(sent.chat_id)

    def _inline_edit(self, p: dict[str, Any], *, text: bool) -> tuple[int, dict[str, Any]]:
        """An edit of a message posted via the bot, by its ``inline_message_id`` (Telegram answers True)."""
        sent = self.inline_messages.get(str(p["inline_message_id"]))
        if sent is None:
            return self._error(400, "Bad Request: MESSAGE_ID_INVALID")
        if text and (bad := self._bad_html(p)):
            return bad
        new_text = p["text"] if text else sent.text
        markup = p.get("reply_markup")
        if sent.text == new_text and sent.reply_markup == markup:
            return self._error(400, "Bad Request: message is not modified")
        self._edited(sent, new_text, markup)
        return self._ok(True)

    def _m_answerInlineQuery(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """As Telegram: at most 50 results, each with a type, a unique id of 1-64 bytes and a text to post (HTML
        checked, 4096 characters at most) with buttons Telegram takes (no ``web_app``: not in inline messages)."""
        query_id = str(p["inline_query_id"])
        if query_id in self.inline_answers:
            return self._error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        results = p.get("results")
        if not isinstance(results, list) or len(results) > 50:
            return self._error(400, "Bad Request: RESULTS_TOO_MUCH")
        ids = set()
        for result in results:
            rid = str(result.get("id", ""))
            if not 1 <= len(rid.encode()) <= 64 or rid in ids or "type" not in result:
                return self._error(400, "Bad Request: RESULT_ID_INVALID")
            ids.add(rid)
            content = result.get("input_message_content") or {}
            body = str(content.get("message_text", ""))
            if not body or len(body) > 4096:
                return self._error(400, "Bad Request: MESSAGE_EMPTY")
            if bad := self._bad_html({"text": body, "parse_mode": content.get("parse_mode")}):
                return bad
            if bad := self._bad_markup(None, result.get("reply_markup")):
                return bad
        self.inline_answers[query_id] = p
        self._wake(self._answer_events.pop(f"inline:{query_id}", None))
        return self._ok(True)

    def _m_editMessageText(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if "inline_message_id" in p:
            return self._inline_edit(p, text=True)
        key = (int(p["chat_id"]), int(p["message_id"]))
        sent = self.messages.get(key)
        if sent is None:
            return self._error(400, "Bad Request: message to edit not found")
        if sent.photo is not None:
            return self._error(400, "Bad Request: there is no text in the message to edit")
        if bad := self._bad_html(p):
            return bad
        markup = p.get("reply_markup")
        if sent.text == p["text"] and sent.reply_markup == markup:
            return self._error(
                400,
                "Bad Request: message is not modified: specified new message content and reply markup "
                "are exactly the same as a current content and reply markup of the message",
            )
        self._edited(sent, p["text"], markup)
        return self._ok(self._message_dict(sent))

    def _m_editMessageCaption(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """As Telegram: a picture's caption (at most 1024 characters, HTML checked) and buttons; a text message
        has no caption to edit."""
        key = (int(p["chat_id"]), int(p["message_id"]))
        sent = self.messages.get(key)
        if sent is None:
            return self._error(400, "Bad Request: message to edit not found")
        if sent.photo is None:
            return self._error(400, "Bad Request: there is no caption in the message to edit")
        caption = p.get("caption", "")
        if bad := self._bad_html({**p, "text": caption}):
            return bad
        if len(html.unescape(TAG.sub("", caption))) > 1024:
            return self._error(400, "Bad Request: message caption is too long")
        markup = p.get("reply_markup")
        if sent.text == caption and sent.reply_markup == markup:
            return self._error(400, "Bad Request: message is not modified")
        self._edited(sent, caption, markup)
        return self._ok(self._message_dict(sent))

    def _m_editMessageReplyMarkup(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if "inline_message_id" in p:
            return self._inline_edit(p, text=False)
        key = (int(p["chat_id"]), int(p["message_id"]))
        sent = self.messages.get(key)
        if sent is None:
            return self._error(400, "Bad Request: message to edit not found")
        markup = p.get("reply_markup")
        if sent.reply_markup == markup:
            return self._error(400, "Bad Request: message is not modified")
        sent.reply_markup = markup
        sent.markups.append(markup)
        self._changed(key[0])
        return self._ok(self._message_dict(sent))

    def _m_deleteMessage(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        key = (int(p["chat_id"]), int(p["message_id"]))
        self._chats.get(key[0], {}).pop(key[1], None)
        self._changed(key[0])
        if self.messages.pop(key, None) is None:
            return self._error(400, "Bad Request: message to delete not found")
        return self._ok(True)

    def _m_answerCallbackQuery(self, p: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        query_id = p["callback_query_id"]
        if len(str(p.get("text") or "")) > 200:  # Telegram's limit on a callback answer's text
            return self._error(400, "Bad Request: MESSAGE_TOO_LONG")
        if query_id in self.answers:
            return self._error(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        self.answers[query_id] = p
        self.answered_at[query_id] = self.clock()
        self._wake(self._answer_events.pop(query_id, None))
        return self._ok(True)

    # -- what users do -----------------------------------------------------------

    def deliver_again(self, update_id: int) -> None:
        """Telegram delivers an update once more (it does, when it did not see the bot take it), with its id."""
        update = next(u for u in self.updates if u["update_id"] == update_id)
        if self.webhook is not None:
            self._post_later(update)
            return
        self._again.append(update)
        self._new_update.set()

    def _push(self, update: dict[str, Any]) -> int:
        update_id = next(self._update_ids)
        update["update_id"] = update_id
        self.newest_update = update_id
        self.updates.append(update)
        self._new_update.set()
        if self.webhook is not None and self._wanted(update):
            self._post_later(update)
        return update_id

    def lost_message(self, chat_id: int, text: str, markup: dict[str, Any] | None) -> Sent:
        """A message the bot sent (as Telegram took it) that the bot has no record of: one a process sent just
        before it was killed. Not a call: the bot never saw Telegram's answer."""
        sent = Sent(chat_id, next(self._message_ids), text, markup)
        self._store(sent)
        return sent

    def delete(self, chat_id: int, message_id: int) -> None:
        """A member (an admin) deletes a message of the bot's: it is gone, and editing it answers 400."""
        self._chats.get(chat_id, {}).pop(message_id, None)
        self.messages.pop((chat_id, message_id), None)
        self._changed(chat_id)

    def migrate(self, user: FakeUser, old: int, new: int) -> None:
        """The group becomes a supergroup: the service message in the old chat (sends there now answer 400)."""
        self.migrated[old] = new
        message = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": {"id": old, "type": "group", "title": "Domino club"},
            "from": user.as_dict(),
            "migrate_to_chat_id": new,
        }
        self._push({"message": message})

    def bot_membership(self, user: FakeUser, chat_id: int, status: str) -> None:
        """The bot's own membership in a chat changes to ``status`` (``left``, ``kicked``, ``member``), by ``user``."""
        me = {"id": BOT_ID, "is_bot": True, "first_name": "Domino", "username": self.bot_username}
        old = "member" if status in ("left", "kicked") else "left"
        kicked = {"until_date": 0} if status == "kicked" else {}
        self._push(
            {
                "my_chat_member": {
                    "chat": self._chat(chat_id),
                    "from": user.as_dict(),
                    "date": int(time.time()),
                    "old_chat_member": {"status": old, "user": me},
                    "new_chat_member": {"status": status, "user": me, **kicked},
                }
            }
        )

    # -- forums ----------------------------------------------------------------------

    def make_forum(self, chat_id: int) -> Forum:
        """The supergroup turns topics on (its General topic open)."""
        return self.forums.setdefault(chat_id, Forum())

    def _service(self, user: FakeUser, chat_id: int, thread: int | None, **content: Any) -> dict[str, Any]:
        """A service message by ``user`` in a forum's topic, pushed as an update (as Telegram sends them)."""
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": self._chat(chat_id),
            "from": user.as_dict(),
            **content,
        }
        self._in_topic(message, chat_id, thread)
        self._push({"message": message})
        return message

    def open_topic(self, user: FakeUser, chat_id: int, name: str, thread_id: int | None = None) -> int:
        """``user`` creates a topic in the forum (made one if it was not); its id (the creation message's)."""
        forum = self.make_forum(chat_id)
        thread = thread_id if thread_id is not None else next(self._message_ids)
        created: dict[str, Any] = {
            "message_id": thread,
            "date": int(time.time()),
            "chat": self._chat(chat_id),
            "from": user.as_dict(),
            "message_thread_id": thread,
            "is_topic_message": True,
            "forum_topic_created": {"name": name, "icon_color": 0x6FB9F0},
        }
        forum.topics[thread] = Topic(thread, name, created)
        self._push({"message": created})
        return thread

    def close_topic(self, user: FakeUser, chat_id: int, thread: int, *, closed: bool = True) -> None:
        """``user`` (an admin, or the topic's creator) closes the topic (or, ``closed=False``, reopens it)."""
        self.forums[chat_id].topics[thread].closed = closed
        self._service(user, chat_id, thread, **{"forum_topic_closed" if closed else "forum_topic_reopened": {}})

    def delete_topic(self, chat_id: int, thread: int) -> None:
        """An admin deletes the topic, and every message in it with it (Telegram sends no update of it)."""
        del self.forums[chat_id].topics[thread]
        for sent in [m for m in self.chat_messages(chat_id) if m.thread == thread]:
            self.messages.pop((chat_id, sent.message_id), None)
            self._chats[chat_id].pop(sent.message_id, None)
        self._changed(chat_id)

    def close_general(self, chat_id: int, *, closed: bool = True) -> None:
        """An admin closes (or reopens) the General topic."""
        self.forums[chat_id].general_closed = closed

    # -- what users do, continued ----------------------------------------------------------

    def send_text(
        self,
        user: FakeUser,
        chat_id: int,
        text: str,
        *,
        reply_to: Sent | dict[str, Any] | None = None,
        sender_chat: dict[str, Any] | None = None,
        topic: int | None = None,
        photo: bool = False,
        via_bot: dict[str, Any] | None = None,
        reply_markup: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The user writes ``text`` in a chat (a private chat's id is the user's id; ``topic``: in that topic of a
        forum, else its General topic); returns the message. ``photo``: a picture with ``text`` as its caption;
        ``via_bot`` and ``reply_markup``: an inline bot's result the user posted, with that bot's buttons."""
        self.users[user.id] = user
        if chat_id == user.id and text.startswith("/start"):
            self.started.add(user.id)
        message: dict[str, Any] = {
            "message_id": next(self._message_ids),
            "date": int(time.time()),
            "chat": self._chat(chat_id),
            "from": user.as_dict(),
        }
        if photo:
            file = {"file_id": f"user-photo-{message['message_id']}", "file_unique_id": f"up{message['message_id']}"}
            message["photo"] = [{**file, "width": 90, "height": 90, "file_size": 1000}]
            message["caption"] = text
        else:
            message["text"] = text
        if sender_chat is not None:  # a channel, or the group itself for an anonymous admin
            message["sender_chat"] = sender_chat
        if via_bot is not None:
            message["via_bot"] = via_bot
        if reply_markup is not None:
            message["reply_markup"] = reply_markup
        if text.startswith("/"):
            command = text.split()[0]
            entities = [{"type": "bot_command", "offset": 0, "length": len(command)}]
            message["caption_entities" if photo else "entities"] = entities
        if isinstance(reply_to, Sent):
            message["reply_to_message"] = self._message_dict(reply_to, nested=False)
        elif reply_to is not None:
            message["reply_to_message"] = reply_to
        if chat_id in self.forums:
            if topic is not None:
                assert topic in self.forums[chat_id].topics, f"no topic {topic} in {chat_id}"
                self._in_topic(message, chat_id, topic)
            elif "reply_to_message" in message:
                # A reply in General: the id of the thread of replies it belongs to, and no topic.
                message["message_thread_id"] = message["reply_to_message"]["message_id"]
            self._threads[(chat_id, message["message_id"])] = topic
        self._push({"message": message})
        return message

    def press(self, user: FakeUser, sent: Sent, callback_data: str, *, query_id: str | None = None) -> str:
        """The user presses an inline button with ``callback_data`` on message ``sent`` (``query_id``: the same
        press delivered again, in an update of its own)."""
        self.users[user.id] = user
        if query_id is None:
            query_id = str(next(self._callback_ids))
            self.pressed.append(query_id)
            self.pressed_at[query_id] = self.clock()
        self.last_update_id = self._push(
            {
                "callback_query": {
                    "id": query_id,
                    "from": user.as_dict(),
                    "chat_instance": str(sent.chat_id),
                    "data": callback_data,
                    "message": self._message_dict(sent),
                }
            }
        )
        self.update_of[query_id] = self.last_update_id
        return query_id

    def inline_query(self, user: FakeUser, query: str = "", *, chat_type: str = "private") -> str:
        """The user types ``@bot query`` in a chat of ``chat_type``; the query's id (``wait_inline`` its answer)."""
        self.users[user.id] = user
        query_id = f"iq{next(self._callback_ids)}"
        inline = {"id": query_id, "from": user.as_dict(), "query": query, "offset": "", "chat_type": chat_type}
        self.inline_queries[query_id] = query
        self._push({"inline_query": inline})
        return query_id

    async def wait_inline(self, query_id: str, timeout: float = 10.0) -> dict[str, Any]:
        """The bot's ``answerInlineQuery`` to the query, waited for."""
        if query_id not in self.inline_answers:
            event = self._answer_events.setdefault(f"inline:{query_id}", asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                raise AssertionError(f"no answer to inline query {query_id} within {timeout:.0f} s") from None
        return self.inline_answers[query_id]

    def choose_inline(
        self, user: FakeUser, query_id: str, result_id: str, chat_id: int, *, feedback: bool = True
    ) -> tuple[str, Sent]:
        """The user picks a result: Telegram posts it "via @bot" in ``chat_id`` (a chat the bot need not be in),
        with the result's buttons; its ``inline_message_id`` and the message. ``feedback=False``: the
        ``chosen_inline_result`` is not sent yet (``inline_feedback_now`` sends it: a press on the message may come
        first)."""
        answer = self.inline_answers[query_id]
        result = next(r for r in answer["results"] if str(r["id"]) == result_id)
        content = result["input_message_content"]
        inline_id = f"AgAAA{next(self._inline_ids):05d}{user.id}"
        sent = Sent(chat_id, next(self._message_ids), content["message_text"], result.get("reply_markup"))
        sent.history.append(sent.text)
        sent.markups.append(sent.reply_markup)
        self.inline_messages[inline_id] = sent
        self._changed(chat_id)
        if feedback:
            self.inline_feedback_now(user, query_id, result_id, inline_id)
        return inline_id, sent

    def inline_feedback_now(self, user: FakeUser, query_id: str, result_id: str, inline_id: str) -> int | None:
        """The ``chosen_inline_result`` of a result the user posted (when inline feedback is on); its update's id."""
        if not self.inline_feedback:
            return None
        result = next(r for r in self.inline_answers[query_id]["results"] if str(r["id"]) == result_id)
        chosen = {"result_id": result_id, "from": user.as_dict(), "query": self.inline_queries.get(query_id, "")}
        if result.get("reply_markup"):  # Telegram: only a message with an inline keyboard can be edited
            chosen["inline_message_id"] = inline_id
        return self._push({"chosen_inline_result": chosen})

    def press_inline(self, user: FakeUser, inline_id: str, callback_data: str) -> str:
        """The user presses a button of a message posted via the bot: the callback has ``inline_message_id`` and
        no ``message``."""
        self.users[user.id] = user
        query_id = str(next(self._callback_ids))
        self.pressed.append(query_id)
        self.pressed_at[query_id] = self.clock()
        chat = self.inline_messages[inline_id].chat_id
        press = {"id": query_id, "from": user.as_dict(), "chat_instance": f"ci{chat}", "data": callback_data,
                 "inline_message_id": inline_id}  # fmt: skip
        self.last_update_id = self._push({"callback_query": press})
        self.update_of[query_id] = self.last_update_id
        return query_id

    # -- what tests look at ------------------------------------------------------

    def chat_messages(self, chat_id: int) -> list[Sent]:
        """The chat's messages, oldest first (those the bot deleted are gone)."""
        chat = self._chats.get(chat_id, {})
        return [chat[i] for i in sorted(chat)]

    def last_message(self, chat_id: int) -> Sent | None:
        found = self.chat_messages(chat_id)
        return found[-1] if found else None

    def last_text(self, chat_id: int) -> Sent | None:
        """The chat's newest message that is not a picture."""
        found = [m for m in self.chat_messages(chat_id) if m.photo is None]
        return found[-1] if found else None

    def calls_to(
        self, chat_id: int, methods: tuple[str, ...] = ("sendMessage", "sendPhoto", "editMessageText")
    ) -> list[Call]:
        return [
            c
            for c in self.calls
            if c.method in methods and c.status == 200 and str(c.params.get("chat_id")) == str(chat_id)
        ]

    def max_in_window(self, chat_id: int, window: float) -> int:
        """The most successful sends plus edits to a chat within any ``window`` seconds."""
        # Calls are noted when they are answered; the window counts them by when they arrived.
        times = sorted(c.at for c in self.calls_to(chat_id, SENT_OR_EDITED))
        best = 0
        start = 0
        for end, at in enumerate(times):
            while at - times[start] >= window:
                start += 1
            best = max(best, end - start + 1)
        return best

    async def wait_answer(self, query_id: str, timeout: float = 10.0, *, handled: bool = True) -> dict[str, Any]:
        """The bot's answer to a press, once the bot is done with the press's update (``done``; ``handled=False``:
        as soon as the answer comes, the handler may still be at work)."""
        if query_id not in self.answers:
            event = self._answer_events.setdefault(query_id, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                seen = self.lately()
                raise AssertionError(f"callback {query_id} was not answered in {timeout:.0f} s; {seen}") from None
        if handled and query_id in self.update_of:
            await self.done(self.update_of[query_id])
        return self.answers[query_id]

    # -- when the bot is done with an update -----------------------------------------------

    def listen(self, handled: Any) -> None:
        """A bot of this process tells the fake of each update it is done with (``bot.middlewares.Handled``)."""
        self.listening += 1
        handled.listen(self.update_done)

    def unlisten(self) -> None:
        """That bot has stopped."""
        self.listening -= 1

    def update_done(self, update_id: int) -> None:
        self.handled.add(update_id)
        self._wake(self._handled_events.pop(update_id, None))

    async def done(self, update_id: int, timeout: float = WAIT_FOR) -> None:
        """Return once a bot said it is done with the update (its handler ended, with everything it writes after
        its Telegram calls): a step that sends an update waits for the bot, not for luck. Nothing to wait for
        while no bot of this process listens, or for an update of a type the bot did not ask for."""
        update = next((u for u in reversed(self.updates) if u["update_id"] == update_id), None)
        if self.listening <= 0 or update_id in self.handled or update is None or not self._wanted(update):
            return
        event = self._handled_events.setdefault(update_id, asyncio.Event())
        try:
            await asyncio.wait_for(event.wait(), timeout)
        except TimeoutError:
            kind = next(k for k in update if k != "update_id")
            raise AssertionError(
                f"the bot was not done with update {update_id} ({kind}) within {timeout:.0f} s; {self.lately()}"
            ) from None

    async def wait_change(self, chat_id: int, timeout: float) -> None:
        """Return once a message of the chat is sent, edited or deleted (or ``timeout`` passed)."""
        event = self._chat_events.setdefault(chat_id, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout)

    @staticmethod
    def _wake(event: asyncio.Event | None) -> None:
        if event is not None:
            event.set()

    def _changed(self, chat_id: int) -> None:
        self._wake(self._chat_events.pop(chat_id, None))

    async def wait_for(self, predicate: Any, timeout: float = WAIT_FOR, what: str = "condition") -> Any:
        """The first true value of ``predicate()``, looked at every 10 ms; AssertionError after ``timeout`` real
        seconds. A deadline for what must happen, not a measure of speed: it only ends a failing test."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}; {self.lately()}")
            await asyncio.sleep(0.01)

    def lately(self, count: int = 8) -> str:
        """What the bot did last (its last calls but long polls), for a deadline's message: what a test saw
        instead of what it waited for."""
        calls = [c for c in self.calls if c.method != "getUpdates"][-count:]
        if not calls:
            return "the bot has called nothing"
        lines = []
        for call in calls:
            text = str(call.params.get("text", call.params.get("caption", "")))[:60].replace("\n", " ")
            chat = call.params.get("chat_id", call.params.get("inline_message_id", ""))
            lines.append(f"  {call.method} {chat} -> {call.status} {call.description} {text}".rstrip())
        return f"its last {len(calls)} calls of {len(self.calls)}:\n" + "\n".join(lines)

    def calls_on(self, chat_id: int, message_id: int) -> list[str]:
        """Each call that sent or edited the message, refused ones too, with its status and buttons' data (for a
        failure's message: what became of one message)."""
        lines = []
        for c in self.calls:
            touched = c.message_id if c.method.startswith("send") else c.params.get("message_id")
            if str(c.params.get("chat_id")) != str(chat_id) or touched is None or int(touched) != message_id:
                continue
            markup = c.params.get("reply_markup") or {}
            data = [b.get("callback_data") for row in markup.get("inline_keyboard", []) for b in row]
            lines.append(f"{c.real:.3f} {c.method} {c.status} {c.description} {data}")
        return lines

    async def quiet(self, period: float = 0.2, timeout: float = 10.0) -> None:
        """Wait until the bot has called no method (long polls aside) for ``period`` seconds."""

        def still() -> bool:
            last = max((c.real for c in self.calls if c.method != "getUpdates"), default=0.0)
            return time.monotonic() - last >= period

        await self.wait_for(still, timeout, "the bot to fall quiet")

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until every update was fetched by the bot."""
        await self.wait_for(lambda: self.delivered >= len(self.updates), timeout, "updates to be fetched")
