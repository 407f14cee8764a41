"""Inline mode: ``@bot`` typed in any chat offers a challenge for each game; the one posted there (via the bot,
which is not in that chat) is accepted by a press on it, and becomes the match's table (``bot.delivery``).

Each result is a challenge of its own, in a chat id of its own (``bot.models.new_inline_chat``): opened at the
query (its key committed in its text before anyone can accept, as a group's), kept for the challenges' lifetime.
The message's ``inline_message_id`` comes with the chosen result (``chosen_inline_result``, sent when inline
feedback is on: @BotFather's ``/setinlinefeedback``): its creator posted it, and that binds it
(``Challenges.bind_inline``, once: a known message is never replaced). Without it, the accepting press binds the
message it came on, in the accept's own write; a deep link to a challenge whose message is not known is refused
(press accept on the message). With it the bot can say in the message that the challenge expired or was
withdrawn. The accept is a group's accept (``bot.routers.game.join_here``).
"""

from __future__ import annotations

from typing import Any

from aiogram import Router
from aiogram.types import (
    ChosenInlineResult,
    InlineQuery,
    InlineQueryResultArticle,
    InlineQueryResultsButton,
    InputTextMessageContent,
)
from aiogram.types.inline_query_result_union import InlineQueryResultUnion

from bot import keyboards, render
from bot.i18n import I18n
from bot.limits import CommandFlood, Flood
from bot.models import is_inline_chat
from bot.routers.common import person, preset_words
from bot.services.challenges import Challenges
from bot.services.chats import Chats
from bot.texts import game_name
from engine.rules import find_preset

QUERIES = 20
"""Inline queries a minute that may open challenges, per person (Telegram sends one at every keystroke)."""
OPEN_CAP = 10
"""A person's open inline challenges at most (posted or not): past it, only those offered already."""
CACHE_TIME = 10
"""Seconds Telegram may show the same results again (each is an open challenge: far less than its lifetime)."""
BINGO = "bingo"


def wanted(query: str, i18n: I18n, bingo: str) -> list[str]:
    """The presets a query asks for: every game (Bingo as ``bingo``, the user's preset) when it names none,
    else the games its words name (the words ``/play`` takes)."""
    words = preset_words(i18n)
    named = []
    for word in query.lower().replace(",", " ").split():
        preset = words.get(word)
        if preset is not None and preset not in named:
            named.append(preset)
    if not named:
        return [bingo, "42"]
    return named[:5]


async def challenges_offered(
    query: InlineQuery,
    challenges: Challenges,
    chats: Chats,
    inline_flood: CommandFlood,
    i18n: I18n,
    log_ctx: dict[str, Any],
) -> None:
    """Answer ``@bot [words]``: a challenge for each game asked for, in the user's language. Telegram asks at every
    keystroke: the challenge of a game offered last and not posted is offered again; past ``QUERIES`` queries a
    minute nothing new is opened, and never more than ``OPEN_CAP`` open challenges a person."""
    user = query.from_user
    creator = await person(user, chats)
    lang = creator.lang or "ru"
    tr = i18n[lang]
    settings = await chats.settings(user.id)
    bingo = settings.preset if find_preset(settings.preset).game == BINGO else BINGO
    fresh = await inline_flood.take(user.id, user.id) is Flood.ANSWER
    results: list[InlineQueryResultUnion] = []
    for preset in wanted(query.query, i18n, bingo):
        challenge = await challenges.offer_inline(creator, preset, lang, fresh=fresh, cap=OPEN_CAP)
        if challenge is None:
            continue
        text = render.challenge_text(tr, challenge, inline=True)
        results.append(
            InlineQueryResultArticle(
                id=challenge.id,
                title=tr("inline-title", game=game_name(tr, preset)),
                description=tr("inline-description", target=challenge.target),
                input_message_content=InputTextMessageContent(message_text=text, parse_mode="HTML"),
                reply_markup=keyboards.inline_challenge_keyboard(tr, challenge),
            )
        )
    log_ctx["action"] = "inline"
    if not results:  # over the budget or the cap: nothing to post, and a word on why (it opens the bot)
        log_ctx["result"] = "flood"
        button = InlineQueryResultsButton(text=tr("inline-too-many"), start_parameter="inline")
        await query.answer([], cache_time=CACHE_TIME, is_personal=True, button=button)
        return
    await query.answer(results, cache_time=CACHE_TIME, is_personal=True)


async def challenge_posted(result: ChosenInlineResult, challenges: Challenges, log_ctx: dict[str, Any]) -> None:
    """The creator posted one of the challenges offered: its message's id is kept (the first one posted: a result
    Telegram shows again from its cache may be posted twice; an accept makes the message pressed the table)."""
    log_ctx["action"] = "inline_posted"
    challenge = await challenges.challenge(result.result_id)
    if (
        result.inline_message_id is None
        or challenge is None
        or not is_inline_chat(challenge.chat_id)
        or challenge.creator.id != result.from_user.id
        or challenge.inline_message_id is not None
    ):
        log_ctx["result"] = "ignored"
        return
    await challenges.bind_inline(challenge.id, result.inline_message_id)


def build() -> Router:
    router = Router(name="inline")
    router.inline_query.register(challenges_offered)
    router.chosen_inline_result.register(challenge_posted)
    return router
