"""Brings every message of a match to the match's version: lanes (``lanes``), what a pass of each shows
(``passes``), and what this process wrote and showed meanwhile (``ledger``)."""

from bot.delivery.lanes import Delivery
from bot.delivery.ledger import GROUP, LANES, Lane, Ledger, Screens, Ticket
from bot.delivery.passes import QUIET_AFTER, Passes

__all__ = ["GROUP", "LANES", "QUIET_AFTER", "Delivery", "Lane", "Ledger", "Passes", "Screens", "Ticket"]
