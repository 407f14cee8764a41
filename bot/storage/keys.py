"""Every Redis key the bot uses, in one place.

Every key that a script touches together with others carries a hash tag, so
that a Redis Cluster keeps them in one slot: ``{m:<id>}`` a match's own keys,
``{c:<chat>}`` a chat's (its challenges, who plays there, its table and
history), ``{u:<user>}`` a user's matches and history, ``{g}`` the global
table. A script touches one slot only; what spans slots (a finish counts in
the chat, in the global table and in two users' histories) is a chain of
idempotent steps (``bot/services/finish.py``). All keys start with a prefix
(tests take their own). ``bot/storage/layout.py`` renames the keys of the
layout before the tags.
"""

from __future__ import annotations


class Keys:
    def __init__(self, prefix: str = "dom") -> None:
        self.prefix = prefix

    def match(self, match_id: str) -> str:
        """Hash: ``v`` version, ``d`` the match record (JSON), ``s`` the summary of a counted finish;
        what the messages show: ``t``/``tn``/``tv`` the table's id, deal and version, ``p0``/``p0v``/``p0n``
        (and ``p1``...) each panel's id, version shown and version it was sent at, ``p0x`` (``p1x``) a panel
        it replaced that may still have its buttons; ``c0``/``c1`` the match card went to that seat in private
        (or it needs none)."""
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

    def commands(self, chat_id: int, user_id: int) -> str:
        """Sorted set: a member's commands answered in a group in the last window, by time (ms)."""
        return f"{self.prefix}:cmd:{{c:{chat_id}}}:{user_id}"

    def commands_noticed(self, chat_id: int, user_id: int) -> str:
        """String with a TTL: the member was told their commands go unanswered until the window has room."""
        return f"{self.prefix}:cmd:{{c:{chat_id}}}:{user_id}:told"

    def greeted(self, chat_id: int) -> str:
        """String with a TTL: the bot greeted the group when it was added (not again within the TTL)."""
        return f"{self.prefix}:greeted:{chat_id}"

    def gone(self, chat_id: int) -> str:
        """String: the group removed the bot (its matches go on in private)."""
        return f"{self.prefix}:gone:{chat_id}"

    def migrated(self, chat_id: int) -> str:
        """String with a TTL: the id of the supergroup the group became (what of it is still under the old id
        follows it there)."""
        return f"{self.prefix}:mig:{chat_id}"

    def active(self, chat_id: int, user_id: int) -> str:
        """String: the id of the user's active match in the chat (one at most)."""
        return f"{self.prefix}:act:{_chat(chat_id)}:{user_id}"

    def chat_matches(self, chat_id: int) -> str:
        """Set: ids of the active matches of a chat."""
        return f"{self.prefix}:actc:{_chat(chat_id)}"

    def chat_matches_pattern(self) -> str:
        """The pattern of every chat's set of active matches (``SCAN MATCH``)."""
        return f"{self.prefix}:actc:*"

    def user_matches(self, user_id: int) -> str:
        """Set: ids of the active matches of a user."""
        return f"{self.prefix}:actu:{_user(user_id)}"

    def challenge(self, challenge_id: str) -> str:
        """String (JSON) with a TTL: an open challenge, in its chat's slot (the id ends with ``_<chat>``; an id
        of the layout before has no chat, and its key no tag)."""
        chat = challenge_chat(challenge_id)
        return f"{self.prefix}:ch:{challenge_id}" if chat is None else f"{self.prefix}:ch:{_chat(chat)}:{challenge_id}"

    def rematch(self, chat_id: int, match_id: str) -> str:
        """String with a TTL: the challenge that is the rematch of a finished match of the chat (the first
        player's press opened it; the other's accepts it)."""
        return f"{self.prefix}:rm:{_chat(chat_id)}:{match_id}"

    def accepted(self, chat_id: int, challenge_id: str) -> str:
        """String with a TTL: the record (JSON) of the match a challenge became, written with the accept (the
        match's own key is written right after; a process dying in between leaves this to finish it)."""
        return f"{self.prefix}:acc:{_chat(chat_id)}:{challenge_id}"

    def counted(self, scope: str, match_id: str) -> str:
        """String with a TTL: a step of a match's finish done in a slot (``scope``: a chat scope, ``all`` or
        ``u<user>``) and what it answered, so that a step run again changes nothing and answers the same."""
        tag = _user(int(scope[1:])) if scope.startswith("u") else _scope(scope)
        return f"{self.prefix}:fin:{tag}:{match_id}"

    def layout(self) -> str:
        """String: the key layout the data is in (``bot/storage/layout.py``)."""
        return f"{self.prefix}:layout"

    def chat_challenge(self, chat_id: int, user_id: int) -> str:
        """String with a TTL: the id of the user's open challenge in the chat."""
        return f"{self.prefix}:chu:{_chat(chat_id)}:{user_id}"

    def rematch_slot(self, chat_id: int, challenge_id: str) -> str:
        """String with a TTL: what ``chat_challenge`` is for a rematch's challenge, which is no one's open
        challenge: ``/play`` beside it opens another, and nothing but the rematch button takes it."""
        return f"{self.prefix}:chr:{_chat(chat_id)}:{challenge_id}"

    def inline_offers(self, user_id: int) -> str:
        """Hash with a TTL: a person's inline challenges offered and not yet posted, game (preset) -> challenge id
        (the next ``@bot`` query offers the same one again instead of opening another)."""
        return f"{self.prefix}:inl:{_user(user_id)}"

    def inline_open(self, user_id: int) -> str:
        """Sorted set with a TTL: the ids of a person's inline challenges, by when each expires (their cap)."""
        return f"{self.prefix}:inlo:{_user(user_id)}"

    def challenge_notices(self) -> str:
        """Hash, no TTL: challenge id -> JSON of the open challenges whose message must say when they expire."""
        return f"{self.prefix}:chn"

    def chat_settings(self, chat_id: int) -> str:
        return f"{self.prefix}:chat:{chat_id}"

    def profile(self, user_id: int) -> str:
        """Hash: a user's ``name``, ``lang``, ``started``, ``blocked`` and ``seed`` (``/seed``)."""
        return f"{self.prefix}:user:{user_id}"

    def stats(self, scope: str, user_id: int) -> str:
        """Hash: played, won, lost, rating, streak, best, played:<game>, won:<game>."""
        return f"{self.prefix}:st:{_scope(scope)}:{user_id}"

    def rating_log(self, scope: str, user_id: int) -> str:
        """List (newest first): the user's rating in the table after each of their last rated matches, as
        ``rating,change,finished,won`` (won: 1 or 0; the rating chart of /stats)."""
        return f"{self.prefix}:rl:{_scope(scope)}:{user_id}"

    def leaderboard(self, scope: str) -> str:
        """Sorted set: user id by rating."""
        return f"{self.prefix}:lb:{_scope(scope)}"

    def team_stats(self, scope: str, user_id: int) -> str:
        """Hash: a player's record in a table of matches played in teams (42 for four), a table of its own:
        played, won, lost, rating, streak, best, played:<game>, won:<game>."""
        return f"{self.prefix}:st4:{_scope(scope)}:{user_id}"

    def team_rating_log(self, scope: str, user_id: int) -> str:
        """List (newest first): as ``rating_log``, in the table of matches played in teams."""
        return f"{self.prefix}:rl4:{_scope(scope)}:{user_id}"

    def team_leaderboard(self, scope: str) -> str:
        """Sorted set: user id by rating, in the table of matches played in teams."""
        return f"{self.prefix}:lb4:{_scope(scope)}"

    def pair(self, chat_id: int, a: int, b: int) -> str:
        """Hash: two people's rated matches in teams in a chat (the key names the lower id first): ``with`` as
        partners, ``with_won`` of those won, ``against`` as opponents, ``w:<id>`` each one's wins then."""
        low, high = sorted((a, b))
        return f"{self.prefix}:pr4:{_chat(chat_id)}:{low}:{high}"

    def chat_history(self, chat_id: int) -> str:
        """List (newest first): summaries of the chat's finished matches."""
        return f"{self.prefix}:hist:{_chat(chat_id)}"

    def user_history(self, user_id: int) -> str:
        """List (newest first): summaries of the user's finished matches."""
        return f"{self.prefix}:hist:{_user(user_id)}"

    def picture(self, user_id: int, digest: str) -> str:
        """String with a TTL: Telegram's ``file_id`` of a picture already sent for the user (their rating chart),
        by the digest of what it shows: the same chart again is sent by it, not drawn and uploaded anew."""
        return f"{self.prefix}:pic:{_user(user_id)}:{digest}"

    def rivalry(self, chat_id: int, a: int, b: int) -> str:
        """Hash: two people's head-to-head record in a chat (the key names the lower id first): ``played``,
        ``w:<id>`` each one's wins, ``sw``/``sn`` the current streak's holder and length, ``p:<game>`` and
        ``g:<game>:<id>`` per game, ``last`` the last five results, newest first (``winner:game:sw:sl``,
        comma-separated)."""
        low, high = sorted((a, b))
        return f"{self.prefix}:rv:{_chat(chat_id)}:{low}:{high}"

    def season(self, chat_id: int, season: str) -> str:
        """Sorted set: a chat's season table (``YYYY-MM``), user id by wins then the rating gained in it."""
        return f"{self.prefix}:sn:{_chat(chat_id)}:{season}"

    def season_stats(self, chat_id: int, season: str) -> str:
        """Hash: a chat's season: ``w:<id>``/``l:<id>`` wins and losses, ``e:<id>`` the chat rating gained,
        ``n:<id>`` names, ``played`` matches, ``lang`` the language of its last match."""
        return f"{self.prefix}:sns:{_chat(chat_id)}:{season}"

    def season_posted(self, chat_id: int, season: str) -> str:
        """String with a TTL: the season's final table was posted in the chat (or is being posted)."""
        return f"{self.prefix}:snp:{_chat(chat_id)}:{season}"

    def tournament(self, tournament_id: str) -> str:
        """String (JSON): a tournament, in its chat's slot (its id ends with ``_<chat>`` as a challenge's does);
        no TTL while it signs up or runs, a TTL once it ended."""
        chat = challenge_chat(tournament_id)
        return f"{self.prefix}:tn:{_chat(chat or 0)}:{tournament_id}"

    def chat_tournament(self, chat_id: int) -> str:
        """String: the id of the chat's tournament that signs up or runs (one at a time)."""
        return f"{self.prefix}:tnc:{_chat(chat_id)}"

    def tournament_wins(self, chat_id: int) -> str:
        """Hash: user id -> tournaments of the chat they won."""
        return f"{self.prefix}:tnw:{_chat(chat_id)}"

    def tournament_mark(self, tournament_id: str, what: str) -> str:
        """String with a TTL: a one-time step of a tournament was taken (``announced``), or the tries of a step
        (``tries:<step>``)."""
        chat = challenge_chat(tournament_id)
        return f"{self.prefix}:tnm:{_chat(chat or 0)}:{tournament_id}:{what}"

    def usernames(self) -> str:
        """Hash: a lowercase @username -> the id of the user the bot last saw with it."""
        return f"{self.prefix}:unames"

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


