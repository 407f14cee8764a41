"""Soak: many concurrent matches of every preset through the real bot process, while things go wrong.

    .venv/bin/python -m bench.soak                  # 200 matches, two kill -9 restarts, 429 on 10 % of calls
    .venv/bin/python -m bench.soak --matches 20 --kills 1

The bot runs as ``python -m bot`` against the fake Bot API (``tests/e2e``) on
the real Redis; players press the buttons of their newest panel, now and then
a button of an older panel (stale) and the same press twice (one callback in
two updates); Telegram answers 429 to a share of the calls (``getUpdates``
aside, as Telegram does not limit it; callback answers included); the bot is
killed with SIGKILL at random moments and started again. Every user plays in
two groups at once. Bingo groups play to 1 game point, 42 to its 7.

It prints matches finished, presses applied, lost presses (answered as taken
but not applied), double-applied presses (a stale or repeated press applied),
results posted, and whether every chat's and the global leaderboard equal a
replay of the finished matches (counts, wins, and sum of (rating - 1500) = 0 per
scope). ``run`` returns the figures.

A result is posted at least once: a send cannot be made idempotent with the
Bot API, so a kill -9 between Telegram taking a result and Redis recording
it sends it again after the restart. Such a repeat is counted apart, and is a
problem unless the first copy reached Telegram within a second of a kill.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.i18n import I18n
from bot.models import LANGS, Summary
from bot.services import Services
from bot.storage.keys import GLOBAL, chat_scope
from bot.storage.redis import create_redis
from engine import PRESETS
from tests.e2e.driver import MOVE, move_data, panel_of, playable, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.process import RestartingBot, bot_env
from tests.redis_server import redis_url

ANSWER_WAIT = 15.0
"""Seconds a press waits for its answer (a bot killed meanwhile never answers it)."""
STUCK_AFTER = 120.0
"""Seconds without a move after which a match counts as stuck: a problem, and its player stops pressing."""


@dataclass
class Figures:
    matches: int = 0
    finished: int = 0
    presses: int = 0
    applied: int = 0
    answered_taken: int = 0
    unanswered: int = 0
    stale_sent: int = 0
    repeats_sent: int = 0
    lost: int = 0
    doubled: int = 0
    results_posted: int = 0
    groups_with_result: int = 0
    results_twice: int = 0
    """Groups that got their result twice: the bot was killed after Telegram took it and before Redis recorded
    it (a send cannot be made idempotent with the Bot API, so it is sent again rather than lost)."""
    kills: int = 0
    leaderboards_exact: bool = False
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def table(self) -> str:
        rows = [
            ("matches finished", f"{self.finished}/{self.matches}"),
            ("presses made", self.presses),
            ("  of them stale (an older panel)", self.stale_sent),
            ("  of them repeated (same callback, two updates)", self.repeats_sent),
            ("  answered as taken", self.answered_taken),
            ("  never answered (the bot was killed)", self.unanswered),
            ("presses applied (match versions)", self.applied),
            ("lost presses", self.lost),
            ("double-applied presses", self.doubled),
            ("results posted (groups that got theirs)", f"{self.groups_with_result}/{self.matches}"),
            ("  of them posted twice (killed as Telegram took it)", self.results_twice),
            ("bot killed (kill -9) and restarted", self.kills),
            ("leaderboards equal a replay", "yes" if self.leaderboards_exact else "NO"),
            ("seconds", f"{self.seconds:.0f}"),
        ]
        width = max(len(name) for name, _ in rows)
        return "\n".join(f"{name:<{width}}  {value}" for name, value in rows)


def _version(data: str) -> int:
    """The match version a game button was made for."""
    found = MOVE.match(data)
    return int(found["v"]) if found else -1


def _panel(fake: FakeTelegram, user: FakeUser, match_id: str) -> Sent | None:
    """The user's newest panel of this match (a player in two matches has a panel of each in the chat)."""
    for sent in reversed(fake.chat_messages(user.id)):
        for b in sent.buttons():
            found = move_data(b)
            if found is not None and found["m"] == match_id:
                return sent
    return None


async def _answer(fake: FakeTelegram, query: str) -> dict[str, Any] | None:
    with contextlib.suppress(AssertionError):
        return await fake.wait_answer(query, timeout=ANSWER_WAIT)
    return None


