"""Replays (``bot.replays``): the steps of a deal, the moves between them and what each step shows, over real
deal records of played matches."""

from __future__ import annotations

import random

import pytest

from bot import render, replays
from bot.callbacks import MAX_CALLBACK_BYTES, ReplayCb
from bot.codec import StoredDeal
from bot.games import deal_line
from bot.i18n import I18n, Translator
from bot.models import LANGS, SEED_LIMIT, FairKey, Finish, Lang, MatchRecord, Player, Status, Summary
from bot.pictures.painter import caption_fits
from bot.texts import tiles
from engine import Action, Kind, Match
from tests.e2e.fake_telegram import html_error

LONG = "Аполлинария-Констанция " * 4


def played(preset: str, seed: int, target: int | None = None, *, stop: int | None = None) -> MatchRecord:
    """A match played by random legal actions to its end (or cut short after ``stop`` actions, as a
    surrender leaves it), as the bot stores it."""
    match = Match.new(preset, seed, target)
    rng = random.Random(seed)
    log, count = [], 0
    while not match.is_over and (stop is None or count < stop):
        deal = match.play(rng.choice(match.legal_actions()))
        count += 1
        if deal is not None:
            log.append(deal_line(deal))
    return MatchRecord(
        id="abcDEF12345",
        chat_id=-100,
        players=(Player(id=1, name="Ann"), Player(id=2, name="Bob")),
        lang="ru",
        created=0,
        updated=0,
        deal=StoredDeal.of(match),
        log=tuple(log),
        status=Status.FINISHED,
        winner=match.winner if match.is_over else 1,
        finish=Finish.TARGET if match.is_over else Finish.SURRENDER,
    )


def tr(lang: Lang = "ru") -> Translator:
    return I18n()[lang]


PRESETS = ["bingo", "bingo-classic", "bingo-domino", "42"]


class TestSteps:
    """A step ends with a trick settled or an action that is not a play."""

    @pytest.mark.parametrize("preset", PRESETS)
    def test_steps_cover_the_deal(self, preset: str) -> None:
        """Each deal's steps start at no action and end at all of them; between, no lead waits on the table
        unless the step's last action was a claim; the last step is the stored deal itself."""
        for seed in range(6):
            record = played(preset, seed, 2)
            for shown in replays.reel_of(record):
                assert shown.stored is not None
                actions = shown.stored.a.split()
                assert shown.steps[0] == 0 and shown.steps[-1] == len(actions)
                assert list(shown.steps) == sorted(set(shown.steps))
                for step in range(1, len(shown.steps)):
                    view = shown.at(step).view(None)
                    last = Action.parse(actions[shown.steps[step] - 1])
                    assert view.lead is None or last.kind is Kind.CLAIM
                assert shown.at(len(shown.steps) - 1) == shown.stored.to_match().deal

    def test_forty_two_steps_through_bids_and_trumps(self) -> None:
        """Every bid, pass and naming of trumps is a step of its own."""
        record = played("42", 5, 2)
        for shown in replays.reel_of(record):
            assert shown.stored is not None
            actions = [Action.parse(a) for a in shown.stored.a.split()]
            own = [i + 1 for i, a in enumerate(actions) if a.kind in (Kind.BID, Kind.PASS, Kind.TRUMPS)]
            assert own and set(own) <= set(shown.steps)

    def test_a_match_cut_short_ends_in_its_unfinished_deal(self) -> None:
        """A match given up mid-deal replays its finished deals and then the deal it ended in."""
        whole = played("bingo", 2, 7)
        record = played("bingo", 2, 7, stop=len(whole.log[0].d.a.split()) + 5)  # type: ignore[union-attr]
        reel = replays.reel_of(record)
        assert [d.number for d in reel] == [1, 2]
        assert reel[1].stored == record.deal and reel[1].at(len(reel[1].steps) - 1).end is None


