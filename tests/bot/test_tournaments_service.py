"""The tournament service over its repositories (fakeredis): a pairing waits while a player plays a match of
their own in the chat (and is forfeited by them past the clock), a job run again starts nothing twice and counts
nothing twice, a result is written when its match finishes (so the match's record may expire), a process dying
between a pairing's start and its match's record is carried through, leaving is one step, the organiser's (or an
admin's) removal and stop, the refusals, a group that becomes a supergroup, and the end's announcement."""

from __future__ import annotations

from typing import Any

import pytest

from bot.models import Player, Rejection, Status, Tournament
from bot.services import Services
from bot.services.errors import Rejected
from bot.storage.keys import moved_id
from bot.timers import ANNOUNCE_TRIES, Timers
from tests.backends import Backend
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT, Members, start_match
from tests.e2e.simclock import SimClock

DAN = Player(id=104, name="Dan")


async def running(services: Services, players: tuple[Player, ...] = (ALA, BOB, CEZ)) -> str:
    t = await services.tournaments.open(CHAT, players[0], "bingo", 1, "ru", thread_id=None)
    for player in players[1:]:
        await services.tournaments.toggle(t.id, player)
    await services.tournaments.begin(t.id, players[0].id)
    return t.id


async def test_sign_up_refusals(services: Services, members: Members) -> None:
    t = await services.tournaments.open(CHAT, ALA, "bingo", None, "ru", thread_id=None)
    with pytest.raises(Rejected) as refused:
        await services.tournaments.open(CHAT, BOB, "bingo", None, "ru", thread_id=None)
    assert refused.value.reason is Rejection.TOURNAMENT_ON
    with pytest.raises(Rejected) as refused:
        await services.tournaments.begin(t.id, ALA.id)
    assert refused.value.reason is Rejection.TOURNAMENT_SMALL
    _, joined = await services.tournaments.toggle(t.id, BOB)
    assert joined
    _, joined = await services.tournaments.toggle(t.id, BOB)
    assert not joined
    await services.tournaments.toggle(t.id, BOB)
    await services.tournaments.toggle(t.id, CEZ)
    with pytest.raises(Rejected) as refused:
        await services.tournaments.begin(t.id, BOB.id)
    assert refused.value.reason is Rejection.NOT_ALLOWED
    members.admins[OTHER_CHAT] = {BOB.id}  # an admin elsewhere is nobody here
    with pytest.raises(Rejected) as refused:
        await services.tournaments.cancel(t.id, BOB.id)
    assert refused.value.reason is Rejection.NOT_ALLOWED
    members.admins[CHAT] = {BOB.id}
    started = await services.tournaments.begin(t.id, BOB.id)
    assert started.status == "running" and started.format == "rr" and len(started.pairings) == 3
    with pytest.raises(Rejected):
        await services.tournaments.toggle(t.id, DAN)


async def test_a_pairing_waits_for_a_players_own_match(services: Services) -> None:
    own, _ = await start_match(services, creator=ALA, joiner=DAN)  # Ala plays Dan outside the tournament
    tid = await running(services)
    progress = await services.tournament_play.progress(tid)
    # Of Ala v Bob, Ala v Cez, Bob v Cez only Bob v Cez can start: Ala plays.
    assert [(r.players[0].id, r.players[1].id) for r in progress.started] == [(BOB.id, CEZ.id)]
    again = await services.tournament_play.progress(tid)
    assert again.started == [], "a job run again starts nothing twice"
    t = await services.tournaments.get(tid)
    assert t is not None and sum(1 for p in t.pairings if p.match) == 1
    await services.moves.surrender(own.id, DAN.id)
    record, _ = await services.records.get(own.id)
    assert record.status is Status.FINISHED
    # Bob v Cez still plays: Ala's two pairings need Bob or Cez; one starts once Bob and Cez are done.
    assert (await services.tournament_play.progress(tid)).started == []


