"""A match against the computer in the person's private chat, over the fake Bot API: one message there is the
table and the hand at once, and each move costs it one send or edit (the chat's one message a second goes to the
person's buttons); deal results and the match's result come as messages of their own under it; a restart, and a
kill -9 at a deal's end, keep that one message right.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

import pytest

from bot import render
from bot.app import App
from bot.i18n import I18n, Translator
from bot.models import MatchRecord
from bot.services import Services
from engine import Match
from tests.e2e import screens
from tests.e2e.conftest import running_bot
from tests.e2e.driver import WAITING, held_panel, move_data, playable, start_bot, version_of
from tests.e2e.fake_telegram import Call, FakeTelegram, FakeUser, Sent
from tests.e2e.process import BotProcess, bot_env
from tests.redis_server import redis_url

ANN = FakeUser(8101, "Ann", "ann_private_cpu", "ru")
PAUSE = 0.2
"""The computer's pause: long enough for the person's own move to be shown before the computer's comes."""
TR = I18n()["ru"]
COUNTED = ("sendMessage", "sendPhoto", "editMessageText")
"""The calls that put something in a chat (Telegram's one a second in private)."""
PERSON = 0
"""The seat of who writes ``/play`` in private (the computer takes the other)."""


@dataclass
class Window:
    """What the chat got from a press of the person's to their next turn (or the match's end)."""

    moves: int
    panel: list[Call]
    """Sends and edits of the panel: every edit (there is no other message to edit) and each new panel."""
    results: list[Call]
    """Every other send: a deal's result, the match's."""
    deleted: int


def has_move_buttons(call: Call) -> bool:
    markup = call.params.get("reply_markup") or {}
    return any(move_data(b) for row in markup.get("inline_keyboard", []) for b in row)


def window(fake: FakeTelegram, since: int, moves: int) -> Window:
    calls = [c for c in fake.calls[since:] if c.status == 200 and str(c.params.get("chat_id")) == str(ANN.id)]
    counted = [c for c in calls if c.method in COUNTED]
    panel = [c for c in counted if c.method == "editMessageText" or has_move_buttons(c)]
    results = [c for c in counted if c not in panel]
    return Window(moves, panel, results, sum(c.method == "deleteMessage" for c in calls))


def table_shown(fake: FakeTelegram, tr: Translator, game: str, deals: int, user: FakeUser = ANN) -> list[Sent]:
    """Messages of the chat that are a group's table (none must be: the panel is the table)."""
    heads = [tr("table-title", game=game, deal=n) for n in range(1, deals + 1)]
    return [m for m in fake.chat_messages(user.id) for t in (m.text, *m.history) if t.split("\n")[0] in heads]


def panel_text(record: MatchRecord, match: Match) -> str:
    """What the person's panel must read at this version (the table's lines among them)."""
    prev = record.prev.to_match().deal if record.prev is not None and not record.deal.a else None
    return render.panel_text(TR, record, match.deal.view(PERSON), prev=prev)


async def person_to_act(fake: FakeTelegram, app: App, match_id: str, after: int) -> tuple[MatchRecord, Match]:
    """Once the match is past version ``after`` with the person to act (or it is over) and every message is
    delivered: the match. (The computer moves only when the person has; nothing changes until they press.)"""
    deadline = time.monotonic() + 60
    while True:
        record, match = await app.services.records.get(match_id)
        if not record.is_active or (record.version > after and match.turn == PERSON):
            break
        assert time.monotonic() < deadline, "the computer never gave the turn back"
        await asyncio.sleep(0.02)
    if record.is_active:
        await fake.wait_for(
            lambda: (p := held_panel(fake, ANN)) is not None and version_of(p) == record.version,
            timeout=30,
            what="the panel at the person's turn",
        )
    await app.settled()
    return record, match


async def play_windows(
    fake: FakeTelegram, app: App, match_id: str, rng: random.Random, *, presses: int | None = None
) -> list[Window]:
    """Press random playable buttons at each of the person's turns (``presses`` of them, or to the end); what
    the chat got from each press to the next turn. At each turn the panel reads the table and holds buttons."""
    windows: list[Window] = []
    record, match = await person_to_act(fake, app, match_id, -1)
    while record.is_active and (presses is None or len(windows) < presses):
        panel = held_panel(fake, ANN)
        assert panel is not None and WAITING not in panel.text and playable(panel)
        assert panel.text == panel_text(record, match)
        assert TR("panel-score", me=match.deal.score[PERSON], them=match.deal.score[1 - PERSON],
                  target=match.deal.target) in panel.text  # fmt: skip
        since = len(fake.calls)
        answer = await fake.wait_answer(fake.press(ANN, panel, rng.choice(playable(panel))["callback_data"]))
        assert not answer.get("text"), f"a press on the newest panel was refused: {answer['text']}"
        before = record.version
        record, match = await person_to_act(fake, app, match_id, before)
        windows.append(window(fake, since, record.version - before))
    return windows