class TestMoves:
    """Where each button leads; at an end, nowhere."""

    def test_round_trip(self) -> None:
        """▶ from the first step reaches the last step of the last deal through every step, ◀ comes back the
        same way; ⏭ visits each deal's start."""
        reel = replays.reel_of(played("bingo", 1, 3))
        path = [(0, 0)]
        while (nxt := replays.go(reel, *path[-1], "n")) is not None:
            path.append(nxt)
        assert len(path) == sum(len(d.steps) for d in reel)
        back = [path[-1]]
        while (prev := replays.go(reel, *back[-1], "p")) is not None:
            back.append(prev)
        assert back == path[::-1]
        starts = [(0, 0)]
        while (nxt := replays.go(reel, *starts[-1], "N")) is not None:
            starts.append(nxt)
        last = len(reel) - 1
        assert starts == [(d, 0) for d in range(len(reel))] + [(last, len(reel[last].steps) - 1)]

    def test_ends(self) -> None:
        """◀ and ⏮ at the first step, ▶ and ⏭ at the last, lead nowhere; ⏮ mid-deal goes to its start."""
        reel = replays.reel_of(played("42", 1, 2))
        end = (len(reel) - 1, len(reel[-1].steps) - 1)
        assert replays.go(reel, 0, 0, "p") is None and replays.go(reel, 0, 0, "P") is None
        assert replays.go(reel, *end, "n") is None and replays.go(reel, *end, "N") is None
        assert replays.go(reel, 1, 3, "P") == (1, 0) and replays.go(reel, 1, 0, "P") == (0, 0)

    @pytest.mark.parametrize(("deal", "step"), [(-1, 0), (0, -1), (0, 999), (99, 0)])
    def test_forged_positions(self, deal: int, step: int) -> None:
        reel = replays.reel_of(played("bingo", 1, 2))
        assert not replays.valid(reel, deal, step)

    def test_callback_data_fits(self) -> None:
        """The longest button's data is within Telegram's 64 bytes."""
        data = ReplayCb(m="x" * 11, d=99, s=999, g="N").pack()
        assert len(data.encode()) <= MAX_CALLBACK_BYTES


