"""Pictures over the fake Bot API: the match card in the group and in private, the /stats rating chart, and the
text alone whenever a picture cannot be drawn or sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import render
from bot.app import App
from bot.models import MatchRecord, Summary
from bot.pictures.cards import CARD_SIZE, CHART_SIZE
from bot.pictures.painter import Painter
from bot.replays import replay_link
from tests.bot.painter_helpers import appears
from tests.e2e import invariants
from tests.e2e.conftest import running_bot
from tests.e2e.driver import (
    ask,
    button,
    challenge,
    new_match,
    newest_id,
    panel_of,
    start_bot,
    surrender,
    surrender_question,
)
from tests.e2e.fake_telegram import FakeTelegram, FakeUser, Sent, png_size

GROUP = -100900
ANN = FakeUser(1001, "Ann", "ann", "ru")
BOB = FakeUser(1002, "Bob", "bob", "ru")
CEZ = FakeUser(1003, "Cezary Żółć", "cez", "pl")
HELPERS = "tests.bot.painter_helpers"


def painter_of(app: App) -> Painter:
    assert app.painter is not None
    return app.painter


async def ended(app: App, match_id: str) -> tuple[MatchRecord, Summary]:
    record, _ = await app.services.records.get(match_id)
    summary = (await app.services.stores.matches.messages(match_id)).summary
    assert summary is not None
    return record, summary


def caption(app: App, record: MatchRecord, summary: Summary) -> str:
    """The group's caption of a match's card: its result and the link to its replay."""
    tr = app.presenter.i18n[record.lang]
    return render.result_caption(tr, record, summary, link=replay_link(tr, app.presenter.bot_username, record.id))


def private(app: App, record: MatchRecord, summary: Summary, seat: int) -> str:
    """A player's caption of the card in private."""
    tr = app.presenter.i18n[record.lang_of(seat)]
    link = replay_link(tr, app.presenter.bot_username, record.id)
    return render.private_result_text(tr, record, summary, seat, link=link)


def result_of(fake: FakeTelegram, chat_id: int, text: str) -> Sent:
    """The one message in the chat with exactly ``text`` (a card's caption, or the text alone)."""
    (found,) = [m for m in fake.chat_messages(chat_id) if m.text == text]
    return found


async def surrendered(fake: FakeTelegram, app: App, loser: FakeUser, winner: FakeUser) -> tuple[str, str]:
    """A match in the group that ``loser`` gives up at once; its id and the result's text as the group reads it."""
    match_id = await new_match(fake, loser, winner, GROUP)
    await surrender(fake, loser, GROUP, match_id)
    record, summary = await ended(app, match_id)
    return match_id, caption(app, record, summary)


