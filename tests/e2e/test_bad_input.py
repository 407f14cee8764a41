"""Presses the bot must refuse: each gets a toast and changes neither the match nor any message."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import pytest

from bot import render
from bot.app import App
from bot.i18n import Translator
from bot.models import Lang, MatchRecord
from engine import Action, Match
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    BLOCKED,
    ask,
    challenge,
    move_data,
    new_match,
    newest_id,
    panel_of,
    play,
    playable,
    reply_in,
    start_bot,
    version_of,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

GROUP = -100500
ANN = FakeUser(1001, "Ann", "ann", "ru")
BOB = FakeUser(1002, "Bob", "bob", "ru")
CARL = FakeUser(1003, "Carl", "carl", "ru")


@dataclass
class Scene:
    """A Bingo match between Ann and Bob in progress; Carl has started the bot but does not play."""

    fake: FakeTelegram
    app: App
    match_id: str
    tr: Translator

    async def state(self) -> tuple[MatchRecord, Match]:
        return await self.app.services.records.get(self.match_id)

    async def seat(self, acting: bool) -> tuple[FakeUser, Sent]:
        """The player to act (or the other one) and their panel."""
        _, match = await self.state()
        assert match.turn is not None
        user = (ANN, BOB)[match.turn if acting else 1 - match.turn]
        panel = panel_of(self.fake, user)
        assert panel is not None
        return user, panel

    def sends(self) -> int:
        return sum(1 for c in self.fake.calls if c.method in invariants.SENDS)

    async def refused(self, user: FakeUser, sent: Sent, data: str) -> str:
        """Press ``data`` on ``sent`` as ``user``; assert that nothing changed and return the toast."""
        await self.app.settled()
        before, sends = await self.state(), self.sends()
        answer = await self.fake.wait_answer(self.fake.press(user, sent, data))
        await self.app.settled()
        assert await self.state() == before, "a refused press changed the match"
        assert self.sends() == sends, "a refused press sent or edited a message"
        return str(answer.get("text", ""))

    async def move(self, user: FakeUser, panel: Sent, data: str) -> None:
        """A press the bot accepts; returns once both panels show it."""
        before = version_of(panel)
        answer = await self.fake.wait_answer(self.fake.press(user, panel, data))
        assert not answer.get("text"), f"refused: {answer['text']}"
        await self.fake.wait_for(
            lambda: all((p := panel_of(self.fake, u)) is None or version_of(p) > before for u in (ANN, BOB)),
            what="both panels to show the move",
        )


@pytest.fixture
async def scene(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> AsyncIterator[Scene]:
    async with running_bot(fake, prefix) as app:
        await start_bot(fake, ANN)
        await start_bot(fake, CARL)
        match_id = await new_match(fake, ANN, BOB, GROUP)
        yield Scene(fake, app, match_id, app.presenter.i18n["ru"])
        await invariants.all_well(fake)


def forge(panel: Sent, *, m: str | None = None, v: str | None = None, a: str | None = None) -> str:
    """A game button's callback data of ``panel`` with some parts replaced."""
    real = next(found for b in panel.buttons() if (found := move_data(b)))
    return f"a:{m or real['m']}:{v or real['v']}:{a or real['a']}"


def first_tile(panel: Sent) -> str:
    return str(playable(panel)[0]["callback_data"])


Press = Callable[[Scene], Awaitable[tuple[FakeUser, Sent, str]]]


async def out_of_turn(s: Scene) -> tuple[FakeUser, Sent, str]:
    user, panel = await s.seat(acting=False)
    return user, panel, first_tile(panel)


async def third_user(s: Scene) -> tuple[FakeUser, Sent, str]:
    _, panel = await s.seat(acting=True)
    return CARL, panel, first_tile(panel)


async def forged(s: Scene, **parts: str) -> tuple[FakeUser, Sent, str]:
    user, panel = await s.seat(acting=True)
    return user, panel, forge(panel, **parts)


async def tile_not_in_hand(s: Scene) -> tuple[FakeUser, Sent, str]:
    user, panel = await s.seat(acting=True)
    shown = invariants.hand_buttons(panel)
    missing = next(f"{a}{b}" for a in range(7) for b in range(a + 1) if f"{a}{b}" not in shown)
    return user, panel, forge(panel, a=missing)


