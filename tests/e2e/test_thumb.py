"""The fastest thumb: every kind of message with buttons the bot posts, pressed the instant it appears.

A phone shows a message the moment Telegram has it, before the answer to the bot's send is back and long before
the bot has written the message's id down. The fake Bot API's thumb (``FakeTelegram.thumb``) acts on a message
right then: it delivers the press (or follows the link, or opens the Mini App) while the send's answer is held from
the bot, and lets the answer go only once the bot has answered the press. Each kind is played twice, on a bot of
its own: once so, and once with the same act a moment later, when the bot is settled; what the act did (the
answer, the messages, what Redis holds) must be the same both times.

The kinds are read from the code: every function of ``bot/`` that builds an inline keyboard is a kind's, and every
callback data class is pressed by some kind (``test_every_kind_is_swept``). A new keyboard without an entry here
fails that test.
"""

from __future__ import annotations

import ast
import contextlib
import inspect
import re
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiohttp
import pytest
from aiogram.filters.callback_data import CallbackData

from bot import callbacks
from bot.app import App
from bot.webapp.server import webapp_server
from tests.e2e import invariants
from tests.e2e.browser import init_data
from tests.e2e.conftest import delete_keys, running_bot
from tests.e2e.driver import (
    TURN,
    WAITING,
    ask,
    button,
    join_by_link,
    move_data,
    new_match,
    panel_of,
    playable,
    start_bot,
    surrender,
    surrender_question,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent, Thumb
from tests.e2e.simclock import SimClock
from tests.ports import free_port

ROOT = Path(__file__).resolve().parents[2]
GROUP = -100960
ANN = FakeUser(9601, "Ann", "ann_thumb", "ru")
BOB = FakeUser(9602, "Bob", "bob_thumb", "ru")
CARL = FakeUser(9603, "Carl", "carl_thumb", "ru")
NEWT = FakeUser(9604, "Newt", "newt_thumb", "ru")
"""Never started the bot."""
OTHER_GROUP = -100961
CHAT_OF_TWO = 9605
"""Ann's private chat with Bob, where she posts an inline challenge (the bot is not in it)."""
APP_URL = "https://tables.example/app"
DAY = 86400
Mode = Literal["later", "thumb"]
Facts = dict[str, object]
T = TypeVar("T")


def answer_facts(answer: dict[str, Any]) -> Facts:
    """What a person reads of the bot's answer to a press: the toast (or alert) and the link it opens."""
    url = str(answer.get("url") or "")
    return {
        "toast": answer.get("text") or "",
        "alert": bool(answer.get("show_alert")),
        "url": re.sub(r"_\S+", "_…", url),
    }


def data_of(sent: Sent, prefix: str) -> str:
    return str(button(sent, prefix)["callback_data"])


def has(prefix: str) -> Callable[[Sent], bool]:
    """A message carrying a button whose data starts with ``prefix``."""
    return lambda sent: any(str(b.get("callback_data", "")).startswith(prefix) for b in sent.buttons())


def kinds_of(sent: Sent) -> list[str]:
    """A message's buttons by kind: each callback data's prefix, or ``url`` / ``web_app``."""
    found = []
    for b in sent.buttons():
        data = b.get("callback_data")
        found.append(str(data).split(":")[0] if data else next(k for k in ("url", "web_app") if k in b))
    return found


class Scene:
    """One run of a kind: the bot, the fake Bot API and whether the act comes at once (``thumb``) or later."""

    def __init__(self, fake: FakeTelegram, app: App, mode: Mode, clock: SimClock | None = None) -> None:
        self.fake = fake
        self.app = app
        self.mode = mode
        self.clock = clock
        self.app_base = ""
        """The Mini App's server, when the run has one."""
        self.queries: list[str] = []
        self.in_the_gap: bool | None = None
        """Whether the thumb's act ended while the bot still waited for the send's answer (thumb only)."""

    def tap(self, user: FakeUser, prefix: str) -> Callable[[Sent], Awaitable[Facts]]:
        """An act: ``user`` presses the message's first button whose data starts with ``prefix``; its answer."""

        async def press(sent: Sent) -> Facts:
            query = self.fake.press(user, sent, data_of(sent, prefix))
            self.queries.append(query)
            return answer_facts(await self.fake.wait_answer(query, handled=False))

        return press

    async def open_app(self, user: FakeUser, match_id: str) -> Facts:
        """``user`` opens the match in the Mini App: what its first state says."""
        headers = {"Authorization": f"tma {init_data(user, start_param=f'm_{match_id}')}"}
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{self.app_base}/app/api/state?m={match_id}", headers=headers) as response,
        ):
            state = await response.json()
        return {"status": response.status, "seat": state.get("seat"), "hand": len(state.get("hand") or [])}

    async def act(
        self,
        trigger: Callable[[], Awaitable[object]],
        pick: Callable[[Sent], bool],
        do: Callable[[Sent], Awaitable[T]],
        *,
        chat: int,
    ) -> T:
        """``trigger()`` makes the bot send a message to ``chat`` that ``pick`` knows; ``do`` acts on it: at once
        (thumb) or once the bot is settled (later). What ``do`` gave, once the bot is done with the act too."""
        if self.mode == "thumb":
            thumb = Thumb(lambda sent: do(sent) if sent.chat_id == chat and pick(sent) else None)
            self.fake.thumb = thumb
            await trigger()
            await self.fake.wait_for(lambda: thumb.acted, what="the thumb to act on the new message")
            acted = thumb.acted[0]
            self.in_the_gap = acted.in_the_gap
            await self.fake.wait_for(lambda: acted.result is not None, what="the thumb's act to end")
            result: T = acted.result
        else:
            seen = {m.message_id for m in self.fake.chat_messages(chat)}
            await trigger()
            sent = await self.fake.wait_for(
                lambda: next((m for m in self.fake.chat_messages(chat) if m.message_id not in seen and pick(m)), None),
                what="the message to act on",
            )
            await self.app.settled()
            result = await do(sent)
        for query in self.queries:
            await self.fake.done(self.fake.update_of[query])
        await self.app.settled()
        return result


