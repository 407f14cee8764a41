"""Rivalries and seasons over the fake Bot API on real Redis: the series named under each result, /stats in reply
and with an @username, /top's season and all-time tables, and a season's final table posted once at the month's
end with two bot processes running on one simulated clock.

Matches here end by a surrender (a few seconds each); pictures are off, so a result is its text.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from typing import Any

from bot import render
from bot.i18n import I18n
from bot.routers.stats import standing_line
from bot.scheduler import season_job
from bot.seasons import season_of
from bot.services import Services
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, new_match, newest_id, reply_in, start_bot, surrender
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.process import BotProcess, bot_env
from tests.e2e.test_clock_faults import FileClock, file_clock, processes
from tests.redis_server import redis_url

__all__ = ["file_clock"]  # the fixture, shared with test_clock_faults

GROUP = -100810
"""Ann and Bob's group."""
QUIET_GROUP = -100811
"""A match begun in January and ended in February: no January season."""
ANN = FakeUser(8101, "Ann <a>", "ann_rival", "ru")
BOB = FakeUser(8102, "Bob", "Bob_Rival", "ru")
CARL = FakeUser(8103, "Carl", "carl_rival", "ru")
"""Has started the bot, never plays Ann."""
TR = I18n()["ru"]
ANN_NAME, BOB_NAME = render.user_text(ANN.first_name), render.user_text(BOB.first_name)


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0) -> float:
    return datetime.datetime(year, month, day, hour, minute, second, tzinfo=datetime.UTC).timestamp()


async def stats_reply(
    fake: FakeTelegram, user: FakeUser, text: str, reply_to: Sent | dict[str, Any] | None = None
) -> str:
    """What the bot answers to ``text`` (``/stats ...``) written in the group by ``user``."""
    after = newest_id(fake, GROUP)
    fake.send_text(user, GROUP, text, reply_to=reply_to)
    return (await reply_in(fake, GROUP, after, f"an answer to {text}")).text


def head_to_head(me: str, them: str, won: int, lost: int, meetings: list[bool], streak: tuple[str, int]) -> str:
    """The head-to-head text of Bingo matches each ended by a surrender at 0:0 (``meetings``: won by ``me``,
    newest first)."""
    bingo = TR("game-bingo")
    rows = [TR("rivalry-meeting", result="won" if w else "lost", game=bingo, mine=0, theirs=0) for w in meetings]
    return "\n".join(
        [
            TR("rivalry-title", a=me, b=them),
            TR("rivalry-score", played=won + lost, won=won, lost=lost),
            TR("rivalry-streak", name=streak[0], wins=TR("wins", n=streak[1])),
            TR("rivalry-game", game=bingo, won=won, lost=lost),
            TR("rivalry-last", meetings=" · ".join(rows)),
        ]
    )


