"""What an operator watches: every metric the bot exports, in one registry per bot (``/metrics``).

Each bot owns a ``CollectorRegistry`` of its own (not prometheus-client's
global one), so that several bots in one process (tests) never share a
series. Names are ``domino_*`` with their unit (``_seconds``, ``_total``).

Most series count what this process did (updates it handled, calls it made
to Telegram). Those read from Redis (the active matches and challenges, the
screens and jobs due) say the same on every process that shares the Redis:
they carry a ``process`` label (``host:pid``) naming the process that read
them, so a dashboard takes their ``max``, not their sum. docs/operations.md
says what each one means and which alerts to set.
"""

from __future__ import annotations

import os
import socket

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from bot.models import Rejection

HANDLER_RESULTS = (
    "ok other duplicate error flood not-now not_a_person not_on_message not_started old_panel opponent_not_a_person "
    "refused storage_unavailable telegram_busy telegram_refused ahead asked waiting started"
)
DELIVERY_TRIES = 8
"""How many passes in a row a lane may fail before it stops (``bot.delivery.lanes``): about two minutes of backoff."""
UPDATE_RESULTS = frozenset({rejection.value for rejection in Rejection} | set(HANDLER_RESULTS.split()))
"""Every ``result`` an update is counted under; anything else a handler writes counts as ``other`` (the log line
keeps it): a label's values are a fixed set, never what a user sent or what the computer chose."""
REDIS_ERRORS = frozenset(
    [
        "ConnectionError",
        "TimeoutError",
        "ResponseError",
        "BusyLoadingError",
        "ReadOnlyError",
        "NoScriptError",
        "ClusterDownError",
        "TryAgainError",
        "MovedError",
        "AskError",
        "AuthenticationError",
        "StorageUnavailable",
        "OSError",
    ]
)
"""The ``error`` label's values for Redis's failures; any other kind counts as ``other``."""


def label_of(value: str, known: frozenset[str]) -> str:
    """``value`` when it is one of the ``known`` label values, else ``other``."""
    return value if value in known else "other"


CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The content type of ``/metrics`` (Prometheus's text format)."""
HANDLER_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: a press is answered in milliseconds; one waiting on Redis or Telegram takes seconds."""
COMPUTER_BUCKETS = (0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: the easy level answers in a millisecond, the hard one takes up to a second of CPU."""
PICTURE_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0)
"""Seconds: a card takes a few hundred milliseconds in the drawing worker; 20 s is the painter's timeout."""


def process_name() -> str:
    """This process as the ``process`` label says it: ``host:pid`` (a container's host name is its id)."""
    return f"{socket.gethostname()}:{os.getpid()}"


