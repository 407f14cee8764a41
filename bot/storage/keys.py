"""Every Redis key the bot uses, in one place.

A match's own keys carry the hash tag ``{m:<id>}`` so that a Redis Cluster
keeps them in one slot. All keys start with a prefix (tests take their own).
"""

from __future__ import annotations


class Keys:
    def __init__(self, prefix: str = "dom") -> None:
        self.prefix = prefix

    def match(self, match_id: str) -> str:
        """Hash: ``v`` version, ``d`` the match record (JSON), ``s`` the summary of a counted finish;
        what the messages show: ``t``/``tn``/``tv`` the table's id, deal and version, ``p0``/``p0v``/``p0n``
        (and ``p1``...) each panel's id, version shown and version it was sent at."""
        return f"{self.prefix}:{{m:{match_id}}}"

    def posts(self, match_id: str) -> str:
        """List: the match's results still to post in the group (JSON), oldest first."""
        return f"{self.prefix}:{{m:{match_id}}}:posts"

    def lane(self, match_id: str, lane: str) -> str:
        """String with a TTL: the token of the process delivering this lane of the match (``group``, ``0``, ``1``)."""
        return f"{self.prefix}:{{m:{match_id}}}:lane:{lane}"

    def lane_again(self, match_id: str, lane: str) -> str:
        """String with a TTL: another process asked the lane's owner to run it once more."""
        return f"{self.prefix}:{{m:{match_id}}}:lane:{lane}:again"

    def process(self, token: str) -> str:
        """String with a short TTL: a bot process is alive (its heartbeat), by its token."""
        return f"{self.prefix}:proc:{token}"

    def screens_due(self) -> str:
        """Sorted set: ids of the matches whose messages are behind their version, by when they fell behind."""
        return f"{self.prefix}:due"

    def jobs(self) -> str:
        """Sorted set: the scheduler's jobs (``x:<challenge>``, ``t:<match>``) by when they are due."""
        return f"{self.prefix}:jobs"

    def clock_marks(self, match_id: str) -> str:
        """Hash: the match version at which the turn clock last reminded (``r``) or offered the win (``o``)."""
        return f"{self.prefix}:{{m:{match_id}}}:clock"

    def gone(self, chat_id: int) -> str:
        """String: the group removed the bot (its matches go on in private)."""
        return f"{self.prefix}:gone:{chat_id}"

    def active(self, chat_id: int, user_id: int) -> str:
        """String: the id of the user's active match in the chat (one at most)."""
        return f"{self.prefix}:act:{chat_id}:{user_id}"

    def chat_matches(self, chat_id: int) -> str:
        """Set: ids of the active matches of a chat."""
        return f"{self.prefix}:actc:{chat_id}"

    def chat_matches_pattern(self) -> str:
        """The pattern of every chat's set of active matches (``SCAN MATCH``)."""
        return f"{self.prefix}:actc:*"

    def user_matches(self, user_id: int) -> str:
        """Set: ids of the active matches of a user."""
        return f"{self.prefix}:actu:{user_id}"

    def challenge(self, challenge_id: str) -> str:
        """String (JSON) with a TTL: an open challenge."""
        return f"{self.prefix}:ch:{challenge_id}"

    def chat_challenge(self, chat_id: int, user_id: int) -> str:
        """String with a TTL: the id of the user's open challenge in the chat."""
        return f"{self.prefix}:chu:{chat_id}:{user_id}"

    def challenge_notices(self) -> str:
        """Hash, no TTL: challenge id -> JSON of the open challenges whose message must say when they expire."""
        return f"{self.prefix}:chn"

    def chat_settings(self, chat_id: int) -> str:
        return f"{self.prefix}:chat:{chat_id}"

    def profile(self, user_id: int) -> str:
        return f"{self.prefix}:user:{user_id}"

    def stats(self, scope: str, user_id: int) -> str:
        """Hash: played, won, lost, rating, streak, best, played:<game>, won:<game>."""
        return f"{self.prefix}:st:{scope}:{user_id}"

    def leaderboard(self, scope: str) -> str:
        """Sorted set: user id by rating."""
        return f"{self.prefix}:lb:{scope}"

    def chat_history(self, chat_id: int) -> str:
        """List (newest first): summaries of the chat's finished matches."""
        return f"{self.prefix}:hist:c:{chat_id}"

    def user_history(self, user_id: int) -> str:
        """List (newest first): summaries of the user's finished matches."""
        return f"{self.prefix}:hist:u:{user_id}"

    def limits(self, chat_id: int) -> str:
        """Sorted set: the calls made to a chat in its Telegram window, by time (ms), for every process."""
        return f"{self.prefix}:lim:{{c:{chat_id}}}"

    def limits_edit(self, chat_id: int) -> str:
        """String: when (ms) the last edit in a group went (edits are paced)."""
        return f"{self.prefix}:lim:{{c:{chat_id}}}:e"

    def update(self, update_id: int) -> str:
        """String with a TTL: an update id already handled."""
        return f"{self.prefix}:upd:{update_id}"


GLOBAL = "all"


def chat_scope(chat_id: int) -> str:
    return f"c{chat_id}"