class TestMatchCard:
    """The card goes to the group and to each player; the text goes alone whenever the card cannot."""

    async def test_a_press_is_answered_while_the_card_is_drawn(
        self, fake: FakeTelegram, prefix: str, cleanup_redis: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The worker is held in the middle of the card: commands and presses are answered meanwhile, a new match
        begins; once it is let go, the card arrives."""
        flag = tmp_path / "go"
        monkeypatch.setenv("PAINTER_HOLD", str(flag))
        fake.started.update({ANN.id, BOB.id, CEZ.id})
        async with running_bot(fake, prefix, pictures=True) as app:
            painter_of(app).draw = f"{HELPERS}:held"
            for user in (ANN, BOB, CEZ):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            question = await surrender_question(fake, ANN, GROUP, match_id)
            yes = button(question, f"s:{match_id}:{ANN.id}:1")["callback_data"]
            await fake.wait_answer(fake.press(ANN, question, yes))
            await appears(Path(f"{flag}.started"))
            # The card is being drawn (and stays so): everything else goes on.
            tr = app.presenter.i18n["ru"]
            assert (await ask(fake, BOB, GROUP, "/help")).text == tr("help-text")
            offer = await challenge(fake, BOB, GROUP)
            answer = await fake.wait_answer(fake.press(CEZ, offer, button(offer, "j:")["callback_data"]))
            assert not answer.get("text"), answer
            await fake.wait_for(lambda: panel_of(fake, CEZ), what="Cez's panel of the new match")
            record, summary = await ended(app, match_id)
            assert not any(m.photo for m in fake.chat_messages(GROUP))
            flag.touch()
            await app.settled()
            card = result_of(fake, GROUP, caption(app, record, summary))
            assert card.photo is not None and png_size(card.photo) == CARD_SIZE
            for seat, user in enumerate((ANN, BOB)):
                mine = result_of(fake, user.id, private(app, record, summary, seat))
                assert mine.photo == card.photo
            invariants.within_group_budget(fake, GROUP)

    @pytest.mark.parametrize(
        "draw",
        [
            pytest.param(f"{HELPERS}:fail", id="drawing-fails"),
            pytest.param(f"{HELPERS}:die", id="worker-dies"),
            pytest.param(f"{HELPERS}:pid", id="telegram-refuses-the-picture"),
        ],
    )
    async def test_the_text_goes_alone(self, fake: FakeTelegram, prefix: str, cleanup_redis: None, draw: str) -> None:
        """A card that cannot be drawn (an error, a dead worker) or that Telegram refuses: the text goes alone,
        in the group and to each player, and the next match has its card again."""
        fake.started.update({ANN.id, BOB.id})
        async with running_bot(fake, prefix, pictures=True) as app:
            painter_of(app).draw = draw
            for user in (ANN, BOB):
                await start_bot(fake, user)
            match_id, text = await surrendered(fake, app, ANN, BOB)
            await app.settled()
            record, summary = await ended(app, match_id)
            assert result_of(fake, GROUP, text).photo is None
            for seat, user in enumerate((ANN, BOB)):
                assert result_of(fake, user.id, private(app, record, summary, seat)).photo is None
            assert match_id not in await app.services.stores.matches.screens_due()  # settled(): the settle included
            painter_of(app).draw = "bot.pictures.draw:draw"
            _, text = await surrendered(fake, app, BOB, ANN)
            await app.settled()
            assert result_of(fake, GROUP, text).photo is not None

    async def test_a_flood_wait_on_the_card(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """Two 429s on the card are waited out: it arrives once, within the group's budget."""
        fake.started.update({ANN.id, BOB.id})
        fake.retry_after = 1
        async with running_bot(fake, prefix, pictures=True) as app:
            for user in (ANN, BOB):
                await start_bot(fake, user)
            fake.method_429["sendPhoto"] = 2
            _, text = await surrendered(fake, app, ANN, BOB)
            await app.settled()
            assert result_of(fake, GROUP, text).photo is not None
            # The first two cards (whichever chat's) met the 429s; each chat got its card once.
            photos = [c for c in fake.calls if c.method == "sendPhoto"]
            assert [c.status for c in photos[:2]] == [429, 429]
            sent = sorted(int(c.params["chat_id"]) for c in photos if c.status == 200)
            assert sent == sorted([GROUP, ANN.id, BOB.id])
            invariants.within_group_budget(fake, GROUP)

    async def test_a_restart_before_the_cards(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        """The bot stops while Telegram holds its cards: the next start sends each card once."""
        fake.started.update({ANN.id, BOB.id})
        async with running_bot(fake, prefix, pictures=True) as app:
            for user in (ANN, BOB):
                await start_bot(fake, user)
            match_id = await new_match(fake, ANN, BOB, GROUP)
            fake.held.add("sendPhoto")
            question = await surrender_question(fake, ANN, GROUP, match_id)
            yes = button(question, f"s:{match_id}:{ANN.id}:1")["callback_data"]
            await fake.wait_answer(fake.press(ANN, question, yes))
            await fake.wait_for(lambda: len(fake.held_calls) >= 1, what="a card on its way")
            record, summary = await ended(app, match_id)
        fake.thaw()
        assert not any(m.photo for chat in (GROUP, ANN.id, BOB.id) for m in fake.chat_messages(chat))
        async with running_bot(fake, prefix, pictures=True) as app:
            await fake.wait_for(lambda: not app.delivery._jobs, what="the deliveries of the new start")
            await app.settled()
            assert result_of(fake, GROUP, caption(app, record, summary)).photo
            for seat, user in enumerate((ANN, BOB)):
                assert result_of(fake, user.id, private(app, record, summary, seat)).photo
            assert match_id not in await app.services.stores.matches.screens_due()  # settled(): the settle included


class TestRatingChart:
    """/stats comes with the chart of the rating: in the group, the group's; in private, everywhere."""

    async def test_in_the_group_and_in_private(self, fake: FakeTelegram, prefix: str, cleanup_redis: None) -> None:
        fake.started.update({ANN.id, BOB.id, CEZ.id})
        async with running_bot(fake, prefix, pictures=True) as app:
            for user in (ANN, BOB, CEZ):
                await start_bot(fake, user)
            await surrendered(fake, app, ANN, BOB)
            await surrendered(fake, app, BOB, ANN)
            await surrendered(fake, app, CEZ, ANN)
            await app.settled()
            tr, pl = app.presenter.i18n["ru"], app.presenter.i18n["pl"]
            here = await ask(fake, ANN, GROUP, "/stats")
            assert here.photo is not None and png_size(here.photo) == CHART_SIZE
            assert here.text.startswith(tr("stats-title-chat", name="Ann"))
            everywhere = await ask(fake, CEZ, CEZ.id, "/stats")
            assert everywhere.photo is not None and png_size(everywhere.photo) == CHART_SIZE
            assert everywhere.text.startswith(pl("stats-title-all", name=render.user_text(CEZ.first_name)))
            nobody = await ask(fake, FakeUser(1009, "Zoe", "zoe", "ru"), GROUP, "/stats")
            assert nobody.photo is None and nobody.text == tr("stats-none", name="Zoe")
            invariants.within_group_budget(fake, GROUP)
            # The same chart again is sent by the file_id Telegram gave it: not drawn (drawing now fails) and not
            # uploaded again.
            painter_of(app).draw = f"{HELPERS}:fail"
            again = await ask(fake, ANN, GROUP, "/stats")
            assert again.photo == here.photo and again.text == here.text
            assert fake.photos_by_id == [f"photo-{here.message_id}"]
            # A chart that cannot be drawn (Bob's, never sent before): the stats go as text.
            bobs = await ask(fake, BOB, GROUP, "/stats")
            assert bobs.photo is None and bobs.text.startswith(tr("stats-title-chat", name="Bob"))
            after = newest_id(fake, GROUP)
            assert after == bobs.message_id