class TestRivalries:
    async def test_series_and_head_to_head(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Three matches: each result names the series; /stats in reply and with an @username (any case) shows
        the head-to-head record from the asker's side; a clear answer for nobody known, oneself, a bot, a player
        never met; plain /stats is still one's own; /top the season, /top all-time and its aliases the chat's
        all-time table, /top all every chat's."""
        async with running_bot(fake, prefix, pictures=False) as app:
            for user in (ANN, BOB, CARL):
                await start_bot(fake, user)
            results = []
            for loser in (BOB, ANN, BOB):
                match_id = await new_match(fake, ANN, BOB, GROUP)
                results.append(await surrender(fake, loser, GROUP, match_id))
            # The series is the result's last line before the match's key and seeds and the link to the replay.
            assert all([line[:1] for line in r.text.split("\n")[-3:]] == ["🗝", "🌱", "🎞"] for r in results)
            assert [r.text.split("\n")[-4] for r in results] == [
                TR("series-lead", name=ANN_NAME, lead=1, trail=0),
                TR("series-tie", n=1),
                TR("series-lead", name=ANN_NAME, lead=2, trail=1),
            ]
            anns = head_to_head(ANN_NAME, BOB_NAME, 2, 1, [True, False, True], (ANN_NAME, 1))
            said = fake.send_text(BOB, GROUP, "gg")
            assert await stats_reply(fake, ANN, "/stats", reply_to=said) == anns
            assert await stats_reply(fake, ANN, "/stats @bob_rival") == anns
            bobs = head_to_head(BOB_NAME, ANN_NAME, 1, 2, [False, True, False], (ANN_NAME, 1))
            assert await stats_reply(fake, BOB, "/stats @ANN_rival") == bobs
            assert await stats_reply(fake, ANN, "/stats @nobody_here") == TR("rivalry-unknown", name="@nobody_here")
            assert await stats_reply(fake, ANN, "/stats @ann_rival") == TR("rivalry-self")
            assert await stats_reply(fake, ANN, "/stats @domino_bot") == TR("rivalry-not-a-person")
            assert await stats_reply(fake, ANN, "/stats", reply_to=results[0]) == TR("rivalry-not-a-person")
            none = TR("rivalry-none", a=ANN_NAME, b=render.user_text(CARL.first_name))
            assert await stats_reply(fake, ANN, "/stats @carl_rival") == none
            assert (await stats_reply(fake, ANN, "/stats")).startswith(TR("stats-title-chat", name=ANN_NAME))

            season = season_of(time.time())
            rows, _ = await app.services.results.season(GROUP, season)
            assert [(r.user_id, r.won, r.lost) for r in rows] == [(ANN.id, 2, 1), (BOB.id, 1, 2)]
            board = await app.services.results.leaderboard(GROUP)
            assert [r.gained for r in rows] == [row.rating - 1500 for row in board]  # all of it this season
            table = [TR("season-title", season=render.season_name(TR, season))]
            assert (await ask(fake, CARL, GROUP, "/top")).text == "\n".join(
                [*table, *(render.season_line(TR, r) for r in rows), TR("season-you-unranked")]
            )
            all_time = "\n".join([TR("top-title"), *(standing_line(TR, row) for row in board)])
            for words in ("all-time", "за всё время", "Wszystko"):
                assert (await ask(fake, ANN, GROUP, f"/top {words}")).text == all_time
            assert (await ask(fake, ANN, GROUP, "/top all")).text.startswith(TR("top-title-all"))
            await app.settled()
            await invariants.all_well(fake)


JANUARY_END = utc(2027, 1, 31, 23, 0)
FEBRUARY = utc(2027, 2, 1, 0, 0, 5)
MARCH = utc(2027, 3, 1)


FINAL_HEAD = TR("season-final-title", season=render.season_name(TR, "2027-01"))


def final_tables(fake: FakeTelegram, chat: int) -> list[Sent]:
    return [m for m in fake.chat_messages(chat) if m.text.startswith(FINAL_HEAD)]


def posted_lines(bots: list[BotProcess]) -> int:
    return sum("the final table of season" in line for bot in bots for line in bot.lines)


class TestSeasons:
    async def test_final_table_once(
        self, fake: FakeTelegram, prefix: str, outside: Services, file_clock: FileClock
    ) -> None:
        """Two processes, one clock: January's two matches in the group; at February's first second the final
        table and its champion are posted once (a job run again posts nothing); the other group, whose match ended
        in February, gets nothing for January and its February season is due on March 1. /top then shows the new
        season, empty, and /top all-time the all-time table."""
        file_clock.set(JANUARY_END)
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix,
                      clock_file=str(file_clock.path), pictures="false", turn_timeout="600")  # fmt: skip
        async with processes(env, 2) as bots:
            for user in (ANN, BOB):
                await start_bot(fake, user)
            for loser in (BOB, ANN, BOB):
                await surrender(fake, loser, GROUP, await new_match(fake, ANN, BOB, GROUP))
            await new_match(fake, ANN, BOB, QUIET_GROUP)  # its clock will forfeit it in February
            assert await outside.scheduler.due_at(season_job(GROUP, "2027-01")) == FEBRUARY - 5
            file_clock.set(FEBRUARY)
            await fake.wait_for(lambda: final_tables(fake, GROUP), timeout=30, what="the final table")
            forfeit = TR("match-forfeit", loser="X", winner="Y", sw=0, sl=0).split(" — ")[0]
            await fake.wait_for(lambda: any(m.text.startswith(forfeit) for m in fake.chat_messages(QUIET_GROUP)),
                                timeout=30, what="the quiet group's forfeit")  # fmt: skip
            rows, _ = await outside.results.season(GROUP, "2027-01")
            assert final_tables(fake, GROUP)[0].text == render.season_final_text(TR, "2027-01", rows)
            assert (rows[0].user_id, rows[0].won) == (ANN.id, 2)
            # The job again, due now: the mark says it was posted.
            await outside.scheduler.schedule(season_job(GROUP, "2027-01"), FEBRUARY)
            await fake.wait_for(lambda: posted_lines(bots) >= 1, timeout=10, what="the log line")
            await wait_gone(outside, season_job(GROUP, "2027-01"))
            await fake.quiet(period=1.5, timeout=30)
            assert len(final_tables(fake, GROUP)) == 1 and final_tables(fake, QUIET_GROUP) == []
            assert posted_lines(bots) == 1
            assert await outside.scheduler.due_at(season_job(QUIET_GROUP, "2027-01")) is None
            assert await outside.scheduler.due_at(season_job(QUIET_GROUP, "2027-02")) == MARCH
            february = render.season_name(TR, "2027-02")
            assert (await ask(fake, ANN, GROUP, "/top")).text == TR("season-empty", season=february)
            top = await ask(fake, ANN, GROUP, "/top за всё время")
            assert top.text.startswith(TR("top-title")) and ANN_NAME in top.text
            assert "Traceback" not in "".join(bot.output for bot in bots)


async def wait_gone(services: Services, job: str, timeout: float = 10.0) -> None:
    """Wait until ``job`` ran and is gone from the scheduler."""
    deadline = time.monotonic() + timeout
    while await services.scheduler.due_at(job) is not None:
        assert time.monotonic() < deadline, f"{job} still scheduled"
        await asyncio.sleep(0.1)