async def junk(s: Scene, data: str) -> tuple[FakeUser, Sent, str]:
    user, panel = await s.seat(acting=True)
    return user, panel, data


REFUSALS: list[tuple[str, Press, str]] = [
    ("out-of-turn", out_of_turn, "refusal-not_your_turn"),
    ("third-user-on-a-panel", third_user, "toast-not-player"),
    # A panel carries its own match's buttons only: another match's is no button of this message.
    ("another-match", lambda s: forged(s, m="zzzzzz", v="1", a="64"), "toast-bad-button"),
    ("tile-not-in-hand", tile_not_in_hand, "refusal-not_in_hand"),
    ("bid-in-bingo", lambda s: forged(s, a="B30"), "refusal-wrong_phase"),
    ("unknown-action", lambda s: forged(s, a="zz"), "toast-bad-button"),
    ("garbage", lambda s: junk(s, "garbage"), "toast-bad-button"),
    ("version-not-a-number", lambda s: junk(s, "a:x:notanint:64"), "toast-bad-button"),
]


class TestRefusedPresses:
    """A press that is not a legal move now is answered with a toast and changes nothing."""

    @pytest.mark.parametrize(
        ("make", "toast"), [(make, toast) for _, make, toast in REFUSALS], ids=[r[0] for r in REFUSALS]
    )
    async def test_refused(self, scene: Scene, make: Press, toast: str) -> None:
        """The toast names the reason; the match and every message stay as they were."""
        user, sent, data = await make(scene)
        assert await scene.refused(user, sent, data) == scene.tr(toast)

    async def test_unplayable_tile(self, scene: Scene) -> None:
        """A tile the panel marks 🚫 is refused with the rule it breaks, naming the led tile."""

        def bracketed() -> bool:
            return any(
                (p := panel_of(scene.fake, u)) is not None and any(b["text"].startswith(BLOCKED) for b in p.buttons())
                for u in (ANN, BOB)
            )

        await play(scene.fake, (ANN, BOB), random.Random(2), until=bracketed)
        assert bracketed(), "no unplayable tile in a whole match"
        user, panel = await scene.seat(acting=True)
        tile = next(b for b in panel.buttons() if b["text"].startswith(BLOCKED))
        _, match = await scene.state()
        assert match.turn is not None
        view = match.deal.view(match.turn)
        move = move_data(tile)
        assert move is not None and view.lead is not None
        refusal = match.deal.refusal(Action.parse(move["a"]))
        assert refusal in render.FOLLOW_REFUSALS
        toast = await scene.refused(user, panel, tile["callback_data"])
        assert toast == render.refusal_text(scene.tr, refusal, view)
        assert render.tile(view.lead) in toast


class TestStaleButtons:
    """Buttons of an old panel or of an older version of the match are refused."""

    async def test_old_panel_after_hand(self, scene: Scene) -> None:
        """After /hand the old panel is deleted; a press on it (a client that still shows it) brings the panel
        to the bottom again, and the newest panel plays."""
        user, old = await scene.seat(acting=True)
        kept = first_tile(old)
        scene.fake.send_text(user, user.id, "/hand")
        new = await scene.fake.wait_for(
            lambda: (p := panel_of(scene.fake, user)) is not None and p.message_id != old.message_id and p,
            what="the new panel",
        )
        await scene.fake.wait_for(lambda: (user.id, old.message_id) not in scene.fake.messages, what="the deletion")
        before = await scene.state()
        answer = await scene.fake.wait_answer(scene.fake.press(user, old, kept))
        assert answer.get("text") == scene.tr("toast-panel-resent")
        assert await scene.state() == before
        newest = await scene.fake.wait_for(
            lambda: (p := panel_of(scene.fake, user)) is not None and p.message_id > new.message_id and p,
            what="the panel sent again",
        )
        await scene.fake.wait_for(lambda: (user.id, new.message_id) not in scene.fake.messages, what="the deletion")
        await scene.move(user, newest, kept)

    async def test_panel_not_recorded_yet(self, scene: Scene) -> None:
        """A panel newer than the one Redis knows (another process sent it a moment ago and has not recorded it
        yet) is not an old panel: its press plays."""
        for user in (ANN, BOB):  # a message in each private chat, older than the panels to come
            after = newest_id(scene.fake, user.id)
            scene.fake.send_text(user, user.id, "/help")
            await reply_in(scene.fake, user.id, after, "the help")
        for _ in range(2):  # each player's panel is now a new message, after the help
            user, panel = await scene.seat(acting=True)
            await scene.move(user, panel, first_tile(panel))
        user, panel = await scene.seat(acting=True)
        record, _ = await scene.state()
        older = max(m.message_id for m in scene.fake.chat_messages(user.id) if m.message_id < panel.message_id)
        seat = f"p{record.seat_of(user.id)}"
        await scene.app.services.stores.matches.shown(record.id, **{seat: older})
        answer = await scene.fake.wait_answer(scene.fake.press(user, panel, first_tile(panel)))
        assert not answer.get("text"), f"refused: {answer['text']}"
        assert (await scene.state())[0].version == record.version + 1
        await scene.app.services.stores.matches.shown(record.id, **{seat: panel.message_id})  # recorded now

    async def test_button_of_an_older_version(self, scene: Scene) -> None:
        """A button kept from before the last move is refused as stale, on the current panel."""
        user, panel = await scene.seat(acting=True)
        first, second = (b["callback_data"] for b in playable(panel)[:2])
        await scene.move(user, panel, first)
        assert await scene.refused(user, panel, second) == scene.tr("toast-stale")