def assert_one_call_a_move(windows: list[Window]) -> None:
    """Each move cost the chat one send or edit (at most: moves close together are shown by one), each result
    one more; a panel sent anew (its old one deleted) only after a result went under it."""
    after_result = False
    for n, w in enumerate(windows):
        # (The match's last panel, the match over, may be sent anew below the results: it has no game buttons, it
        # counts with them.)
        least = 0 if n == len(windows) - 1 else 1
        assert least <= len(w.panel) <= w.moves, f"press {n}: {len(w.panel)} panel calls for {w.moves} moves"
        versions = [version_of_call(c) for c in w.panel]
        shown = [v for v in versions if v is not None]
        assert len(shown) == len(set(shown)), f"press {n}: a version shown twice: {versions}"
        new = [c for c in w.panel if c.method == "sendMessage"]
        assert len(new) <= int(after_result) + int(bool(w.results)), f"press {n}: a panel sent anew unasked"
        assert w.deleted == len(new) or (n == len(windows) - 1 and w.deleted == len(new) + 1)
        after_result = bool(w.results)


def version_of_call(call: Call) -> int | None:
    markup = call.params.get("reply_markup") or {}
    for row in markup.get("inline_keyboard", []):
        for b in row:
            if (m := move_data(b)) is not None:
                return int(m["v"])
    return None


async def private_match(fake: FakeTelegram, app: App, game: str = "bingo", target: int = 3) -> str:
    await start_bot(fake, ANN)
    await app.services.chats.update_settings(ANN.id, preset=game, target=target)
    fake.send_text(ANN, ANN.id, "/play")
    await fake.wait_for(lambda: held_panel(fake, ANN) is not None, what="the panel")
    match_id = await app.services.records.active_match(ANN.id, ANN.id)
    assert match_id is not None
    return match_id


