"""What the chat's step of a finish (COUNT_CHAT) counts beside the table: two people's head-to-head record and
the chat's season; the season's post mark; the @username map. Each held to its contract, once however often the
step runs."""

from __future__ import annotations

import datetime

import pytest

from bot.models import Summary
from bot.seasons import season_end, season_of
from bot.services import Stores
from bot.storage.results import SEASON_KEPT
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT
from tests.storage.test_results_store import counted_chat

MARCH = datetime.datetime(2026, 3, 14, 12, tzinfo=datetime.UTC).timestamp()
APRIL = datetime.datetime(2026, 4, 1, tzinfo=datetime.UTC).timestamp()


class TestSeasonsOfTime:
    """A season is a calendar month in UTC."""

    @pytest.mark.parametrize(
        ("moment", "season", "end"),
        [
            (MARCH, "2026-03", APRIL),
            (APRIL - 0.001, "2026-03", APRIL),
            (APRIL, "2026-04", datetime.datetime(2026, 5, 1, tzinfo=datetime.UTC).timestamp()),
            (datetime.datetime(2026, 12, 31, 23, 59, tzinfo=datetime.UTC).timestamp(), "2026-12",
             datetime.datetime(2027, 1, 1, tzinfo=datetime.UTC).timestamp()),
        ],
        ids=["mid-month", "its-last-instant", "the-next-first-instant", "december"],
    )  # fmt: skip
    def test_season(self, moment: float, season: str, end: float) -> None:
        assert season_of(moment) == season and season_end(season) == end


class TestRivalry:
    """Two people's head-to-head record in the chat: matches, wins each, the streak, the last five, per game."""

    async def test_a_run(self, stores: Stores) -> None:
        """Six matches: the counts, the streak of the last winner, the last five newest first, per game; the same
        record whichever of the two asks for it."""
        r = stores.results
        run = [(BOB, ALA, "bingo"), (ALA, BOB, "bingo"), (ALA, BOB, "42"), (BOB, ALA, "bingo"), (BOB, ALA, "42"),
               (BOB, ALA, "bingo")]  # fmt: skip
        for n, (winner, loser, game) in enumerate(run, 1):
            await counted_chat(r, f"m{n}", winner, loser, game=game, score=(7, n))
        record = await r.rivalry(CHAT, ALA.id, BOB.id)
        assert record == await r.rivalry(CHAT, BOB.id, ALA.id)
        assert record == {
            "played": "6",
            f"w:{BOB.id}": "4",
            f"w:{ALA.id}": "2",
            "sw": str(BOB.id),
            "sn": "3",
            "p:bingo": "4",
            "p:42": "2",
            f"g:bingo:{BOB.id}": "3",
            f"g:bingo:{ALA.id}": "1",
            f"g:42:{BOB.id}": "1",
            f"g:42:{ALA.id}": "1",
            "last": f"{BOB.id}:bingo:7:6,{BOB.id}:42:7:5,{BOB.id}:bingo:7:4,{ALA.id}:42:7:3,{ALA.id}:bingo:7:2",
        }

    async def test_series_in_the_summary(self, stores: Stores) -> None:
        """The summary kept says the winner's and the loser's wins in the series after the match."""
        r = stores.results
        series = []
        for n, (winner, loser) in enumerate([(BOB, ALA), (ALA, BOB), (ALA, BOB)], 1):
            counted = await counted_chat(r, f"m{n}", winner, loser)
            series.append(Summary.model_validate_json(counted.summary).series)
        assert series == [(1, 0), (1, 1), (2, 1)]

    @pytest.mark.parametrize("counts", ["h", "v", "0"])
    async def test_only_rated(self, stores: Stores, counts: str) -> None:
        """An abandoned match, one against the computer or one not kept: no record, no series."""
        counted = await counted_chat(stores.results, counts=counts)
        assert await stores.results.rivalry(CHAT, ALA.id, BOB.id) == {}
        assert counted.summary == "" or Summary.model_validate_json(counted.summary).series is None

    async def test_once_and_apart(self, stores: Stores) -> None:
        """A step run again counts nothing more; another pair and another chat have records of their own."""
        r = stores.results
        first = await counted_chat(r, "m1")
        assert await counted_chat(r, "m1") == first
        await counted_chat(r, "m2", CEZ, ALA)
        await counted_chat(r, "m3", chat_id=OTHER_CHAT)
        assert (await r.rivalry(CHAT, ALA.id, BOB.id))["played"] == "1"
        assert (await r.rivalry(CHAT, ALA.id, CEZ.id))[f"w:{CEZ.id}"] == "1"
        assert (await r.rivalry(OTHER_CHAT, ALA.id, BOB.id))["played"] == "1"
        assert await r.rivalry(OTHER_CHAT, ALA.id, CEZ.id) == {}


