"""Tournaments over the fake Bot API on real Redis, with players pressing random legal buttons: a round robin of
three in one bot, and a knockout of eight in a bot process killed (-9) and started again twice in the middle.

Matches here are to one game point (one deal each), so that a tournament is a few dozen presses a match.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

import pytest

from bot.i18n import I18n, Translator
from bot.models import Status, Tournament
from bot.services import Services
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import ask, button, held_panel, playable, reply_in, start_bot
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent
from tests.e2e.process import RestartingBot, bot_env
from tests.e2e.simclock import SimClock
from tests.redis_server import redis_url

TR = I18n()["ru"]
RR_GROUP = -100950
KO_GROUP = -100951
PLAYERS = [FakeUser(9500 + i, name, f"{name.lower()}_tn", "ru") for i, name in
           enumerate(["Ann", "Bob", "Carl", "Dora", "Eve", "Fil", "Gosia", "Hugo"])]  # fmt: skip
NEWCOMER = FakeUser(9599, "Newt", "newt_tn", "ru")
"""Never started the bot."""


def tournament_id(message: Sent) -> str:
    """The id in a tournament message's buttons (``tn:<id>:<action>``)."""
    data = button(message, "tn:")["callback_data"]
    return str(data.split(":")[1])


async def press(fake: FakeTelegram, user: FakeUser, message: Sent, data: str) -> dict[str, object]:
    return await fake.wait_answer(fake.press(user, message, data))


async def sign_up(fake: FakeTelegram, group: int, players: list[FakeUser]) -> tuple[Sent, str]:
    """The first player opens the tournament, the others press ✅; returns its message and id."""
    message = await ask(fake, players[0], group, "/tournament")
    tid = tournament_id(message)
    for user in players[1:]:
        answer = await press(fake, user, message, f"tn:{tid}:j")
        assert answer.get("text") == TR("toast-tournament-joined")
    names = [u.first_name for u in players]
    await fake.wait_for(lambda: all(n in fake.messages[(group, message.message_id)].text for n in names),
                        what="the sign-up listing everyone")  # fmt: skip
    return fake.messages[(group, message.message_id)], tid


async def press_randomly(
    fake: FakeTelegram,
    users: list[FakeUser],
    rng: random.Random,
    until: Callable[[], Awaitable[bool]],
    *,
    limit: float = 90,
    seen: Callable[[], Awaitable[str]] | None = None,
) -> int:
    """Each user with a panel presses one of its playable buttons, round after round, until ``until()``; returns
    how many presses the bot took (a press on a panel the bot has just replaced is refused, and costs nothing).
    Past ``limit`` seconds (within the test's own 150) it fails saying who held which panel and ``seen()``."""
    taken = 0
    deadline = time.monotonic() + limit
    while not await until():
        if time.monotonic() > deadline:
            panels = {u.first_name: (p.text[:80] if (p := held_panel(fake, u)) else None) for u in users}
            extra = "" if seen is None else await seen()
            raise AssertionError(f"the tournament did not move on within {limit:.0f} s; panels: {panels}; {extra}")
        progressed = False
        for user in rng.sample(users, len(users)):
            panel = held_panel(fake, user)
            buttons = [] if panel is None else playable(panel)
            if panel is None or not buttons:
                continue
            answer = await fake.wait_answer(fake.press(user, panel, rng.choice(buttons)["callback_data"]))
            if not answer.get("text"):
                taken += 1
                progressed = True
        if not progressed:
            await asyncio.sleep(0.05)
    return taken


def announced(fake: FakeTelegram, group: int) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        return bool(announcements(fake, group))

    return check


def announcements(fake: FakeTelegram, group: int) -> list[Sent]:
    """The group's messages announcing a tournament's end."""
    over = TR("tournament-over-caption", name="", game="", n=0).split("!")[0]
    return [m for m in fake.chat_messages(group) if m.text.startswith(over)]


async def finished(services: Services, tid: str) -> Tournament:
    t = await services.tournaments.get(tid)
    assert t is not None
    return t


