"""The bot added to a group greets it once: what it does, /play, and the language buttons for admins; not again
when removed and added back within a day."""

from __future__ import annotations

from bot.callbacks import GreetingLangCb
from bot.i18n import I18n
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

GROUP = -100910
PL_GROUP = -100920
ANN = FakeUser(9101, "Ann", "ann_greet", "ru")
BOB = FakeUser(9102, "Bob", "bob_greet", "ru")
OLA = FakeUser(9103, "Ola", "ola_greet", "pl")
RU, PL = I18n()["ru"], I18n()["pl"]


def greetings(fake: FakeTelegram, chat_id: int) -> list[str]:
    return [m.text for m in fake.chat_messages(chat_id) if m.text in (RU("greeting"), PL("greeting"))]


class TestGreeting:
    async def test_once_in_the_adders_language(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Added: one greeting with the two language buttons; removed and added back: none more. A Polish
        member adding it elsewhere gets it in Polish."""
        async with running_bot(fake, prefix) as app:
            fake.bot_membership(ANN, GROUP, "member")
            await fake.wait_for(lambda: greetings(fake, GROUP), what="the greeting")
            (greeting,) = [m for m in fake.chat_messages(GROUP)]
            assert greeting.text == RU("greeting")
            assert [b["callback_data"] for b in greeting.buttons()] == [
                GreetingLangCb(lang="ru").pack(),
                GreetingLangCb(lang="pl").pack(),
            ]
            fake.bot_membership(ANN, GROUP, "left")
            fake.bot_membership(BOB, GROUP, "member")
            fake.bot_membership(OLA, PL_GROUP, "member")
            await fake.wait_for(lambda: greetings(fake, PL_GROUP), what="the Polish greeting")
            await app.settled()
            await fake.quiet()
            assert greetings(fake, GROUP) == [RU("greeting")]
            assert greetings(fake, PL_GROUP) == [PL("greeting")]
            await invariants.all_well(fake)

    async def test_language_buttons_for_admins(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A member's press is refused with a toast and changes nothing; an admin's sets the group's language
        and the greeting stays, now in that language, with its buttons."""
        fake.admins[GROUP] = {ANN.id}
        async with running_bot(fake, prefix) as app:
            fake.bot_membership(ANN, GROUP, "member")
            await fake.wait_for(lambda: greetings(fake, GROUP), what="the greeting")
            greeting = fake.chat_messages(GROUP)[0]
            polish = GreetingLangCb(lang="pl").pack()
            answer = await fake.wait_answer(fake.press(BOB, greeting, polish))
            assert answer["text"] == RU("toast-admin-only")
            assert (await app.services.chats.settings(GROUP)).lang is None
            answer = await fake.wait_answer(fake.press(ANN, greeting, polish))
            assert answer["text"] == PL("lang-set")
            await fake.wait_for(lambda: greeting.text == PL("greeting"), what="the greeting in Polish")
            assert (await app.services.chats.settings(GROUP)).lang == "pl"
            assert len(greeting.buttons()) == 2
            assert len(fake.chat_messages(GROUP)) == 1
            await invariants.all_well(fake)
