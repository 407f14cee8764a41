"""The doors a stranger can knock on, flooded: what Telegram is asked, what is opened, what Redis keeps.

    .venv/bin/python -m bench.flood [--requests N] [--people N] [--queries N]

The real bot over the fake Bot API (``tests/e2e/fake_telegram.py``) on the test Redis, its Mini App served, with
a match of two players in a group. Then:

- **one person**: ``--requests`` Mini App state requests as fast as they go, by a member who does not play;
- **many people**: one request each by ``--people`` members who do not play, and by as many outsiders;
- **inline**: ``--queries`` inline queries from one person at once (a keystroke each, as Telegram sends them).

Prints for each: the answers by status, the ``getChatMember`` calls the bot made, the open inline challenges and
the Redis keys of the bot (update marks apart: one per update, kept a few minutes). Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from collections import Counter
from typing import Any

import aiohttp

from tests.e2e.browser import init_data
from tests.e2e.conftest import delete_keys, running_bot
from tests.e2e.driver import new_match, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser
from tests.e2e.test_thumb import app_server

GROUP = -100990
ANN = FakeUser(9901, "Ann", "ann_flood", "ru")
BOB = FakeUser(9902, "Bob", "bob_flood", "ru")
WATCHER = FakeUser(9903, "Cyril", "cyril_flood", "ru")


def calls(fake: FakeTelegram) -> int:
    return sum(1 for c in fake.calls if c.method == "getChatMember")


async def keys(app: Any, prefix: str) -> int:
    return len([k async for k in app.redis.scan_iter(match=f"{prefix}*") if b":upd:" not in k])


async def get(http: aiohttp.ClientSession, url: str, user: FakeUser) -> int:
    async with http.get(url, headers={"Authorization": f"tma {init_data(user)}"}) as response:
        await response.read()
        return response.status


async def main(requests: int, people: int, queries: int) -> None:
    fake = FakeTelegram()
    await fake.start()
    prefix = f"bench:{uuid.uuid4().hex}"
    try:
        async with (
            running_bot(fake, prefix, webapp_url="https://tables.example/app", webapp_short_name="table") as app,
            app_server(app) as base,
            aiohttp.ClientSession() as http,
        ):
            for user in (ANN, BOB, WATCHER):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            url = f"{base}/app/api/state?m={match_id}"
            await app.settled()
            start_keys = await keys(app, prefix)

            before, started = calls(fake), time.perf_counter()
            statuses = Counter([await get(http, url, WATCHER) for _ in range(requests)])
            print(f"one person, {requests} requests in {time.perf_counter() - started:.1f} s: {dict(statuses)}; "
                  f"getChatMember {calls(fake) - before}")  # fmt: skip

            members = [FakeUser(9_910_000 + i, f"M{i}", f"m{i}_flood") for i in range(people)]
            outsiders = [FakeUser(9_920_000 + i, f"O{i}", f"o{i}_flood") for i in range(people)]
            fake.outsiders[GROUP] = {u.id for u in outsiders}
            before = calls(fake)
            statuses = Counter(await asyncio.gather(*(get(http, url, u) for u in members + outsiders)))
            print(f"{people} members and {people} outsiders, one request each: {dict(statuses)}; "
                  f"getChatMember {calls(fake) - before}")  # fmt: skip
            before = calls(fake)
            statuses = Counter(await asyncio.gather(*(get(http, url, u) for u in members + outsiders)))
            print(f"the same again within the minute: {dict(statuses)}; getChatMember {calls(fake) - before}")

            await start_bot(fake, ANN)
            started = time.perf_counter()
            words = ["", "42", "бинго", "классика", "domino"]
            asked = [fake.inline_query(ANN, words[i % len(words)]) for i in range(queries)]
            answers = [await fake.wait_inline(q) for q in asked]
            offered = {str(r["id"]) for a in answers for r in a["results"]}
            opened = await app.services.stores.challenges.open_inline(ANN.id, time.time())
            empty = sum(not a["results"] for a in answers)
            print(f"{queries} inline queries in {time.perf_counter() - started:.1f} s: {len(offered)} challenges "
                  f"offered, {len(opened)} open, answers without results {empty}")  # fmt: skip
            print(f"Redis keys: {start_keys} before the floods, {await keys(app, prefix)} after (update marks apart)")
    finally:
        await fake.stop()
        await delete_keys(prefix)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--queries", type=int, default=100)
    options = parser.parse_args()
    asyncio.run(main(options.requests, options.people, options.queries))