async def test_results_count_once_and_the_end(services: Services) -> None:
    tid = await running(services)
    started: list[str] = []
    for _ in range(10):
        progress = await services.tournament_play.progress(tid)
        assert progress.tournament is not None
        if progress.tournament.status == "finished":
            break
        assert len(progress.started) <= 1  # three players: one match at a time
        for record in progress.started:
            assert record.id not in started
            started.append(record.id)
            await services.moves.surrender(record.id, record.players[1].id)
    assert len(started) == 3
    t = await services.tournaments.get(tid)
    assert t is not None and t.status == "finished" and t.champion is not None
    assert all(p.done and p.match for p in t.pairings)
    champion = t.entrants[t.champion].player.id
    assert await services.tournaments.wins(CHAT, champion) == 1
    await services.tournament_play.progress(tid)
    assert await services.tournaments.wins(CHAT, champion) == 1
    assert await services.tournaments.current(CHAT) is None


async def test_a_start_whose_process_died_is_carried_through(services: Services) -> None:
    tid = await running(services)
    created = services.challenges.created

    async def died(*_: object) -> None:
        raise ConnectionError("killed")

    services.challenges.created = died  # type: ignore[method-assign,assignment]
    with pytest.raises(ConnectionError):
        await services.tournament_play.progress(tid)
    services.challenges.created = created  # type: ignore[method-assign]
    t = await services.tournaments.get(tid)
    assert t is not None
    [pairing] = [p for p in t.pairings if p.match]
    assert pairing.match is not None and await services.stores.matches.record(pairing.match) is None
    progress = await services.tournament_play.progress(tid)
    assert progress.started == []
    record, _ = await services.records.get(pairing.match)
    assert record.tournament == tid and record.is_active


async def tournament(services: Services, tid: str) -> Tournament:
    t = await services.tournaments.get(tid)
    assert t is not None
    return t


class TestBusyPlayers:
    """A pairing waiting for a player who plays another match in the chat (here against the computer, which has
    no clock) is forfeited by them once it has waited the tournament's clock."""

    async def test_forfeited_after_the_clock(self, backend: Backend) -> None:
        clock = SimClock()
        services = backend.services(clock=clock, turn_timeout=600)
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        await services.challenges.play_computer(challenge.id, ALA.id, "easy", "🤖")
        tid = await running(services)
        [first] = (await services.tournament_play.progress(tid)).started
        assert {p.id for p in first.players} == {BOB.id, CEZ.id}
        await services.moves.surrender(first.id, BOB.id)
        progress = await services.tournament_play.progress(tid)
        assert progress.started == [] and progress.forfeits == []
        t = await tournament(services, tid)
        waiting = [p for p in t.pairings if p.waiting is not None]
        assert len(waiting) == 2 and progress.due == min(clock.time() + 60, waiting[0].waiting + 600)  # type: ignore[operator]
        clock.advance(599)
        assert (await services.tournament_play.progress(tid)).forfeits == []
        clock.advance(1)
        progress = await services.tournament_play.progress(tid)
        assert sorted(f.busy for f in progress.forfeits) == [(0,), (0,)]
        t = await tournament(services, tid)
        assert t.status == "finished" and t.champion == t.entrant_of(CEZ.id)
        assert all(p.forfeit and p.winner != 0 and p.match is None for p in t.pairings if 0 in (p.a, p.b))
        assert await services.tournaments.wins(CHAT, CEZ.id) == 1

    async def test_free_in_time_plays(self, backend: Backend) -> None:
        """The busy player's own match ends before the clock: the pairing starts, nobody forfeits."""
        clock = SimClock()
        services = backend.services(clock=clock, turn_timeout=600)
        own, _ = await start_match(services, creator=ALA, joiner=DAN)
        tid = await running(services)
        await services.tournament_play.progress(tid)
        clock.advance(500)
        await services.moves.surrender(own.id, DAN.id)
        clock.advance(200)
        t = await tournament(services, tid)
        [playing] = [p for p in t.pairings if p.match]
        await services.moves.surrender(playing.match or "", t.entrants[playing.b or 0].player.id)
        progress = await services.tournament_play.progress(tid)
        assert progress.forfeits == [] and len(progress.started) == 1