@dataclass
class Kind:
    """A kind of message with buttons: where it goes, the code that makes its buttons, what its run does."""

    where: Literal["group", "private", "inline"]
    builders: tuple[str, ...]
    """The functions of ``bot/`` that build its keyboard (``module.function``)."""
    presses: tuple[str, ...]
    """The callback data prefixes its run presses (``tn``, ``j``; a link or the Mini App: none)."""
    run: Callable[[Scene], Awaitable[Facts]]
    settings: dict[str, Any] = field(default_factory=dict)
    """The bot's settings for the run (a simulated clock: ``clock``; the Mini App: ``webapp``)."""


async def everyone_started(fake: FakeTelegram, *users: FakeUser) -> None:
    for user in users:
        await start_bot(fake, user)


# -- the group -----------------------------------------------------------------------------------------------------


async def challenge_join(s: Scene) -> Facts:
    """Bob accepts Ann's challenge the instant it is posted."""
    await everyone_started(s.fake, ANN, BOB)
    answer = await s.act(lambda: ask(s.fake, ANN, GROUP, "/play"), has("j:"), s.tap(BOB, "j:"), chat=GROUP)
    challenge = next(m for m in s.fake.chat_messages(GROUP) if m.history and "j:" in str(m.markups[0]))
    match_id = await s.app.services.records.active_match(GROUP, ANN.id)
    return {
        **answer,
        "challenge": (challenge.text.split("\n")[0][:12], kinds_of(challenge)),
        "match": match_id is not None,
    }


def tournament_message(fake: FakeTelegram) -> Sent:
    return [m for m in fake.chat_messages(GROUP) if has("tn:")(m)][-1]


async def tournament_signup(s: Scene) -> Facts:
    """Bob joins the sign-up the instant it is posted."""
    await everyone_started(s.fake, ANN, BOB)
    answer = await s.act(lambda: ask(s.fake, ANN, GROUP, "/tournament"), has("tn:"), s.tap(BOB, "tn:"), chat=GROUP)
    t = await s.app.services.tournaments.current(GROUP)
    assert t is not None
    shown = tournament_message(s.fake)
    return {
        **answer,
        "entrants": [e.player.name for e in t.entrants],
        "shown": (BOB.first_name in shown.text, kinds_of(shown), shown.message_id == t.message_id),
    }


async def tournament_repost(s: Scene) -> Facts:
    """/tournament posts the sign-up again; its organiser starts it the instant the new message is there."""
    await everyone_started(s.fake, ANN, BOB, CARL)
    first = await ask(s.fake, ANN, GROUP, "/tournament")
    for user in (BOB, CARL):
        await s.fake.wait_answer(s.fake.press(user, first, data_of(first, "tn:")))
    await s.app.settled()

    def start(user: FakeUser) -> Callable[[Sent], Awaitable[Facts]]:
        async def press(sent: Sent) -> Facts:
            tid = data_of(sent, "tn:").split(":")[1]
            query = s.fake.press(user, sent, f"tn:{tid}:s")
            s.queries.append(query)
            return answer_facts(await s.fake.wait_answer(query, handled=False))

        return press

    answer = await s.act(
        lambda: ask(s.fake, CARL, GROUP, "/tournament"),
        lambda m: has("tn:")(m) and m.message_id != first.message_id,
        start(ANN),
        chat=GROUP,
    )
    t = await s.app.services.tournaments.current(GROUP)
    assert t is not None
    with_buttons = [m for m in s.fake.chat_messages(GROUP) if has("tn:")(m)]
    return {
        **answer,
        "status": t.status,
        "boards with buttons": len(with_buttons),
        "first": kinds_of(s.fake.messages[(GROUP, first.message_id)]),
        "board is the tournament's": [m.message_id for m in with_buttons] == [t.message_id],
        "board": kinds_of(with_buttons[-1]) if with_buttons else [],
    }


