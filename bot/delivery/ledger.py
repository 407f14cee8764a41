"""What this process wrote and showed of the matches it delivers, between Redis's records of it.

- Writes of each lane's messages, counted, so that a snapshot a move's script
  read is used only while nothing can have changed the lane's messages since
  (``ticket``).
- Edits made but not recorded in Redis yet (an edit is recorded lazily, with
  the match's settle: done again after a restart, it changes nothing), and
  replaced panels tidied.
- The newest version of each match this process showed, to notice Redis going
  back to an earlier moment (it lost writes).
- The matches whose forum topic this process found closed or gone (recorded in
  Redis too, ``Messages.general``), so that the rest of a pass goes straight to
  the General topic.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable

from bot.models import MatchRecord, Messages
from engine import Match

GROUP = "group"
Lane = str | int
"""``GROUP`` or a seat."""
LANES: tuple[Lane, ...] = (GROUP, 0, 1)
Screens = tuple[MatchRecord, Match, Messages]
"""A match as stored and what its messages show."""
Ticket = dict[Lane, int]
"""For each lane of a match with no write of its messages under way before a write of the match, how many
it had made (``Ledger.ticket``)."""
SHOWN_MATCHES = 4096
"""How many recent matches the ledger remembers the shown version of (to notice Redis losing writes)."""


class Ledger:
    def __init__(self) -> None:
        self._writes: OrderedDict[tuple[str, Lane], int] = OrderedDict()
        """How many writes of its messages each lane of the recent matches began (``ticket``)."""
        self._writing: dict[tuple[str, Lane], int] = {}
        """The lanes' writes under way."""
        self.edited: dict[str, dict[str, int]] = {}
        """The versions edits brought each match's table and panels to (``tv``, ``p0v``, ``p1v``) that Redis
        does not hold yet, and meanwhile what the lanes take as shown; ``p0x``, ``p1x``: a replaced panel this
        process tidied."""
        self.shown: OrderedDict[str, int] = OrderedDict()
        """The newest version of each match (the most recent ``SHOWN_MATCHES``) this process showed."""
        self.shown_at: dict[str, float] = {}
        """When each of those was last shown."""
        self.general: set[str] = set()
        """Matches whose topic this process found closed or gone: their group messages go to General."""

    # -- writes of the lanes' messages -------------------------------------------------

    def ticket(self, match_id: str) -> Ticket:
        """Taken before a write of the match whose script reads what its messages show (a snapshot, see
        ``Delivery.kick``): each lane with no write of its messages under way, and how many it began."""
        return {
            lane: self._writes.get((match_id, lane), 0) for lane in LANES if not self._writing.get((match_id, lane))
        }

    def wrote(self, match_id: str, lane: Lane) -> None:
        """Count one more write of the lane's messages (begun now, or made elsewhere: a kick without snapshot)."""
        key = (match_id, lane)
        self._writes[key] = self._writes.get(key, 0) + 1
        self._writes.move_to_end(key)
        while len(self._writes) > 3 * SHOWN_MATCHES:
            self._writes.popitem(last=False)

    async def record(self, match_id: str, lane: Lane, write: Awaitable[None]) -> None:
        """Make a write of what the lane's messages show (counted: a snapshot older than it is not used)."""
        key = (match_id, lane)
        self.wrote(match_id, lane)
        self._writing[key] = self._writing.get(key, 0) + 1
        try:
            await write
        finally:
            if self._writing[key] == 1:
                del self._writing[key]
            else:
                self._writing[key] -= 1

    def current(self, match_id: str, lane: Lane, written: int) -> bool:
        """Whether a snapshot taken when the lane had begun ``written`` writes still holds: none began since,
        and none is under way."""
        return not self._writing.get((match_id, lane)) and self._writes.get((match_id, lane), 0) == written

    # -- edits not recorded yet --------------------------------------------------------

    def edit_done(self, match_id: str, field: str, version: int) -> None:
        """An edit brought a message of the match to ``version`` (recorded with the settle)."""
        edited = self.edited.setdefault(match_id, {})
        edited[field] = max(version, edited.get(field, -1))

    def tidied(self, match_id: str, seat: int, message_id: int) -> None:
        """A replaced panel was deleted or stripped of its buttons (recorded with the settle)."""
        self.edited.setdefault(match_id, {})[f"p{seat}x"] = message_id

    def with_edits(self, match_id: str, messages: Messages) -> Messages:
        """What the match's messages show: as Redis says, and the edits not recorded there yet."""
        edited = self.edited.get(match_id)
        if not edited:
            return messages
        tv, p0v, p1v = (edited.get(f, -1) for f in ("tv", "p0v", "p1v"))
        replaced = tuple(
            None if message == edited.get(f"p{seat}x") else message
            for seat, message in enumerate(messages.panels_replaced)
        )
        return messages.model_copy(
            update={
                "table_version": max(messages.table_version, tv),
                "panel_versions": (max(messages.panel_versions[0], p0v), max(messages.panel_versions[1], p1v)),
                "panels_replaced": replaced,
            }
        )

    def recorded(self, match_id: str, edits: dict[str, int]) -> None:
        """The settle recorded ``edits`` (a copy taken before it): those made since stay."""
        left = self.edited.get(match_id)
        if left is None:
            return
        for name, version in edits.items():
            if left.get(name) == version:
                del left[name]
        if not left:
            del self.edited[match_id]

    # -- what was shown --------------------------------------------------------------

    def showing(self, match_id: str, version: int, now: float) -> None:
        """The match is shown at ``version`` (or a newer one shown before) now."""
        if version > self.shown.get(match_id, -1):
            self.shown[match_id] = version
        self.shown.move_to_end(match_id)
        self.shown_at[match_id] = now
        while len(self.shown) > SHOWN_MATCHES:
            gone, _ = self.shown.popitem(last=False)
            self.shown_at.pop(gone, None)

    def forget(self, match_id: str) -> None:
        """The match expired: nothing of it is left to show."""
        self.shown.pop(match_id, None)
        self.shown_at.pop(match_id, None)
        self.edited.pop(match_id, None)
        self.general.discard(match_id)
