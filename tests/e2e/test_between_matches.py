"""Between matches: /top, /stats, /history after a scripted series, /settings, /rules, /help and /start.

The series: Ann, Bob and Carl play eleven matches in a Russian group (the
first played out with the buttons, the others ended by a surrender), and Ola
loses one to Ann in a Polish group. The expected counts and ratings come from
a hand count (``Book``: Elo with K=32 from 1500), the expected texts from the
locales.
"""

from __future__ import annotations

import datetime
import math
import random
import re
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from html import escape

import pytest
import pytest_asyncio

from bot import render
from bot.app import App
from bot.i18n import Translator
from bot.models import ChatSettings, Lang, SeasonStanding
from bot.replays import replay_link, replay_url
from bot.seasons import season_of
from engine import find_preset
from tests.e2e import invariants
from tests.e2e.conftest import delete_keys, running_bot
from tests.e2e.driver import (
    ask,
    challenge,
    new_match,
    newest_id,
    panel_of,
    play_to_end,
    reply_in,
    start_bot,
    surrender,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent

GROUP = -100500
"""Russian by its players' language: the series of eleven matches."""
PL_GROUP = -100600
"""Polish, set by its admin Ola with /settings: one match."""
EMPTY_GROUP = -100700
"""No match was ever played here."""
ANN = FakeUser(1001, "Ann", "ann", "ru")
BOB = FakeUser(1002, "Bob", "bob", "ru")
CARL = FakeUser(1003, "Carl <dev>", "carl", "ru")
OLA = FakeUser(2001, "Ola", "ola", "pl")
DAN = FakeUser(1004, "Dan", "dan", "ru")
"""Has started the bot, never plays."""
EWA = FakeUser(2002, "Ewa", "ewa", "pl")
"""Has started the bot, never plays."""
LANG_OF: dict[int, Lang] = {GROUP: "ru", PL_GROUP: "pl"}
K, START = 32, 1500

# (chat, creator, joiner, who gives up or None to play it out, /play arguments). Bob plays nine
# matches (more than the five /stats lists), the group has eleven (more than the ten /history lists),
# and no count of matches is 8 (whose win rate could end in .5 and depend on how it is rounded).
SERIES: list[tuple[int, FakeUser, FakeUser, FakeUser | None, str]] = [
    (GROUP, ANN, BOB, None, ""),
    (GROUP, BOB, CARL, CARL, ""),
    (GROUP, BOB, ANN, ANN, ""),
    (GROUP, CARL, BOB, BOB, ""),
    (GROUP, ANN, CARL, CARL, "42"),
    (GROUP, BOB, CARL, CARL, "bingo-classic"),
    (GROUP, ANN, BOB, ANN, ""),
    (GROUP, CARL, BOB, BOB, "42"),
    (GROUP, BOB, ANN, BOB, ""),
    (GROUP, CARL, ANN, ANN, ""),
    (GROUP, BOB, CARL, CARL, ""),
    (PL_GROUP, OLA, ANN, OLA, ""),
]


def elo(winner: int, loser: int) -> int:
    """Points the winner takes from the loser (K=32, rounded half up)."""
    expected = 1 / (1 + 10 ** ((loser - winner) / 400))
    return math.floor(K * (1 - expected) + 0.5)


def percent(part: int, whole: int) -> int:
    return math.floor(100 * part / whole + 0.5)


@dataclass
class Line:
    """One player's results in one scope, counted by hand."""

    name: str
    rating: int = START
    played: int = 0
    won: int = 0
    streak: int = 0
    best: int = 0
    games: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Per game (``bingo``, ``42``): matches played and won."""

    def count(self, game: str, won: bool, change: int) -> None:
        played_game, won_game = self.games.get(game, (0, 0))
        self.games[game] = (played_game + 1, won_game + won)
        self.played += 1
        self.won += won
        self.rating += change if won else -change
        self.streak = self.streak + 1 if won else 0
        self.best = max(self.best, self.streak)


class Book:
    """Every result counted by hand, per chat and (scope ``None``) across all chats."""

    def __init__(self) -> None:
        self.scopes: dict[int | None, dict[int, Line]] = {}

    def line(self, scope: int | None, user: FakeUser) -> Line:
        return self.scopes.setdefault(scope, {}).setdefault(user.id, Line(user.first_name))

    def count(self, chat: int, winner: FakeUser, loser: FakeUser, game: str) -> int:
        """Count one result; returns the points the winner took in the chat's rating."""
        changes = []
        for scope in (chat, None):
            w, lo = self.line(scope, winner), self.line(scope, loser)
            change = elo(w.rating, lo.rating)
            w.count(game, True, change)
            lo.count(game, False, change)
            changes.append(change)
        return changes[0]

    def board(self, scope: int | None) -> list[tuple[int, Line]]:
        """The scope's players, best rating first (a tie: the higher id first, as Redis orders them)."""
        return sorted(self.scopes[scope].items(), key=lambda item: (item[1].rating, str(item[0])), reverse=True)


@dataclass
class Played:
    """One match of the series, as it ended."""

    match_id: str
    chat: int
    players: tuple[FakeUser, FakeUser]
    winner: FakeUser
    loser: FakeUser
    surrendered: bool
    preset: str
    score: tuple[int, int]
    finished: float
    change: int
    ratings: tuple[int, int]
    """The winner's and the loser's rating in the chat after the match."""
    result: Sent
    """The group message announcing the result."""

    def args(self, tr: Translator) -> dict[str, object]:
        """The arguments of its line in /history and /stats."""
        a, b = self.players
        return {
            "date": datetime.datetime.fromtimestamp(self.finished, datetime.UTC).strftime("%d.%m.%Y"),
            "game": tr(f"preset-{self.preset}"),
            "a": escape(a.first_name),
            "b": escape(b.first_name),
            "sa": self.score[0],
            "sb": self.score[1],
            "winner": escape(self.winner.first_name),
            "how": "surrender" if self.surrendered else "target",
        }


@dataclass
class Series:
    fake: FakeTelegram
    app: App
    played: list[Played]
    book: Book

    def tr(self, lang: Lang) -> Translator:
        return self.app.presenter.i18n[lang]

    def history_row(self, tr: Translator, p: Played) -> str:
        """A match's row in /history, with the link to its replay (kept: the matches are a moment old)."""
        url = replay_url(self.app.presenter.bot_username, p.match_id)
        return tr("history-row", **p.args(tr)) + " " + tr("history-replay", url=url)

    def top_lines(self, tr: Translator, scope: int | None) -> list[str]:
        return [
            tr(
                "top-row",
                rank=rank,
                name=escape(line.name),
                rating=str(line.rating),
                won=line.won,
                lost=line.played - line.won,
                played=line.played,
            )
            for rank, (_, line) in enumerate(self.book.board(scope), 1)
        ]

    def stats_text(self, tr: Translator, user: FakeUser, chat: int | None) -> str:
        """/stats of ``user`` in a group (``chat``) or in private (``None``), with the last five matches there."""
        line = self.book.line(chat, user)
        lines = [
            tr("stats-title-chat" if chat else "stats-title-all", name=escape(user.first_name)),
            tr(
                "stats-summary",
                played=line.played,
                won=line.won,
                rate=percent(line.won, line.played),
                rating=str(line.rating),
            ),
            tr("stats-streak", streak=line.streak, best=line.best),
        ]
        lines += [tr("stats-game", game=tr(f"game-{g}"), played=p, won=w) for g, (p, w) in sorted(line.games.items())]
        recent = [p for p in reversed(self.played) if user in p.players and chat in (None, p.chat)][:5]
        lines.append(tr("stats-last"))
        lines += [tr("stats-match-row", result="won" if p.winner == user else "lost", **p.args(tr)) for p in recent]
        return "\n".join(lines)


async def play_series(fake: FakeTelegram, app: App, book: Book) -> list[Played]:
    """Play SERIES, counting each result in ``book`` as it comes."""
    played: list[Played] = []
    for chat, creator, joiner, loser, args in SERIES:
        tr = app.presenter.i18n[LANG_OF[chat]]
        after = newest_id(fake, chat)
        match_id = await new_match(fake, creator, joiner, chat, args)
        if loser is None:
            await play_to_end(fake, (creator, joiner), random.Random(len(played)))
        else:
            await surrender(fake, loser, chat, match_id)
            await fake.wait_for(
                lambda a=creator, b=joiner: not panel_of(fake, a) and not panel_of(fake, b), what="panels to close"
            )
        record, match = await app.services.records.get(match_id)
        assert record.winner is not None
        w, lo = record.winner, 1 - record.winner
        players = (creator, joiner)
        change = book.count(chat, players[w], players[lo], match.rules.game)
        if loser is None:
            head = tr("match-won", name=escape(players[w].first_name), sw=match.score[w], sl=match.score[lo])
        else:
            head = tr(
                "match-surrender",
                loser=escape(players[lo].first_name),
                winner=escape(players[w].first_name),
                sw=match.score[w],
                sl=match.score[lo],
            )
        result = await fake.wait_for(
            lambda h=head, c=chat, a=after: next(
                (m for m in fake.chat_messages(c) if m.message_id > a and m.text.startswith(h + "\n")), None
            ),
            what="the result",
        )
        played.append(
            Played(
                match_id=match_id,
                chat=chat,
                players=players,
                winner=players[w],
                loser=players[lo],
                surrendered=loser is not None,
                preset=match.rules.name,
                score=match.score,
                finished=record.updated,
                change=change,
                ratings=(book.line(chat, players[w]).rating, book.line(chat, players[lo]).rating),
                result=result,
            )
        )
    return played


ONE_WORKER = "between-matches-series"
"""The tests that read the series: one xdist worker plays it for them all (tests/schedule.py)."""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def series() -> AsyncIterator[Series]:
    """The series, played once for the module by one running bot (read-only tests share it)."""
    prefix = f"e2e:{uuid.uuid4().hex}"
    fake = FakeTelegram()
    await fake.start()
    fake.admins[PL_GROUP] = {OLA.id}
    try:
        async with running_bot(fake, prefix) as app:
            for user in (ANN, BOB, CARL, OLA, DAN, EWA):
                await start_bot(fake, user)
            menu = await ask(fake, OLA, PL_GROUP, "/settings")
            answer = await fake.wait_answer(fake.press(OLA, menu, "cfg:lang:pl"))
            assert answer["text"] == app.presenter.i18n["pl"]("toast-done")
            book = Book()
            played = await play_series(fake, app, book)
            await app.settled()
            await invariants.all_well(fake)
            yield Series(fake, app, played, book)
    finally:
        await fake.stop()
        await delete_keys(prefix)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.xdist_group(ONE_WORKER)
class TestResults:
    """Each match result posted in the group carries the rating change, and the ratings add up."""

    async def test_rating_lines(self, series: Series) -> None:
        """Every result message is the result, the chat's rating change and the series of the two players in the
        chat after it, counted by hand."""
        wins: dict[tuple[int, int, int], int] = {}
        for p in series.played:
            tr = series.tr(LANG_OF[p.chat])
            won = wins[p.chat, p.winner.id, p.loser.id] = wins.get((p.chat, p.winner.id, p.loser.id), 0) + 1
            lost = wins.get((p.chat, p.loser.id, p.winner.id), 0)
            leader = p.winner if won > lost else p.loser
            lead = tr("series-lead", name=escape(leader.first_name), lead=max(won, lost), trail=min(won, lost))
            in_series = tr("series-tie", n=won) if won == lost else lead
            change = tr(
                "rating-change",
                winner=escape(p.winner.first_name),
                loser=escape(p.loser.first_name),
                rw=str(p.ratings[0]),
                rl=str(p.ratings[1]),
                d=p.change,
            )
            link = replay_link(tr, series.app.presenter.bot_username, p.match_id)
            # Under them, the accuracy of each who had a choice to make (the post-mortem's; computer.md), the match's
            # key and seeds, the link.
            lines = p.result.text.split("\n")
            assert lines[1:3] == [change, in_series] and lines[-1] == link and len(lines) <= 7, p.match_id
            assert [line[:1] for line in lines[-3:-1]] == ["🗝", "🌱"], p.match_id
            assert all(line.startswith(tr("accuracy-line", list="")) for line in lines[3:-3]), p.match_id

    @pytest.mark.parametrize("chat", [GROUP, PL_GROUP], ids=["russian-group", "polish-group"])
    async def test_last_rating_line_is_the_top(self, series: Series, chat: int) -> None:
        """The rating each player last read in a result line is the one /top then shows."""
        last: dict[int, int] = {}
        for p in series.played:
            if p.chat == chat:
                last[p.winner.id], last[p.loser.id] = p.ratings
        board = await series.app.services.results.leaderboard(chat)
        assert {row.user_id: row.rating for row in board} == last
        top = await ask(series.fake, DAN, chat, "/top all-time")
        assert [int(r) for r in re.findall(r"<b>(\d+)</b>", top.text)] == sorted(last.values(), reverse=True)

    @pytest.mark.parametrize("scope", [GROUP, PL_GROUP, None], ids=["russian-group", "polish-group", "all-chats"])
    async def test_ratings_add_up(self, series: Series, scope: int | None) -> None:
        """In each scope the ratings sum to 1500 a player (for one pair in one chat: 3000), and the counts balance."""
        board = await series.app.services.results.leaderboard(scope)
        assert sum(row.rating - START for row in board) == 0
        assert sum(row.won for row in board) == sum(row.lost for row in board) == sum(row.played for row in board) // 2
        if scope == PL_GROUP:
            assert sorted(row.user_id for row in board) == [ANN.id, OLA.id]
            assert sum(row.rating for row in board) == 3000


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.xdist_group(ONE_WORKER)
class TestTop:
    """/top: the chat's leaderboard; /top all and /top in private: across all chats."""

    @pytest.mark.parametrize(
        ("user", "chat", "lang", "text"),
        [(BOB, GROUP, "ru", "/top all-time"), (ANN, PL_GROUP, "pl", "/top за всё время")],
        ids=["russian-group", "polish-group-asked-by-a-russian"],
    )
    async def test_chat(self, series: Series, user: FakeUser, chat: int, lang: Lang, text: str) -> None:
        """The chat's all-time table: its players by rating, with exact wins, losses and matches."""
        tr = series.tr(lang)
        answer = await ask(series.fake, user, chat, text)
        assert answer.text == "\n".join([tr("top-title"), *series.top_lines(tr, chat)])

    @pytest.mark.parametrize(
        ("user", "chat", "text", "lang"),
        [
            (CARL, GROUP, "/top all", "ru"),
            (OLA, PL_GROUP, "/top all", "pl"),
            (EWA, PL_GROUP, "/top wszyscy", "pl"),
            (BOB, BOB.id, "/top", "ru"),
            (OLA, OLA.id, "/top", "pl"),
        ],
        ids=["russian-group", "polish-group", "polish-word", "private-russian", "private-polish"],
    )
    async def test_all_chats(self, series: Series, user: FakeUser, chat: int, text: str, lang: Lang) -> None:
        """Everyone who played anywhere, rated across all chats."""
        tr = series.tr(lang)
        lines = [tr("top-title-all"), *series.top_lines(tr, None)]
        if user == EWA:
            lines.append(tr("top-you-unranked"))
        assert (await ask(series.fake, user, chat, text)).text == "\n".join(lines)

    @pytest.mark.parametrize(
        ("user", "chat", "lang"), [(DAN, GROUP, "ru"), (EWA, PL_GROUP, "pl")], ids=["russian", "polish"]
    )
    async def test_unranked(self, series: Series, user: FakeUser, chat: int, lang: Lang) -> None:
        """Someone who never played reads the table and that they are not in it yet."""
        tr = series.tr(lang)
        answer = await ask(series.fake, user, chat, "/top wszystko")
        assert answer.text == "\n".join([tr("top-title"), *series.top_lines(tr, chat), tr("top-you-unranked")])

    @pytest.mark.parametrize(("user", "lang"), [(DAN, "ru"), (EWA, "pl")], ids=["russian", "polish"])
    async def test_empty(self, series: Series, user: FakeUser, lang: Lang) -> None:
        """A chat where nobody played says so, in the asker's language."""
        tr = series.tr(lang)
        assert (await ask(series.fake, user, EMPTY_GROUP, "/top all-time")).text == tr("top-empty")
        season = render.season_name(tr, season_of(time.time()))
        assert (await ask(series.fake, user, EMPTY_GROUP, "/top")).text == tr("season-empty", season=season)

    @pytest.mark.parametrize(("user", "chat"), [(DAN, GROUP), (EWA, PL_GROUP)], ids=["russian", "polish"])
    async def test_season(self, series: Series, user: FakeUser, chat: int) -> None:
        """/top: the chat's season (the whole series was played in it), by wins, then by the rating gained."""
        tr = series.tr(LANG_OF[chat])
        lines = sorted(series.book.scopes[chat].items(), key=lambda kv: (-kv[1].won, -kv[1].rating))
        rows = [
            SeasonStanding(rank=rank, user_id=uid, name=line.name, won=line.won, lost=line.played - line.won,
                           gained=line.rating - START)
            for rank, (uid, line) in enumerate(lines, 1)
        ]  # fmt: skip
        season = render.season_name(tr, season_of(time.time()))
        expected = [tr("season-title", season=season), *(render.season_line(tr, row) for row in rows)]
        answer = await ask(series.fake, user, chat, "/top")
        assert answer.text == "\n".join([*expected, tr("season-you-unranked")])


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.xdist_group(ONE_WORKER)
class TestStats:
    """/stats: matches, wins, win rate, rating, streaks, per game and the last five matches."""

    @pytest.mark.parametrize(
        ("user", "chat", "lang"),
        [(BOB, GROUP, "ru"), (CARL, GROUP, "ru"), (OLA, PL_GROUP, "pl")],
        ids=["russian-nine-matches", "russian-escaped-name", "polish"],
    )
    async def test_in_group(self, series: Series, user: FakeUser, chat: int, lang: Lang) -> None:
        """In a group: the player's results in that chat."""
        answer = await ask(series.fake, user, chat, "/stats")
        assert answer.text == series.stats_text(series.tr(lang), user, chat)

    @pytest.mark.parametrize(("user", "lang"), [(ANN, "ru"), (OLA, "pl")], ids=["russian", "polish"])
    async def test_in_private(self, series: Series, user: FakeUser, lang: Lang) -> None:
        """In private: the player's results across all chats."""
        answer = await ask(series.fake, user, user.id, "/stats")
        assert answer.text == series.stats_text(series.tr(lang), user, None)

    async def test_group_lists_this_chat(self, series: Series) -> None:
        """A player of two groups reads, under "in this chat", only that chat's matches."""
        answer = await ask(series.fake, ANN, GROUP, "/stats")
        assert answer.text == series.stats_text(series.tr("ru"), ANN, GROUP)

    @pytest.mark.parametrize(
        ("user", "chat", "lang"),
        [(DAN, GROUP, "ru"), (EWA, PL_GROUP, "pl"), (DAN, DAN.id, "ru"), (EWA, EWA.id, "pl")],
        ids=["russian-group", "polish-group", "russian-private", "polish-private"],
    )
    async def test_none(self, series: Series, user: FakeUser, chat: int, lang: Lang) -> None:
        """Someone who never played is told so."""
        answer = await ask(series.fake, user, chat, "/stats")
        assert answer.text == series.tr(lang)("stats-none", name=user.first_name)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.xdist_group(ONE_WORKER)
class TestHistory:
    """/history: the chat's last ten matches with players, game, score and date."""

    @pytest.mark.parametrize(
        ("user", "chat", "lang"), [(DAN, GROUP, "ru"), (EWA, PL_GROUP, "pl")], ids=["russian", "polish"]
    )
    async def test_group(self, series: Series, user: FakeUser, chat: int, lang: Lang) -> None:
        """The chat's matches, newest first, ten at most."""
        tr = series.tr(lang)
        rows = [series.history_row(tr, p) for p in reversed(series.played) if p.chat == chat][:10]
        assert len(rows) == (10 if chat == GROUP else 1)
        assert (await ask(series.fake, user, chat, "/history")).text == "\n".join([tr("history-title"), *rows])

    @pytest.mark.parametrize(("user", "lang"), [(ANN, "ru"), (OLA, "pl")], ids=["russian", "polish"])
    async def test_private(self, series: Series, user: FakeUser, lang: Lang) -> None:
        """In private: the user's own matches in every chat, newest first (Ann's end with the one played out)."""
        tr = series.tr(lang)
        rows = [series.history_row(tr, p) for p in reversed(series.played) if user in p.players][:10]
        if user == ANN:
            first = series.played[0]
            assert not first.surrendered and max(first.score) >= find_preset(first.preset).target
            assert rows[-1] == series.history_row(tr, first)
        assert (await ask(series.fake, user, user.id, "/history")).text == "\n".join([tr("history-title"), *rows])

    @pytest.mark.parametrize(("user", "lang"), [(DAN, "ru"), (EWA, "pl")], ids=["russian", "polish"])
    async def test_empty(self, series: Series, user: FakeUser, lang: Lang) -> None:
        """A chat without a finished match says so."""
        assert (await ask(series.fake, user, EMPTY_GROUP, "/history")).text == series.tr(lang)("history-empty")


def settings_text(
    tr: Translator, preset: str, target: int | None = None, lang: Lang | None = None, clock_minutes: int = 10
) -> str:
    """The settings as the menu and the change notices show them (the turn clock: TURN_TIMEOUT's 10 minutes)."""
    rules = find_preset(preset)
    return tr(
        "settings-title",
        preset=tr(f"preset-{preset}"),
        target=target or rules.target,
        lang=tr(f"lang-name-{lang or 'auto'}"),
        clock=tr("duration", unit="m", n=clock_minutes) if clock_minutes else tr("clock-off"),
    )


def checked(menu: Sent) -> set[str]:
    """The callback data of the menu's ticked buttons."""
    return {b["callback_data"] for b in menu.buttons() if b["text"].startswith("✓ ")}


def settings_rows(menu: Sent) -> list[list[str]]:
    assert menu.reply_markup is not None
    return [[b["callback_data"] for b in row] for row in menu.reply_markup["inline_keyboard"]]


BINGO_ROWS = [
    ["cfg:game:bingo", "cfg:game:42"],
    ["cfg:preset:bingo"],
    ["cfg:preset:bingo-classic"],
    ["cfg:preset:bingo-domino"],
    ["cfg:target:7", "cfg:target:8"],
    ["cfg:clock:0", "cfg:clock:60", "cfg:clock:180"],
    ["cfg:clock:600", "cfg:clock:1800", "cfg:clock:3600", "cfg:clock:86400"],
    ["cfg:lang:ru", "cfg:lang:pl"],
]
FORTY_TWO_ROWS = [BINGO_ROWS[0], *BINGO_ROWS[-3:]]


def group_sends(fake: FakeTelegram, group: int) -> int:
    return len(fake.calls_to(group, invariants.SENDS))


class TestSettings:
    """/settings: a menu for the group's admins; each change is posted to the group and kept."""

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    async def test_member_is_refused(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang) -> None:
        """A member's /settings is answered with "admins only"."""
        bob = FakeUser(1002, "Bob", "bob", lang)
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n[lang]
            assert (await ask(fake, bob, GROUP, "/settings")).text == tr("error-admin-only")
            await invariants.all_well(fake)

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    async def test_in_private(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang) -> None:
        """/settings in private says, in the user's language, that it works in a group."""
        ann = FakeUser(1001, "Ann", "ann", lang)
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, ann)
            assert (await ask(fake, ann, ann.id, "/settings")).text == app.presenter.i18n[lang]("error-group-only")

    async def test_member_press_changes_nothing(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A member pressing the admin's menu gets a toast; the settings, the menu and the group stay as they were."""
        fake.admins[GROUP] = {ANN.id}
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            menu = await ask(fake, ANN, GROUP, "/settings")
            assert menu.text == settings_text(tr, "bingo")
            assert settings_rows(menu) == BINGO_ROWS
            assert checked(menu) == {"cfg:game:bingo", "cfg:preset:bingo", "cfg:target:8", "cfg:clock:600"}
            for data in ("cfg:game:42", "cfg:preset:bingo-classic", "cfg:target:7", "cfg:lang:pl"):
                before, sends = await app.services.chats.settings(GROUP), group_sends(fake, GROUP)
                answer = await fake.wait_answer(fake.press(BOB, menu, data))
                await app.settled()
                assert answer["text"] == tr("toast-admin-only")
                assert await app.services.chats.settings(GROUP) == before == ChatSettings()
                assert group_sends(fake, GROUP) == sends, f"{data} changed a group message"
            assert menu.text == settings_text(tr, "bingo")
            await invariants.all_well(fake)

    @pytest.mark.parametrize(
        "data", ["cfg:target:9", "cfg:game:chess", "cfg:lang:en", "cfg:preset:42", "cfg:clock:5", "cfg:clock:x"]
    )
    async def test_forged(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, data: str) -> None:
        """A settings button the bot never sent, pressed by an admin, gets a toast and changes nothing."""
        fake.admins[GROUP] = {ANN.id}
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            menu = await ask(fake, ANN, GROUP, "/settings")
            sends = group_sends(fake, GROUP)
            answer = await fake.wait_answer(fake.press(ANN, menu, data))
            await app.settled()
            assert answer["text"] == tr("toast-bad-button")
            assert await app.services.chats.settings(GROUP) == ChatSettings()
            assert group_sends(fake, GROUP) == sends
            assert menu.text == settings_text(tr, "bingo")
            await invariants.all_well(fake)

    async def test_target_of_an_old_menu_in_42(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A target pressed on a menu from before the switch to 42 does not make the settings promise another target."""
        fake.admins[GROUP] = {ANN.id}
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n["ru"]
            menu = await ask(fake, ANN, GROUP, "/settings")
            old = Sent(menu.chat_id, menu.message_id, menu.text, menu.reply_markup)
            await fake.wait_answer(fake.press(ANN, menu, "cfg:game:42"))
            await fake.wait_answer(fake.press(ANN, old, "cfg:target:8"))
            await app.settled()
            message = await challenge(fake, BOB, GROUP)
            assert message.text.startswith(
                tr("challenge-anyone", creator="Bob", game=tr("preset-42"), target=find_preset("42").target)
            )
            assert menu.text == settings_text(tr, "42")
            notices = [m for m in fake.chat_messages(GROUP) if m.text.startswith(tr("settings-changed", name="Ann"))]
            assert notices[-1].text.endswith(settings_text(tr, "42"))

    async def test_admin_changes_everything(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Each press changes one setting and is posted; the next /play follows them, and a restart keeps them."""
        fake.admins[GROUP] = {ANN.id}

        async def change(app: App, menu: Sent, data: str, lang: Lang, text: str) -> None:
            tr = app.presenter.i18n[lang]
            after = newest_id(fake, GROUP)
            answer = await fake.wait_answer(fake.press(ANN, menu, data))
            assert answer["text"] == tr("toast-done")
            posted = await reply_in(fake, GROUP, after, f"the notice of {data}")
            assert posted.text == tr("settings-changed", name="Ann") + "\n" + text
            await fake.wait_for(lambda: menu.text == text, what=f"the menu to show {data}")

        async def play_and_cancel(app: App, lang: Lang, preset: str, target: int) -> None:
            tr = app.presenter.i18n[lang]
            message = await challenge(fake, BOB, GROUP)
            assert message.text.startswith(
                tr("challenge-anyone", creator="Bob", game=tr(f"preset-{preset}"), target=target)
            )
            fake.send_text(BOB, GROUP, "/cancel")
            await fake.wait_for(lambda: not message.buttons(), what="the challenge to go")

        async with running_bot(fake, prefix) as app:
            ru, pl = app.presenter.i18n["ru"], app.presenter.i18n["pl"]
            menu = await ask(fake, ANN, GROUP, "/settings")
            await change(app, menu, "cfg:preset:bingo-classic", "ru", settings_text(ru, "bingo-classic"))
            assert checked(menu) == {"cfg:game:bingo", "cfg:preset:bingo-classic", "cfg:target:7", "cfg:clock:600"}
            await change(app, menu, "cfg:target:8", "ru", settings_text(ru, "bingo-classic", 8))
            assert checked(menu) == {"cfg:game:bingo", "cfg:preset:bingo-classic", "cfg:target:8", "cfg:clock:600"}
            await play_and_cancel(app, "ru", "bingo-classic", 8)
            await change(app, menu, "cfg:game:42", "ru", settings_text(ru, "42"))
            assert settings_rows(menu) == FORTY_TWO_ROWS
            assert checked(menu) == {"cfg:game:42", "cfg:clock:600"}
            await play_and_cancel(app, "ru", "42", 7)
            await change(app, menu, "cfg:game:bingo", "ru", settings_text(ru, "bingo"))
            assert settings_rows(menu) == BINGO_ROWS
            await change(app, menu, "cfg:preset:bingo-domino", "ru", settings_text(ru, "bingo-domino"))
            await change(app, menu, "cfg:target:8", "ru", settings_text(ru, "bingo-domino", 8))
            await change(app, menu, "cfg:lang:pl", "pl", settings_text(pl, "bingo-domino", 8, "pl"))
            assert checked(menu) == {
                "cfg:game:bingo",
                "cfg:preset:bingo-domino",
                "cfg:target:8",
                "cfg:lang:pl",
                "cfg:clock:600",
            }
            await play_and_cancel(app, "pl", "bingo-domino", 8)
            await invariants.all_well(fake)
        async with running_bot(fake, prefix) as app:
            ru, pl = app.presenter.i18n["ru"], app.presenter.i18n["pl"]
            assert await app.services.chats.settings(GROUP) == ChatSettings(lang="pl", preset="bingo-domino", target=8)
            menu = await ask(fake, ANN, GROUP, "/settings")
            assert menu.text == settings_text(pl, "bingo-domino", 8, "pl")
            await play_and_cancel(app, "pl", "bingo-domino", 8)
            await change(app, menu, "cfg:lang:ru", "ru", settings_text(ru, "bingo-domino", 8, "ru"))
            await invariants.all_well(fake)


class TestRules:
    """/rules: the chat's game, or the one named."""

    @pytest.mark.parametrize(
        ("lang", "preset", "text", "shown"),
        [
            ("ru", "bingo", "/rules", "bingo"),
            ("pl", "42", "/rules", "42"),
            ("ru", "bingo-classic", "/rules", "bingo-classic"),
            ("ru", "bingo", "/rules 42", "42"),
            ("pl", "42", "/rules bingo-classic", "bingo-classic"),
            ("pl", "bingo", "/rules domino", "bingo-domino"),
            ("ru", "42", "/rules классика", "bingo-classic"),
            ("ru", "42", "/rules Козыри", "bingo-domino"),
            ("ru", "bingo", "/rules klasyczne", "bingo-classic"),
            ("pl", "42", "/rules atu", "bingo-domino"),
            ("pl", "42", "/rules бинго", "bingo"),
        ],
    )
    async def test_in_group(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang, preset: str, text: str, shown: str
    ) -> None:
        """The rules of the game named, else of the chat's game, in the chat's language."""
        async with running_bot(fake, prefix) as app:
            await app.services.chats.update_settings(GROUP, lang=lang, preset=preset)
            answer = await ask(fake, DAN, GROUP, text)
            assert answer.text == app.presenter.i18n[lang](f"rules-{shown}")
            assert len(answer.text) <= 4096

    @pytest.mark.parametrize(
        ("lang", "text", "shown"),
        [("ru", "/rules", "bingo"), ("pl", "/rules", "bingo"), ("pl", "/rules 42", "42")],
    )
    async def test_in_private(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang, text: str, shown: str
    ) -> None:
        """In private: Bingo's rules unless another game is named, in the user's language."""
        user = FakeUser(3001, "Zoe", "zoe", lang)
        async with running_bot(fake, prefix) as app:
            await start_bot(fake, user)
            assert (await ask(fake, user, user.id, text)).text == app.presenter.i18n[lang](f"rules-{shown}")

    @pytest.mark.parametrize(
        ("lang", "expected"),
        [
            ("ru", "Не знаю игру «chess». Можно: бинго, классика, козыри, 42."),
            ("pl", "Nie znam gry „chess”. Dostępne: bingo, klasyczne, atu, 42."),
        ],
    )
    async def test_unknown_game(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang, expected: str
    ) -> None:
        """An unknown game is named back with one word for each known game, in the chat's language."""
        user = FakeUser(3001, "Zoe", "zoe", lang)
        async with running_bot(fake, prefix):
            answer = await ask(fake, user, GROUP, "/rules chess")
            assert answer.text == expected


class TestStartAndHelp:
    """/start and /help: what the bot does, and in private a button to add it to a group."""

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    async def test_private(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang) -> None:
        """/start and /help in private answer with the add-to-group button."""
        user = FakeUser(3001, "Zoe", "zoe", lang)
        async with running_bot(fake, prefix) as app:
            tr = app.presenter.i18n[lang]
            add = [{"text": tr("btn-add-to-group"), "url": f"https://t.me/{fake.bot_username}?startgroup=true"}]
            for text, key in (("/start", "start-welcome"), ("/help", "help-text")):
                answer = await ask(fake, user, user.id, text)
                assert answer.text == tr(key)
                assert answer.buttons() == add
            await invariants.all_well(fake)

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    async def test_help_in_group(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, lang: Lang) -> None:
        """/help in a group answers in the group's language, without a button."""
        user = FakeUser(3001, "Zoe", "zoe", lang)
        async with running_bot(fake, prefix) as app:
            answer = await ask(fake, user, GROUP, "/help")
            assert answer.text == app.presenter.i18n[lang]("help-text")
            assert answer.buttons() == []
