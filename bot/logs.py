"""The log's two formats (``LOG_FORMAT``): lines for a person to read (``text``, the default), or one JSON
object per line for a log store to search (``json``).

A JSON line has ``time`` (ISO 8601, UTC), ``level``, ``logger`` and ``message`` (the text line's words), a
traceback as ``exc``, and the fields a record carries (``extra={"fields": {...}}``): the update line's
``update``, ``kind``, ``match``, ``action``, ``result``, ``ms``, ``chat`` and ``user``.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Literal

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
LogFormat = Literal["text", "json"]


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exc"] = record.exc_text
        return json.dumps(line, ensure_ascii=False, default=str)


TOKEN = re.compile(r"(\d{3,}):[A-Za-z0-9_-]{20,}")
"""A bot token (``123456789:AAE...``) anywhere in a line: a URL aiogram or aiohttp names in an error has it."""


def masked(text: str) -> str:
    """``text`` with every bot token's secret hidden (its bot id kept: which bot it was)."""
    return TOKEN.sub(r"\1:***", text)


class Masking(logging.Formatter):
    """Formats with ``inner``, then hides any bot token: no log line, text or JSON, traceback or not, carries one."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return masked(self.inner.format(record))


def configure(level: str, form: LogFormat) -> None:
    """Log to stderr at ``level`` in the format ``form``, bot tokens masked."""
    handler = logging.StreamHandler()
    handler.setFormatter(Masking(JsonFormatter() if form == "json" else logging.Formatter(TEXT_FORMAT)))
    logging.basicConfig(level=level, handlers=[handler])