class TestRoundRobin:
    @pytest.mark.cluster
    async def test_three_players_to_the_champion(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Sign-up (a newcomer is sent to the bot, ▶ is the creator's, three are needed), three matches played
        with random buttons, the standings edited in place, the champion announced once with the picture, and
        /stats counting the win; the group within its budget throughout."""
        players = PLAYERS[:3]
        rng = random.Random(3)
        async with running_bot(fake, prefix, pictures=True) as app:
            for user in players:
                await start_bot(fake, user)
            await app.services.chats.update_settings(RR_GROUP, target=1)
            message = await ask(fake, players[0], RR_GROUP, "/tournament")
            tid = tournament_id(message)
            assert TR("tournament-signup-how") in message.text
            answer = await press(fake, NEWCOMER, message, f"tn:{tid}:j")
            assert f"start=t_{tid}" in str(answer.get("url"))
            answer = await press(fake, players[0], message, f"tn:{tid}:s")
            assert answer.get("text") == TR("toast-tournament-small")
            message, _ = await sign_up_rest(fake, message, tid, players)
            answer = await press(fake, players[1], message, f"tn:{tid}:s")
            assert answer.get("text") == TR("toast-tournament-creator-only")
            # /tournament while it signs up posts it again, with its buttons: that message is the tournament's now.
            message = await ask(fake, players[2], RR_GROUP, "/tournament")
            assert players[1].first_name in message.text and message.buttons()
            assert not (await press(fake, players[0], message, f"tn:{tid}:s")).get("text")
            await press_randomly(fake, players, rng, announced(fake, RR_GROUP))
            await app.settled()
            t = await finished(app.services, tid)
            assert t.status == "finished" and t.format == "rr" and t.champion is not None
            matches = [p.match for p in t.pairings]
            assert len(matches) == 3 and len(set(matches)) == 3 and all(matches)
            history = await app.services.results.history(chat_id=RR_GROUP, limit=10)
            assert sorted(s.id for s in history) == sorted(m for m in matches if m)
            champion = t.entrants[t.champion].player
            [ending] = announcements(fake, RR_GROUP)
            assert ending.photo is not None and champion.name in ending.text
            board = fake.messages[(RR_GROUP, message.message_id)]
            assert TR("tournament-champion", name=champion.name) in board.text and not board.buttons()
            winner = next(u for u in players if u.id == champion.id)
            stats = await ask(fake, winner, RR_GROUP, "/stats")
            assert TR("stats-tournaments", n=1) in stats.text
        invariants.within_group_budget(fake, RR_GROUP)
        invariants.callback_data_fits(fake)


async def sign_up_rest(
    fake: FakeTelegram, message: Sent, tid: str, players: list[FakeUser], tr: Translator = TR
) -> tuple[Sent, str]:
    """Everyone but the creator presses ✅ on the open sign-up."""
    group = message.chat_id
    for user in players[1:]:
        answer = await press(fake, user, message, f"tn:{tid}:j")
        assert answer.get("text") == tr("toast-tournament-joined")
    await fake.wait_for(
        lambda: all(u.first_name in fake.messages[(group, message.message_id)].text for u in players),
        what="the sign-up listing everyone",
    )
    return fake.messages[(group, message.message_id)], tid


class TestKnockout:
    async def test_eight_players_through_two_kills(self, fake: FakeTelegram, prefix: str, outside: Services) -> None:
        """Eight players, a bot process killed (-9) twice in the middle and started again: seven matches, each
        result counted once, the champion announced once."""
        rng = random.Random(8)
        env = bot_env(telegram_api_base=fake.base, redis_url=redis_url(), redis_prefix=prefix)
        bot = RestartingBot(env, fake=fake)
        try:
            await bot.start()
            for user in PLAYERS:
                await start_bot(fake, user)
            await outside.chats.update_settings(KO_GROUP, target=1)
            message, tid = await sign_up(fake, KO_GROUP, PLAYERS)

            async def state() -> str:
                """What the tournament and the bot say, when it stalls (it did once, after the second kill)."""
                t = await finished(outside, tid)
                pairings = [(p.round, p.done, p.match) for p in t.pairings]
                matches = []
                for p in t.pairings:
                    if p.match is not None and not p.done:
                        record, _ = await outside.records.get(p.match)
                        matches.append((p.match, record.status.value, record.version, record.deal.n))
                log = "\n".join(bot.output.splitlines()[-60:])
                return f"status {t.status}, pairings {pairings}, open matches {matches}; the bot's last lines:\n{log}"

            assert not (await press(fake, PLAYERS[0], message, f"tn:{tid}:s")).get("text")

            for kill_after in (2, 5):

                async def played(enough: int = kill_after) -> bool:
                    t = await finished(outside, tid)
                    return sum(1 for p in t.pairings if p.done and p.match is not None) >= enough

                await press_randomly(fake, PLAYERS, rng, played, seen=state)
                await bot.kill()
                await bot.start()
            await press_randomly(fake, PLAYERS, rng, announced(fake, KO_GROUP), seen=state)
            await fake.quiet(period=2.5, timeout=30)
            t = await finished(outside, tid)
            assert t.status == "finished" and t.format == "ko" and t.champion is not None
            matches = [p.match for p in t.pairings if p.match is not None]
            assert len(matches) == 7 and len(set(matches)) == 7
            for match_id in matches:
                record, _ = await outside.records.get(match_id)
                assert record.status is Status.FINISHED and record.tournament == tid
            history = await outside.results.history(chat_id=KO_GROUP, limit=50)
            assert sorted(s.id for s in history) == sorted(matches)
            assert len(announcements(fake, KO_GROUP)) == 1
            champion = t.entrants[t.champion].player.id
            assert await outside.tournaments.wins(KO_GROUP, champion) == 1
            assert "Traceback" not in bot.output
        finally:
            await bot.close()
        invariants.within_group_budget(fake, KO_GROUP)


PL = I18n()["pl"]
PL_GROUP = -100952


class TestSignUpAndLeaving:
    async def test_cancel_expiry_and_a_leaver(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """In a Polish group on a simulated clock: /cancel in reply cancels a sign-up (not for somebody else);
        a sign-up nobody starts closes itself after a day; in a round robin of four, one press of 🚪 leaves (an
        alert says what it did): the match being played is given up, the leaver's other matches go to the opponents
        without play, and the tournament still ends with a champion."""
        players = PLAYERS[:4]
        rng = random.Random(4)
        clock = SimClock()
        fake.clock = clock.monotonic  # the group's window is checked on the bot's clock
        async with clock.ticking(step=0.01), running_bot(fake, prefix, clock=clock, pictures=False) as app:
            for user in players:
                await start_bot(fake, user)
            fake.admins[PL_GROUP] = {players[3].id}
            await app.services.chats.update_settings(PL_GROUP, target=1, lang="pl")
            message = await ask(fake, players[0], PL_GROUP, "/tournament")
            assert PL("tournament-signup-how") in message.text
            # Somebody else's /cancel in reply is refused; the organiser's cancels.
            fake.send_text(players[1], PL_GROUP, "/cancel", reply_to=message)
            refused = await reply_in(fake, PL_GROUP, message.message_id, "the refusal")
            assert refused.text == PL("toast-tournament-creator-only")
            fake.send_text(players[0], PL_GROUP, "/cancel", reply_to=message)
            cancelled = PL("tournament-cancelled", creator=players[0].first_name)
            await fake.wait_for(lambda: fake.messages[(PL_GROUP, message.message_id)].text == cancelled,
                                what="the sign-up cancelled")  # fmt: skip
            assert not fake.messages[(PL_GROUP, message.message_id)].buttons()
            # A new sign-up nobody starts closes itself after a day.
            message = await ask(fake, players[1], PL_GROUP, "/tournament")
            clock.advance(86400 + 1)
            await app.scheduler.run_due()
            expired = PL("tournament-expired", creator=players[1].first_name)
            await fake.wait_for(lambda: fake.messages[(PL_GROUP, message.message_id)].text == expired,
                                what="the sign-up expired")  # fmt: skip
            message = await ask(fake, players[0], PL_GROUP, "/tournament")
            tid = tournament_id(message)
            message, _ = await sign_up_rest(fake, message, tid, players[:3], PL)
            # The fourth signs up by the link the ✅ answer gives a newcomer, from the private chat.
            joined = await ask(fake, players[3], players[3].id, f"/start t_{tid}")
            assert joined.text == TR("tournament-joined-private", game=TR("preset-bingo"))
            await fake.wait_for(lambda: players[3].first_name in fake.messages[(PL_GROUP, message.message_id)].text,
                                what="the sign-up listing the fourth")  # fmt: skip
            message = fake.messages[(PL_GROUP, message.message_id)]
            # An admin may start somebody else's tournament.
            assert not (await press(fake, players[3], message, f"tn:{tid}:s")).get("text")
            leave = f"tn:{tid}:l"
            await fake.wait_for(
                lambda: any(b.get("callback_data") == leave for b in fake.messages[(PL_GROUP, message.message_id)]
                            .buttons()), what="the leave button")  # fmt: skip
            board = fake.messages[(PL_GROUP, message.message_id)]
            leaver = players[0]
            await fake.wait_for(lambda: held_panel(fake, leaver) is not None, what="the leaver's first match")
            left = await press(fake, leaver, board, f"tn:{tid}:l")
            assert left.get("text") == PL("toast-tournament-left-now") and left.get("show_alert")
            again = await press(fake, leaver, board, f"tn:{tid}:l")
            assert again.get("text") == PL("toast-tournament-not-entered")
            await press_randomly(fake, players[1:], rng, announced_in(fake, PL_GROUP, PL))
            await app.settled()
            t = await finished(app.services, tid)
            assert t.status == "finished" and t.champion is not None and t.entrants[0].left
            mine = [p for p in t.pairings if 0 in (p.a, p.b)]
            played = [p for p in mine if p.match is not None]
            assert len(played) == 1, "the match being played when the player left"
            record, _ = await app.services.records.get(played[0].match or "")
            assert record.status is Status.FINISHED and record.players[record.winner or 0].id != leaver.id
            assert all(p.forfeit and p.winner != 0 for p in mine if p.match is None)
            assert t.champion != 0
            final = fake.messages[(PL_GROUP, message.message_id)].text
            assert PL("tournament-left-mark") in final and "Turniej" in final
            await app.settled()  # while the clock ticks: the last edits wait for the group's window
        invariants.within_group_budget(fake, PL_GROUP)


def announced_in(fake: FakeTelegram, group: int, tr: Translator) -> Callable[[], Awaitable[bool]]:
    over = tr("tournament-over-caption", name="", game="", n=0).split("!")[0]

    async def check() -> bool:
        return any(m.text.startswith(over) for m in fake.chat_messages(group))

    return check
