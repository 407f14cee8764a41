"""A group's seasons: one a calendar month in UTC, named ``YYYY-MM``, the month a match finished in.

UTC, so that every process (and every group) agrees on when a season ends,
whatever the server's time zone; a match counts in the season of its finish.
"""

from __future__ import annotations

import datetime


def season_of(when: float) -> str:
    """The season a moment (seconds since the epoch) falls in: ``2026-03``."""
    return datetime.datetime.fromtimestamp(when, datetime.UTC).strftime("%Y-%m")


def year_month(season: str) -> tuple[int, int]:
    """The year and the month (1..12) of a season."""
    year, month = season.split("-")
    return int(year), int(month)


def season_start(season: str) -> float:
    """The first instant of a season (seconds since the epoch)."""
    year, month = year_month(season)
    return datetime.datetime(year, month, 1, tzinfo=datetime.UTC).timestamp()


def season_end(season: str) -> float:
    """The first instant after a season: the first instant of the next month."""
    year, month = year_month(season)
    year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return datetime.datetime(year, month, 1, tzinfo=datetime.UTC).timestamp()


def previous_season(season: str) -> str:
    """The season before."""
    return season_of(season_start(season) - 1)
