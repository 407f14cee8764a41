"""MatchStore's wrappers, each held to its script's contract: the record and what its messages show, the
compare-and-set writes, the finish, the due set and its settle, the clock's marks and who plays where.

The writes, ``shown_due`` and ``settle`` have two paths: one script that marks the due set itself (one server)
and the steps of a cluster (``MatchStore.cluster``); ``path`` runs them on each (on a cluster, the steps only).
"""

from __future__ import annotations

import pytest

from bot.models import Finish, Messages, Summary
from bot.services import Stores
from bot.storage.base import text, texts
from bot.storage.matches import Commit, MatchStore, Written
from tests.bot.helpers import ALA, BOB, CHAT, OTHER_CHAT

TTL = 600
M = "m1"
FINISHING = '{"c":"1","g":"bingo"}'
MATCH_POST = '{"k":"match"}'
SUMMARY = Summary(
    id=M, chat_id=CHAT, preset="bingo", players=(ALA, BOB), score=(7, 3), winner=0, finish=Finish.TARGET, finished=1.0
)
NOBODY: tuple[bool, bool] = (False, False)


@pytest.fixture(params=["script", "steps"])
def path(request: pytest.FixtureRequest, stores: Stores) -> MatchStore:
    """The match store writing and settling in one script with its due mark, then step by step (a cluster's way)."""
    if request.param == "script" and stores.matches.cluster:
        pytest.skip("a cluster has no one-script path")
    stores.matches.cluster = request.param == "steps"
    return stores.matches


class Ticks:
    """A clock that stands still until the test moves it."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def fields(stores: Stores, match_id: str = M) -> dict[str, str]:
    return texts(await stores.redis.hgetall(stores.keys.match(match_id)))


async def posts_of(stores: Stores, match_id: str = M) -> list[str]:
    return [text(post) for post in await stores.redis.lrange(stores.keys.posts(match_id), 0, -1)]


async def due_score(stores: Stores, match_id: str = M) -> float | None:
    score: float | None = await stores.redis.zscore(stores.keys.screens_due(), match_id)
    return score


def at(version: int) -> dict[str, int]:
    """The table and both panels sent and showing ``version``."""
    return {"t": 10, "tv": version, "p0": 20, "p0v": version, "p1": 30, "p1v": version}


async def move(
    matches: MatchStore,
    *,
    expected: str = "0/",
    written: str = "1/a",
    record: str = "r1",
    pressed: tuple[str, int] | None = None,
    handed: str = "",
    posts: tuple[str, ...] = (),
    ttl: int = TTL,
    match_id: str = M,
) -> Commit:
    return await matches.commit_move(
        match_id,
        expected=expected,
        written=written,
        record=record,
        ttl=ttl,
        pressed=pressed,
        handed=handed,
        posts=list(posts),
    )


async def finish(
    matches: MatchStore,
    *,
    expected: str = "0/",
    written: str = "1/a",
    pressed: tuple[str, int] | None = None,
    posts: tuple[str, ...] = (),
    match_id: str = M,
) -> Commit:
    return await matches.commit_finish(
        match_id,
        expected=expected,
        written=written,
        record="r-end",
        ttl=TTL,
        pressed=pressed,
        finishing=FINISHING,
        posts=list(posts),
    )


async def settle(
    matches: MatchStore, gone: bool = False, blocked: tuple[bool, bool] = NOBODY, edited: dict[str, int] | None = None
) -> bool:
    return await matches.settle(M, group_gone=gone, blocked=blocked, edited=edited)


class TestRecord:
    """What the match hash holds, read back: the record, what its messages show, its version."""

    async def test_a_match_that_is_not(self, stores: Stores) -> None:
        """A gone match has no record, no panel, no version, and messages that show nothing."""
        m = stores.matches
        assert await m.record(M) is None
        assert await m.screens(M, with_record=True) == (None, Messages())
        assert await m.messages(M) == Messages()
        assert await m.panel_message(M, 0) is None
        assert await m.versions([M]) == [None]
        assert await m.versions([]) == []

    async def test_shown_read_back(self, stores: Stores) -> None:
        """What ``shown`` records is what ``messages``, ``screens`` and ``panel_message`` read."""
        m = stores.matches
        assert await m.create(M, "r0", ttl=TTL)
        await m.shown(M, t=10, tn=2, tv=0, p0=20, p0v=0, p0n=0, p0x=19, p1=30, p1v=-1, p1n=0, c1=1)
        shown = Messages(
            table=10,
            table_deal=2,
            table_version=0,
            panels=(20, 30),
            panel_versions=(0, -1),
            panel_since=(0, 0),
            panels_replaced=(19, None),
            cards=(False, True),
        )
        assert await m.messages(M) == shown
        assert await m.screens(M, with_record=True) == (b"r0", shown)
        assert await m.screens(M) == (None, shown)
        assert (await m.panel_message(M, 0), await m.panel_message(M, 1)) == (20, 30)
        assert await m.record(M) == b"r0"

    async def test_shown_on_a_gone_match(self, stores: Stores) -> None:
        """``shown`` records nothing for a match that is gone (no key without a TTL is made)."""
        await stores.matches.shown(M, t=10, tv=3)
        assert await stores.redis.exists(stores.keys.match(M)) == 0

    async def test_versions(self, stores: Stores, path: MatchStore) -> None:
        """Each match's stored version, None for a gone one, in the order asked."""
        for match_id in ("m1", "m2"):
            assert await path.create(match_id, "r0", ttl=TTL)
        assert (await move(path, match_id="m2")).outcome is Written.WRITTEN
        assert await path.versions(["m2", "m3", "m1"]) == [1, None, 0]


