"""What the pictures read: each match's log of finished deals, each player's rating log per table."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import deal_line
from bot.models import MomentRecord, RatingPoint
from bot.services import Services
from bot.storage.results import RATING_LOG
from engine import Match
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT, elo_change, play_random, start_match


def scripted(preset: str, seed: int, want: str) -> MomentRecord:
    """The first moment of kind ``want`` that random play of the preset's deals from ``seed`` on meets."""
    for s in range(seed, seed + 2000):
        match = Match.new(preset, s)
        rng = random.Random(s)
        while not match.is_over:
            deal = match.play(rng.choice(match.legal_actions()))
            if deal is None:
                continue
            for moment in deal_line(deal).m:
                if moment.k == want:
                    return moment
    raise AssertionError(f"no {want} moment in 2000 matches")


class TestDealLine:
    """deal_line: game points, moments and the last trick of a finished deal."""

    @pytest.mark.parametrize("preset", ["bingo", "bingo-classic", "bingo-domino", "42"])
    def test_game_points_add_up(self, preset: str) -> None:
        """Each seat's game points over the lines are the match's final score."""
        for seed in range(20):
            match = Match.new(preset, seed)
            rng = random.Random(seed)
            won = [0, 0]
            while not match.is_over:
                deal = match.play(rng.choice(match.legal_actions()))
                if deal is not None:
                    line = deal_line(deal)
                    assert line.n == deal.number
                    won = [won[0] + line.g[0], won[1] + line.g[1]]
                    assert tuple(won) == tuple(deal.score)
            assert tuple(won) == match.score

    def test_bingo_takes_the_trump_double(self) -> None:
        """The moment shows bingo and the trump double."""
        moment = scripted("bingo", 1, "bingo")
        assert moment.t[0] == "00" and moment.t[1][0] == moment.t[1][1] and moment.t[1] != "00"

    def test_a_failed_close(self) -> None:
        """The moment belongs to the closer and has no tiles."""
        moment = scripted("bingo-domino", 1, "close")
        assert moment.t == ()

    def test_forty_two_made(self) -> None:
        """A bid of 42 made shows the trump double."""
        moment = scripted("42", 1, "made42")
        assert len(moment.t) == 1 and moment.t[0][0] == moment.t[0][1]


class TestMatchLog:
    """The record's log grows by one line at each finished deal, written with the move."""

    async def test_log_of_a_match(self, services: Services) -> None:
        record, match = await start_match(services, target=3, seed=4)
        rng = random.Random(4)
        deals = 0
        while not match.is_over:
            result = await play_random(services, record, match, rng, moves=1)
            if result.finished_deal is not None:
                deals += 1
                assert result.record.log[-1] == deal_line(result.finished_deal)
            record, match = result.record, result.match
            assert len(record.log) == deals
        stored, _ = await services.records.get(record.id)
        assert stored.log == record.log and sum(line.g[record.winner or 0] for line in stored.log) >= 3


class TestRatingLog:
    """Each rated match adds the player's rating after it to their log in the chat's table and the global one."""

    async def test_chat_and_global(self, services: Services) -> None:
        for loser, winner, chat in ((ALA, BOB, CHAT), (BOB, ALA, CHAT), (ALA, CEZ, OTHER_CHAT)):
            record, _ = await start_match(services, creator=loser, joiner=winner, chat_id=chat)
            await services.moves.surrender(record.id, loser.id)
        chat_log = await services.results.rating_log(ALA.id, CHAT)
        assert [(p.rating, p.change) for p in chat_log] == [(1484, -16), (1484 + 17, 17)]
        assert [(p.rating, p.change) for p in await services.results.rating_log(BOB.id, CHAT)] == [
            (1516, 16),
            (1499, -17),
        ]
        assert [(p.rating, p.change) for p in await services.results.rating_log(ALA.id, OTHER_CHAT)] == [(1484, -16)]
        everywhere = await services.results.rating_log(ALA.id)
        assert [p.change for p in everywhere] == [-16, 17, -elo_change(1500, 1501)]
        assert everywhere[-1].rating == (await services.results.stats(ALA.id)).rating
        assert all(isinstance(p, RatingPoint) and p.finished > 0 for p in everywhere)
        assert [p.won for p in everywhere] == [False, True, False]

    async def test_counted_once_and_kept_short(self, services: Services) -> None:
        """A finish carried through twice logs once; the log keeps the last RATING_LOG matches."""
        for _ in range(RATING_LOG + 2):
            record, _ = await start_match(services)
            result = await services.moves.surrender(record.id, BOB.id)
            finishing = json.dumps({"c": "1", "w": [ALA.id, ALA.name], "l": [BOB.id, BOB.name], "g": "bingo", "s": ""})
            await services.finisher.count(result.record, finishing)  # run again: counts nothing more
        log = await services.results.rating_log(ALA.id, CHAT)
        assert len(log) == RATING_LOG
        assert log[-1].rating == (await services.results.stats(ALA.id, CHAT)).rating
        assert [p.rating for p in log] == sorted(p.rating for p in log)

    async def test_unrated_matches_log_nothing(self, services: Services) -> None:
        """An abandoned match changes no rating and logs nothing."""
        record, _ = await start_match(services)
        await services.moves.abandon(record.id)
        assert await services.results.rating_log(ALA.id, CHAT) == [] and await services.results.rating_log(ALA.id) == []