class Metrics:
    """The bot's metrics, in a registry of their own (``page`` is what ``/metrics`` serves)."""

    def __init__(self, process: str | None = None) -> None:
        self.process = process or process_name()
        """The ``process`` label of the series read from Redis."""
        self.registry = CollectorRegistry()
        self._handling(self.registry)
        self._read_from_redis(self.registry)
        self._work(self.registry)

    def _handling(self, r: CollectorRegistry) -> None:
        """Updates and Telegram's calls."""
        self.updates = Counter(
            "domino_updates_total", "Updates handled, by kind (message, callback_query...) and result "
            "(ok, duplicate, a refusal's reason, storage_unavailable, error...).", ["kind", "result"], registry=r,
        )  # fmt: skip
        self.handler_seconds = Histogram(
            "domino_handler_seconds", "Seconds from an update's arrival to its handler's end (what the log line's "
            "ms says).", ["kind"], buckets=HANDLER_BUCKETS, registry=r,
        )  # fmt: skip
        self.telegram_calls = Counter(
            "domino_telegram_calls_total", "Bot API calls made, by method and outcome (ok, 429, 403, 400, 401, 5xx, "
            "network, other); a call retried counts each time.", ["method", "outcome"], registry=r,
        )  # fmt: skip
        self.telegram_retry_after = Counter(
            "domino_telegram_retry_after_seconds_total", "Seconds Telegram asked the bot to wait (retry_after of its "
            "429 answers), by method.", ["method"], registry=r,
        )  # fmt: skip

    def _read_from_redis(self, r: CollectorRegistry) -> None:
        """The gauges read from Redis (``process`` says which process read them)."""
        self.matches_due = Gauge(
            "domino_delivery_matches_due", "Matches whose screens are behind their version (read from Redis).",
            ["process"], registry=r,
        )  # fmt: skip
        self.oldest_due = Gauge(
            "domino_delivery_oldest_due_seconds", "Seconds since the write that the most behind match's screens "
            "still have to show (0: none behind; read from Redis).", ["process"], registry=r,
        )  # fmt: skip
        self.jobs_due = Gauge(
            "domino_scheduler_jobs_due", "Scheduler jobs due now and not yet claimed (read from Redis).",
            ["process"], registry=r,
        )  # fmt: skip
        self.oldest_job = Gauge(
            "domino_scheduler_oldest_due_seconds", "Seconds the longest-waiting due job is past its time (0: none; "
            "read from Redis).", ["process"], registry=r,
        )  # fmt: skip
        self.active_matches = Gauge(
            "domino_active_matches", "Matches under way (each has its clock job; read from Redis, cached a few "
            "seconds).", ["process"], registry=r,
        )  # fmt: skip
        self.open_challenges = Gauge(
            "domino_open_challenges", "Challenges waiting for a second player (read from Redis, cached a few "
            "seconds).", ["process"], registry=r,
        )  # fmt: skip

    def _work(self, r: CollectorRegistry) -> None:
        """What this process does besides updates: deliveries, jobs, the computer, pictures, Redis's errors."""
        self.lanes_running = Gauge(
            "domino_delivery_lanes_running", "Lanes (a match's group messages, or one panel) this process is "
            "delivering now.", registry=r,
        )  # fmt: skip
        self.job_lateness = Gauge(
            "domino_scheduler_last_job_late_seconds", "Seconds after its due time that the last job this process "
            "ran was started.", registry=r,
        )  # fmt: skip
        self.computer_move_seconds = Histogram(
            "domino_computer_move_seconds", "Seconds the computer took to choose a move, by level.", ["level"],
            buckets=COMPUTER_BUCKETS, registry=r,
        )  # fmt: skip
        self.picture_seconds = Histogram(
            "domino_picture_seconds", "Seconds a picture took to draw in the drawing worker, by picture.",
            ["picture"], buckets=PICTURE_BUCKETS, registry=r,
        )  # fmt: skip
        self.picture_failures = Counter(
            "domino_picture_failures_total", "Pictures not drawn (sent as text), by picture and reason (timeout, "
            "died, error).", ["picture", "reason"], registry=r,
        )  # fmt: skip
        self.delivery_given_up = Counter(
            "domino_delivery_given_up_total", "Times a match's lane (group or panel) stopped after failing "
            f"{DELIVERY_TRIES} times in a row, by lane and kind: transient (Telegram or Redis away: the match stays "
            "due and the sweep tries it again) or permanent (no retry mends it: given up at that version).",
            ["lane", "kind"], registry=r,
        )  # fmt: skip
        self.redis_errors = Counter(
            "domino_redis_errors_total", "Redis commands and scripts that failed, by error (ConnectionError, "
            "TimeoutError, ResponseError...).", ["error"], registry=r,
        )  # fmt: skip

    def page(self) -> bytes:
        """Every series in Prometheus's text format."""
        return generate_latest(self.registry)

    def redis_failed(self, error: BaseException) -> None:
        """A Redis command or script failed with ``error``."""
        self.redis_errors.labels(label_of(type(error).__name__, REDIS_ERRORS)).inc()