async def _play(
    fake: FakeTelegram, outside: Services, match_id: str, players: tuple[FakeUser, FakeUser], rng: random.Random,
    figures: Figures, taken: Counter[tuple[str, int]],
) -> None:  # fmt: skip
    """Press the newest panel of whoever is to act until the match ends; now and then a stale or repeated press."""
    old_buttons: dict[int, list[str]] = {}
    idle_since = progress_at = time.monotonic()
    seen = -1
    while True:
        record, match = await outside.records.get(match_id)
        if not record.is_active:
            return
        if record.version != seen:
            seen, progress_at = record.version, time.monotonic()
        elif time.monotonic() - progress_at > STUCK_AFTER:
            figures.problems.append(await _stuck(fake, outside, match_id, players))
            return
        user = players[match.turn or 0]
        panel = _panel(fake, user, match_id)
        if panel is None or version_of(panel) != record.version:
            if time.monotonic() - idle_since > 30:
                # The panel lags for long (the bot was killed as it sent it): /hand brings it, as a player would.
                fake.send_text(user, user.id, "/hand")
                idle_since = time.monotonic()
            await asyncio.sleep(0.05)
            continue
        idle_since = time.monotonic()
        old = [data for data in old_buttons.get(user.id, []) if _version(data) < record.version]
        if old and rng.random() < 0.05:
            # A button of an earlier version of this player's panel (kept from before: the message itself
            # has been edited since), pressed on the current panel message.
            figures.stale_sent += 1
            figures.presses += 1
            stale = await _answer(fake, fake.press(user, panel, rng.choice(old)))
            if stale is not None and not stale.get("text"):
                figures.problems.append(f"{match_id}: a stale press was taken")
                figures.doubled += 1
        buttons = playable(panel)
        if not buttons:
            await asyncio.sleep(0.05)
            continue
        data = rng.choice(buttons)["callback_data"]
        pressed_at = record.version
        query = fake.press(user, panel, data)
        figures.presses += 1
        if rng.random() < 0.05:
            figures.repeats_sent += 1
            figures.presses += 1
            fake.press(user, panel, data, query_id=query)
        answer = await _answer(fake, query)
        old_buttons[user.id] = [b["callback_data"] for b in buttons]
        if answer is None:
            figures.unanswered += 1
            continue
        if answer.get("text"):
            continue
        figures.answered_taken += 1
        taken[(match_id, pressed_at)] += 1
        after, _ = await outside.records.get(match_id)
        if after.version <= pressed_at:
            figures.lost += 1
            figures.problems.append(
                f"{match_id}: a press at version {pressed_at} ({data}) was answered but not applied: {answer}"
            )


async def _stuck(fake: FakeTelegram, outside: Services, match_id: str, players: tuple[FakeUser, FakeUser]) -> str:
    """What a match that has not moved for ``STUCK_AFTER`` seconds looks like (a problem line)."""
    record, match, messages = await outside.records.screens(match_id)
    held = [(version_of(p), p.message_id) if (p := _panel(fake, u, match_id)) else None for u in players]
    due = match_id in await outside.stores.matches.screens_due()
    return (
        f"{match_id}: stuck at version {record.version} (turn {match.turn}); panels held (version, id) {held}; "
        f"messages {messages.model_dump(exclude={'posts', 'summary'})}, {len(messages.posts)} to post; due {due}"
    )


async def _report(
    figures: Figures, done: asyncio.Event, fake: FakeTelegram, outside: Services,
    matches: list[tuple[str, tuple[FakeUser, FakeUser]]],
) -> None:  # fmt: skip
    """A line on stderr every 10 s: how far the soak is; when no press was made in the last 10 s, a line on
    each match still on (what it holds and what its players see)."""
    last = -1
    while not done.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 10)
        print(f"soak: {figures.presses} presses, {figures.kills} kills", file=sys.stderr, flush=True)
        if figures.presses == last and not done.is_set():
            for match_id, players in matches:
                with contextlib.suppress(Exception):
                    if (await outside.records.get(match_id))[0].is_active:
                        print(f"soak: {await _stuck(fake, outside, match_id, players)}", file=sys.stderr, flush=True)
        last = figures.presses


async def _watch(bot: RestartingBot, done: asyncio.Event) -> None:
    """Fail as soon as the bot process ends without being killed (it crashed: nothing would answer)."""
    while not done.is_set():
        if bot.exited_by_itself():
            raise AssertionError("the bot process ended by itself")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), 0.5)


async def _killer(
    bot: RestartingBot,
    kills: int,
    rng: random.Random,
    figures: Figures,
    done: asyncio.Event,
    within: tuple[float, float],
) -> None:
    for _ in range(kills):
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), rng.uniform(*within))
            return
        await bot.kill()
        figures.kills += 1
        await bot.start()