class TestLongUserText:
    """Text a user typed reaches a message cut to 32 characters and escaped: a 4,000-character argument, an
    @name Telegram could not have, a very long name."""

    @pytest.mark.parametrize(
        ("lang", "expected"),
        [
            ("ru", "Не знаю игру «{}». Можно: бинго, классика, козыри, 42."),
            ("pl", "Nie znam gry „{}”. Dostępne: bingo, klasyczne, atu, 42."),
        ],
    )
    @pytest.mark.parametrize("command", ["/play", "/rules"])
    async def test_long_argument(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: str, expected: str, command: str
    ) -> None:
        """A 4,000-character game name is named back cut, not answered with an error; nothing opens."""
        user = FakeUser(4101, "Long", "long_arg", lang)
        async with running_bot(fake, prefix) as app:
            answer = await ask(fake, user, GROUP, f"{command} {'<' * 3999}")
            assert answer.text == expected.format("&lt;" * 31 + "…")
            assert await app.services.challenges.open_challenge_of(GROUP, user.id) is None
            await invariants.all_well(fake)

    @pytest.mark.parametrize(
        ("lang", "expected"),
        [
            ("ru", "«{}» — не имя пользователя Telegram: после @ идут от 5 до 32 латинских букв, цифр или «_»."),
            (
                "pl",
                "„{}” to nie jest nazwa użytkownika Telegrama: po @ musi być od 5 do 32 znaków — liter łacińskich, "
                "cyfr lub „_”.",
            ),
        ],
    )
    @pytest.mark.parametrize("username", ["a" * 300, "abc", "1abcdef", "ann-na", "Аня_the_best"])
    async def test_impossible_username(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: str, expected: str, username: str
    ) -> None:
        """``/play @name`` with a name Telegram does not allow is refused, saying what a username is."""
        user = FakeUser(4102, "Ann", "ann_user", lang)
        async with running_bot(fake, prefix) as app:
            answer = await ask(fake, user, GROUP, f"/play @{username}")
            assert answer.text == expected.format(render.user_text(f"@{username}"))
            assert await app.services.challenges.open_challenge_of(GROUP, user.id) is None
            await invariants.all_well(fake)

    async def test_long_name(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A 64-character name shows as its first 31 characters and "…" in the challenge."""
        user = FakeUser(4103, "Ж" * 40 + "&" * 24, "long_name", "ru")
        async with running_bot(fake, prefix):
            message = await challenge(fake, user, GROUP)
            assert message.text.startswith(f"🎲 <b>{'Ж' * 31}…</b> ищет соперника:")
            await invariants.all_well(fake)


ANONYMOUS_ADMIN = FakeUser(1087968824, "Group", "GroupAnonymousBot", "ru", is_bot=True)
"""What Telegram sends as the sender of an anonymous group admin's message (with the group as sender_chat)."""
CHANNEL_BOT = FakeUser(136817688, "Channel", "Channel_Bot", "ru", is_bot=True)
"""What Telegram sends as the sender of a message posted on behalf of a channel (with the channel as sender_chat)."""
CHANNEL = {"id": -1001234567890, "type": "channel", "title": "Domino news"}


class TestNotAPerson:
    """A channel, an anonymous admin or a bot cannot play: /play from them, or against them, is refused."""

    @pytest.mark.parametrize(
        ("sender", "sender_chat"),
        [
            (ANONYMOUS_ADMIN, {"id": GROUP, "type": "supergroup", "title": "Domino club"}),
            (CHANNEL_BOT, CHANNEL),
        ],
        ids=["anonymous-admin", "channel"],
    )
    @pytest.mark.parametrize("lang", ["ru", "pl"])
    async def test_play_from(
        self,
        fake: FakeTelegram,
        prefix: str,
        cleanup_redis: None,
        sender: FakeUser,
        sender_chat: dict[str, object],
        lang: Lang,
    ) -> None:
        """No challenge is opened; the reply says who may play (before #13: a challenge by "Group")."""
        async with running_bot(fake, prefix) as app:
            await app.services.chats.update_settings(GROUP, lang=lang)
            after = newest_id(fake, GROUP)
            fake.send_text(sender, GROUP, "/play", sender_chat=sender_chat)
            answer = await reply_in(fake, GROUP, after, "the answer")
            assert answer.text == app.presenter.i18n[lang]("error-not-a-person")
            assert answer.buttons() == []
            assert await app.services.challenges.open_challenge_of(GROUP, sender.id) is None
            await invariants.all_well(fake)

    async def test_play_against(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """/play in reply to a channel's post or another bot's message is refused; in reply to this bot's
        own message it is a challenge to anyone."""
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            await start_bot(fake, ANN)
            for sender, sender_chat in (
                (CHANNEL_BOT, CHANNEL),
                (FakeUser(777, "Helper", "helper_bot", is_bot=True), None),
            ):
                post = fake.send_text(sender, GROUP, "news", sender_chat=sender_chat)
                after = newest_id(fake, GROUP)
                fake.send_text(ANN, GROUP, "/play", reply_to=post)
                answer = await reply_in(fake, GROUP, after, "the answer")
                assert answer.text == tr("error-opponent-not-a-person")
                assert await app.services.challenges.open_challenge_of(GROUP, ANN.id) is None
            hello = await ask(fake, ANN, GROUP, "/help")
            message = await challenge(fake, ANN, GROUP, reply_to=hello)
            assert message.text.startswith(tr("challenge-anyone", creator="Ann", game=tr("preset-bingo"), target=8))
            await invariants.all_well(fake)


class TestSamePressTenTimes:
    """Ten updates carrying one callback query (one press): applied once, answered once, no traceback."""

    async def test_one_press_ten_updates(self, scene: Scene, caplog: pytest.LogCaptureFixture) -> None:
        user, panel = await scene.seat(acting=True)
        before = (await scene.state())[0].version
        data = first_tile(panel)
        query = scene.fake.press(user, panel, data)
        for _ in range(9):
            scene.fake.press(user, panel, data, query_id=query)
        await scene.fake.settle()
        await scene.app.settled()
        # Every update is answered (the repeats after the first with "done", which Telegram refuses): all ten
        # answers are in before the refused ones are counted out below.
        await scene.fake.wait_for(
            lambda: [c.params.get("callback_query_id") for c in scene.fake.calls].count(query) >= 10,
            timeout=60,
            what="an answer to each of the ten updates",
        )
        await scene.fake.quiet()
        assert (await scene.state())[0].version == before + 1
        answers = [c for c in scene.fake.calls if c.method == "answerCallbackQuery" and c.status == 200]
        assert [c.params["callback_query_id"] for c in answers].count(query) == 1
        assert [r.getMessage() for r in caplog.records if r.exc_info] == []
        # The scene's own check at its end counts a second answer of a query as a fault: these are expected.
        scene.fake.calls[:] = [
            c for c in scene.fake.calls if not (c.method == "answerCallbackQuery" and c.status != 200)
        ]
