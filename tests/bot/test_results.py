"""The end of a match: the result counted exactly once, ratings, leaderboards, histories, expiry."""

from __future__ import annotations

import asyncio

import pytest

from bot.models import Finish, MatchRecord, Player, Rejection, Standing, Status, Summary, UserStats
from bot.services import Services
from bot.services.errors import Rejected
from bot.services.terms import KEEP_AFTER_DEADLINE
from bot.storage.keys import GLOBAL, chat_scope
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT, elo_change, finish_by_play, start_match, tables


async def surrendered(services: Services, loser: Player, winner: Player, chat_id: int = CHAT) -> Summary:
    """A match between the two in the chat, given up by ``loser``; its summary."""
    record, _ = await start_match(services, creator=loser, joiner=winner, chat_id=chat_id)
    result = await services.moves.surrender(record.id, loser.id)
    assert result.summary is not None
    return result.summary


class TestSurrender:
    """surrender: the match ends with a loss for the player who gives up."""

    @pytest.mark.parametrize("seat", [0, 1])
    async def test_counted(self, services: Services, seat: int) -> None:
        """Stats, leaderboards, histories and ratings count the match once; the active indexes are cleared."""
        record, match = await start_match(services)
        loser, winner = record.players[seat], record.players[1 - seat]
        result = await services.moves.surrender(record.id, loser.id, request_id="s1")
        assert (result.record.status, result.record.winner, result.record.finish) == (
            Status.FINISHED,
            1 - seat,
            Finish.SURRENDER,
        )
        assert result.record.version == 1 and result.match == match
        summary = result.summary
        assert summary is not None
        assert (summary.id, summary.chat_id, summary.preset, summary.players) == (record.id, CHAT, "bingo", (ALA, BOB))
        assert (summary.winner, summary.finish, summary.score, summary.rating_change) == (
            1 - seat,
            Finish.SURRENDER,
            (0, 0),
            16,
        )
        for chat_id in (CHAT, None):
            assert await services.results.stats(winner.id, chat_id) == UserStats(
                user_id=winner.id, played=1, won=1, rating=1516, streak=1, best_streak=1, per_game={"bingo": (1, 1)}
            )
            assert await services.results.stats(loser.id, chat_id) == UserStats(
                user_id=loser.id, played=1, lost=1, rating=1484, per_game={"bingo": (1, 0)}
            )
            assert await services.results.leaderboard(chat_id) == [
                Standing(rank=1, user_id=winner.id, name=winner.name, rating=1516, played=1, won=1, lost=0),
                Standing(rank=2, user_id=loser.id, name=loser.name, rating=1484, played=1, won=0, lost=1),
            ]
            assert await services.results.rank_of(chat_id, loser.id) == (await services.results.leaderboard(chat_id))[1]
        assert await services.results.history(chat_id=CHAT) == [summary]
        assert (
            await services.results.history(user_id=ALA.id)
            == await services.results.history(user_id=BOB.id)
            == [summary]
        )
        assert await services.results.history(chat_id=OTHER_CHAT) == []
        assert await services.results.leaderboard(OTHER_CHAT) == []
        assert await services.records.active_match(CHAT, ALA.id) is None
        assert await services.records.active_match(CHAT, BOB.id) is None
        assert await services.records.chat_matches(CHAT) == []
        assert await services.records.user_matches(ALA.id) == await services.records.user_matches(BOB.id) == []

    async def test_nothing_after_the_end(self, services: Services) -> None:
        """After the end every surrender, move or abandon is MATCH_OVER and no count changes."""
        record, match = await start_match(services)
        await services.moves.surrender(record.id, ALA.id)
        counted = await tables(services, (ALA, BOB))
        stored = await services.records.get(record.id)
        attempts = [
            services.moves.surrender(record.id, ALA.id),
            services.moves.surrender(record.id, BOB.id, request_id="s2"),
            services.moves.submit(record.id, ALA.id, match.legal_actions()[0]),
            services.moves.submit(record.id, BOB.id, match.legal_actions()[0], version=1),
            services.moves.abandon(record.id),
        ]
        for attempt in attempts:
            with pytest.raises(Rejected) as info:
                await attempt
            assert info.value.reason is Rejection.MATCH_OVER
        assert await tables(services, (ALA, BOB)) == counted
        assert await services.records.get(record.id) == stored

    @pytest.mark.parametrize("shared", [True, False], ids=["one-instance", "own-instances"])
    async def test_both_at_once(self, backend: Backend, shared: bool) -> None:
        """Both players giving up at once: one surrender ends the match, the other is MATCH_OVER."""
        opener = backend.services()
        record, _ = await start_match(opener)
        services = [opener, opener] if shared else [backend.services(), backend.services()]
        results = await asyncio.gather(
            *(s.moves.surrender(record.id, p.id) for s, p in zip(services, record.players, strict=True)),
            return_exceptions=True,
        )
        rejected = [r for r in results if isinstance(r, Rejected)]
        assert [r.reason for r in rejected] == [Rejection.MATCH_OVER]
        counted = await tables(opener, (ALA, BOB))
        assert [s.played for s in counted["chat_stats"]] == [1, 1]
        assert len(counted["chat_history"]) == 1
        assert sum(s.rating for s in counted["global_stats"]) == 3000