def _expected_tables(summaries: list[Summary]) -> dict[str, dict[int, tuple[int, int, int]]]:
    """(played, won, lost) per user and scope, counted from the finished matches."""
    tables: dict[str, dict[int, tuple[int, int, int]]] = {}
    for summary in summaries:
        if summary.winner is None:
            continue
        for scope in (chat_scope(summary.chat_id), GLOBAL):
            table = tables.setdefault(scope, {})
            for seat, player in enumerate(summary.players):
                played, won, lost = table.get(player.id, (0, 0, 0))
                table[player.id] = (played + 1, won + (seat == summary.winner), lost + (seat != summary.winner))
    return tables


async def _leaderboards_exact(outside: Services, groups: list[int], figures: Figures) -> bool:
    summaries = [s for g in groups for s in await outside.results.history(chat_id=g, limit=10)]
    exact = len(summaries) == len(groups)
    if not exact:
        figures.problems.append(f"{len(summaries)} results in the histories for {len(groups)} matches")
    for scope, table in _expected_tables(summaries).items():
        board: list[Any] = await outside.stores.redis.zrange(
            outside.stores.keys.leaderboard(scope), 0, -1, withscores=True
        )
        if sum(float(score) - 1500 for _member, score in board) != 0:
            figures.problems.append(f"{scope}: ratings do not sum to zero")
            exact = False
        for user_id, (played, won, lost) in table.items():
            stats = await outside.stores.redis.hgetall(outside.stores.keys.stats(scope, user_id))
            got = tuple(int(stats.get(k, b"0")) for k in (b"played", b"won", b"lost"))
            if got != (played, won, lost):
                figures.problems.append(f"{scope}/{user_id}: stats {got}, replay {(played, won, lost)}")
                exact = False
    return exact


async def run(
    matches: int = 200,
    kills: int = 2,
    flood_ratio: float = 0.10,
    seed: int = 1,
    presets: tuple[str, ...] = tuple(sorted(PRESETS)),
    log: Path | None = None,
    bingo_target: int = 1,
    kill_within: tuple[float, float] = (5.0, 20.0),
) -> Figures:
    """The soak; returns its figures (the keys it wrote are deleted at the end). Match ``i`` plays
    ``presets[i % len(presets)]``, Bingo to ``bingo_target``; each kill comes ``kill_within`` seconds after
    the last (a random moment)."""
    started = time.monotonic()
    rng = random.Random(seed)
    figures = Figures(matches=matches)
    prefix = f"soak:{uuid.uuid4().hex[:8]}"
    fake = FakeTelegram()
    fake.random = random.Random(seed)
    await fake.start()
    redis = create_redis(redis_url())
    outside = Services.build(redis, prefix=prefix)
    bot = RestartingBot(
        bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix, turn_timeout="0"), log
    )
    try:
        await bot.start()
        print("soak: the bot is polling", file=sys.stderr, flush=True)
        users = [FakeUser(800_000 + i, f"Player {i}", f"player{i}", LANGS[i % 2]) for i in range(matches)]
        for user in users:
            fake.send_text(user, user.id, "/start")
        await fake.wait_for(lambda: all(fake.chat_messages(u.id) for u in users), timeout=120, what="welcomes")
        groups = [-1_000_000_000_000 - i for i in range(matches)]
        pairs: list[tuple[FakeUser, FakeUser]] = [(users[i], users[(i + 1) % matches]) for i in range(matches)]
        for i, group in enumerate(groups):
            preset = presets[i % len(presets)]
            await outside.chats.update_settings(group, preset=preset, target=bingo_target if preset != "42" else None)
        fake.flood_ratio = flood_ratio
        for (creator, _), group in zip(pairs, groups, strict=True):
            fake.send_text(creator, group, "/play")

        def challenge_of(group: int) -> str | None:
            for m in fake.chat_messages(group):
                for b in m.buttons():
                    if b.get("callback_data", "").startswith("j:"):
                        return str(b["callback_data"])[2:]
            return None

        await fake.wait_for(lambda: all(challenge_of(g) for g in groups), timeout=180, what="challenges")
        print("soak: every challenge is open", file=sys.stderr, flush=True)
        for (_, joiner), group in zip(pairs, groups, strict=True):
            fake.send_text(joiner, joiner.id, f"/start j_{challenge_of(group)}")

        await fake.wait_for(
            lambda: sum(1 for u in users if panel_of(fake, u) is not None) >= min(len(users), matches),
            timeout=180,
            what="the panels",
        )
        ids = [await _active(outside, group, creator) for (creator, _), group in zip(pairs, groups, strict=True)]
        taken: Counter[tuple[str, int]] = Counter()
        done = asyncio.Event()
        reporter = asyncio.create_task(_report(figures, done, fake, outside, list(zip(ids, pairs, strict=True))))
        killer = asyncio.create_task(_killer(bot, kills, rng, figures, done, kill_within))
        players = asyncio.gather(
            *(
                _play(fake, outside, match_id, pair, random.Random(rng.random()), figures, taken)
                for match_id, pair in zip(ids, pairs, strict=True)
            )
        )
        # A bot that does not come back after a kill, or that ends by itself, ends the soak at once (its log
        # says why).
        watcher = asyncio.create_task(_watch(bot, done))
        running: set[asyncio.Future[Any]] = {players, killer, watcher}
        while not players.done():
            finished, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            if any(t.exception() is not None for t in finished):
                break
        if any(t.done() and t.exception() is not None for t in (killer, watcher)):
            players.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await players
        done.set()
        await reporter
        await killer
        await watcher
        await players
        figures.doubled += sum(n - 1 for n in taken.values() if n > 1)
        fake.flood_ratio = 0.0
        heads = _result_heads()
        await fake.wait_for(
            lambda: all(any(m.text.startswith(heads) for m in fake.chat_messages(g)) for g in groups),
            timeout=300,
            what="every result",
        )
        await fake.quiet(period=2.0, timeout=120)
        posted = [sum(1 for m in fake.chat_messages(g) if m.text.startswith(heads)) for g in groups]
        figures.results_posted = sum(posted)
        figures.groups_with_result = sum(1 for n in posted if n > 0)
        figures.results_twice = sum(1 for n in posted if n > 1)
        for group, count in zip(groups, posted, strict=True):
            if count > 1 and not _at_a_kill(fake, group, heads, bot.killed_at):
                figures.problems.append(f"{group}: the result was posted {count} times, not as the bot was killed")
        for match_id in ids:
            record, _ = await outside.records.get(match_id)
            figures.finished += not record.is_active
            figures.applied += record.version  # a match's version counts its moves (accepting it is version 0)
        figures.leaderboards_exact = await _leaderboards_exact(outside, groups, figures)
        if "Traceback" in bot.output:
            figures.problems.append("a traceback in the bot's log")
        if figures.problems:
            _tail(bot)
    except BaseException:
        _tail(bot)  # a soak cut short (a timeout, a failure): what the bot was doing
        raise
    finally:
        await bot.close()
        await fake.stop()
        async for key in redis.scan_iter(match=f"{prefix}*", count=1000):
            await redis.delete(key)
        await redis.aclose()
    figures.seconds = time.monotonic() - started
    return figures


