"""Settings from the environment (pydantic-settings); ``python -m bot --help`` lists them."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from pydantic import SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.logs import LogFormat

TOKEN = re.compile(r"^[0-9]+:[A-Za-z0-9_-]+$")
API_BASE = re.compile(r"^https?://[^/\s?#]+(/[^\s?#]*)?$")
"""A Bot API server's base URL: a scheme and a host (a port, a path); the bot adds ``/bot<token>/<method>``."""
WEBAPP_URL = re.compile(r"^https://[^/\s?#]+(/[^\s?#]*)?$")
SHORT_NAME = re.compile(r"^[A-Za-z0-9_]{3,30}$")


def _optional(value: str | None, shape: re.Pattern[str], error: str) -> str | None:
    """An optional setting stripped (empty: unset); ``error`` when it is not of ``shape``."""
    value = value.strip() if value is not None else None
    if not value:
        return None
    if not shape.match(value):
        raise ValueError(error)
    return value


class StartupError(Exception):
    """A start-up failure the operator must fix (the message says how, in one line)."""


class Settings(BaseSettings):
    """Everything the bot reads from the environment (or a ``.env`` file)."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", use_attribute_docstrings=True
    )

    bot_token: SecretStr
    """The bot's token from @BotFather (/newbot), like 123456789:AAE...."""
    redis_url: str | None = None
    """A shared Redis (redis://host:port/db, rediss://..., unix:///path), or a Redis Cluster
    (redis+cluster://host:port[,host:port...], rediss+cluster://...); unset: the bot's own Redis in DATA_DIR."""
    redis_cluster: bool = False
    """Treat REDIS_URL (redis:// or rediss://, any node) as a Redis Cluster."""
    data_dir: Path = Path("data")
    """Where the bot's own Redis keeps matches, ratings and settings (append-only file) when REDIS_URL is unset."""
    telegram_api_base: str | None = None
    """A local Bot API server, e.g. http://127.0.0.1:8081; unset: api.telegram.org."""
    redis_prefix: str = "dom"
    """The prefix of every Redis key the bot writes."""
    challenge_ttl: int = 300
    """Seconds an open challenge waits for a second player."""
    finished_ttl: int = 2 * 86400
    """Seconds a finished match stays readable (results and leaderboards never expire)."""
    active_ttl: int = 14 * 86400
    """Seconds without a move after which an active match ends as abandoned (unrated; both players are told)."""
    turn_timeout: int = 600
    """Seconds a player has for a move unless the group chose otherwise in /settings (0: no clock)."""
    claim_after: int = 86400
    """Seconds without a move after which, when the turn clock is off, the waiting player may claim the win."""
    computer_pause: float = 1.5
    """Seconds the computer waits after the last move before making its own."""
    pictures: bool = True
    """Draw the match card and the /stats rating chart (in a worker process); off: results go as text alone."""
    postmortems: bool = True
    """Review each finished match for its people (the hard level's search on every decision, in a worker process,
    a second or two of CPU a match): the 🔎 post-mortem and the accuracy under results; off: neither."""
    worker_timeout: float = 20.0
    """Seconds a picture or a match's post-mortem may take in its worker process before the bot gives up on it:
    the card and the 🔎 message then go without it, and the worker is replaced."""
    clock_file: Path | None = None
    """For tests: read the wall time (seconds since the epoch) from this file instead of the system clock."""
    group_budget: int = 20
    """Sends plus edits allowed per group in GROUP_WINDOW seconds (Telegram: about 20 a minute)."""
    group_window: float = 60.0
    """The window of GROUP_BUDGET, in seconds."""
    private_gap: float = 1.0
    """Seconds between two messages or edits in one private chat."""
    command_limit: int = 5
    """Commands of one member a group answers in COMMAND_WINDOW seconds; the rest get no reply (the first of
    them a short notice), so one member's flood never spends the group's budget that the table needs."""
    command_window: float = 60.0
    """The window of COMMAND_LIMIT, in seconds."""
    log_level: str = "INFO"
    """DEBUG, INFO, WARNING or ERROR."""
    log_format: LogFormat = "text"
    """text (lines for a person) or json (one JSON object per line, with the update's chat and user ids)."""
    webhook_url: str | None = None
    """The public URL Telegram posts updates to (https://bot.example.org/tg); unset: long polling."""
    webhook_secret: SecretStr | None = None
    """The secret Telegram sends with every update; unset: one derived from BOT_TOKEN (the same in each process)."""
    webhook_host: str = "0.0.0.0"
    """The address the webhook server listens on."""
    webhook_port: int = 8080
    """The port the webhook server listens on (GET /healthz there says whether Redis answers; GET /metrics the
    Prometheus metrics)."""
    metrics_port: int | None = None
    """Long polling: serve the Prometheus metrics at GET /metrics on this port; unset: not served (webhook mode
    serves them on WEBHOOK_PORT)."""
    metrics_host: str = "0.0.0.0"
    """The address the metrics server of long polling listens on."""
    webapp_url: str | None = None
    """The Mini App's public https URL as registered with @BotFather (/newapp), like https://bot.example.org/app;
    unset: no Mini App buttons (docs/operations.md)."""
    webapp_short_name: str | None = None
    """The Mini App's short name given to @BotFather (/newapp): the group's table links to
    https://t.me/<bot>/<short name>; unset: the table has no Mini App button (the private panels still do)."""
    webapp_host: str = "127.0.0.1"
    """Long polling: the address the Mini App's server listens on (webhook mode serves it on WEBHOOK_PORT)."""
    webapp_port: int | None = None
    """Long polling: serve the Mini App (GET /app) on this port; unset: not served."""

    @field_validator("webhook_url")
    @classmethod
    def _webhook_shape(cls, value: str | None) -> str | None:
        if value is not None and not re.match(r"^https?://[^/\s]+(/\S*)?$", value.strip()):
            raise ValueError("expected an http(s) URL, like https://bot.example.org/tg")
        return value.strip() if value is not None and value.strip() else None

    @field_validator("telegram_api_base")
    @classmethod
    def _api_base_shape(cls, value: str | None) -> str | None:
        error = "expected an http(s) URL of a Bot API server, like http://127.0.0.1:8081 (no /bot<token> in it)"
        value = _optional(value, API_BASE, error)
        if value is not None and "/bot" in value.split("://", 1)[1]:
            raise ValueError(error)
        return None if value is None else value.rstrip("/")

    @field_validator("webapp_url")
    @classmethod
    def _webapp_shape(cls, value: str | None) -> str | None:
        error = "expected an https URL without a query (Telegram opens Mini Apps over https only)"
        return _optional(value, WEBAPP_URL, error)

    @field_validator("webapp_short_name")
    @classmethod
    def _short_name_shape(cls, value: str | None) -> str | None:
        return _optional(value, SHORT_NAME, "3 to 30 letters, digits or _ (as @BotFather allows)")

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and not re.match(r"^[A-Za-z0-9_-]{1,256}$", value.get_secret_value()):
            raise ValueError("1 to 256 letters, digits, _ or - (what Telegram allows)")
        return value

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not TOKEN.match(value.get_secret_value().strip()):
            raise ValueError("malformed")
        return SecretStr(value.get_secret_value().strip())


def settings_help() -> str:
    """The text of ``python -m bot --help``: every setting, its default and what it does."""
    lines = [
        "usage: python -m bot [--help]",
        "",
        "Runs the domino bot: long polling, or a webhook server when WEBHOOK_URL is set.",
        "Settings come from the environment or a .env file:",
        "",
    ]
    for name, field in Settings.model_fields.items():
        lines.append(f"  {name.upper():<18} {default_text(field)}")
        if field.description:
            words = " ".join(field.description.split())
            lines += textwrap.wrap(words, 110, initial_indent=" " * 21, subsequent_indent=" " * 21)
    return "\n".join(lines)


def default_text(field: Any) -> str:
    """A setting's default as the help and the README write it (``true``/``false`` for a flag)."""
    if field.is_required():
        return "(required)"
    value = field.default
    if value is None:
        return "default: unset"
    if isinstance(value, bool):
        return f"default: {str(value).lower()}"
    return f"default: {value}"