class TestOneMessage:
    @pytest.mark.parametrize(("game", "seed"), [("bingo", 3), ("42", 4)])
    async def test_a_whole_match(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, game: str, seed: int
    ) -> None:
        """Every turn of the person's, the panel reads the table (score, trumps, the last trick...) with their
        buttons; each move cost the chat one send or edit; every deal's result and the match's came."""
        async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
            match_id = await private_match(fake, app, game)
            windows = await play_windows(fake, app, match_id, random.Random(seed))
            await screens.assert_final(fake, app.services, match_id, ANN.id, TR)
            record, match = await app.services.records.get(match_id)
        assert_one_call_a_move(windows)
        assert not table_shown(fake, TR, render.game_name(TR, match.rules.name), match.deal.number)
        # Each deal's result and the match's came once: assert_final checked that over the chat (counted in the
        # windows they were not always: the last deal's and the match's may come after the last window closed).
        assert sum(w.moves for w in windows) >= record.version - 1  # (the computer may have led at the start)

    async def test_a_restart_mid_match(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """The bot stops between two of the person's moves; the next one goes on editing the same panel.

        Three presses before the stop: with six, the computer's two deals had once reached the target of 5 first
        (a deal gives at most 3 game points; within three of the person's moves 5 needs a claim of six doubles
        and the bingo on top of a deal won without a trick lost)."""
        rng = random.Random(5)
        async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
            match_id = await private_match(fake, app, target=5)
            first = await play_windows(fake, app, match_id, rng, presses=3)
            record, match = await app.services.records.get(match_id)
        panel = held_panel(fake, ANN)
        assert panel is not None, (
            f"no panel held after {len(first)} presses: {record.status}, score {match.score}, deal {match.deal.number}"
        )
        async with running_bot(fake, prefix, computer_pause=PAUSE) as app:
            rest = await play_windows(fake, app, match_id, rng, presses=1)
            if not first[-1].results:  # (a result under the panel: it comes anew below it)
                assert rest[0].panel[0].method == "editMessageText"
                assert int(rest[0].panel[0].params["message_id"]) == panel.message_id
            rest += await play_windows(fake, app, match_id, rng)
            await screens.assert_final(fake, app.services, match_id, ANN.id, TR)
        assert_one_call_a_move(first + rest)


async def new_private_match(fake: FakeTelegram, services: Services, user: FakeUser) -> str:
    """``/play`` in private against the computer (a first-deal Bingo to 5); the match's id once its panel is
    there."""
    await start_bot(fake, user)
    await services.chats.update_settings(user.id, preset="bingo", target=5)
    fake.send_text(user, user.id, "/play")
    deadline = time.monotonic() + 30
    while (match_id := await services.records.active_match(user.id, user.id)) is None:
        assert time.monotonic() < deadline, "no match"
        await asyncio.sleep(0.02)
    await fake.wait_for(lambda: held_panel(fake, user) is not None, what="the panel")
    return match_id


async def person_ends_a_deal(
    fake: FakeTelegram, services: Services, match_id: str, rng: random.Random, user: FakeUser
) -> bool:
    """Play the person's moves, one that ends a deal when there is one, until one did (True) or the match is
    over (False)."""
    while not await press_as_person(fake, services, match_id, rng, end_deal=True, user=user):
        if not (await services.records.get(match_id))[0].is_active:
            return False
    return True


async def polling(env: dict[str, str], processes: list[BotProcess]) -> BotProcess:
    process = await BotProcess(env).start()
    processes.append(process)
    await process.wait_line(lambda s: "polling" in s, what="polling")
    return process


async def press_as_person(fake: FakeTelegram, services: Services, match_id: str, rng: random.Random, *,
                          end_deal: bool = False, user: FakeUser = ANN) -> bool:  # fmt: skip
    """Once it is the person's turn and their panel shows it, one press (one that ends the deal, with
    ``end_deal``, when there is one); whether it ended the deal (False also when the match is over)."""
    deadline = time.monotonic() + 60
    refused: list[str] = []
    while True:
        record, match = await services.records.get(match_id)
        if not record.is_active:
            return False
        panel = held_panel(fake, user)
        if match.turn == PERSON and panel is not None and version_of(panel) == record.version:
            options = [b["callback_data"] for b in playable(panel)]
            ending = screens.ending(ends_a_deal)(match, options) if end_deal else None
            answer = await fake.wait_answer(fake.press(user, panel, ending or rng.choice(options)), timeout=30)
            if not answer.get("text"):
                break
            # Refused, as a press on a panel the bot has just replaced is (after a restart it may send the
            # panel anew under a result): the person presses again on the panel they hold then.
            refused.append(answer["text"])
        assert time.monotonic() < deadline, f"the person's turn never came (presses refused: {refused})"
        await asyncio.sleep(0.02)
    while (await services.records.get(match_id))[0].version == record.version:
        assert time.monotonic() < deadline, f"a press was never applied (presses refused: {refused})"
        await asyncio.sleep(0.02)
    return ending is not None


def ends_a_deal(before: Match, after: Match) -> bool:
    """A move that ends a deal and not the match."""
    return not after.is_over and after.deal.number != before.deal.number


class TestKill:
    async def test_kill_at_a_deal_end(
        self, fake: FakeTelegram, prefix: str, outside: Services, processes: list[BotProcess]
    ) -> None:
        """kill -9 right after the person's move ends a deal (its result and the panel still to go): the next
        process shows them, the result once; the match plays on to its end in the one panel."""
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix, computer_pause="0.2")
        rng = random.Random(7)
        bot = await polling(env, processes)
        # Deals come from secrets the bot draws: the computer may win a match before the person's move ends a
        # deal. Then another person starts another match (a chat of their own, so that its results are the
        # match's alone).
        for attempt in range(6):
            user = FakeUser(ANN.id + 10 + attempt, "Ann", f"ann_private_kill_{attempt}", "ru")
            match_id = await new_private_match(fake, outside, user)
            if await person_ends_a_deal(fake, outside, match_id, rng, user):
                break
        else:
            raise AssertionError("in six matches no move of the person's ended a deal")
        fake.freeze()
        await asyncio.sleep(0.3)
        await bot.kill()
        fake.thaw()
        again = await polling(env, processes)
        while await outside.records.active_match(user.id, user.id) == match_id:
            await press_as_person(fake, outside, match_id, rng, user=user)
        await screens.assert_final(fake, outside, match_id, user.id, TR)
        record, match = await outside.records.get(match_id)
        assert not table_shown(fake, TR, render.game_name(TR, match.rules.name), match.deal.number, user)
        assert len(record.log) >= 2
        assert await again.interrupt() == 0
        assert "Traceback" not in bot.output + again.output
