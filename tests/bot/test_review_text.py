"""The words of the post-mortem and the hints (bot/review_text.py), the card's accuracy and hints, the 💡 button."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal

import pytest

from bot import keyboards, review_text
from bot.i18n import I18n
from bot.models import Lang
from bot.pictures import build
from bot.services import Services
from bot.services.reviews import Costly, MatchReview, Reviewer, SeatReview, deal_records, review_now
from engine import Kind, Match
from engine.ai import evaluate
from engine.rules import find_preset
from tests.bot.helpers import ALA, BOB, finish_by_play, start_match

I18N = I18n()
REVIEW = MatchReview(
    seats=(
        SeatReview(
            seat=0,
            decisions=21,
            accuracy=81,
            costliest=(
                Costly(deal=2, trick=5, played="66*", best="X", cost=0.125),
                Costly(deal=1, trick=None, played="B31", best="P", cost=0.05),
                Costly(deal=3, trick=1, played="T4", best="T6", cost=0.0004),
            ),
        ),
        SeatReview(seat=1, decisions=0, accuracy=None),
    )
)
WORDS = {
    "ru": ("Разбор матча", "точность 81%", "решений: 21", "Партия 2, взятка 5. Ты: [6|6] с объявлением дублей",
           "сильный компьютер: 🚧 закрыть резерв", "12,5%", "Партия 1, торговля и козыри. Ты: ставка 31",
           "козыри: четвёрки", "5,0%", "0,1%"),
    "pl": ("Analiza meczu", "dokładność 81%", "decyzji: 21", "Rozdanie 2, lewa 5. Ty: [6|6] z deklaracją dubletów",
           "komputer (trudny): 🚧 zamknąć talon", "12,5%", "Rozdanie 1, licytacja i wybór atu. Ty: odzywka 31",
           "atu: czwórki", "5,0%", "0,1%"),
}  # fmt: skip


class TestReviewText:
    @pytest.mark.parametrize("lang", ["ru", "pl"])
    def test_the_post_mortem(self, lang: Lang) -> None:
        """The 🔎 message: the accuracy, then each costly decision with its deal, trick, both moves and its cost."""
        text = review_text.review_text(I18N[lang], REVIEW, 0)
        assert text.startswith("🔎") and len(text) < 4096
        for word in WORDS[lang]:
            assert word in text, word
        assert not re.search(r"\d\.\d", text), "a decimal point: the language writes a decimal comma"
        assert text.count("\n") == 4

    @pytest.mark.parametrize("lang", ["ru", "pl"])
    def test_nothing_to_review(self, lang: Lang) -> None:
        """No choice made, or no review: a short line that says so."""
        tr = I18N[lang]
        assert review_text.review_text(tr, REVIEW, 1) == tr("review-no-choices")
        assert review_text.review_text(tr, None, 0) == tr("review-failed")
        assert all(t.startswith("🔎") for t in (tr("review-no-choices"), tr("review-failed")))

    @pytest.mark.parametrize(("lang", "n", "word"), [("ru", 1, "подсказка"), ("ru", 3, "подсказки"),
                             ("ru", 5, "подсказок"), ("pl", 1, "podpowiedź"), ("pl", 3, "podpowiedzi")])  # fmt: skip
    async def test_the_card(self, services: Services, lang: Lang, n: int, word: str) -> None:
        """The card shows each person's accuracy and the hints they asked for; the caption's lines too."""
        result = await finish_by_play(services, seed=3)
        summary = (await services.stores.matches.messages(result.record.id)).summary
        assert summary is not None
        record = result.record.model_copy(update={"hints": (n, 0)})
        tr = I18N[lang]
        review = review_now(record)
        accuracy = review.accuracy(0)
        assert accuracy is not None and review.accuracy(1) is not None
        card = build.match_card(tr, record, summary, review)
        rating = card.sides[0].rating or ""
        assert tr("card-accuracy", accuracy=accuracy) in rating and f"{n} {word}" in rating
        other = card.sides[1].rating or ""
        assert tr("card-accuracy", accuracy=review.accuracy(1)) in other and word not in other
        lines = review_text.card_lines(tr, record, review)
        assert len(lines) == 2 and ALA.name in lines[0] and BOB.name in lines[0] and f"💡 {n} {word}" in lines[1]
        without = build.match_card(tr, record, summary).sides[0].rating or ""
        assert tr("card-accuracy", accuracy=accuracy) not in without and f"{n} {word}" in without
        assert review_text.card_lines(tr, result.record, None) == []


class TestHints:
    @pytest.mark.parametrize("lang", ["ru", "pl"])
    @pytest.mark.parametrize("preset", ["bingo", "bingo-classic", "42"])
    def test_toast(self, lang: Lang, preset: str) -> None:
        """The toast names the best move (a legal one) and stays within Telegram's 200 characters."""
        match = Match.new(find_preset(preset), 4)
        rng = random.Random(4)
        answers = 0
        for _ in range(40):
            deal = match.deal
            view = deal.view(deal.turn)
            if len(view.legal) > 1:
                values = evaluate(view, random.Random(1))
                best = max(values, key=lambda mv: mv[1])[0]
                toast = review_text.hint_toast(I18N[lang], view, best, values)
                assert best in view.legal and toast.startswith("💡") and len(toast) <= 200
                assert review_text.move_text(I18N[lang], best.notation()) in toast
                if best.kind is Kind.PLAY and view.lead is not None:  # an answer: it takes the trick or not
                    tr = I18N[lang]
                    assert tr("hint-why-wins-trick") in toast or tr("hint-why-gives-trick") in toast
                    answers += 1
            match.play(rng.choice(match.legal_actions()), deal.turn)
        assert answers > 0

    def test_button_only_on_the_turn_of_a_match_against_the_computer(self) -> None:
        match = Match.new(find_preset("bingo"), 9)
        tr = I18N["ru"]
        turn = match.deal.turn
        for seat in (0, 1):
            view = match.deal.view(seat)
            for hint in (False, True):
                rows = keyboards.panel_rows(tr, "m1", 7, view, hint=hint) or []
                data = [b["callback_data"] for row in rows for b in row]
                assert ("h:m1:7" in data) is (hint and seat == turn)
                assert all(len(d.encode()) <= 64 for d in data)


