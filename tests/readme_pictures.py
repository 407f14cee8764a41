"""The README's pictures: a match card and a rating chart, from seeded matches played through the real service.

    python3 dev.py pictures          # write docs/match-card.png and docs/rating-chart.png

Two players (the computer's ``normal`` level plays both seats, seeded) play a
run of Bingo matches in one group through ``Services`` on fakeredis, so the
match log, the ratings and the rating log are what the bot keeps; the card is
the last match's that had a moment, the
chart the first player's rating in that group, both in Russian, drawn by the
bot's own ``bot.pictures`` code.
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

import fakeredis

from bot.i18n import I18n
from bot.models import Lang, Player
from bot.pictures import build
from bot.pictures.cards import MatchCard, RatingChart
from bot.pictures.draw import draw
from bot.services import Services
from engine.ai import choose

DOCS = Path(__file__).resolve().parent.parent / "docs"
CARD = DOCS / "match-card.png"
CHART = DOCS / "rating-chart.png"
CHAT = -100123
ANYA = Player(id=1, name="Аня")
PIOTR = Player(id=2, name="Piotr Łukaszewicz")
MATCHES = 9
SEED = 7


async def pictures(
    seed: int = SEED,
    *,
    lang: Lang = "ru",
    preset: str = "bingo",
    players: tuple[Player, Player] = (ANYA, PIOTR),
    matches: int = MATCHES,
) -> tuple[MatchCard, RatingChart]:
    """The card of the last of ``matches`` seeded matches of ``preset`` that had a moment, and the first player's
    rating chart, in ``lang`` (the README's: Аня and Piotr play 9 matches of Bingo, in Russian)."""
    services = Services.build(fakeredis.FakeAsyncRedis(), prefix="readme")
    tr = I18n()[lang]
    rng = random.Random(seed)
    card = None
    first, second = players
    for number in range(matches):
        creator, joiner = (first, second) if number % 2 == 0 else (second, first)
        challenge = await services.challenges.open(CHAT, creator, preset, lang)
        record = await services.challenges.accept(challenge.id, joiner, seed=seed * 100 + number)
        match = record.match()
        while not match.is_over:
            seat = match.turn
            assert seat is not None
            action = choose("normal", match.deal.view(seat), rng)
            result = await services.moves.submit(record.id, record.players[seat].id, action, version=record.version)
            record, match = result.record, result.match
        summary = (await services.stores.matches.messages(record.id)).summary
        assert summary is not None
        if card is None or any(line.m for line in record.log):
            card = build.match_card(tr, record, summary)
    assert card is not None
    chart = build.rating_chart(tr, first.name, await services.results.rating_log(first.id, CHAT), in_chat=True)
    assert chart is not None
    return card, chart


def main(argv: list[str]) -> int:
    card, chart = asyncio.run(pictures())
    DOCS.mkdir(exist_ok=True)
    CARD.write_bytes(draw(card))
    CHART.write_bytes(draw(chart))
    print(f"wrote {CARD.relative_to(DOCS.parent)} and {CHART.relative_to(DOCS.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