async def result_rematch(s: Scene) -> Facts:
    """Ann gives up; Bob presses 🔁 under the result the instant it is posted."""
    await everyone_started(s.fake, ANN, BOB)
    match_id = await new_match(s.fake, ANN, BOB, GROUP)
    question = await surrender_question(s.fake, ANN, GROUP, match_id)

    async def give_up() -> None:
        await s.fake.wait_answer(s.fake.press(ANN, question, f"s:{match_id}:{ANN.id}:1"))

    tr = s.app.presenter.i18n["ru"]
    answer = await s.act(give_up, has("rm:"), s.tap(BOB, "rm:"), chat=GROUP)
    result = next(m for m in s.fake.chat_messages(GROUP) if has("rm:")(m))
    asked = tr("rematch-asked", name=BOB.first_name, other=ANN.first_name)
    rematch = await s.app.services.stores.challenges.rematch(GROUP, match_id)
    return {**answer, "result says": asked in result.text, "result": kinds_of(result), "rematch": rematch is not None}


async def challenge_computer(s: Scene) -> Facts:
    """Ann plays the computer instead, the instant her challenge is posted."""
    await everyone_started(s.fake, ANN)
    answer = await s.act(lambda: ask(s.fake, ANN, GROUP, "/play"), has("cpu:"), s.tap(ANN, "cpu:"), chat=GROUP)
    challenge = next(m for m in s.fake.chat_messages(GROUP) if "cpu:" in str(m.markups[0]))
    match_id = await s.app.services.records.active_match(GROUP, ANN.id)
    return {**answer, "challenge": kinds_of(challenge), "match": match_id is not None}


async def challenge_withdrawn(s: Scene) -> Facts:
    """Ann withdraws her challenge the instant it is posted."""
    tr = s.app.presenter.i18n["ru"]
    await everyone_started(s.fake, ANN)
    answer = await s.act(lambda: ask(s.fake, ANN, GROUP, "/play"), has("w:"), s.tap(ANN, "w:"), chat=GROUP)
    challenge = next(m for m in s.fake.chat_messages(GROUP) if "w:" in str(m.markups[0]))
    open_now = await s.app.services.challenges.open_challenge_of(GROUP, ANN.id) is not None
    withdrawn = tr("challenge-withdrawn", creator=ANN.first_name).split(".")[0]
    return {**answer, "says withdrawn": withdrawn in challenge.text, "challenge": kinds_of(challenge), "open": open_now}


async def turn_with(s: Scene) -> tuple[str, FakeUser, FakeUser]:
    """A match of Ann and Bob in the group: its id, who is to act and who waits."""
    await everyone_started(s.fake, ANN, BOB)
    match_id = await new_match(s.fake, ANN, BOB, GROUP)
    _, match = await s.app.services.records.get(match_id)
    assert match.turn is not None
    mover = (ANN, BOB)[match.turn]
    return match_id, mover, BOB if mover is ANN else ANN


def panels_with_buttons(fake: FakeTelegram, user: FakeUser) -> int:
    return sum(1 for m in fake.chat_messages(user.id) if has("a:")(m))


async def press_playable(s: Scene, user: FakeUser, sent: Sent) -> Facts:
    query = s.fake.press(user, sent, playable(sent)[0]["callback_data"])
    s.queries.append(query)
    return answer_facts(await s.fake.wait_answer(query, handled=False))


async def handed_panel(s: Scene) -> Facts:
    """The turn passes: the panel that comes to the bottom of the other's chat is pressed the instant it is
    there."""
    match_id, mover, other = await turn_with(s)

    async def move() -> None:
        panel = panel_of(s.fake, mover)
        assert panel is not None
        answer = await s.fake.wait_answer(s.fake.press(mover, panel, playable(panel)[0]["callback_data"]))
        assert not answer.get("text"), answer

    answer = await s.act(
        move, lambda m: has(f"a:{match_id}:1:")(m), lambda sent: press_playable(s, other, sent), chat=other.id
    )
    record, _ = await s.app.services.records.get(match_id)
    return {
        **answer,
        "version": record.version,
        "panels with buttons": [panels_with_buttons(s.fake, u) for u in (ANN, BOB)],
        "newest is the panel": [panel_of(s.fake, u) is s.fake.last_message(u.id) for u in (ANN, BOB)],
    }