class TestCreate:
    """A new match's record is written once, at version 0, with its TTL."""

    async def test_once(self, stores: Stores) -> None:
        m = stores.matches
        assert await m.create(M, "r0", ttl=TTL) is True
        assert await m.create(M, "other", ttl=5) is False
        assert await fields(stores) == {"v": "0", "d": "r0"}
        assert TTL - 5 < await stores.redis.ttl(stores.keys.match(M)) <= TTL


class TestCommitMove:
    """A move that leaves the match on: a compare-and-set on version and token, its posts, the handed panel."""

    async def test_written(self, stores: Stores, path: MatchStore) -> None:
        """Written, the match holds the new version, token and record, and the answer is what its messages show
        now (the posts with them), as a read right after sees them; the match is due."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, **at(0), tn=1, p0n=0, p1n=0)
        commit = await move(path, posts=("p1", "p2"))
        assert commit.outcome is Written.WRITTEN and commit.stored is None
        assert commit.messages == await path.messages(M)
        assert commit.messages == Messages(
            table=10,
            table_deal=1,
            table_version=0,
            panels=(20, 30),
            panel_versions=(0, 0),
            panel_since=(0, 0),
            posts=["p1", "p2"],
        )
        stored = await fields(stores)
        assert (stored["v"], stored["w"], stored["d"]) == ("1", "a", "r1")
        assert await path.screens_due() == [M]
        # The next write expects the version and the token this one made.
        assert (await move(path, expected="1/a", written="2/b", record="r2")).outcome is Written.WRITTEN
        assert await path.record(M) == b"r2"

    async def test_answers_the_finish_and_cards(self, stores: Stores, path: MatchStore) -> None:
        """The answer carries the summary, a pending finish and the cards as the hash holds them."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, c0=1)
        await stores.redis.hset(stores.keys.match(M), mapping={"s": SUMMARY.model_dump_json(), "f": FINISHING})
        commit = await move(path)
        assert commit.messages is not None
        assert commit.messages.summary == SUMMARY
        assert commit.messages.finishing == FINISHING
        assert commit.messages.cards == (True, False)

    async def test_posts_appended_with_the_ttl(self, stores: Stores, path: MatchStore) -> None:
        """Posts go after those still there, oldest first, and live as long as the match (both renewed)."""
        await path.create(M, "r0", ttl=TTL)
        await move(path, posts=("p1",), ttl=1000)
        commit = await move(path, expected="1/a", written="2/b", posts=("p2", "p3"), ttl=5000)
        assert commit.messages is not None and commit.messages.posts == ["p1", "p2", "p3"]
        assert await posts_of(stores) == ["p1", "p2", "p3"]
        assert 4990 < await stores.redis.ttl(stores.keys.posts(M)) <= 5000
        assert 4990 < await stores.redis.ttl(stores.keys.match(M)) <= 5000

    async def test_no_posts(self, stores: Stores, path: MatchStore) -> None:
        """A move without results leaves no posts list behind."""
        await path.create(M, "r0", ttl=TTL)
        commit = await move(path)
        assert commit.messages is not None and commit.messages.posts == []
        assert await stores.redis.exists(stores.keys.posts(M)) == 0

    @pytest.mark.parametrize(("handed", "since"), [("p0n", (-1, 4)), ("p1n", (4, -1)), ("", (4, 4))])
    async def test_handed_panel(self, stores: Stores, path: MatchStore, handed: str, since: tuple[int, int]) -> None:
        """The panel of the seat that gets the turn is marked to come as a new message (its field -1)."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, p0n=4, p1n=4)
        commit = await move(path, handed=handed)
        assert commit.messages is not None and commit.messages.panel_since == since
        stored = await fields(stores)
        assert (int(stored["p0n"]), int(stored["p1n"])) == since

    @pytest.mark.parametrize("expected", ["0/", "1/b", "2/a"])
    async def test_lost(self, stores: Stores, path: MatchStore, expected: str) -> None:
        """Another write got there first (another version, or the same version by another write): LOST with the
        record Redis holds, and nothing written."""
        await path.create(M, "r0", ttl=TTL)
        await move(path, posts=("p1",), written="1/a", record="r1")
        before = await fields(stores)
        commit = await move(path, expected=expected, written="2/c", record="r2", handed="p0n", posts=("p2",))
        assert commit == Commit(Written.LOST, stored=b"r1")
        assert await fields(stores) == before
        assert await posts_of(stores) == ["p1"]

    async def test_gone(self, stores: Stores, path: MatchStore) -> None:
        """A match that expired answers GONE, and no key of it is made again."""
        commit = await move(path, handed="p0n", posts=("p1",))
        assert commit == Commit(Written.GONE)
        assert await stores.redis.exists(stores.keys.match(M)) == 0
        assert await stores.redis.exists(stores.keys.posts(M)) == 0
        await path.create(M, "r0", ttl=TTL)
        await stores.redis.delete(stores.keys.match(M))
        assert (await move(path)).outcome is Written.GONE

    @pytest.mark.parametrize("expected", ["0/", "7/z"])
    async def test_old_panel(self, stores: Stores, path: MatchStore, expected: str) -> None:
        """A press from a message older than the seat's panel answers OLD_PANEL (before any version check) and
        writes nothing: no record, no handed panel, no post."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, p0=20, p0n=0, p1n=0)
        before = await fields(stores)
        commit = await move(path, expected=expected, pressed=("p0", 19), handed="p1n", posts=("p1",))
        assert commit == Commit(Written.OLD_PANEL)
        assert await fields(stores) == before
        assert await stores.redis.exists(stores.keys.posts(M)) == 0

    @pytest.mark.parametrize("pressed", [("p0", 20), ("p0", 21), ("p1", 5)])
    async def test_current_panel(self, stores: Stores, path: MatchStore, pressed: tuple[str, int]) -> None:
        """A press from the seat's panel, a newer message, or a seat with no panel recorded is written."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, p0=20)
        assert (await move(path, pressed=pressed)).outcome is Written.WRITTEN
        assert await path.record(M) == b"r1"


class TestCommitFinish:
    """The move that ends a match leaves what the rest of the finish needs ('f') until ``finished``."""

    async def test_finish_until_finished(self, stores: Stores, path: MatchStore) -> None:
        """'f' stays until ``finished``, which keeps the summary, posts the match's result once, and is done once."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, p0n=3, p1n=3)
        assert await finish(path, posts=("p1",)) == Commit(Written.WRITTEN)
        assert await path.record(M) == b"r-end"
        shown = await path.messages(M)
        assert shown.finishing == FINISHING and shown.summary is None
        assert shown.posts == ["p1"] and shown.panel_since == (3, 3)
        assert await path.screens_due() == [M]
        assert await path.finished(M, SUMMARY.model_dump_json(), ttl=50) is True
        shown = await path.messages(M)
        assert shown.finishing is None and shown.summary == SUMMARY
        assert shown.posts == ["p1", MATCH_POST]
        assert 0 < await stores.redis.pttl(stores.keys.posts(M)) <= 50_000
        assert await path.finished(M, SUMMARY.model_dump_json(), ttl=50) is False
        assert await posts_of(stores) == ["p1", MATCH_POST]

    async def test_finished_without_a_summary(self, stores: Stores, path: MatchStore) -> None:
        """Without a summary nothing is kept or posted; the finish is no longer pending all the same."""
        await path.create(M, "r0", ttl=TTL)
        await finish(path)
        assert await path.finished(M, "", ttl=50) is True
        assert await path.messages(M) == Messages()
        assert await stores.redis.exists(stores.keys.posts(M)) == 0
        assert await path.finished(M, SUMMARY.model_dump_json(), ttl=50) is False
        assert await path.messages(M) == Messages()

    async def test_finished_with_no_finish(self, stores: Stores) -> None:
        """``finished`` on a match without a pending finish (or gone) does nothing."""
        await stores.matches.create(M, "r0", ttl=TTL)
        assert await stores.matches.finished(M, SUMMARY.model_dump_json(), ttl=50) is False
        assert await stores.matches.finished("m2", SUMMARY.model_dump_json(), ttl=50) is False
        assert await fields(stores) == {"v": "0", "d": "r0"}
        assert await stores.redis.exists(stores.keys.posts(M)) == 0
        assert await stores.redis.exists(stores.keys.match("m2")) == 0

    async def test_refused_writes_nothing(self, stores: Stores, path: MatchStore) -> None:
        """A finish that lost, came from an old panel or found the match gone leaves no 'f' and no post."""
        assert await finish(path, posts=("p1",)) == Commit(Written.GONE)
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, p1=30)
        assert await finish(path, pressed=("p1", 29), posts=("p1",)) == Commit(Written.OLD_PANEL)
        assert await finish(path, expected="3/x", posts=("p1",)) == Commit(Written.LOST, stored=b"r0")
        assert await fields(stores) == {"v": "0", "d": "r0", "p1": "30"}
        assert await stores.redis.exists(stores.keys.posts(M)) == 0


