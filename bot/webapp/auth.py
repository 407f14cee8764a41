"""Who opened the page: Telegram signs the Mini App's launch data (``initData``) with the bot's token; the page
sends it with every request (``Authorization: tma <initData>``) and the server checks it with aiogram's own
``safe_parse_webapp_init_data``. Nothing the page says of itself is believed: the user comes only from data
Telegram signed, no older than ``MAX_AGE``."""

from __future__ import annotations

from aiogram.types import User
from aiogram.utils.web_app import WebAppInitData, safe_parse_webapp_init_data

MAX_AGE = 6 * 3600.0
"""Seconds a page's launch data is good for (Telegram signs it anew each time it opens the page): a page kept open
longer is asked to be opened again, and a live stream ends at that age (``bot.webapp.server``)."""
SCHEME = "tma "


def init_data_of(authorization: str | None) -> str | None:
    """The launch data of an ``Authorization: tma <initData>`` header (None: none given)."""
    if not authorization or not authorization.startswith(SCHEME):
        return None
    return authorization[len(SCHEME) :].strip() or None


def signed_in(token: str, init_data: str | None, now: float, *, max_age: float = MAX_AGE) -> WebAppInitData | None:
    """The launch data when Telegram signed it for this bot, no longer than ``max_age`` ago, for a user; None
    otherwise (missing, tampered, signed with another token, too old, or a future date beyond a minute's skew)."""
    if init_data is None:
        return None
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except (ValueError, KeyError, TypeError):
        return None
    signed = data.auth_date.timestamp()
    if data.user is None or not (now - max_age <= signed <= now + 60):
        return None
    return data


def user_of(data: WebAppInitData) -> User:
    """The signed user as aiogram's ``User`` (the name the bot keeps of them, their language)."""
    user = data.user
    assert user is not None
    return User(
        id=user.id, is_bot=False, first_name=user.first_name or str(user.id), last_name=user.last_name,
        username=user.username, language_code=user.language_code,
    )  # fmt: skip