class TestSeason:
    """The chat's season of the match's finish: wins first, the rating gained breaks a tie; its first match says
    so (its end is then scheduled)."""

    async def test_table(self, stores: Stores) -> None:
        """Bob and Cez each beat Ala once: Bob, who gained more, first, Ala last with two losses (everyone who
        played is in it); then Ala wins twice and leads on wins."""
        r = stores.results
        first = await counted_chat(r, "m1", BOB, ALA, finished=MARCH)  # Bob +16
        second = await counted_chat(r, "m2", CEZ, ALA, finished=MARCH + 60)  # Cez +15 (Ala is at 1484)
        assert (first.season_began, second.season_began) == ("2026-03", None)
        assert await r.season_table(CHAT, "2026-03", 10) == [BOB.id, CEZ.id, ALA.id]
        assert await r.season_table(CHAT, "2026-03", 2) == [BOB.id, CEZ.id]
        counts = await r.season_counts(CHAT, "2026-03")
        assert counts == {
            "played": "2",
            "lang": "ru",
            f"w:{BOB.id}": "1",
            f"w:{CEZ.id}": "1",
            f"l:{ALA.id}": "2",
            f"e:{BOB.id}": "16",
            f"e:{CEZ.id}": "15",
            f"e:{ALA.id}": "-31",
            f"n:{BOB.id}": "Bob",
            f"n:{CEZ.id}": "Cez",
            f"n:{ALA.id}": "Ala",
        }
        await counted_chat(r, "m3", ALA, CEZ, finished=MARCH + 120)
        await counted_chat(r, "m4", ALA, BOB, finished=MARCH + 180)
        assert await r.season_table(CHAT, "2026-03", 10) == [ALA.id, BOB.id, CEZ.id]
        assert [await r.season_rank(CHAT, "2026-03", u.id) for u in (ALA, BOB, CEZ)] == [1, 2, 3]
        assert await r.season_rank(CHAT, "2026-03", 999) is None
        key = stores.keys.season(CHAT, "2026-03")
        assert SEASON_KEPT - 5 < await stores.redis.ttl(key) <= SEASON_KEPT

    async def test_months_and_chats_apart(self, stores: Stores) -> None:
        """A match counts in the month it finished, in its chat; each chat's and month's first match says so."""
        r = stores.results
        began = [
            (await counted_chat(r, "m1", finished=APRIL - 1)).season_began,
            (await counted_chat(r, "m2", finished=APRIL)).season_began,
            (await counted_chat(r, "m3", finished=APRIL + 1)).season_began,
            (await counted_chat(r, "m4", chat_id=OTHER_CHAT, finished=APRIL + 2)).season_began,
        ]
        assert began == ["2026-03", "2026-04", None, "2026-04"]
        assert (await r.season_counts(CHAT, "2026-03"))["played"] == "1"
        assert (await r.season_counts(CHAT, "2026-04"))["played"] == "2"
        assert (await r.season_counts(OTHER_CHAT, "2026-04"))["played"] == "1"
        assert await r.season_counts(OTHER_CHAT, "2026-03") == {}

    async def test_once(self, stores: Stores) -> None:
        """The step run again answers the same, the season's first included, and counts nothing more."""
        r = stores.results
        first = await counted_chat(r, "m1", finished=MARCH)
        assert await counted_chat(r, "m1", finished=MARCH) == first and first.season_began == "2026-03"
        assert (await r.season_counts(CHAT, "2026-03"))["played"] == "1"

    @pytest.mark.parametrize("counts", ["h", "v", "0"])
    async def test_only_rated(self, stores: Stores, counts: str) -> None:
        """A match not rated is in no season."""
        counted = await counted_chat(stores.results, counts=counts, finished=MARCH)
        assert counted.season_began is None
        assert await stores.results.season_table(CHAT, "2026-03", 10) == []

    async def test_post_claimed_once(self, stores: Stores) -> None:
        """The final table's mark: one claim wins, for good; released, the next claim wins again."""
        r = stores.results
        assert await r.claim_season_post(CHAT, "2026-03")
        assert not await r.claim_season_post(CHAT, "2026-03")
        assert await r.claim_season_post(OTHER_CHAT, "2026-03") and await r.claim_season_post(CHAT, "2026-04")
        await r.release_season_post(CHAT, "2026-03")
        assert await r.claim_season_post(CHAT, "2026-03")
        key = stores.keys.season_posted(CHAT, "2026-03")
        assert SEASON_KEPT - 5 < await stores.redis.ttl(key) <= SEASON_KEPT


class TestUsernames:
    """The @username map: lowercase, the last user seen with a name wins."""

    async def test_map(self, stores: Stores) -> None:
        chats = stores.chats
        assert await chats.user_by_username("ala_plays") is None
        await chats.remember_username("Ala_Plays", ALA.id)
        assert await chats.user_by_username("ala_plays") == ALA.id
        assert await chats.user_by_username("ALA_PLAYS") == ALA.id
        await chats.remember_username("ala_plays", BOB.id)
        assert await chats.user_by_username("Ala_plays") == BOB.id