class TestPosted:
    """A delivered post is dropped only while it is the oldest: a second delivery of it changes nothing."""

    async def test_oldest_only(self, stores: Stores) -> None:
        m = stores.matches
        await m.create(M, "r0", ttl=TTL)
        await move(m, posts=("p1", "p2"))
        await m.posted(M, "p2")
        assert await posts_of(stores) == ["p1", "p2"]
        await m.posted(M, "p1")
        assert await posts_of(stores) == ["p2"]
        await m.posted(M, "p1")
        assert await posts_of(stores) == ["p2"]
        await m.posted(M, "p2")
        assert await stores.redis.exists(stores.keys.posts(M)) == 0


class TestDueMarks:
    """A mark in the due set is scored now, or just above the mark that is there (never lowered, never equal)."""

    async def test_raised(self, stores: Stores) -> None:
        """A match marked at or after now goes a microsecond up; a later now replaces the mark."""
        clock = Ticks(100.0)
        matches = MatchStore(stores.redis, stores.keys, clock=clock)
        await matches.mark_due(M)
        assert await due_score(stores) == 100.0
        await matches.mark_due(M)
        assert await due_score(stores) == pytest.approx(100.000001, abs=1e-9)
        clock.now = 50.0
        await matches.mark_due(M)
        assert await due_score(stores) == pytest.approx(100.000002, abs=1e-9)
        clock.now = 200.0
        await matches.mark_due(M)
        assert await due_score(stores) == 200.0

    async def test_several(self, stores: Stores) -> None:
        """Several matches in one call, each raised on its own; ``screens_due`` lists them oldest first."""
        clock = Ticks(100.0)
        matches = MatchStore(stores.redis, stores.keys, clock=clock)
        await matches.mark_due("b")
        clock.now = 90.0
        await matches.mark_due("a", "b", "c")
        assert await due_score(stores, "a") == await due_score(stores, "c") == 90.0
        assert await due_score(stores, "b") == pytest.approx(100.000001, abs=1e-9)
        assert await matches.screens_due() == ["a", "c", "b"]

    async def test_summary(self, stores: Stores) -> None:
        """How many matches are due, and the lowest mark (the write the most behind one still has to show)."""
        clock = Ticks(100.0)
        matches = MatchStore(stores.redis, stores.keys, clock=clock)
        assert await matches.due_summary() == (0, None)
        await matches.mark_due("a")
        clock.now = 120.0
        await matches.mark_due("b", "c")
        assert await matches.due_summary() == (3, 100.0)

    async def test_writes_raise_it(self, stores: Stores, path: MatchStore) -> None:
        """Each write (a move, a finish, ``shown_due``) marks its match first, by the same rule."""
        clock = Ticks(100.0)
        matches = MatchStore(stores.redis, stores.keys, clock=clock)
        matches.cluster = path.cluster
        await matches.create(M, "r0", ttl=TTL)
        await matches.mark_due(M)
        assert (await move(matches)).outcome is Written.WRITTEN
        assert await due_score(stores) == pytest.approx(100.000001, abs=1e-9)
        await matches.shown_due(M, p0n=-1)
        assert await due_score(stores) == pytest.approx(100.000002, abs=1e-9)
        assert await finish(matches, expected="1/a", written="2/b") == Commit(Written.WRITTEN)
        assert await due_score(stores) == pytest.approx(100.000003, abs=1e-9)


