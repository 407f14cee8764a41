"""The services' typed refusals."""

from __future__ import annotations

from bot.models import Rejection
from engine import Refusal


class ServiceError(Exception):
    """Base of the services' typed errors."""


class Rejected(ServiceError):
    """The request was refused and nothing changed."""

    def __init__(self, reason: Rejection, refusal: Refusal | None = None) -> None:
        super().__init__(reason.value if refusal is None else f"{reason.value}: {refusal.value}")
        self.reason = reason
        self.refusal = refusal
