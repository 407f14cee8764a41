"""Where the Mini App's buttons lead: a direct link from the group's table, a ``web_app`` button on a panel."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AppLinks:
    """``WEBAPP_URL`` and ``WEBAPP_SHORT_NAME`` (either unset: that button is not shown) and the bot's username."""

    url: str | None
    short_name: str | None
    bot_username: str

    def direct(self, match_id: str) -> str | None:
        """The group's table's URL button: a direct link (``web_app`` buttons are for private chats only) that
        opens the app on the match in any chat, ``startapp`` telling it which."""
        if self.url is None or self.short_name is None or not self.bot_username:
            return None
        return f"https://t.me/{self.bot_username}/{self.short_name}?startapp=m_{match_id}"

    def panel(self, match_id: str) -> str | None:
        """A private panel's ``web_app`` button: the app's URL with the match."""
        return None if self.url is None else f"{self.url}?m={match_id}"


NO_LINKS = AppLinks(None, None, "")