def _tail(bot: RestartingBot, lines: int = 300) -> None:
    print("soak: the bot's log, its end:", file=sys.stderr)
    print("\n".join(bot.output.splitlines()[-lines:]), file=sys.stderr, flush=True)


def _at_a_kill(fake: FakeTelegram, group: int, heads: tuple[str, ...], kills: list[float]) -> bool:
    """Whether the group's first result reached Telegram within a second before a kill (so its repeat is the
    send that Redis did not see taken)."""
    first = min(
        c.at
        for c in fake.calls
        if c.method == "sendMessage" and c.status == 200 and c.params.get("chat_id") == str(group)
        and str(c.params.get("text", "")).startswith(heads)
    )  # fmt: skip
    return any(0.0 <= kill - first <= 1.0 for kill in kills)


async def _active(outside: Services, group: int, creator: FakeUser) -> str:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        match_id = await outside.records.active_match(group, creator.id)
        if match_id is not None:
            return match_id
        await asyncio.sleep(0.05)
    raise AssertionError(f"no match in {group}")


def _result_heads() -> tuple[str, ...]:
    """How a match's result starts when it was won to the target (the soak's only ending), in both languages."""
    i18n = I18n()
    return tuple({i18n[lang]("match-won", name="X", sw=1, sl=0).split("<b>")[0] for lang in LANGS})


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--kills", type=int, default=2)
    parser.add_argument("--flood", type=float, default=0.10, help="the share of calls answered 429")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", type=Path, help="append the bot's log to this file")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.matches, args.kills, args.flood, args.seed, log=args.log))
    print(figures.table())
    for problem in figures.problems[:20]:
        print("problem:", problem)
    ok = (
        figures.finished == figures.matches
        and figures.lost == 0
        and figures.doubled == 0
        and figures.groups_with_result == figures.matches
        and figures.leaderboards_exact
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