async def hand_again(s: Scene) -> Facts:
    """/hand sends the panel again at the bottom; a tile on it is pressed the instant it is there."""
    match_id, mover, _ = await turn_with(s)
    before = panel_of(s.fake, mover)
    answer = await s.act(
        lambda: ask(s.fake, mover, mover.id, "/hand"),
        lambda m: before is not None and m.message_id > before.message_id and has("a:")(m),
        lambda sent: press_playable(s, mover, sent),
        chat=mover.id,
    )
    record, _ = await s.app.services.records.get(match_id)
    return {
        **answer,
        "version": record.version,
        "panels with buttons": [panels_with_buttons(s.fake, u) for u in (ANN, BOB)],
    }


async def the_surrender(s: Scene) -> Facts:
    """Ann gives up the instant the question is there."""
    tr = s.app.presenter.i18n["ru"]
    match_id, _, _ = await turn_with(s)

    async def ask_it() -> None:
        await surrender_question(s.fake, ANN, GROUP, match_id)

    answer = await s.act(ask_it, has(f"s:{match_id}:{ANN.id}:1"), s.tap(ANN, f"s:{match_id}:{ANN.id}:1"), chat=GROUP)
    question = next(m for m in s.fake.chat_messages(GROUP) if "s:" in str(m.markups[0]))
    record, _ = await s.app.services.records.get(match_id)
    return {**answer, "question": question.text == tr("toast-done"), "status": record.status.value}


async def lang_menu(s: Scene) -> Facts:
    """An admin's /lang: Polish, pressed the instant the menu is there."""
    s.fake.admins[GROUP] = {ANN.id}
    await everyone_started(s.fake, ANN)
    answer = await s.act(lambda: ask(s.fake, ANN, GROUP, "/lang"), has("l:"), s.tap(ANN, "l:pl"), chat=GROUP)
    menu = next(m for m in s.fake.chat_messages(GROUP) if "l:" in str(m.markups[0]))
    settings = await s.app.services.chats.settings(GROUP)
    return {**answer, "menu": menu.text, "lang": settings.lang}


async def greeting(s: Scene) -> Facts:
    """The bot is added to the group; an admin presses Polish under the greeting the instant it is there."""
    s.fake.admins[GROUP] = {ANN.id}

    async def add() -> None:
        s.fake.bot_membership(ANN, GROUP, "member")
        await s.fake.done(s.fake.newest_update)

    answer = await s.act(add, has("lg:"), s.tap(ANN, "lg:pl"), chat=GROUP)
    shown = next(m for m in s.fake.chat_messages(GROUP) if has("lg:")(m))
    settings = await s.app.services.chats.settings(GROUP)
    return {**answer, "greeting": shown.text, "buttons": kinds_of(shown), "lang": settings.lang}


async def settings_menu(s: Scene) -> Facts:
    """An admin's /settings: 42 as the group's game, pressed the instant the menu is there."""
    s.fake.admins[GROUP] = {ANN.id}
    await everyone_started(s.fake, ANN)
    answer = await s.act(
        lambda: ask(s.fake, ANN, GROUP, "/settings"), has("cfg:"), s.tap(ANN, "cfg:game:42"), chat=GROUP
    )
    menu = next(m for m in s.fake.chat_messages(GROUP) if has("cfg:")(m))
    settings = await s.app.services.chats.settings(GROUP)
    return {**answer, "menu": menu.text.split("\n")[0], "buttons": len(kinds_of(menu)), "preset": settings.preset}


async def never_started(s: Scene) -> Facts:
    """Bob accepts in the group, but the bot cannot write to him (he never started it, as Telegram sees it): the
    group is told, with a button that opens the bot; he follows it the instant the notice is there and gets his
    panel."""
    await everyone_started(s.fake, ANN, BOB)
    s.fake.started.discard(BOB.id)
    challenge_message = await ask(s.fake, ANN, GROUP, "/play")

    async def join() -> None:
        await s.fake.wait_answer(s.fake.press(BOB, challenge_message, data_of(challenge_message, "j:")))

    async def follow(sent: Sent) -> Facts:
        link = next(str(b["url"]) for b in sent.buttons() if "url" in b)
        s.fake.send_text(BOB, BOB.id, f"/start {link.split('start=')[1]}")
        await s.fake.done(s.fake.newest_update)
        return {"link": re.sub(r"_\S+", "_…", link)}

    def notice(sent: Sent) -> bool:
        return any("start=m_" in str(b.get("url", "")) for b in sent.buttons())

    facts = await s.act(join, notice, follow, chat=GROUP)
    await s.fake.wait_for(lambda: panel_of(s.fake, BOB), what="Bob's panel")
    return {**facts, "panels with buttons": [panels_with_buttons(s.fake, u) for u in (ANN, BOB)]}


