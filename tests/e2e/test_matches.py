"""Whole matches through the real bot, played only by pressing the buttons it sent."""

from __future__ import annotations

import random
from html import escape

import pytest

from bot import render, review_text
from bot.models import Finish, Lang, Status, pick_lang
from bot.pictures.cards import CARD_SIZE
from bot.replays import replay_link
from engine import find_preset
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    challenge,
    join_by_link,
    move_data,
    new_match,
    panel_of,
    play,
    play_to_end,
    reply_in,
    set_group_lang,
    start_bot,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent, png_size

GROUP = -100500
SETTLE_CARDS = 180.0
"""Real seconds the match's end may take to be delivered: the card and the post-mortem come from worker processes the
bot starts then (a deadline for a failure, far past what a saturated machine needs)."""


@pytest.mark.cluster
class TestWholeMatches:
    """Two users and a group play a match to its end; nothing of a hand ever reaches the group."""

    @pytest.mark.parametrize(
        ("args", "code", "switch", "lang", "preset", "seed"),
        [
            pytest.param("", "ru", None, "ru", "bingo", 3, id="bingo-in-russian-from-the-creator"),
            pytest.param(
                "bingo-classic", "pl", None, "pl", "bingo-classic", 5, id="classic-in-polish-from-the-creator"
            ),
            pytest.param("42", "pl", "ru", "ru", "42", 7, id="42-in-russian-set-by-an-admin"),
        ],
    )
    # A whole match with its card and post-mortem from workers the bot spawns: in the niced Cluster step on a slow
    # day (the arena at 18 s of CPU) the card alone took over a minute (fresh-clone run f2 of 2026-12-07).
    @pytest.mark.timeout(300)
    async def test_match_to_the_end(
        self,
        fake: FakeTelegram,
        prefix: str,
        cleanup_redis: None,
        args: str,
        code: str,
        switch: str | None,
        lang: Lang,
        preset: str,
        seed: int,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        """A match runs to a winner in the group's language, with every invariant checked after every move."""
        ann = FakeUser(1001, "Ann", "ann", code)
        bob = FakeUser(1002, "Bob <3 & Co", "bob", code)
        fake.admins[GROUP] = {ann.id}
        async with running_bot(fake, prefix, pictures=True, postmortems=True) as app:
            tr = app.presenter.i18n[lang]
            await start_bot(fake, ann)
            if switch is not None:
                answer = await set_group_lang(fake, ann, GROUP, switch)
                assert answer["text"] == tr("lang-set")
            game, target = tr(f"preset-{preset}"), find_preset(preset).target
            message = await challenge(fake, ann, GROUP, args)
            assert message.text.startswith(tr("challenge-anyone", creator="Ann", game=game, target=target))
            await join_by_link(fake, bob, message)
            await fake.wait_for(lambda: panel_of(fake, ann) and panel_of(fake, bob), what="both panels")
            referee = invariants.Referee(fake, app, GROUP, (ann, bob))
            await referee.check()

            playout = await play_to_end(fake, (ann, bob), random.Random(seed), after_move=referee.check)
            await app.settled(timeout=SETTLE_CARDS)

            assert referee.checks == playout.moves + 1
            first_table = fake.messages[(GROUP, min(referee.tables))]
            assert first_table.history[0].startswith(tr("table-title", game=game, deal=1))
            accepted = tr("challenge-accepted", a="Ann", b=escape(bob.first_name), game=game, target=target)
            assert message.text.startswith(accepted)
            assert referee.match_id is not None
            record, match = await app.services.records.get(referee.match_id)
            assert record.status is Status.FINISHED and record.finish is Finish.TARGET
            assert record.winner is not None
            w = record.winner
            won = tr("match-won", name=escape(record.players[w].name), sw=match.score[w], sl=match.score[1 - w])
            summary = (await app.services.stores.matches.messages(record.id)).summary
            assert summary is not None
            rating = render.rating_text(tr, record, summary)
            assert rating is not None
            # The result is the match card, the result's text its caption (drawn in a worker process: on a loaded
            # machine it may come after the delivery went idle waiting for it).
            await fake.wait_for(
                lambda: any(m.text.startswith(won) for m in fake.chat_messages(GROUP)),
                timeout=SETTLE_CARDS,
                what="the match result",
            )
            (card,) = [m for m in fake.chat_messages(GROUP) if m.text.startswith(won)]
            assert card.photo is not None and png_size(card.photo) == CARD_SIZE
            series = tr("series-lead", name=escape(record.players[w].name), lead=1, trail=0)
            username = app.presenter.bot_username
            # The review the bot made (kept by its reviewer: not made again here; tests/engine/test_review checks
            # what a review finds, this test what the chat shows of it). The e2e bots wait for their workers
            # (WORKER_TIMEOUT in tests/e2e/conftest.py), so the review is there however loaded the machine;
            # the bot's give-up is tested on a moved clock (tests/bot/test_review_text.py).
            assert "its review took over" not in caplog.text
            review = await app.reviewer.review(record)
            accuracy = review_text.accuracy_line(tr, record, review)
            assert accuracy is not None
            # The match's key and both seeds, revealed with its result.
            reveal = render.key_reveal_lines(tr, record)
            assert len(reveal) == 2 and record.fair is not None and record.fair.key in reveal[0]
            lines = [won, rating, series, accuracy, *reveal, replay_link(tr, username, record.id)]
            assert card.text == "\n".join(line for line in lines if line is not None)
            # In private each reads their own language (their Telegram's here), whatever the group's.
            ptr = app.presenter.i18n[pick_lang(code)]
            own_won = ptr("match-won", name=escape(record.players[w].name), sw=match.score[w], sl=match.score[1 - w])
            own_rating = render.rating_text(ptr, record, summary)
            assert own_rating is not None
            for seat, user in enumerate((ann, bob)):
                # Each chat's queue is its own: the private card and post-mortem may come after the group's card.
                await fake.wait_for(lambda u=user: fake.chat_messages(u.id)[-1].text.startswith("🔎"),
                                    what=f"{user.first_name}'s post-mortem (🔎)")  # fmt: skip
                # Each player's last panel says the match is over, with the result and the rating change; the
                # card follows it, with their own result and rating change.
                *_, last, mine, post_mortem = fake.chat_messages(user.id)
                assert post_mortem.text == review_text.review_text(ptr, review, seat)
                assert ptr("panel-match-over") in last.text and own_won in last.text
                assert [b["callback_data"] for b in last.buttons()] == [f"rm:{record.id}"]  # the rematch
                assert last.text.endswith("\n".join([own_rating, *render.key_reveal_lines(ptr, record)]))
                own_accuracy = review_text.accuracy_line(ptr, record, review)
                assert own_accuracy is not None
                link = replay_link(ptr, username, record.id)
                own = render.private_result_text(ptr, record, summary, seat)
                assert mine.text == "\n".join(line for line in (own, own_accuracy, link) if line is not None)
                assert mine.photo == card.photo if ptr.lang == tr.lang else mine.photo not in (None, card.photo)
            await invariants.all_well(fake)
            assert any(b.get("callback_data") for m in invariants.markups(fake) for b in invariants.buttons_of(m))
            invariants.no_tile_on_group_buttons(fake, GROUP)
            invariants.within_group_budget(fake, GROUP)


class TestGroupLanguage:
    """The group's language: the creator's Telegram language until an admin sets one with /lang."""

    async def test_admin_sets_the_language(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A Polish creator's challenge is in Russian once an admin chose Russian for the group."""
        ann = FakeUser(1001, "Ann", "ann", "pl")
        fake.admins[GROUP] = {ann.id}
        async with running_bot(fake, prefix, pictures=True, postmortems=True) as app:
            ru, pl = app.presenter.i18n["ru"], app.presenter.i18n["pl"]
            before = await challenge(fake, ann, GROUP)
            assert before.text.startswith(pl("challenge-anyone", creator="Ann", game=pl("preset-bingo"), target=8))
            fake.send_text(ann, GROUP, "/cancel")
            await fake.wait_for(lambda: not before.buttons(), what="the challenge to go")
            answer = await set_group_lang(fake, ann, GROUP, "ru")
            assert answer["text"] == ru("lang-set")
            after = await challenge(fake, ann, GROUP)
            assert after.text.startswith(ru("challenge-anyone", creator="Ann", game=ru("preset-bingo"), target=8))
            await invariants.all_well(fake)

    async def test_only_an_admin_sets_it(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """A member's /lang is refused, and a member's press on an admin's menu gets a toast and changes nothing."""
        ann = FakeUser(1001, "Ann", "ann", "ru")
        bob = FakeUser(1002, "Bob", "bob", "ru")
        fake.admins[GROUP] = {ann.id}
        async with running_bot(fake, prefix, pictures=True, postmortems=True) as app:
            tr = app.presenter.i18n["ru"]
            fake.send_text(bob, GROUP, "/lang")
            refusal = await reply_in(fake, GROUP, 0, "the refusal")
            assert refusal.text == tr("error-admin-only")
            after = refusal.message_id
            fake.send_text(ann, GROUP, "/lang")
            menu = await reply_in(fake, GROUP, after, "the language menu")
            answer = await fake.wait_answer(fake.press(bob, menu, "l:pl"))
            assert answer["text"] == tr("toast-admin-only")
            assert (await app.services.chats.settings(GROUP)).lang is None
            assert menu.text == tr("lang-choose")
            await invariants.all_well(fake)


class TestFortyTwoPanel:
    """A 42 panel while its owner bids or names trumps."""

    @pytest.mark.parametrize("kind", ["B", "T"], ids=["bidding", "naming-trumps"])
    async def test_shows_the_hand(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, kind: str) -> None:
        """The player to bid (or to name trumps) sees the seven tiles the decision is about."""
        ann = FakeUser(1001, "Ann", "ann", "ru")
        bob = FakeUser(1002, "Bob", "bob", "ru")
        players = (ann, bob)

        def deciding() -> tuple[int, Sent] | None:
            for seat, user in enumerate(players):
                panel = panel_of(fake, user)
                if panel is not None and any((m := move_data(b)) and m["a"][0] == kind for b in panel.buttons()):
                    return seat, panel
            return None

        async with running_bot(fake, prefix, pictures=True, postmortems=True) as app:
            await start_bot(fake, ann)
            match_id = await new_match(fake, ann, bob, GROUP, "42")
            await play(fake, players, random.Random(11), until=lambda: deciding() is not None)
            found = deciding()
            assert found is not None, "the match ended before that decision"
            seat, panel = found
            _, match = await app.services.records.get(match_id)
            hand = {t.notation() for t in match.deal.view(seat).hand}
            shown = invariants.tiles_in(panel.text).union(*(invariants.tiles_in(b["text"]) for b in panel.buttons()))
            assert hand <= shown, f"the panel hides {sorted(hand - shown)} of the hand:\n{panel.text}"
            await invariants.all_well(fake)
