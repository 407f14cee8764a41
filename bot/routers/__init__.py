"""One router per feature; ``build_router`` puts them in order: the game first (its buttons are pressed most),
the catch-all button handler last."""

from __future__ import annotations

from aiogram import Router

from bot.routers import chats, game, group, hints, inline, private, rematch, replay, settings, stats, tournament


def build_router() -> Router:
    root = Router(name="root")
    features = (
        chats.build(),
        group.build(),
        private.build(),
        stats.build(),
        settings.build(),
        rematch.build(),
        replay.build(),
        hints.build(),
        tournament.build(),
        inline.build(),
    )
    root.include_routers(game.build(), *features, game.build_fallback())
    return root
