"""How long pictures take, and what drawing them does to the event loop.

    .venv/bin/python -m bench.pictures [--cards N]

Prints, for the README's match card and rating chart (``tests.readme_pictures``):
the time to draw each in this process; through the bot's ``Painter`` (a worker
process) the first picture (the worker's start included) and the next ones;
and how late a 10 ms ticker on the event loop runs while N cards are drawn,
by the painter and (for comparison) on the loop itself. Asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.pictures.cards import MatchCard, RatingChart
from bot.pictures.draw import draw
from bot.pictures.painter import Painter
from tests.readme_pictures import pictures

TICK = 0.01


async def lag_while(work: Callable[[], Awaitable[object]]) -> tuple[float, float]:
    """The mean and the worst lateness (ms) of a ``TICK`` ticker on the loop while ``work`` runs."""
    late: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            start = time.perf_counter()
            await asyncio.sleep(TICK)
            late.append(time.perf_counter() - start - TICK)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(TICK)
    await work()
    done = True
    await task
    return 1000 * statistics.mean(late), 1000 * max(late)


async def main(cards: int) -> None:
    card, chart = await pictures()
    rows: list[tuple[str, str]] = []

    def timed(what: str, picture: MatchCard | RatingChart, n: int = 10) -> None:
        draw(picture)
        times = []
        for _ in range(n):
            start = time.perf_counter()
            draw(picture)
            times.append(time.perf_counter() - start)
        rows.append((what, f"mean {1000 * statistics.mean(times):.0f} ms, max {1000 * max(times):.0f} ms"))

    timed("card, drawn in this process", card)
    timed("chart, drawn in this process", chart)

    painter = Painter()
    try:
        start = time.perf_counter()
        await painter.png(chart)
        rows.append(("painter: first picture (worker start)", f"{1000 * (time.perf_counter() - start):.0f} ms"))
        times = []
        for i in range(cards):
            start = time.perf_counter()
            await painter.png(replace(card, title=f"{card.title} {i}"))
            times.append(time.perf_counter() - start)
        rows.append(("painter: a card", f"mean {1000 * statistics.mean(times):.0f} ms, max {1000 * max(times):.0f} ms"))

        async def burst() -> None:
            await asyncio.gather(*(painter.png(replace(card, title=f"{card.title} b{i}")) for i in range(cards)))

        mean, worst = await lag_while(burst)
        rows.append((f"loop lateness, {cards} cards by the painter", f"mean {mean:.1f} ms, worst {worst:.1f} ms"))
    finally:
        await painter.close()

    async def on_loop() -> None:
        for i in range(cards):
            draw(replace(card, title=f"{card.title} l{i}"))
            await asyncio.sleep(0)

    mean, worst = await lag_while(on_loop)
    figure = f"mean {mean:.1f} ms, worst {worst:.1f} ms"
    rows.append((f"loop lateness, {cards} cards on the loop (for comparison)", figure))
    width = max(len(a) for a, _ in rows)
    print(f"| {'what'.ljust(width)} | figure |")
    print(f"|{'-' * (width + 2)}|---|")
    for a, b in rows:
        print(f"| {a.ljust(width)} | {b} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=20)
    asyncio.run(main(parser.parse_args().cards))