class TestResultsAtTheFinish:
    """A tournament match's result is in the tournament once its finish is through: its record may expire."""

    async def test_written_at_the_finish(self, services: Services) -> None:
        tid = await running(services)
        [record] = (await services.tournament_play.progress(tid)).started
        await services.moves.surrender(record.id, record.players[0].id)
        t = await tournament(services, tid)
        p = t.pairing_of(record.id)
        assert p is not None and p.done and p.winner == t.entrant_of(record.players[1].id)
        assert await services.stores.tournaments.accepted(CHAT, f"{tid}.{p.n}") is None, "the start's copy went"

    async def test_a_start_cut_after_the_record_is_carried_through(self, services: Services) -> None:
        """A process killed after the match's record was written but before its screens were marked due (the
        start's copy is still kept): nobody would ever get a panel. The next look carries the steps through."""
        tid = await running(services)
        [record] = (await services.tournament_play.progress(tid)).started
        t = await tournament(services, tid)
        p = t.pairing_of(record.id)
        assert p is not None
        keys, redis = services.stores.keys, services.stores.redis
        await redis.set(keys.accepted(CHAT, f"{tid}.{p.n}"), record.model_dump_json())
        await redis.zrem(keys.screens_due(), record.id)
        assert record.id not in await services.stores.matches.screens_due()
        await services.tournament_play.progress(tid)
        assert record.id in await services.stores.matches.screens_due()
        assert await services.stores.tournaments.accepted(CHAT, f"{tid}.{p.n}") is None
        stored, _ = await services.records.get(record.id)
        assert stored.is_active and stored.version == record.version

    async def test_an_expired_record_is_not_counted_twice(self, services: Services) -> None:
        """The record of a finished match expires (``finished_ttl``) before the job looks: nothing is created again
        from the pairing's start, nothing counts twice."""
        tid = await running(services)
        [record] = (await services.tournament_play.progress(tid)).started
        await services.moves.surrender(record.id, record.players[0].id)
        await services.stores.redis.delete(services.stores.keys.match(record.id))
        progress = await services.tournament_play.progress(tid)
        assert record.id not in {r.id for r in progress.started}
        assert await services.stores.matches.record(record.id) is None
        history = await services.results.history(chat_id=CHAT, limit=10)
        assert [s.id for s in history] == [record.id]
        t = await tournament(services, tid)
        assert sum(1 for p in t.pairings if p.done and p.match) == 1

    async def test_a_match_gone_without_its_result(self, services: Services) -> None:
        """A pairing's match gone while it was played (its result never came): nobody gets the win, and the
        tournament goes on."""
        tid = await running(services)
        [record] = (await services.tournament_play.progress(tid)).started
        await services.stores.redis.delete(services.stores.keys.match(record.id))
        await services.stores.redis.delete(services.stores.keys.active(CHAT, record.players[0].id))
        await services.stores.redis.delete(services.stores.keys.active(CHAT, record.players[1].id))
        progress = await services.tournament_play.progress(tid)
        t = await tournament(services, tid)
        p = t.pairing_of(record.id)
        assert p is not None and p.done and p.winner is None
        assert len(progress.started) == 1 and progress.started[0].id != record.id


class TestLeaving:
    async def test_one_step(self, services: Services) -> None:
        """One call leaves: the pairings left to the player are decided in the same write, their match being
        played is given up by the job; a second is refused."""
        tid = await running(services, (ALA, BOB, CEZ, DAN))
        started = (await services.tournament_play.progress(tid)).started
        [mine] = [r for r in started if r.seat_of(ALA.id) is not None]
        t = await services.tournaments.leave(tid, ALA.id)
        stored = await tournament(services, tid)
        assert stored.version == t.version and stored.entrants[0].left
        assert all(p.done and p.forfeit and p.winner != 0 for p in stored.pairings if 0 in (p.a, p.b) and not p.match)
        progress = await services.tournament_play.progress(tid)
        assert progress.give_up == [(mine.id, ALA.id)]
        await services.moves.surrender(mine.id, ALA.id)
        p = (await tournament(services, tid)).pairing_of(mine.id)
        assert p is not None and p.winner != 0
        with pytest.raises(Rejected) as refused:
            await services.tournaments.leave(tid, ALA.id)
        assert refused.value.reason is Rejection.NOT_ENTERED