class TestShownDue:
    """``shown``, with the match marked due first."""

    async def test_marks_and_records(self, stores: Stores, path: MatchStore) -> None:
        """The fields given are recorded (others kept), and the match is due."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, **at(0), p0n=0, p1n=0)
        await path.shown_due(M, tv=-1, p0n=-1)
        shown = await path.messages(M)
        assert shown.table_version == -1 and shown.panel_since == (-1, 0) and shown.panel_versions == (0, 0)
        assert await path.screens_due() == [M]

    async def test_a_gone_match(self, stores: Stores, path: MatchStore) -> None:
        """A gone match is marked (a settle takes it out) but nothing is recorded."""
        await path.shown_due(M, p0n=-1)
        assert await path.screens_due() == [M]
        assert await stores.redis.exists(stores.keys.match(M)) == 0

    async def test_records_only_its_fields(self, stores: Stores, path: MatchStore) -> None:
        """The match hash gets the fields asked for and nothing else."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown_due(M, p0n=-1)
        assert await fields(stores) == {"v": "0", "d": "r0", "p0n": "-1"}


class TestSettle:
    """SETTLED: a match leaves the due set when no post is left, no finish pending, the table and the panels at its
    version (or not to be delivered), and after a summary each seat's card gone (or not to be); edits first."""

    async def test_up_to_date(self, stores: Stores, path: MatchStore) -> None:
        """Everything at the match's version (no summary: no card needed): out of the due set."""
        await path.create(M, "r0", ttl=TTL)
        await path.mark_due(M)
        await path.shown(M, **at(0))
        assert (await path.messages(M)).cards == (False, False)
        assert await settle(path) is True
        assert await path.screens_due() == []
        assert await settle(path) is True

    async def test_expired(self, stores: Stores, path: MatchStore) -> None:
        """A match that expired is up to date, and its edits are not recorded (no key made again)."""
        await path.mark_due(M)
        assert await settle(path, edited={"tv": 3, "p0x": 19}) is True
        assert await path.screens_due() == []
        assert await stores.redis.exists(stores.keys.match(M)) == 0

    async def test_posts_left(self, stores: Stores, path: MatchStore) -> None:
        """A post still to go holds the match due, unless the group is gone."""
        await path.create(M, "r0", ttl=TTL)
        await move(path, posts=("p1",))
        await path.shown(M, **at(1))
        assert await settle(path) is False
        assert await settle(path, blocked=(True, True)) is False
        assert await path.screens_due() == [M]
        assert await settle(path, gone=True) is True
        assert await path.screens_due() == []

    async def test_finish_pending(self, stores: Stores, path: MatchStore) -> None:
        """A pending finish holds the match due whatever is not to be delivered."""
        await path.create(M, "r0", ttl=TTL)
        await finish(path)
        await path.shown(M, **at(1))
        assert await settle(path, gone=True, blocked=(True, True)) is False
        assert await path.screens_due() == [M]
        await path.finished(M, "", ttl=TTL)
        assert await settle(path) is True

    @pytest.mark.parametrize(
        ("field", "excused", "not_enough"),
        [
            ("tv", (True, (False, False)), (False, (True, True))),
            ("p0v", (False, (True, False)), (True, (False, True))),
            ("p1v", (False, (False, True)), (True, (True, False))),
        ],
        ids=["table", "panel0", "panel1"],
    )
    async def test_behind(
        self,
        stores: Stores,
        path: MatchStore,
        field: str,
        excused: tuple[bool, tuple[bool, bool]],
        not_enough: tuple[bool, tuple[bool, bool]],
    ) -> None:
        """A message behind the match's version holds it due, unless its chat is not to be delivered (the group
        gone for the table, the seat's player blocked for a panel)."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, **at(0))
        await move(path)
        await path.shown(M, **{**at(1), field: 0})
        assert await settle(path) is False
        assert await settle(path, *not_enough) is False
        assert await path.screens_due() == [M]
        assert await settle(path, *excused) is True
        assert await path.screens_due() == []

    @pytest.mark.parametrize("seat", [0, 1])
    async def test_cards_after_a_summary(self, stores: Stores, path: MatchStore, seat: int) -> None:
        """After a summary each seat's card and post-mortem must have gone (c0, c1, q0, q1) unless that player
        blocked the bot."""
        await path.create(M, "r0", ttl=TTL)
        await finish(path)
        await path.finished(M, SUMMARY.model_dump_json(), ttl=TTL)
        await path.posted(M, MATCH_POST)
        await path.shown(M, **at(1), **{f"c{1 - seat}": 1, f"q{1 - seat}": 1})
        assert await settle(path) is False
        other = (seat == 1, seat == 0)
        assert await settle(path, gone=True, blocked=other) is False
        assert await path.screens_due() == [M]
        assert await settle(path, blocked=(seat == 0, seat == 1)) is True
        await path.mark_due(M)
        await path.shown(M, **{f"c{seat}": 1})
        assert (await path.messages(M)).cards == (True, True)
        assert await settle(path) is False  # the seat's post-mortem is still to go
        await path.shown(M, **{f"q{seat}": 1})
        assert await settle(path) is True
        assert await path.screens_due() == []

    async def test_edits_recorded_first(self, stores: Stores, path: MatchStore) -> None:
        """The versions edits brought the messages to are recorded, then the match is judged on them; recorded
        even when it stays due; no other field is touched."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, **at(0))
        await move(path, posts=("p1",))
        await move(path, expected="1/a", written="2/b")
        assert await settle(path, edited={"tv": 1, "p0v": 2}) is False
        shown = await path.messages(M)
        assert (shown.table_version, shown.panel_versions) == (1, (2, 0))
        await path.posted(M, "p1")
        assert await settle(path, edited={"tv": 2, "p1v": 2, "v": 9, "p0n": 7}) is True
        stored = await fields(stores)
        assert (stored["tv"], stored["p0v"], stored["p1v"], stored["v"]) == ("2", "2", "2", "2")
        assert "p0n" not in stored

    async def test_edits_never_lowered(self, stores: Stores, path: MatchStore) -> None:
        """An edit recorded late (an older version than the one recorded) changes nothing."""
        await path.create(M, "r0", ttl=TTL)
        await move(path)
        await path.shown(M, **at(1))
        assert await settle(path, edited={"tv": 0, "p0v": -1, "p1v": 1}) is True
        stored = await fields(stores)
        assert (stored["tv"], stored["p0v"], stored["p1v"]) == ("1", "1", "1")

    async def test_edits_of_a_match_not_due(self, stores: Stores, path: MatchStore) -> None:
        """A match out of the due set still gets its edits recorded."""
        await path.create(M, "r0", ttl=TTL)
        await path.shown(M, t=10, p0=20, p0v=0, p1=30, p1v=0)
        assert await path.screens_due() == []
        assert await settle(path, edited={"tv": 0}) is True
        assert (await path.messages(M)).table_version == 0

    async def test_replaced_panel_tidied(self, stores: Stores, path: MatchStore) -> None:
        """A replaced panel's field is dropped only when the edit names the message it holds."""
        await path.create(M, "r0", ttl=TTL)
        await path.mark_due(M)
        await path.shown(M, **at(0), p0x=19, p1x=29)
        assert await settle(path, edited={"p0x": 18, "p1x": 29}) is True
        assert (await path.messages(M)).panels_replaced == (19, None)
        assert "p1x" not in await fields(stores)