class TestText:
    """What a step shows."""

    @pytest.mark.parametrize("preset", PRESETS)
    @pytest.mark.parametrize("lang", LANGS)
    def test_both_hands_and_the_result(self, preset: str, lang: Lang) -> None:
        """Every step shows both hands as they are then and valid HTML; the deal's last step its result."""
        record = played(preset, 7, 2)
        reel = replays.reel_of(record)
        for d, shown in enumerate(reel):
            for step in range(len(shown.steps)):
                text = replays.replay_text(tr(lang), record, reel, d, step)
                deal = shown.at(step)
                for seat in (0, 1):
                    assert tiles(deal.view(seat).hand) in text
                assert html_error(text) is None and len(text) <= 4096
                assert tr(lang)("replay-position", deal=d + 1, deals=len(reel), step=step,
                                steps=len(shown.steps) - 1) in text  # fmt: skip
            assert render.deal_result_text(tr(lang), record, shown.at(len(shown.steps) - 1)) in text

    def test_bingo_points_of_both_seats(self) -> None:
        """The table hides the points until the deal's end; the replay shows each seat's as it goes."""
        record = played("bingo", 3, 2)
        reel = replays.reel_of(record)
        shown = reel[0]
        deal = shown.at(len(shown.steps) // 2)
        pa, pb = deal.view(0).points[0], deal.view(1).points[1]
        text = replays.replay_text(tr(), record, reel, 0, len(shown.steps) // 2)
        assert tr()("table-points", a="Ann", b="Bob", pa=pa, pb=pb) in text

    def test_a_match_before_replays_says_what_it_lacks(self) -> None:
        """Log lines kept without their deal: each says so with its game points; the last deal, which the
        record still holds, is shown."""
        record = played("bingo", 4, 3)
        old = record.model_copy(update={"log": tuple(line.model_copy(update={"d": None}) for line in record.log)})
        reel = replays.reel_of(old)
        assert [d.number for d in reel] == [line.n for line in record.log]
        assert all(d.steps == (0,) for d in reel[:-1]) and reel[-1].stored == record.deal
        text = replays.replay_text(tr(), old, reel, 0, 0)
        assert tr()("replay-not-kept", deal=1) in text
        g = record.log[0].g
        assert tr()("replay-deal-points", a="Ann", b="Bob", pa=g[0], pb=g[1]) in text


class TestLinks:
    """The list's buttons and the links to a replay."""

    @pytest.mark.parametrize("lang", LANGS)
    def test_button_fits(self, lang: Lang) -> None:
        """A match's button stays within 32 characters, however long the opponent's name."""
        summary = Summary(id="abcDEF12345", chat_id=1, preset="42", players=(Player(id=1, name="Ann"),
                          Player(id=2, name=LONG)), score=(12, 10), winner=0, finish=Finish.TARGET,
                          finished=1_790_000_000)  # fmt: skip
        text = replays.match_button_text(tr(lang), summary, 1)
        assert len(text) <= replays.BUTTON_LIMIT and "12:10" in text and "…" in text
        assert "10:12" in replays.match_button_text(tr(lang), summary, 2)

    @pytest.mark.parametrize("lang", LANGS)
    def test_caption_fits(self, lang: Lang) -> None:
        """The match card's caption with the link stays within Telegram's 1024 characters, and is valid HTML."""
        longest = FairKey(key="ab" * 32, seeds=("&" * SEED_LIMIT, "Ж" * SEED_LIMIT))
        record = played("bingo", 1, 2).model_copy(
            update={"players": (Player(id=1, name=LONG), Player(id=2, name=LONG + "2")), "fair": longest}
        )
        summary = Summary(id=record.id, chat_id=-100, preset="bingo", players=record.players, score=(2, 1),
                          winner=0, finish=Finish.SURRENDER, finished=0, rating_change=17, ratings=(1517, 1483),
                          series=(10, 9))  # fmt: skip
        link = replays.replay_link(tr(lang), "some_long_bot_username_bot", record.id)
        caption = render.result_caption(tr(lang), record, summary, tr(lang)("rematch-off"), link=link)
        assert link in caption and caption_fits(caption) and html_error(caption) is None
        assert "ab" * 32 in caption and "&amp;" * SEED_LIMIT in caption
        private = render.private_result_text(tr(lang), record, summary, 0, link=link)
        assert link in private and caption_fits(private)
        assert 'href="https://t.me/some_long_bot_username_bot?start=r_abcDEF12345"' in link


class TestSecrets:
    """The match is over: each deal's header shows its 🔒 commitment and its 🔑 secret; where the replay opens, the
    match's 🗝 key and 🌱 seeds."""

    def test_commitment_and_secret(self) -> None:
        record = played("bingo", 6, 2)
        reel = replays.reel_of(record)
        for d, shown in enumerate(reel):
            assert shown.stored is not None and shown.stored.x
            view = shown.at(0).view(None)
            text = replays.replay_text(tr(), record, reel, d, 0)
            assert view.commitment is not None and len(view.commitment) == 64
            assert tr()("panel-commitment", hash=view.commitment) in text
            assert tr()("deal-secret", secret=shown.stored.x) in text
            assert "🗝" not in text  # a match made before keys were committed has none to show

    def test_key_and_seeds_where_it_opens(self) -> None:
        """The key and both seeds at the first step of the first deal only (HTML escaped)."""
        record = played("bingo", 6, 2).model_copy(update={"fair": FairKey(key="cd" * 32, seeds=("<b>", "x"))})
        reel = replays.reel_of(record)
        opening = replays.replay_text(tr(), record, reel, 0, 0)
        assert tr()("fair-key", hex="cd" * 32) in opening and "<code>&lt;b&gt;</code>" in opening
        assert html_error(opening) is None
        assert "🗝" not in replays.replay_text(tr(), record, reel, 0, 1)