class TestOrganiser:
    """Removing an entrant, stopping, cancelling: the organiser or an admin of the tournament's own chat."""

    async def test_remove(self, services: Services, members: Members) -> None:
        t = await services.tournaments.open(CHAT, ALA, "bingo", 1, "ru", thread_id=None)
        await services.tournaments.toggle(t.id, BOB)
        members.admins[OTHER_CHAT] = {BOB.id}
        for who in (BOB.id, CEZ.id):
            with pytest.raises(Rejected) as refused:
                await services.tournaments.remove(t.id, who, ALA.id)
            assert refused.value.reason is Rejection.NOT_ALLOWED
        t = await services.tournaments.remove(t.id, ALA.id, BOB.id)
        assert t.status == "signup" and [e.player.id for e in t.entrants] == [ALA.id]
        with pytest.raises(Rejected) as refused:
            await services.tournaments.remove(t.id, ALA.id, BOB.id)
        assert refused.value.reason is Rejection.NOT_ENTERED
        await services.tournaments.cancel(t.id, ALA.id)
        tid = await running(services, (ALA, BOB, CEZ, DAN))
        [playing, *_] = (await services.tournament_play.progress(tid)).started
        members.admins[CHAT] = {CEZ.id}
        target = playing.players[0].id
        t = await services.tournaments.remove(tid, CEZ.id, target)
        at = t.entrant_of(target)
        assert at is not None and t.entrants[at].left and t.entrants[at].removed
        assert (await services.tournament_play.progress(tid)).give_up == [(playing.id, target)]

    async def test_stop(self, services: Services, members: Members) -> None:
        tid = await running(services)
        [record] = (await services.tournament_play.progress(tid)).started
        members.admins[OTHER_CHAT] = {BOB.id}
        with pytest.raises(Rejected) as refused:
            await services.tournaments.stop(tid, BOB)
        assert refused.value.reason is Rejection.NOT_ALLOWED
        with pytest.raises(Rejected) as refused:
            await services.tournaments.cancel(tid, ALA.id)
        assert refused.value.reason is Rejection.TOURNAMENT_RUNNING
        t = await services.tournaments.stop(tid, ALA)
        assert t.status == "stopped" and t.champion is None and t.stopped_by == ALA and t.finished is not None
        assert await services.tournaments.current(CHAT) is None
        # Its match goes on as an ordinary one; its end changes nothing in the tournament.
        await services.moves.surrender(record.id, record.players[0].id)
        assert (await tournament(services, tid)).version == t.version
        assert [await services.tournaments.wins(CHAT, p.id) for p in (ALA, BOB, CEZ)] == [0, 0, 0]
        with pytest.raises(Rejected) as refused:
            await services.tournaments.stop(tid, ALA)
        assert refused.value.reason is Rejection.NO_TOURNAMENT

    async def test_organised(self, services: Services) -> None:
        t = await services.tournaments.open(CHAT, ALA, "bingo", 1, "ru", thread_id=None)
        assert (await services.tournaments.organised(CHAT, ALA.id)) == t
        assert await services.tournaments.organised(CHAT, BOB.id) is None
        assert await services.tournaments.organised(OTHER_CHAT, ALA.id) is None

    async def test_message_posted_again(self, services: Services) -> None:
        t = await services.tournaments.open(CHAT, ALA, "bingo", 1, "ru", thread_id=None)
        bound = await services.tournaments.bind_message(t.id, CHAT, 10, seen=t.version)
        assert bound.current and bound.retire is None and not bound.behind
        bound = await services.tournaments.bind_message(t.id, CHAT, 11, seen=bound.tournament.version)
        assert bound.current and bound.retire == 10 and bound.tournament.message_id == 11

    async def test_the_newest_message_wins(self, services: Services) -> None:
        """Message ids grow in a chat: an older message bound after a newer one (two posts racing, a press on a
        message left behind) is not the tournament's, and loses its buttons; the same one again changes nothing;
        another chat's is never bound."""
        t = await services.tournaments.open(CHAT, ALA, "bingo", 1, "ru", thread_id=None)
        newer = await services.tournaments.bind_message(t.id, CHAT, 21)
        older = await services.tournaments.bind_message(t.id, CHAT, 20, seen=t.version)
        assert not older.current and older.retire == 20 and older.tournament.message_id == 21
        again = await services.tournaments.bind_message(t.id, CHAT, 21, seen=newer.tournament.version)
        assert again.current and again.retire is None and not again.behind
        assert again.tournament.version == newer.tournament.version
        elsewhere = await services.tournaments.bind_message(t.id, OTHER_CHAT, 99)
        assert not elsewhere.current and elsewhere.tournament.message_id == 21

    async def test_a_press_that_came_first_leaves_the_poster_behind(self, services: Services) -> None:
        """A press bound the new message (and acted) before the poster: the poster finds it bound, and behind what
        it rendered, so it edits it to now."""
        t = await services.tournaments.open(CHAT, ALA, "bingo", 1, "ru", thread_id=None)
        await services.tournaments.bind_message(t.id, CHAT, 30)
        await services.tournaments.toggle(t.id, BOB)
        poster = await services.tournaments.bind_message(t.id, CHAT, 30, seen=t.version)
        assert poster.current and poster.retire is None and poster.behind


