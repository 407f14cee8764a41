"""Round trips per move and Redis memory per active match, on the real Redis.

    python bench/service_bench.py [--url redis://127.0.0.1:6379/0] [--matches 200]

Counts what the client sends (one pipeline or one command is one round trip)
and asks the server ``MEMORY USAGE`` of each active match's keys. Prints one
JSON line. Cleans up its own keys.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
import uuid
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import Connection

from bot.models import Player
from bot.services import Services

SENT = 0
_original_send = Connection.send_packed_command


async def _counting_send(self: Connection, command: Any, check_health: bool = True) -> None:
    global SENT
    SENT += 1
    await _original_send(self, command, check_health)


Connection.send_packed_command = _counting_send  # type: ignore[method-assign,assignment]


async def bench(url: str, matches: int, preset: str) -> dict[str, Any]:
    global SENT
    redis = Redis.from_url(url)
    prefix = f"bench:{uuid.uuid4().hex}"
    services = Services.build(redis, prefix=prefix)
    rng = random.Random(1)
    ids = []
    for i in range(matches):
        challenge = await services.challenges.open(-1000 - i, Player(id=2 * i + 1, name=f"A{i}"), preset, "ru")
        record = await services.challenges.accept(challenge.id, Player(id=2 * i + 2, name=f"B{i}"), seed=i)
        ids.append(record.id)

    async def move(svc: Services, match_id: str) -> bool:
        record, match = await svc.records.peek(match_id)
        seat = match.turn
        if seat is None:
            return False
        action = rng.choice(match.legal_actions())
        await svc.moves.submit(
            match_id, record.players[seat].id, action, version=record.version, request_id=uuid.uuid4().hex
        )
        return True

    # Warm: this instance wrote every match, so its cache is current.
    SENT, moves = 0, 0
    started = time.perf_counter()
    for _ in range(25):
        for match_id in ids:
            moves += await move(services, match_id)
    warm_seconds = time.perf_counter() - started
    warm_trips = SENT / moves

    # Cold: a second instance (a restarted bot) has nothing cached for its first move.
    cold_service = Services.build(Redis.from_url(url), prefix=prefix)
    SENT = 0
    cold_moves = 0
    for match_id in ids:
        cold_moves += await move(cold_service, match_id)
    cold_trips = SENT / max(cold_moves, 1)

    sizes = []
    for match_id in ids:
        record, match = await services.records.get(match_id)
        if match.is_over:
            continue
        keys = [services.stores.keys.match(match_id)] + [
            services.stores.keys.active(record.chat_id, p.id) for p in record.players
        ]
        sizes.append(sum([await redis.memory_usage(k) or 0 for k in keys]))
    match_only = [
        await redis.memory_usage(services.stores.keys.match(m)) or 0
        for m in ids
        if await redis.exists(services.stores.keys.match(m))
    ]

    async for key in redis.scan_iter(match=f"{prefix}*"):
        await redis.delete(key)
    await redis.aclose()
    await cold_service.stores.redis.aclose()
    return {
        "preset": preset,
        "matches": matches,
        "moves": moves,
        "round_trips_per_move_warm": round(warm_trips, 2),
        "round_trips_per_move_cold": round(cold_trips, 2),
        "ms_per_move_warm": round(warm_seconds / moves * 1000, 3),
        "bytes_per_active_match_mean": round(statistics.mean(sizes)),
        "bytes_per_active_match_max": max(sizes),
        "bytes_match_hash_mean": round(statistics.mean(match_only)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    for preset in ("bingo", "bingo-classic", "42"):
        print(json.dumps(asyncio.run(bench(args.url, args.matches, preset))))


if __name__ == "__main__":
    main()