class TestDealRecords:
    async def test_a_surrender_mid_deal(self, services: Services) -> None:
        """The deal a surrender ended is reviewed too (its key counts its actions), after the finished ones; a
        deal's start is not (``unfinished=False``: what the review of each deal as it ends reads)."""
        record, match = await start_match(services, target=3)
        rng = random.Random(2)
        while len(record.log) < 1 or len(record.deal.a.split()) < 6:
            seat = match.turn
            assert seat is not None
            action = rng.choice(match.legal_actions())
            result = await services.moves.submit(record.id, record.players[seat].id, action)
            record, match = result.record, result.match
        record = (await services.moves.surrender(record.id, ALA.id)).record
        keys = [key for key, _ in deal_records(record)]
        finished = [f"{record.id}/{line.n}" for line in record.log]
        assert keys == [*finished, f"{record.id}/{record.deal.n}/{len(record.deal.a.split())}"]
        assert [key for key, _ in deal_records(record, unfinished=False)] == finished
        review = review_now(record)
        assert [s.seat for s in review.seats] == [0, 1] and all(s.decisions > 0 for s in review.seats)


class TestReviewer:
    async def test_a_review_past_its_timeout_is_given_up(
        self, services: Services, caplog: pytest.LogCaptureFixture
    ) -> None:
        """A review not made when the timeout runs out (on the clock the reviewer is given) is None, and the
        worker is replaced: the next review of the match is made by a new one."""
        record = (await finish_by_play(services, seed=3)).record
        expired = asyncio.Event()

        async def sleep(seconds: float) -> None:  # the timeout runs out when the test says so
            await expired.wait()

        reviewer = Reviewer(timeout=5.0, sleep=sleep)
        try:
            expired.set()  # before the worker can have answered: it is not even started yet
            assert await reviewer.review(record) is None
            assert "its review took over 5.0 s" in caplog.text
            expired.clear()
            assert await reviewer.review(record) == review_now(record)
        finally:
            await reviewer.close()

    async def test_a_worker_killed_while_idle_costs_no_review(self, services: Services) -> None:
        """The review worker killed between two matches (by someone else, or out of memory) is found dead only
        when the next deal is handed to it: a new worker reviews it, and the post-mortem is the one made here."""
        first = (await finish_by_play(services, seed=3)).record
        second = (await finish_by_play(services, seed=4)).record
        reviewer = Reviewer()
        try:
            assert await reviewer.review(first) == review_now(first)
            (worker,) = [p.pid for p in (reviewer._executor()._processes or {}).values()]
            assert worker is not None
            os.kill(worker, signal.SIGKILL)
            async with asyncio.timeout(10):  # the pool learns of it from its own thread
                while not reviewer._executor()._broken:
                    await asyncio.sleep(0.01)
            assert await reviewer.review(second) == review_now(second)
        finally:
            await reviewer.close()
