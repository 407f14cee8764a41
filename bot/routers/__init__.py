"""One router per feature; ``build_router`` puts them in order (the catch-all button handler last)."""

from __future__ import annotations

from aiogram import Router

from bot.routers import game, group, private, settings, stats


def build_router() -> Router:
    root = Router(name="root")
    root.include_routers(group.router, private.router, stats.router, settings.router, game.router)
    return root