def user_scope(user_id: int) -> str:
    return f"u{user_id}"


CHALLENGE_TOKEN = 8
"""The length of a challenge id's random part (``secrets.token_urlsafe(6)``)."""


def challenge_id(token: str, chat_id: int) -> str:
    """A challenge's id: its random part, ``_``, its chat (the characters a deep link allows)."""
    return f"{token}_{chat_id}"


def moved_id(object_id: str, chat_id: int) -> str:
    """The id of a challenge or a tournament moved to chat ``chat_id`` (a group that became a supergroup): the
    same random part, the new chat."""
    return challenge_id(object_id[:CHALLENGE_TOKEN], chat_id)


def challenge_chat(challenge_id: str) -> int | None:
    """The chat a challenge id names, or None for an id of the layout before (its random part alone)."""
    if len(challenge_id) <= CHALLENGE_TOKEN + 1 or challenge_id[CHALLENGE_TOKEN] != "_":
        return None
    try:
        return int(challenge_id[CHALLENGE_TOKEN + 1 :])
    except ValueError:
        return None


def _chat(chat_id: int) -> str:
    return f"{{c:{chat_id}}}"


def _user(user_id: int) -> str:
    return f"{{u:{user_id}}}"


def _scope(scope: str) -> str:
    """The hash tag of a table's scope: the global one, or a chat's."""
    return "{g}" if scope == GLOBAL else _chat(int(scope[1:]))