class TestSupergroup:
    async def test_it_follows_the_group(self, services: Services) -> None:
        """The group becomes a supergroup: the tournament goes on there under a new id (its match follows), and
        the champion's win counts there."""
        new = CHAT - 1_000_000
        tid = await running(services)
        [record] = (await services.tournament_play.progress(tid)).started
        moved = await services.chats.migrate(CHAT, new)
        assert moved == [record.id]
        await services.tournaments.migrated(CHAT, new)
        assert (await services.tournament_play.progress(tid)).tournament is None
        new_id = moved_id(tid, new)
        t = await tournament(services, new_id)
        assert t.chat_id == new and t.status == "running" and t.message_id is None
        assert await services.tournaments.current(new) == t and await services.tournaments.current(CHAT) is None
        old = await tournament(services, tid)
        assert old.status == "moved" and old.moved_to == new_id
        assert (await services.tournament_play.progress(tid)).tournament is None, "again: nothing more"
        again, _ = await services.records.get(record.id)
        assert again.chat_id == new and again.tournament == new_id
        await services.moves.surrender(record.id, record.players[0].id)
        for _ in range(5):
            progress = await services.tournament_play.progress(new_id)
            assert progress.tournament is not None
            for started in progress.started:
                assert started.chat_id == new and started.tournament == new_id
                await services.moves.surrender(started.id, started.players[0].id)
        t = await tournament(services, new_id)
        assert t.status == "finished" and t.champion is not None
        assert await services.tournaments.wins(new, t.entrants[t.champion].player.id) == 1
        assert await services.tournaments.wins(CHAT, t.entrants[t.champion].player.id) == 0


class FailingPresenter:
    """A presenter whose end announcements Telegram never takes."""

    def __init__(self) -> None:
        self.tries = 0

    def tournament_board(self, t: Tournament) -> None:
        pass

    async def tournament_over(self, t: Tournament) -> None:
        self.tries += 1
        raise RuntimeError("Telegram said no")

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"unexpected {name}")


class TestAnnouncement:
    async def test_refused_ends_given_up(self, backend: Backend) -> None:
        """An end Telegram keeps refusing is tried ``ANNOUNCE_TRIES`` times, later and later, then given up."""
        clock = SimClock()
        services = backend.services(clock=clock)
        presenter = FailingPresenter()
        timers = Timers(services, presenter, clock)  # type: ignore[arg-type]
        tid = await running(services)
        await services.tournaments.stop(tid, ALA)
        gaps = []
        due = await timers.tournament_due(tid)
        while due is not None:
            gaps.append(due - clock.time())
            clock.advance(due - clock.time())
            due = await timers.tournament_due(tid)
        assert presenter.tries == ANNOUNCE_TRIES and gaps == sorted(gaps) and gaps[0] >= 30
        assert await timers.tournament_due(tid) is None and presenter.tries == ANNOUNCE_TRIES