class TestPlayedToTarget:
    """A match that ends by reaching the target is counted like a surrender."""

    async def test_counted(self, services: Services) -> None:
        """The last move's summary is the history's entry and the winner's stats hold one win."""
        result = await finish_by_play(services, seed=3, preset="bingo-domino")
        summary = result.summary
        assert summary is not None
        assert (summary.finish, summary.winner) == (Finish.TARGET, result.match.winner)
        assert summary.score == result.match.score
        assert result.record.finish is Finish.TARGET
        assert await services.results.history(chat_id=CHAT) == [summary]
        assert summary.winner is not None
        winner, loser = result.record.players[summary.winner], result.record.players[1 - summary.winner]
        assert (await services.results.stats(winner.id)).per_game == {"bingo": (1, 1)}
        assert (await services.results.stats(loser.id, CHAT)).lost == 1
        assert await services.records.active_match(CHAT, winner.id) is None

    async def test_repeated_last_move(self, services: Services) -> None:
        """The last move delivered again is a duplicate and counts nothing more."""
        record, match = await start_match(services, target=1, seed=4)
        while True:
            action = match.legal_actions()[0]
            player = record.players[match.turn or 0]
            result = await services.moves.submit(record.id, player.id, action, request_id=f"q{record.version}")
            if result.record.status is not Status.ACTIVE:
                break
            record, match = result.record, result.match
        counted = await tables(services, (ALA, BOB))
        again = await services.moves.submit(record.id, player.id, action, request_id=f"q{record.version}")
        assert again.duplicate
        assert again.summary is None
        assert await tables(services, (ALA, BOB)) == counted


class TestRatings:
    """Elo with K=32 from 1500, per chat and across all chats."""

    async def test_series(self, services: Services) -> None:
        """Each change follows the Elo formula, the sum of ratings stays constant, and streaks count wins in a row."""
        expected = {p.id: 1500 for p in (ALA, BOB, CEZ)}
        series = [(ALA, BOB), (ALA, BOB), (BOB, CEZ), (ALA, CEZ), (CEZ, ALA)]
        for winner, loser in series:
            summary = await surrendered(services, loser, winner)
            change = elo_change(expected[winner.id], expected[loser.id])
            assert summary.rating_change == change
            expected[winner.id] += change
            expected[loser.id] -= change
        for chat_id in (CHAT, None):
            board = await services.results.leaderboard(chat_id)
            assert [s.rank for s in board] == [1, 2, 3]
            assert [(s.user_id, s.rating) for s in board] == sorted(expected.items(), key=lambda kv: -kv[1])
            assert sum(s.rating for s in board) == 3 * 1500
            assert [s.played for s in board] == [sum(s.user_id in (w.id, lo.id) for w, lo in series) for s in board]
        ala = await services.results.stats(ALA.id, CHAT)
        assert (ala.played, ala.won, ala.lost, ala.streak, ala.best_streak) == (4, 3, 1, 0, 3)
        cez = await services.results.stats(CEZ.id)
        assert (cez.played, cez.won, cez.lost, cez.streak, cez.best_streak) == (3, 1, 2, 1, 1)
        assert [s.winner for s in await services.results.history(chat_id=CHAT)] == [1] * len(series)
        assert len(await services.results.history(user_id=ALA.id)) == 4
        assert (
            await services.results.history(chat_id=CHAT, limit=2) == (await services.results.history(chat_id=CHAT))[:2]
        )

    async def test_chats_apart(self, services: Services) -> None:
        """A chat's table counts only its own matches; the global table counts all."""
        await surrendered(services, BOB, ALA, CHAT)
        await surrendered(services, ALA, BOB, OTHER_CHAT)
        await surrendered(services, ALA, BOB, OTHER_CHAT)
        assert (await services.results.stats(ALA.id, CHAT)).rating == 1516
        assert (await services.results.stats(ALA.id, OTHER_CHAT)).rating == 1500 - 16 - elo_change(1516, 1484)
        glob = await services.results.stats(ALA.id)
        assert (glob.played, glob.won, glob.lost) == (3, 1, 2)
        assert glob.rating + (await services.results.stats(BOB.id)).rating == 3000
        assert (await services.results.rank_of(CHAT, ALA.id)) == Standing(
            rank=1, user_id=ALA.id, name="Ala", rating=1516, played=1, won=1, lost=0
        )
        assert await services.results.rank_of(CHAT, CEZ.id) is None
        assert len(await services.results.history(chat_id=OTHER_CHAT)) == 2


