"""A first whole match through the real bot."""

from __future__ import annotations

import random

from tests.e2e.conftest import running_bot
from tests.e2e.driver import panel_of, play_to_end
from tests.e2e.fake_telegram import FakeTelegram, FakeUser

GROUP = -100500


async def test_whole_bingo_match(fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
    ann = FakeUser(1001, "Ann", "ann", "ru")
    bob = FakeUser(1002, "Bob", "bob", "ru")
    async with running_bot(fake, prefix) as app:
        fake.send_text(ann, ann.id, "/start")
        await fake.wait_for(lambda: fake.last_message(ann.id), what="welcome")
        fake.send_text(ann, GROUP, "/play")
        challenge = await fake.wait_for(lambda: fake.last_message(GROUP), what="challenge")
        url = next(b["url"] for b in challenge.buttons() if "url" in b)
        payload = url.split("start=")[1]
        fake.send_text(bob, bob.id, f"/start {payload}")
        await fake.wait_for(lambda: panel_of(fake, bob) and panel_of(fake, ann), what="panels")
        moves = await play_to_end(fake, (ann, bob), random.Random(3))
        await app.outbox.drain()
        texts = [m.text for m in fake.chat_messages(GROUP)]
        print(moves, "\n---\n".join(texts[-4:]))
        assert any("🏆" in t for t in texts)
