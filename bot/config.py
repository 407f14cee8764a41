"""Settings from the environment (pydantic-settings)."""

from __future__ import annotations

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot reads from the environment (or a ``.env`` file)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    """From @BotFather; required."""
    redis_url: str | None = None
    """``redis://host:port/db``; unset: an in-process fakeredis (matches lost on restart)."""
    telegram_api_base: str | None = None
    """A local Bot API server, e.g. ``http://127.0.0.1:8081``; unset: api.telegram.org."""
    redis_prefix: str = "dom"
    challenge_ttl: int = 300
    """Seconds an open challenge waits for a second player."""
    finished_ttl: int = 2 * 86400
    active_ttl: int = 14 * 86400
    group_budget: int = 20
    """Sends plus edits allowed per group in ``group_window`` seconds (Telegram: about 20 a minute)."""
    group_window: float = 60.0
    private_gap: float = 1.0
    """Seconds between two messages or edits in one private chat."""
    log_level: str = "INFO"
