"""Load: concurrent matches through the bot process, side by side with a bare aiogram bot, in one run.

    .venv/bin/python -m bench.load      # 50, 200 and 1000 matches; human pace at 200; 1 and 2 webhook processes
    .venv/bin/python -m bench.load --matches 1000 --seconds 20

Each match is two players pressing legal moves of the newest panel (random
among its playable buttons) through the fake Bot API (``tests/e2e``), the
bot being ``python -m bot`` on the real Redis (its own key prefix) with
Telegram's budgets set out of the way (what is measured is the bot, not the
limits). *Saturated*: a player presses as soon as the panel asks
(closed loop); *human pace*: after a think time (exponential, ``--think``
seconds on average). The bare bot (``bench/bare_bot.py``) makes the same Bot
API calls per press with no game and no storage; its row is the ceiling.

Per run it prints presses/s, the answer's latency (press to
``answerCallbackQuery`` at the fake), the handler's time (the bot's own log
line per update), the bot processes' CPU per press (from /proc) and the Bot
API calls per press. It asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from bot.models import Player
from bot.services import Services
from bot.storage.redis import create_redis
from tests.e2e.driver import WAITING, move_data, playable, version_of
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.process import BotProcess, bot_env
from tests.ports import free_port
from tests.redis_server import redis_url

WARM_UP = 3.0
"""Seconds of load before the measurement starts (connections, caches, the first panels)."""
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Table:
    id: str
    group: int
    users: tuple[FakeUser, FakeUser]


@dataclass
class Result:
    name: str
    matches: int
    presses: int = 0
    seconds: float = 0.0
    answers: list[float] = field(default_factory=list)
    handlers: list[float] = field(default_factory=list)
    cpu_ms: float = 0.0
    calls: int = 0
    bot_load: float = 0.0
    """The bot processes' CPU time per second of the window (1.0: a core busy)."""
    driver_load: float = 0.0
    """This process's (players and fake Bot API) CPU time per second of the window."""

    @property
    def rate(self) -> float:
        return self.presses / self.seconds if self.seconds else 0.0

    def row(self) -> list[str]:
        def pct(values: list[float], q: float) -> str:
            if not values:
                return "-"
            ordered = sorted(values)
            return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"

        per_press = self.cpu_ms / self.presses if self.presses else 0.0
        return [
            self.name,
            str(self.matches),
            f"{self.rate:.0f}",
            *(pct(self.answers, q) for q in (0.5, 0.95, 0.99)),
            *(pct(self.handlers, q) for q in (0.5, 0.95, 0.99)),
            f"{per_press:.2f}",
            f"{self.calls / self.presses:.1f}" if self.presses else "-",
            f"{self.bot_load:.2f}",
            f"{self.driver_load:.2f}",
        ]


HEAD = ["run", "matches", "presses/s", "answer p50", "p95", "p99", "handler p50", "p95", "p99", "CPU ms/press",
        "calls/press", "bot CPU", "driver CPU"]  # fmt: skip