async def tournament_not_started(s: Scene) -> Facts:
    """Newt, who never started the bot, asks for a tournament: the answer's button opens the bot; he follows it the
    instant it is there."""

    async def follow(sent: Sent) -> Facts:
        link = next(str(b["url"]) for b in sent.buttons() if "url" in b)
        s.fake.send_text(NEWT, NEWT.id, f"/start {link.split('start=')[1]}")
        await s.fake.done(s.fake.newest_update)
        return {"link": link.rsplit("/", 1)[1]}

    def opens_the_bot(sent: Sent) -> bool:
        return any("?start=" in str(b.get("url", "")) for b in sent.buttons())

    facts = await s.act(lambda: ask(s.fake, NEWT, GROUP, "/tournament"), opens_the_bot, follow, chat=GROUP)
    welcome = s.fake.last_message(NEWT.id)
    profile = await s.app.services.chats.profile(NEWT.id)
    return {**facts, "welcome": kinds_of(welcome) if welcome else None, "started": profile.started}


async def finished_match(s: Scene, moves: int = 0) -> str:
    """A match of Ann and Bob that Ann gave up after ``moves`` moves; its id."""
    match_id, _, _ = await turn_with(s)
    for _ in range(moves):
        _, match = await s.app.services.records.get(match_id)
        assert match.turn is not None
        mover = (ANN, BOB)[match.turn]
        panel = await s.fake.wait_for(lambda u=mover: (p := panel_of(s.fake, u)) and playable(p) and p, what="a panel")
        await s.fake.wait_answer(s.fake.press(mover, panel, playable(panel)[0]["callback_data"]))
        await s.app.settled()
    await surrender(s.fake, ANN, GROUP, match_id)
    await s.app.settled()
    return match_id


async def replay_list(s: Scene) -> Facts:
    """Bob's /replay: the match is pressed the instant the list is there, and its replay comes."""
    await finished_match(s, moves=2)
    answer = await s.act(lambda: ask(s.fake, BOB, BOB.id, "/replay"), has("rp:"), s.tap(BOB, "rp:"), chat=BOB.id)
    replays = [m for m in s.fake.chat_messages(BOB.id) if has("rp:")(m)]
    return {**answer, "messages with replay buttons": len(replays), "newest": kinds_of(replays[-1])}


async def a_replay(s: Scene) -> Facts:
    """Bob opens the replay by its link; ▶ is pressed the instant it is there."""
    match_id = await finished_match(s, moves=2)
    tr = s.app.presenter.i18n["ru"]
    nxt = tr("btn-replay-next")

    async def step(sent: Sent) -> Facts:
        before = sent.text
        query = s.fake.press(BOB, sent, next(b["callback_data"] for b in sent.buttons() if b["text"] == nxt))
        s.queries.append(query)
        answer = answer_facts(await s.fake.wait_answer(query, handled=False))
        return {**answer, "first": before}

    facts = await s.act(lambda: ask(s.fake, BOB, BOB.id, f"/start r_{match_id}"), has("rp:"), step, chat=BOB.id)
    replay = next(m for m in s.fake.chat_messages(BOB.id) if has("rp:")(m))
    first = facts.pop("first")
    return {**facts, "moved on": replay.text != first and len(replay.history) == 2, "buttons": kinds_of(replay)}


async def welcome(s: Scene) -> Facts:
    """Newt's /start: he adds the bot to a group by the welcome's button the instant it is there."""

    async def add(sent: Sent) -> Facts:
        link = next(str(b["url"]) for b in sent.buttons() if "url" in b)
        s.fake.bot_membership(NEWT, OTHER_GROUP, "member")
        await s.fake.done(s.fake.newest_update)
        return {"link": link.rsplit("?", 1)[1]}

    facts = await s.act(lambda: ask(s.fake, NEWT, NEWT.id, "/start"), lambda m: bool(m.buttons()), add, chat=NEWT.id)
    greeted = s.fake.last_message(OTHER_GROUP)
    return {**facts, "greeted": kinds_of(greeted) if greeted else None}


