"""One router per feature; ``build_router`` puts them in order (the catch-all button handler last)."""

from __future__ import annotations

from aiogram import Router

from bot.routers import chats, game, group, private, settings, stats


def build_router() -> Router:
    root = Router(name="root")
    root.include_routers(chats.build(), group.build(), private.build(), stats.build(), settings.build(), game.build())
    return root