class TestAbandon:
    """abandon: the match ends without a winner and unrated, but the histories keep it."""

    async def test_counts_nothing(self, services: Services) -> None:
        """No stats, rating or leaderboard; the histories list it as abandoned; the indexes are cleared and
        the players may play again."""
        record, _ = await start_match(services)
        result = await services.moves.abandon(record.id)
        abandoned = result.record
        assert (abandoned.status, abandoned.winner, abandoned.finish, abandoned.version) == (
            Status.ABANDONED,
            None,
            Finish.ABANDONED,
            1,
        )
        assert (await services.records.get(record.id))[0] == abandoned
        summary = result.summary
        assert summary is not None
        assert (summary.winner, summary.finish, summary.ratings, summary.rating_change) == (
            None,
            Finish.ABANDONED,
            None,
            0,
        )
        assert await tables(services, (ALA, BOB)) == {
            "chat_stats": [UserStats(user_id=ALA.id, rating=1500), UserStats(user_id=BOB.id, rating=1500)],
            "global_stats": [UserStats(user_id=ALA.id, rating=1500), UserStats(user_id=BOB.id, rating=1500)],
            "chat_board": [],
            "global_board": [],
            "chat_history": [summary],
            "user_history": [[summary], [summary]],
        }
        assert (await services.stores.matches.messages(record.id)).summary == summary
        assert await services.records.active_match(CHAT, ALA.id) is None
        assert await services.records.chat_matches(CHAT) == []
        with pytest.raises(Rejected) as info:
            await services.moves.submit(record.id, ALA.id, "00")
        assert info.value.reason is Rejection.MATCH_OVER
        await start_match(services)


class TestExpiry:
    """Finished matches expire; results never do."""

    async def test_active(self, backend: Backend) -> None:
        """An active match and its active keys live for the active TTL and a day more (the scheduler ends the
        match as abandoned at the active TTL, so it must still find it then)."""
        services = backend.services(active_ttl=1000, finished_ttl=100)
        record, _ = await start_match(services)
        k = services.stores.keys
        for key in (k.match(record.id), k.active(CHAT, ALA.id), k.active(CHAT, BOB.id)):
            assert 1000 < await services.stores.redis.ttl(key) <= 1000 + KEEP_AFTER_DEADLINE

    @pytest.mark.parametrize("how", ["surrender", "abandon"])
    async def test_finished(self, backend: Backend, how: str) -> None:
        """A finished match gets the finished TTL; stats, leaderboards and histories keep no TTL."""
        services = backend.services(active_ttl=1000, finished_ttl=100)
        record, _ = await start_match(services)
        await surrendered(services, CEZ, BOB, OTHER_CHAT)
        if how == "surrender":
            await services.moves.surrender(record.id, ALA.id)
        else:
            await services.moves.abandon(record.id)
        k = services.stores.keys
        assert 0 < await services.stores.redis.ttl(k.match(record.id)) <= 100
        assert not await services.stores.redis.exists(k.active(CHAT, ALA.id), k.active(CHAT, BOB.id))
        results = [
            k.stats(chat_scope(OTHER_CHAT), BOB.id),
            k.stats(chat_scope(OTHER_CHAT), CEZ.id),
            k.stats(GLOBAL, BOB.id),
            k.leaderboard(chat_scope(OTHER_CHAT)),
            k.leaderboard(GLOBAL),
            k.chat_history(OTHER_CHAT),
            k.user_history(BOB.id),
        ]
        if how == "surrender":
            results += [k.stats(chat_scope(CHAT), ALA.id), k.leaderboard(chat_scope(CHAT)), k.chat_history(CHAT)]
        assert [await services.stores.redis.ttl(key) for key in results] == [-1] * len(results)

    async def test_finished_record_kept(self, services: Services) -> None:
        """Until it expires a finished match still reads back as finished."""
        record, _ = await start_match(services)
        result = await services.moves.surrender(record.id, BOB.id)
        stored: MatchRecord = (await services.records.get(record.id))[0]
        assert stored == result.record
        assert stored.status is Status.FINISHED