async def claim_the_win(s: Scene) -> Facts:
    """With the clock off, a day without a move: the waiting player takes the win the instant the offer is there."""
    await s.app.services.chats.update_settings(GROUP, turn_timeout=0)
    match_id, _, waiting = await turn_with(s)
    record, _ = await s.app.services.records.get(match_id)
    assert s.clock is not None

    async def a_day_later() -> None:
        assert s.clock is not None
        s.clock.advance(record.updated + DAY + 5 - s.clock.time())
        await s.app.scheduler.run_due()

    answer = await s.act(a_day_later, has("cw:"), s.tap(waiting, "cw:"), chat=waiting.id)
    final, _ = await s.app.services.records.get(match_id)
    offer = next(m for m in s.fake.chat_messages(waiting.id) if "cw:" in str(m.markups[0]))
    won = final.winner == (ANN, BOB).index(waiting)
    return {**answer, "finish": final.finish.value if final.finish else None, "won": won, "offer": kinds_of(offer)}


async def last_panel(s: Scene) -> Facts:
    """A claimed win sends both last panels anew, each with 🔁: the winner presses it the instant theirs is there."""
    tr = s.app.presenter.i18n["ru"]
    await s.app.services.chats.update_settings(GROUP, turn_timeout=0)
    match_id, gone, waiting = await turn_with(s)
    record, _ = await s.app.services.records.get(match_id)
    assert s.clock is not None
    s.clock.advance(record.updated + DAY + 5 - s.clock.time())
    await s.app.scheduler.run_due()
    await s.app.settled()
    offer = await s.fake.wait_for(
        lambda: next((m for m in s.fake.chat_messages(waiting.id) if has("cw:")(m)), None), what="the offer"
    )

    async def claim() -> None:
        await s.fake.wait_answer(s.fake.press(waiting, offer, data_of(offer, "cw:")))

    answer = await s.act(claim, has("rm:"), s.tap(waiting, "rm:"), chat=waiting.id)
    result = next(m for m in s.fake.chat_messages(GROUP) if has("rm:")(m))
    asked = tr("rematch-asked", name=waiting.first_name, other=gone.first_name)
    return {**answer, "result says": asked in result.text, "result": kinds_of(result)}


async def hint(s: Scene) -> Facts:
    """Against the computer: 💡 pressed the instant the panel that offers it is there."""
    tr = s.app.presenter.i18n["ru"]
    await everyone_started(s.fake, ANN)
    answer = await s.act(lambda: ask(s.fake, ANN, GROUP, "/play bot"), has("h:"), s.tap(ANN, "h:"), chat=ANN.id)
    match_id = await s.app.services.records.active_match(GROUP, ANN.id)
    assert match_id is not None
    record, _ = await s.app.services.records.get(match_id)
    toast = str(answer.pop("toast"))
    return {**answer, "a hint": bool(toast) and toast != tr("hint-not-now"), "hints": record.hints}


async def private_computer(s: Scene) -> Facts:
    """/play in private against the computer: a tile of the one panel pressed the instant it is there (taken when
    the panel showed it playable, refused as out of turn when not)."""
    tr = s.app.presenter.i18n["ru"]
    await everyone_started(s.fake, ANN)
    acting_then: list[bool] = []

    async def press(sent: Sent) -> Facts:
        acting = WAITING not in sent.text  # a waiting player's tiles are not marked unplayable
        acting_then.append(acting)
        data = (playable(sent) if acting else [b for b in sent.buttons() if move_data(b)])[0]["callback_data"]
        query = s.fake.press(ANN, sent, data)
        s.queries.append(query)
        return answer_facts(await s.fake.wait_answer(query, handled=False))

    answer = await s.act(lambda: ask(s.fake, ANN, ANN.id, "/play"), has("a:"), press, chat=ANN.id)
    toast = answer.pop("toast")
    expected = "" if acting_then[0] else tr("refusal-not_your_turn")
    return {**answer, "judged as the panel said": toast == expected}


async def table_app(s: Scene) -> Facts:
    """The group's table has the Mini App's button: a member opens it the instant the table is there."""
    await everyone_started(s.fake, ANN, BOB, CARL)
    message = await ask(s.fake, ANN, GROUP, "/play")

    async def join() -> None:
        await join_by_link(s.fake, BOB, message)

    def table(sent: Sent) -> bool:
        return any("startapp=" in str(b.get("url", "")) for b in sent.buttons())

    async def open_it(sent: Sent) -> Facts:
        link = next(str(b["url"]) for b in sent.buttons() if "url" in b)
        return await s.open_app(CARL, link.split("startapp=m_")[1])

    return await s.act(join, table, open_it, chat=GROUP)