def table_text(results: list[Result]) -> str:
    rows = [HEAD, *(r.row() for r in results)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(HEAD))]
    lines = ["| " + " | ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def panel_of(fake: FakeTelegram, user: FakeUser, match_id: str) -> Sent | None:
    for sent in reversed(fake.chat_messages(user.id)):
        for b in sent.buttons():
            found = move_data(b)
            if found is not None and found["m"] == match_id:
                return sent
    return None


def acting(fake: FakeTelegram, table: Table) -> tuple[FakeUser, Sent] | None:
    """The panel asking for a move (the newest version, should both seem to)."""
    best: tuple[int, FakeUser, Sent] | None = None
    for user in table.users:
        panel = panel_of(fake, user, table.id)
        if panel is not None and WAITING not in panel.text and playable(panel):
            version = version_of(panel)
            if best is None or version > best[0]:
                best = (version, user, panel)
    return None if best is None else (best[1], best[2])


async def play(
    fake: FakeTelegram, table: Table, until: float, think: float, rng: random.Random, taken: list[tuple[float, str]]
) -> None:
    """Press the acting panel until ``until``; ``taken`` gets (when, callback id) of each press answered as taken."""
    while time.monotonic() < until:
        found = acting(fake, table)
        if found is None:
            await asyncio.gather(*(fake.wait_change(u.id, 0.5) for u in table.users))
            continue
        user, panel = found
        version = version_of(panel)
        query = fake.press(user, panel, rng.choice(playable(panel))["callback_data"])
        try:
            answer = await fake.wait_answer(query, timeout=30)
        except AssertionError:
            continue
        if not answer.get("text"):
            taken.append((time.monotonic(), query))
        while time.monotonic() < until:
            newest = acting(fake, table)
            if newest is not None and version_of(newest[1]) > version:
                break
            if all(panel_of(fake, u, table.id) is None for u in table.users):
                return  # the match is over
            await asyncio.wait(
                [asyncio.ensure_future(fake.wait_change(u.id, 0.5)) for u in table.users],
                return_when=asyncio.FIRST_COMPLETED,
            )
        if think:
            await asyncio.sleep(rng.expovariate(1 / think))


async def new_tables(redis_at: str, prefix: str, count: int, base: int) -> list[Table]:
    """``count`` matches (Bingo to 8, no turn clock), created in Redis before the bot starts: the bot's start
    delivers their tables and panels."""
    redis = create_redis(redis_at)
    services = Services.build(redis, prefix=prefix, turn_timeout=0)
    tables = []
    try:
        for i in range(count):
            a = FakeUser(base + 2 * i, f"A{i}", f"a{i}", "ru")
            b = FakeUser(base + 2 * i + 1, f"B{i}", f"b{i}", "ru")
            group = -1_000_000_000 - base - i
            challenge = await services.challenges.open(group, Player(id=a.id, name=a.first_name), "bingo", "ru")
            record = await services.challenges.accept(challenge.id, Player(id=b.id, name=b.first_name))
            tables.append(Table(record.id, group, (a, b)))
    finally:
        await redis.aclose()
    return tables


async def delete_prefix(redis_at: str, prefix: str) -> None:
    redis = create_redis(redis_at)
    try:
        async for key in redis.scan_iter(match=f"{prefix}*", count=1000):
            await redis.delete(key)
    finally:
        await redis.aclose()


def bot_environment(fake: FakeTelegram, prefix: str, **more: str) -> dict[str, str]:
    return bot_env(
        telegram_api_base=fake.base,
        redis_url=redis_url(),
        redis_prefix=prefix,
        turn_timeout="0",
        group_budget="1000000",
        group_window="1",
        private_gap="0",
        **more,
    )


async def _profile(pid: int, directory: Path, name: str, seconds: float) -> asyncio.subprocess.Process:
    """py-spy on a bot process for the measured window: collapsed stacks in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    out = directory / f"{name.replace(' ', '_').replace(',', '')}-{pid}.txt"
    return await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid), "--duration", str(int(seconds)),
        "--format", "raw", "--rate", "200", "--output", str(out), "--nonblocking",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip


async def measure(
    name: str,
    count: int,
    seconds: float,
    think: float,
    *,
    bare: bool = False,
    lean: bool = False,
    webhooks: int = 0,
    seed: int = 1,
    profile: Path | None = None,
) -> Result:
    """One run: start the bot (or the bare bot), play ``count`` matches for ``seconds`` after the warm-up."""
    fake = FakeTelegram()
    await fake.start()
    prefix = f"load:{uuid.uuid4().hex[:8]}"
    tables = await new_tables(redis_url(), prefix, count, base=10_000_000)
    for table in tables:
        fake.started.update(u.id for u in table.users)
    processes: list[BotProcess] = []
    try:
        if bare:
            matches = [[t.id, t.group, t.users[0].id, t.users[1].id] for t in tables]
            env = {
                **bot_environment(fake, prefix),
                "BARE_MATCHES": json.dumps(matches),
                "BARE_LEAN": "1" if lean else "",
            }
            processes.append(await BotProcess(env, module="bench.bare_bot").start())
            ready = "bare bot polling"
        elif webhooks:
            ports = [free_port() for _ in range(webhooks)]
            url = f"http://127.0.0.1:{ports[0]}/tg"
            for port in ports:
                env = bot_environment(fake, prefix, webhook_url=url, webhook_host="127.0.0.1", webhook_port=str(port))
                processes.append(await BotProcess(env).start())
            fake.route = lambda update: f"http://127.0.0.1:{ports[update['update_id'] % len(ports)]}/tg"
            ready = "serving the webhook"
        else:
            processes.append(await BotProcess(bot_environment(fake, prefix)).start())
            ready = "polling"
        for process in processes:
            await process.wait_line(lambda line: ready in line, timeout=120, what=ready)
        await fake.wait_for(
            lambda: all(panel_of(fake, t.users[0], t.id) and panel_of(fake, t.users[1], t.id) for t in tables),
            timeout=300,
            what="every panel",
        )
        # What earlier runs left in this process (a fake's every call) goes now, and what is here stays out of
        # the collector's sight: its full collections would pause the players and the fake mid-window.
        gc.collect()
        gc.freeze()
        rng = random.Random(seed)
        start = time.monotonic()
        until = start + WARM_UP + seconds
        taken: list[tuple[float, str]] = []
        players = [asyncio.create_task(play(fake, t, until, think, random.Random(rng.random()), taken)) for t in tables]
        await asyncio.sleep(WARM_UP)
        profilers = [await _profile(p.pid, profile, name, seconds) for p in processes] if profile else []
        cpu_before = sum(cpu_seconds(p.pid) for p in processes)
        own_before = time.process_time()
        lines_before = [len(p.lines) for p in processes]
        calls_before = len(fake.calls)
        window_start = time.monotonic()
        await asyncio.gather(*players)
        window = time.monotonic() - window_start
        for profiler in profilers:
            await profiler.wait()
        cpu = sum(cpu_seconds(p.pid) for p in processes) - cpu_before
        result = Result(name, count, seconds=window, cpu_ms=cpu * 1000)
        result.driver_load = (time.process_time() - own_before) / window
        result.bot_load = cpu / window
        in_window = [q for at, q in taken if at >= window_start]
        result.presses = len(in_window)
        result.answers = [(fake.answered_at[q] - fake.pressed_at[q]) * 1000 for q in in_window]
        result.calls = sum(1 for c in fake.calls[calls_before:] if c.method != "getUpdates")
        for process, before in zip(processes, lines_before, strict=True):
            for line in process.lines[before:]:
                if "kind=callback_query" in line and " ms=" in line:
                    result.handlers.append(float(line.rsplit(" ms=", 1)[1]))
        return result
    finally:
        gc.unfreeze()
        for process in processes:
            await process.close()
        await fake.stop()
        await delete_prefix(redis_url(), prefix)


async def run(
    sizes: list[int],
    seconds: float,
    think: float,
    human_at: int | None,
    webhooks: bool,
    profile: Path | None = None,
    lean_bare: bool = False,
) -> list[Result]:
    results: list[Result] = []
    for count in sizes:
        runs = [("bot (polling)", False, False), ("bare aiogram bot", True, False)]
        if lean_bare:
            runs.append(("bare bot, lean", True, True))
        for name, bare, lean in runs:
            print(f"load: {name}, {count} matches", file=sys.stderr, flush=True)
            results.append(await measure(name, count, seconds, 0.0, bare=bare, lean=lean, profile=profile))
    if human_at:
        for name, bare in (("bot, human pace", False), ("bare, human pace", True)):
            print(f"load: {name}, {human_at} matches", file=sys.stderr, flush=True)
            results.append(await measure(name, human_at, seconds, think, bare=bare))
    if webhooks:
        count = human_at or sizes[-1]
        for n in (1, 2):
            name = f"bot, {n} webhook process{'es' if n > 1 else ''}"
            print(f"load: {name}, {count} matches", file=sys.stderr, flush=True)
            results.append(await measure(name, count, seconds, 0.0, webhooks=n))
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, nargs="*", default=[50, 200, 1000], help="saturated runs of these sizes")
    parser.add_argument("--seconds", type=float, default=15.0, help="the measured window of each run")
    parser.add_argument("--think", type=float, default=2.5, help="mean think time of the human-pace runs (s)")
    parser.add_argument("--human", type=int, default=200, help="matches of the human-pace runs (0: none)")
    parser.add_argument("--no-webhooks", action="store_true", help="skip the 1 and 2 webhook process runs")
    parser.add_argument("--profile", type=Path, help="py-spy the saturated runs' processes, stacks into this folder")
    parser.add_argument(
        "--lean-bare",
        action="store_true",
        help="also run the bare bot making its calls and setting its collector as the bot does: the game and "
        "storage alone",
    )
    args = parser.parse_args(argv)
    if args.profile and not Path(sys.executable).with_name("py-spy").exists():
        parser.error("--profile needs py-spy in the venv: .venv/bin/pip install py-spy")
    results = asyncio.run(
        run(
            args.matches,
            args.seconds,
            args.think,
            args.human or None,
            not args.no_webhooks,
            args.profile,
            args.lean_bare,
        )
    )
    print(table_text(results))
    by = {(r.name, r.matches): r for r in results}
    for count in args.matches:
        bot, bare = by.get(("bot (polling)", count)), by.get(("bare aiogram bot", count))
        if bot and bare and bare.rate:
            print(f"{count} matches: the bot makes {bot.rate / bare.rate:.2f} of the bare bot's presses/s")
        lean = by.get(("bare bot, lean", count))
        if bot and lean and lean.rate:
            print(f"{count} matches: the bot makes {bot.rate / lean.rate:.2f} of the lean bare bot's presses/s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
