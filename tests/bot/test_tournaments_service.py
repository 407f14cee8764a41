"""The tournament service over its repositories (fakeredis): a pairing waits while a player plays a match of
their own in the chat, a job run again starts nothing twice and counts nothing twice, a process dying between a
pairing's start and its match's record is carried through, and the refusals of the sign-up."""

from __future__ import annotations

import pytest

from bot.models import Player, Rejection, Status
from bot.services import Services
from bot.services.errors import Rejected
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, OTHER_CHAT, Members, start_match

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