async def panel_app(s: Scene) -> Facts:
    """A panel's Mini App button: its player opens it the instant the panel is there."""
    await everyone_started(s.fake, ANN, BOB)
    message = await ask(s.fake, ANN, GROUP, "/play")

    async def join() -> None:
        await join_by_link(s.fake, BOB, message)

    async def open_it(sent: Sent) -> Facts:
        url = next(str(b["web_app"]["url"]) for b in sent.buttons() if "web_app" in b)
        return await s.open_app(BOB, url.split("m=")[1].split("&")[0])

    return await s.act(join, lambda m: any("web_app" in b for b in m.buttons()), open_it, chat=BOB.id)


async def inline_challenge(s: Scene) -> Facts:
    """Ann posts an inline challenge in her chat with Bob; Bob accepts it before the bot hears that it was posted
    (``chosen_inline_result``), or a moment after."""
    tr = s.app.presenter.i18n["ru"]
    await everyone_started(s.fake, ANN, BOB)
    query = s.fake.inline_query(ANN, "бинго")
    answer = await s.fake.wait_inline(query)
    result = str(answer["results"][0]["id"])
    thumb = s.mode == "thumb"
    inline_id, sent = s.fake.choose_inline(ANN, query, result, CHAT_OF_TWO, feedback=not thumb)
    if not thumb:
        await s.fake.done(s.fake.newest_update)
        await s.app.settled()
    press = s.fake.press_inline(BOB, inline_id, data_of(sent, "j:"))
    facts = answer_facts(await s.fake.wait_answer(press))
    if thumb:
        s.in_the_gap = True  # the press came before the bot knew the message
        s.fake.inline_feedback_now(ANN, query, result, inline_id)
        await s.fake.done(s.fake.newest_update)
    await s.app.settled()
    challenge = await s.app.services.challenges.challenge(result)
    table = s.fake.inline_messages[inline_id]
    return {
        **facts,
        "open": challenge is not None,
        "table": tr("table-turn", name="").split(" ")[0] in table.text or TURN in table.text,
        "panels": [panel_of(s.fake, u) is not None for u in (ANN, BOB)],
    }


KINDS: dict[str, Kind] = {
    # the group
    "a challenge, accepted": Kind("group", ("keyboards.challenge_keyboard",), ("j",), challenge_join),
    "a challenge, the computer instead": Kind("group", ("keyboards.challenge_keyboard",), ("cpu",), challenge_computer),
    "a challenge, withdrawn": Kind("group", ("keyboards.challenge_keyboard",), ("w",), challenge_withdrawn),
    "a tournament's sign-up": Kind("group", ("tournament_text.board_keyboard",), ("tn",), tournament_signup),
    "a tournament posted again": Kind("group", ("tournament_text.board_keyboard",), ("tn",), tournament_repost),
    "the result's rematch": Kind("group", ("keyboards.rematch_keyboard",), ("rm",), result_rematch),
    "the surrender question": Kind("group", ("keyboards.surrender_keyboard",), ("s",), the_surrender),
    "/lang": Kind("group", ("keyboards.lang_keyboard",), ("l",), lang_menu),
    "the greeting": Kind("group", ("keyboards.lang_keyboard",), ("lg",), greeting),
    "/settings": Kind("group", ("routers.settings.settings_keyboard",), ("cfg",), settings_menu),
    "a player the bot cannot write to": Kind("group", ("keyboards.open_bot_keyboard",), (), never_started),
    "a tournament for one who never started the bot": Kind(
        "group", ("keyboards.open_bot_keyboard",), (), tournament_not_started
    ),
    "the table's Mini App": Kind("group", ("keyboards.table_keyboard",), (), table_app, {"webapp": True}),
    # private
    "the panel handed the turn": Kind(
        "private", ("keyboards.panel_json", "keyboards.panel_keyboard"), ("a",), handed_panel
    ),
    "/hand": Kind("private", ("keyboards.panel_json",), ("a",), hand_again),
    "the hint": Kind("private", ("keyboards.panel_json",), ("h",), hint, {"computer_pause": 0.05}),
    "a match against the computer in private": Kind(
        "private", ("keyboards.panel_json",), ("a",), private_computer, {"computer_pause": 3600.0}
    ),
    "the panel's Mini App": Kind("private", ("keyboards.panel_json",), (), panel_app, {"webapp": True}),
    "the offer to claim the win": Kind(
        "private", ("presenter.Presenter.offer_win",), ("cw",), claim_the_win, {"clock": True}
    ),
    "the last panel's rematch": Kind("private", ("keyboards.rematch_keyboard",), ("rm",), last_panel, {"clock": True}),
    "/replay": Kind("private", ("replays.list_keyboard",), ("rp",), replay_list),
    "a replay": Kind("private", ("replays.replay_keyboard",), ("rp",), a_replay),
    "the welcome": Kind("private", ("keyboards.add_to_group_keyboard",), (), welcome),
    # inline
    "an inline challenge": Kind("inline", ("keyboards.inline_challenge_keyboard",), ("j",), inline_challenge),
}


