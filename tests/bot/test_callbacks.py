"""Game buttons' data is made and read without pydantic on the hot path: the same as aiogram's CallbackData."""

from __future__ import annotations

import pytest
from aiogram.types import CallbackQuery, User

from bot.callbacks import MoveCb, move_data, move_filter
from bot.games import PRESETS
from engine import Match, legal_actions


def query(data: str) -> CallbackQuery:
    return CallbackQuery(id="1", from_user=User(id=1, is_bot=False, first_name="A"), chat_instance="c", data=data)


@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_every_action_packs_as_aiogram_does(preset: str) -> None:
    match = Match.new(preset, seed=5)
    notations: set[str] = set()
    for _ in range(60):
        actions = legal_actions(match)
        if not actions or match.is_over:
            break
        notations.update(a.notation() for a in actions)
        match.play(actions[0], match.turn)
    assert notations
    for notation in notations:
        data = move_data("abc123DEF", 17, notation)
        assert data == MoveCb(m="abc123DEF", v=17, a=notation).pack()
        found = await move_filter(query(data))
        assert isinstance(found, dict)
        assert found["callback_data"] == MoveCb.unpack(data)


@pytest.mark.parametrize(
    "data", ["", "a", "a:m:1", "a:m:x:64", "a:m:-1:64", "b:m:1:64", "a:m:1:64:9", "j:abc", "cfg:lang:ru"]
)
async def test_other_data_is_not_a_move(data: str) -> None:
    assert await move_filter(query(data)) is False