class TestClockMarks:
    """The turn clock does each thing once per version of a match."""

    async def test_once_per_version(self, stores: Stores) -> None:
        m = stores.matches
        assert await m.clock_marks(M) == {}
        assert await m.mark_clock(M, "r", 3, ttl=90) is True
        assert await m.mark_clock(M, "r", 3, ttl=5) is False
        assert 80 < await stores.redis.ttl(stores.keys.clock_marks(M)) <= 90, "a refused mark keeps the TTL"
        assert await m.mark_clock(M, "o", 3, ttl=90) is True
        assert await m.mark_clock(M, "r", 4, ttl=90) is True
        assert await m.mark_clock(M, "r", 4, ttl=90) is False
        assert await m.clock_marks(M) == {"r": 4, "o": 3}


class TestIndexes:
    """Who plays where: the chats' and users' sets of active matches (expired ids dropped as they are read) and
    each player's active match in a chat."""

    async def test_chat_matches(self, stores: Stores) -> None:
        """Only ids whose match exists are answered; the others leave the set."""
        m = stores.matches
        await stores.redis.sadd(stores.keys.chat_matches(CHAT), "m1", "m2", "m3")
        for match_id in ("m1", "m3"):
            await m.create(match_id, "r0", ttl=TTL)
        assert await m.chat_match_ids(CHAT) == ["m1", "m2", "m3"]
        assert await m.chat_matches(CHAT) == ["m1", "m3"]
        assert await m.chat_match_ids(CHAT) == ["m1", "m3"]
        assert await m.chat_matches(OTHER_CHAT) == []

    async def test_user_matches(self, stores: Stores) -> None:
        m = stores.matches
        await m.add_player_matches("m1", [ALA.id, BOB.id])
        await m.add_player_matches("m2", [ALA.id])
        await m.create("m1", "r0", ttl=TTL)
        assert await m.user_matches(ALA.id) == ["m1"]
        assert await m.user_matches(BOB.id) == ["m1"]
        assert {text(i) for i in await stores.redis.smembers(stores.keys.user_matches(ALA.id))} == {"m1"}

    async def test_all_active_matches(self, stores: Stores) -> None:
        """Every chat's live matches, in one sorted list; expired ones dropped from their chat's set."""
        m = stores.matches
        await stores.redis.sadd(stores.keys.chat_matches(CHAT), "m1", "m2")
        await stores.redis.sadd(stores.keys.chat_matches(OTHER_CHAT), "m0", "m3")
        for match_id in ("m0", "m1", "m3"):
            await m.create(match_id, "r0", ttl=TTL)
        assert await m.all_active_matches() == ["m0", "m1", "m3"]
        assert await m.chat_match_ids(CHAT) == ["m1"]

    async def test_active_match(self, stores: Stores) -> None:
        """A player's active match in a chat, kept alive as long as asked; nothing made for one who has none."""
        m = stores.matches
        key = stores.keys.active(CHAT, ALA.id)
        assert await m.active_match(CHAT, ALA.id) is None
        await stores.redis.set(key, "m1", ex=10)
        assert await m.active_match(CHAT, ALA.id) == "m1"
        assert await m.active_match(OTHER_CHAT, ALA.id) is None
        await m.keep_active(CHAT, ALA.id, ttl=500)
        assert 490 < await stores.redis.ttl(key) <= 500
        await m.keep_active(CHAT, BOB.id, ttl=500)
        assert await stores.redis.exists(stores.keys.active(CHAT, BOB.id)) == 0

    def test_chat_keys(self, stores: Stores) -> None:
        """A chat that becomes another takes its index of active matches and who plays there."""
        k = stores.keys
        assert stores.matches.chat_keys(CHAT, OTHER_CHAT, [ALA.id, BOB.id]) == [
            (k.chat_matches(CHAT), k.chat_matches(OTHER_CHAT)),
            (k.active(CHAT, ALA.id), k.active(OTHER_CHAT, ALA.id)),
            (k.active(CHAT, BOB.id), k.active(OTHER_CHAT, BOB.id)),
        ]