BUILDS = ("InlineKeyboardMarkup", "InlineKeyboardMarkup.model_validate", "keyboard_json")


def builders_in(node: ast.AST, module: str, where: tuple[str, ...] = ()) -> set[str]:
    """The functions (and methods) under ``node`` that call one of ``BUILDS``."""
    found: set[str] = set()
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            found |= builders_in(child, module, (*where, child.name))
            continue
        if isinstance(child, ast.Call) and where and ast.unparse(child.func) in BUILDS:
            found.add(".".join([module, *where[:2]]))
        found |= builders_in(child, module, where)
    return found


def keyboard_builders() -> set[str]:
    """Every function of ``bot/`` that builds an inline keyboard (``InlineKeyboardMarkup``, or its JSON with
    ``keyboard_json``), as ``module.function`` (a method: ``module.Class.method``), the module relative to ``bot``."""
    found: set[str] = set()
    for path in sorted((ROOT / "bot").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT / "bot").with_suffix("").parts)
        tree = ast.parse(path.read_text())

        if module != "lean":  # where keyboard_json itself is
            found |= builders_in(tree, module)
    return found


def test_every_kind_is_swept() -> None:
    """The kinds are read from the code: every keyboard a function of ``bot/`` builds is some kind's, and every
    callback data class is pressed by some kind; a new one without an entry here fails."""
    swept = {builder for kind in KINDS.values() for builder in kind.builders}
    missing = keyboard_builders() - swept
    assert not missing, f"keyboards no kind of the sweep covers (add a Kind for each): {sorted(missing)}"
    unknown = swept - keyboard_builders()
    assert not unknown, f"the sweep names keyboards the code does not build: {sorted(unknown)}"
    prefixes = {
        cls.__prefix__
        for _, cls in inspect.getmembers(callbacks, inspect.isclass)
        if issubclass(cls, CallbackData) and cls is not CallbackData
    }
    pressed = {prefix for kind in KINDS.values() for prefix in kind.presses}
    assert prefixes - pressed == set(), f"buttons no kind presses: {sorted(prefixes - pressed)}"
    assert {kind.where for kind in KINDS.values()} == {"group", "private", "inline"}


@pytest.mark.cluster
@pytest.mark.parametrize("name", sorted(KINDS))
async def test_the_fastest_thumb(name: str) -> None:
    """The act on the message the instant it appears does what the same act a moment later does."""
    kind = KINDS[name]
    facts: dict[Mode, Facts] = {}
    for mode in ("later", "thumb"):
        facts[mode] = await run(kind, mode, name)
    assert facts["thumb"] == facts["later"], f"{name}: at once {facts['thumb']}, a moment later {facts['later']}"


async def run(kind: Kind, mode: Mode, name: str) -> Facts:
    """One run of a kind, on a bot of its own, its fake Bot API and its keys."""
    settings = dict(kind.settings)
    clock = SimClock() if settings.pop("clock", False) else None
    if settings.pop("webapp", False):
        settings.update(webapp_url=APP_URL, webapp_short_name="table")
    fake = FakeTelegram()
    await fake.start()
    prefix = f"e2e:{uuid.uuid4().hex}"
    try:
        async with contextlib.AsyncExitStack() as stack:
            app = await stack.enter_async_context(running_bot(fake, prefix, clock=clock, **settings))
            if clock is not None:
                await stack.enter_async_context(clock.ticking(step=0.01, every=0.005))
            scene = Scene(fake, app, mode, clock)
            if app.tables is not None:
                scene.app_base = await stack.enter_async_context(app_server(app))
            facts = await kind.run(scene)
            if mode == "thumb":
                assert scene.in_the_gap, f"{name}: the act waited for the send's answer"
            unanswered = [q for q in fake.pressed if q not in fake.answers]
            assert not unanswered, f"{name}: presses never answered: {unanswered}"
            invariants.nothing_refused(fake)
            return facts
    finally:
        await fake.stop()
        await delete_keys(prefix)


@contextlib.asynccontextmanager
async def app_server(app: App) -> AsyncIterator[str]:
    """The bot's Mini App on a port of its own; its base URL."""
    assert app.tables is not None
    port = free_port()
    async with webapp_server(app.tables, "127.0.0.1", port):
        yield f"http://127.0.0.1:{port}"
