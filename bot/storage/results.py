"""Results in Redis: each table's stats, leaderboard and rating logs (a chat's, and the global one), the
histories of chats and users, and the steps of a finish that count a match in them.

A finish spans slots: the chat's (``{c:<chat>}``: its table and history, who
plays there), the global table's (``{g}``), and each player's (``{u:<user>}``).
Each step is one script in one slot that is done once however often it runs:
its mark (``Keys.counted``) keeps the answer it gave, and a step run again
answers the same and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from bot.seasons import season_of
from bot.storage.base import Failed, Store, ignore, text, texts
from bot.storage.keys import GLOBAL, Keys, chat_scope, user_scope

# A counted step of a finish is done once in its slot: KEYS[1] its mark (the answer it gave,
# kept ARGV[1] s). A step run again answers the same and changes nothing.
_ONCE = """
local done = redis.call('GET', KEYS[1])
if done then return done end
"""

# One player's rated result in a table, for _ELO and COUNT_TEAMS: their stats hash (``stats``: the rating
# ``rating`` moved by ``d``, their name, played, won or lost, per game, the streak and the best one), the
# table's leaderboard and their rating log in it (newest first, the last ``keep``: 'rating after,change,time,won').
_RESULT = """
local function record_result(stats, board, log, id, name, rating, d, won, game, at, keep)
  redis.call('HSET', stats, 'rating', rating + d, 'name', name)
  redis.call('HINCRBY', stats, 'played', 1)
  redis.call('HINCRBY', stats, 'played:' .. game, 1)
  if won then
    redis.call('HINCRBY', stats, 'won', 1)
    redis.call('HINCRBY', stats, 'won:' .. game, 1)
    local streak = redis.call('HINCRBY', stats, 'streak', 1)
    if streak > tonumber(redis.call('HGET', stats, 'best') or 0) then redis.call('HSET', stats, 'best', streak) end
  else
    redis.call('HINCRBY', stats, 'lost', 1)
    redis.call('HSET', stats, 'streak', 0)
  end
  redis.call('ZADD', board, rating + d, id)
  redis.call('LPUSH', log, (rating + d) .. ',' .. d .. ',' .. at .. ',' .. (won and '1' or '0'))
  redis.call('LTRIM', log, 0, keep - 1)
end
"""

# The Elo update of a table (the scope's two stats hashes and its leaderboard), for COUNT_CHAT and
# COUNT_GLOBAL. ARGV: 2 winner id, 3 loser id, 4 K, 5 start rating, 6 game, 7 winner name, 8 loser name.
# Each player's rating log in the scope gets their row (_RESULT).
_ELO = (
    _RESULT
    + """
local K = tonumber(ARGV[4])
local start = tonumber(ARGV[5])
local game = ARGV[6]
local function count(kw, kl, board, logw, logl, at, keep)
  local rw = tonumber(redis.call('HGET', kw, 'rating') or start)
  local rl = tonumber(redis.call('HGET', kl, 'rating') or start)
  local expected = 1 / (1 + 10 ^ ((rl - rw) / 400))
  local d = math.floor(K * (1 - expected) + 0.5)
  record_result(kw, board, logw, ARGV[2], ARGV[7], rw, d, true, game, at, keep)
  record_result(kl, board, logl, ARGV[3], ARGV[8], rl, -d, false, game, at, keep)
  return {d, rw + d, rl - d}
end
"""
)

# The head-to-head record of two people in a chat (KEYS[11]) and the chat's season (KEYS[12] its table,
# KEYS[13] its counts), for COUNT_CHAT. A season's table is ordered by wins, then by the chat rating gained
# in the season: the score is wins * SCALE + gained (a player gains less than SCALE in any month).
_RIVALRY_AND_SEASON = """
local SCALE = 10000000
local function rivalry(key, w, l, game, sw, sl)
  redis.call('HINCRBY', key, 'played', 1)
  redis.call('HINCRBY', key, 'p:' .. game, 1)
  redis.call('HINCRBY', key, 'g:' .. game .. ':' .. w, 1)
  local won = redis.call('HINCRBY', key, 'w:' .. w, 1)
  local lost = tonumber(redis.call('HGET', key, 'w:' .. l) or 0)
  if redis.call('HGET', key, 'sw') == w then
    redis.call('HINCRBY', key, 'sn', 1)
  else
    redis.call('HSET', key, 'sw', w, 'sn', 1)
  end
  local last = {w .. ':' .. game .. ':' .. sw .. ':' .. sl}
  for entry in string.gmatch(redis.call('HGET', key, 'last') or '', '[^,]+') do
    if #last < 5 then last[#last + 1] = entry end
  end
  redis.call('HSET', key, 'last', table.concat(last, ','))
  return {won, lost}
end
local function season(board, info, w, l, d, ttl)
  local began = redis.call('EXISTS', info) == 0
  redis.call('HINCRBY', info, 'played', 1)
  local ww = redis.call('HINCRBY', info, 'w:' .. w, 1)
  local wl = tonumber(redis.call('HGET', info, 'w:' .. l) or 0)
  redis.call('HINCRBY', info, 'l:' .. l, 1)
  local ew = redis.call('HINCRBY', info, 'e:' .. w, d)
  local el = redis.call('HINCRBY', info, 'e:' .. l, -d)
  redis.call('HSET', info, 'n:' .. w, ARGV[7], 'n:' .. l, ARGV[8], 'lang', ARGV[16])
  redis.call('ZADD', board, ww * SCALE + ew, w)
  redis.call('ZADD', board, wl * SCALE + el, l)
  redis.call('EXPIRE', board, ttl)
  redis.call('EXPIRE', info, ttl)
  return began
end
"""

# A finish in the chat's slot: the players are no longer playing there, and (ARGV[9] '1') the result
# counts in the chat's table, the two people's head-to-head record and the chat's season; a counted or
# abandoned match (ARGV[9] '1' or 'h', or 'v' a match won against or lost to the computer, never rated)
# goes first in the chat's history, its summary completed with the chat's rating change and the series.
# KEYS: 1 the mark, 2-3 active keys of seat 0/1, 4 the chat's active set, 5-6 chat stats of
#       winner/loser, 7 the chat's leaderboard, 8 the chat's history, 9-10 the chat rating logs of
#       winner/loser, 11 the pair's head-to-head record, 12 the season's table, 13 the season's counts.
# ARGV: 1 the mark's TTL, 2-8 as _ELO, 9 count, 10 match id, 11 the summary without its closing
#       brace, 12 the history's length, 13 when the match finished, 14 the rating logs' length,
#       15 the season keys' TTL, 16 the match's language, 17-18 the winner's and the loser's score.
# Returns the mark: 'rating change,winner's rating,loser's rating,season began|summary' (0,0,0,0
# uncounted; season began 1 when this match was the season's first in the chat).
COUNT_CHAT = (
    _ONCE
    + _ELO
    + _RIVALRY_AND_SEASON
    + """
for i = 2, 3 do
  if redis.call('GET', KEYS[i]) == ARGV[10] then redis.call('DEL', KEYS[i]) end
end
redis.call('SREM', KEYS[4], ARGV[10])
local answer = '0,0,0,0|'
if ARGV[9] == '1' then
  local chat = count(KEYS[5], KEYS[6], KEYS[7], KEYS[9], KEYS[10], ARGV[13], tonumber(ARGV[14]))
  local series = rivalry(KEYS[11], ARGV[2], ARGV[3], ARGV[6], ARGV[17], ARGV[18])
  local began = season(KEYS[12], KEYS[13], ARGV[2], ARGV[3], chat[1], tonumber(ARGV[15]))
  local summary = ARGV[11] .. ',"rating_change":' .. chat[1] .. ',"ratings":[' .. chat[2] .. ',' .. chat[3]
    .. '],"series":[' .. series[1] .. ',' .. series[2] .. ']}'
  answer = chat[1] .. ',' .. chat[2] .. ',' .. chat[3] .. ',' .. (began and '1' or '0') .. '|' .. summary
elseif ARGV[9] == 'h' or ARGV[9] == 'v' then
  answer = '0,0,0,0|' .. ARGV[11] .. '}'
end
if ARGV[9] ~= '0' then
  redis.call('LPUSH', KEYS[8], string.sub(answer, string.find(answer, '|', 1, true) + 1))
  redis.call('LTRIM', KEYS[8], 0, tonumber(ARGV[12]) - 1)
end
redis.call('SET', KEYS[1], answer, 'EX', ARGV[1])
return answer
"""
)

# A counted finish in the global table's slot. KEYS: 1 the mark, 2-3 global stats of winner/loser,
# 4 the global leaderboard, 5-6 the global rating logs of winner/loser. ARGV: 1 the mark's TTL, 2-8 as
# _ELO, 9 when the match finished, 10 the rating logs' length. Returns the global rating change.
COUNT_GLOBAL = (
    _ONCE
    + _ELO
    + """
local d = count(KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], ARGV[9], tonumber(ARGV[10]))[1]
redis.call('SET', KEYS[1], d, 'EX', ARGV[1])
return tostring(d)
"""
)

# A match against the computer in the person's global stats: played and (ARGV[3] '1') won at the level.
# KEYS: 1 the mark, 2 the person's global stats. ARGV: 1 the mark's TTL, 2 the level, 3 won.
COUNT_COMPUTER = (
    _ONCE
    + """
redis.call('HINCRBY', KEYS[2], 'cpu:' .. ARGV[2] .. ':played', 1)
if ARGV[3] == '1' then redis.call('HINCRBY', KEYS[2], 'cpu:' .. ARGV[2] .. ':won', 1) end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
return '1'
"""
)

# A finish in a player's slot: the match leaves their active matches and (a summary given) goes first
# in their history. KEYS: 1 the mark, 2 the user's active set, 3 their history.
# ARGV: 1 the mark's TTL, 2 match id, 3 the summary or '', 4 the history's length.
COUNT_USER = (
    _ONCE
    + """
redis.call('SREM', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('LPUSH', KEYS[3], ARGV[3])
  redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[4]) - 1)
end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1])
return '1'
"""
)

# A rated match played in teams (42 for four), in one table's slot (a chat's, or the global one): each player's
# Elo moves against the mean rating of the other team, by their team's result (the table is the game's own,
# ``Keys.team_stats``); in a chat's table each pair of its players counts as partners or as opponents.
# KEYS: 1 the mark, 2 the table's leaderboard, then each player's stats (winners first), then their rating logs in
# the same order, then (ARGV[9] '1') the pair records of players i < j in that order.
# ARGV: 1 the mark's TTL, 2 K, 3 the start rating, 4 the game, 5 how many players (n), 6 how many won, 7 when the
# match finished, 8 the rating logs' length, 9 '1' to count the pairs, 10..9+n the ids, 10+n..9+2n the names.
# Returns the mark: 'change:rating' of each player in order, comma-separated.
COUNT_TEAMS = (
    _ONCE
    + _RESULT
    + """
local K, start, game = tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local n, winners = tonumber(ARGV[5]), tonumber(ARGV[6])
local at, keep = ARGV[7], tonumber(ARGV[8])
local rating, mean = {}, {0, 0}
for i = 1, n do
  rating[i] = tonumber(redis.call('HGET', KEYS[2 + i], 'rating') or start)
  local side = i <= winners and 1 or 2
  mean[side] = mean[side] + rating[i] / (side == 1 and winners or n - winners)
end
local answer = {}
for i = 1, n do
  local won = i <= winners
  local against = won and mean[2] or mean[1]
  local expected = 1 / (1 + 10 ^ ((against - rating[i]) / 400))
  local d = math.floor(K * ((won and 1 or 0) - expected) + 0.5)
  local id, name = ARGV[9 + i], ARGV[9 + n + i]
  record_result(KEYS[2 + i], KEYS[2], KEYS[2 + n + i], id, name, rating[i], d, won, game, at, keep)
  answer[i] = d .. ':' .. (rating[i] + d)
end
if ARGV[9] == '1' then
  local k = 2 + 2 * n
  for i = 1, n do
    for j = i + 1, n do
      k = k + 1
      local wi, wj = i <= winners, j <= winners
      if wi == wj then
        redis.call('HINCRBY', KEYS[k], 'with', 1)
        if wi then redis.call('HINCRBY', KEYS[k], 'with_won', 1) end
      else
        redis.call('HINCRBY', KEYS[k], 'against', 1)
        redis.call('HINCRBY', KEYS[k], 'w:' .. (wi and ARGV[9 + i] or ARGV[9 + j]), 1)
      end
    end
  end
end
local mark = table.concat(answer, ',')
redis.call('SET', KEYS[1], mark, 'EX', ARGV[1])
return mark
"""
)

CHAT_HISTORY = 50
USER_HISTORY = 20
RATING_LOG = 50
"""How many of a player's last rated matches their rating log keeps in each table (the /stats chart)."""
SEASON_KEPT = 400 * 86400
"""Seconds a chat's season table is kept after its last match (its final post comes at the season's end)."""


@dataclass(frozen=True)
class ChatCount:
    """What a finish's step in the chat's slot answered (the same however often it runs)."""

    numbers: tuple[int, int, int]
    """The chat's rating change, the winner's and the loser's rating after it (0, 0, 0: not rated)."""
    summary: str
    """The summary kept in the chat's history (JSON), '' for a match not kept."""
    season_began: str | None
    """The season this match was the chat's first counted match of (its end is then to be scheduled)."""


def scope_of(chat_id: int | None) -> str:
    """The table of a chat, or (None) the global one."""
    return GLOBAL if chat_id is None else chat_scope(chat_id)


class ResultStore(Store):
    """Tables, rating logs and histories, and the counting steps of a finish."""

    def __init__(
        self, redis: Any, keys: Keys, *, elo_k: int = 32, elo_start: int = 1500, failed: Failed = ignore
    ) -> None:
        super().__init__(redis, keys, failed=failed)
        self.elo_k = elo_k
        self.elo_start = elo_start
        self._count_chat = self.script(COUNT_CHAT)
        self._count_global = self.script(COUNT_GLOBAL)
        self._count_user = self.script(COUNT_USER)
        self._count_computer = self.script(COUNT_COMPUTER)
        self._count_teams = self.script(COUNT_TEAMS)

    # -- the steps of a finish ---------------------------------------------------------

    def _elo(self, winner: tuple[int, str], loser: tuple[int, str], game: str) -> list[Any]:
        return [winner[0], loser[0], self.elo_k, self.elo_start, game, winner[1], loser[1]]

    async def count_chat(
        self,
        chat_id: int,
        match_id: str,
        seats: tuple[int, int],
        winner: tuple[int, str],
        loser: tuple[int, str],
        *,
        game: str,
        counts: str,
        summary: str,
        finished: float,
        ttl: int,
        lang: str,
        score: tuple[int, int],
    ) -> ChatCount:
        """The finish's step in the chat's slot: the players (``seats``: their ids) no longer play there; a
        rated result (``counts`` '1') in the chat's table, the two players' head-to-head record (``score``: the
        winner's and the loser's game points) and the chat's season of ``finished`` (its table keeps ``lang``
        for the post at its end); a result worth keeping ('1', 'h' abandoned, 'v' against the computer) first
        in its history, ``summary`` (JSON without its closing brace) completed with the rating change and the
        series."""
        k, scope, season = self.keys, chat_scope(chat_id), season_of(finished)
        keys = [
            k.counted(scope, match_id),
            k.active(chat_id, seats[0]),
            k.active(chat_id, seats[1]),
            k.chat_matches(chat_id),
            k.stats(scope, winner[0]),
            k.stats(scope, loser[0]),
            k.leaderboard(scope),
            k.chat_history(chat_id),
            k.rating_log(scope, winner[0]),
            k.rating_log(scope, loser[0]),
            k.rivalry(chat_id, winner[0], loser[0]),
            k.season(chat_id, season),
            k.season_stats(chat_id, season),
        ]
        elo = self._elo(winner, loser, game)
        args = [ttl, *elo, counts, match_id, summary, CHAT_HISTORY, repr(finished), RATING_LOG, SEASON_KEPT, lang,
                *score]  # fmt: skip
        mark = text(await self.run(self._count_chat, keys, args))
        numbers, _, kept = mark.partition("|")
        change, rating_w, rating_l, *began = (int(x) for x in numbers.split(","))
        return ChatCount((change, rating_w, rating_l), kept, season if began == [1] else None)

    async def count_global(
        self, match_id: str, winner: tuple[int, str], loser: tuple[int, str], *, game: str, finished: float, ttl: int
    ) -> int:
        """The finish's step in the global table's slot (a rated result); the global rating change."""
        k = self.keys
        keys = [
            k.counted(GLOBAL, match_id),
            k.stats(GLOBAL, winner[0]),
            k.stats(GLOBAL, loser[0]),
            k.leaderboard(GLOBAL),
            k.rating_log(GLOBAL, winner[0]),
            k.rating_log(GLOBAL, loser[0]),
        ]
        args = [ttl, *self._elo(winner, loser, game), repr(finished), RATING_LOG]
        return int(text(await self.run(self._count_global, keys, args)))

    async def count_user(self, user_id: int, match_id: str, *, summary: str, ttl: int) -> None:
        """The finish's step in a player's slot: the match leaves their active matches and (``summary``, JSON,
        or '') goes first in their history."""
        k = self.keys
        keys = [k.counted(user_scope(user_id), match_id), k.user_matches(user_id), k.user_history(user_id)]
        await self.run(self._count_user, keys, [ttl, match_id, summary, USER_HISTORY])

    async def count_computer(self, user_id: int, match_id: str, *, level: str, won: bool, ttl: int) -> None:
        """The finish's step of a match against the computer: the person's global record at its level."""
        keys = [self.keys.counted(GLOBAL, match_id), self.keys.stats(GLOBAL, user_id)]
        await self.run(self._count_computer, keys, [ttl, level, "1" if won else "0"])

    async def count_teams(
        self,
        chat_id: int | None,
        match_id: str,
        winners: list[tuple[int, str]],
        losers: list[tuple[int, str]],
        *,
        game: str,
        finished: float,
        ttl: int,
    ) -> list[tuple[int, int]]:
        """A rated match played in teams (people only: ``winners`` and ``losers`` as (id, name)) in a chat's table
        of such matches (None: the global one), once: each player's Elo moves against the mean rating of the
        other team, by their team's result; in a chat, each pair of players counts as partners or as opponents.
        Each player's (rating change, rating after), winners first (the same however often it runs)."""
        k, scope = self.keys, scope_of(chat_id)
        players = [*winners, *losers]
        ids = [uid for uid, _ in players]
        pairs = [] if chat_id is None else [k.pair(chat_id, a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]]
        keys = [
            k.counted(scope, f"{match_id}:teams"),  # not the chat's step's own mark: a finish in teams has both
            k.team_leaderboard(scope),
            *(k.team_stats(scope, uid) for uid in ids),
            *(k.team_rating_log(scope, uid) for uid in ids),
            *pairs,
        ]
        args = [ttl, self.elo_k, self.elo_start, game, len(players), len(winners), repr(finished), RATING_LOG,
                "1" if pairs else "0", *ids, *(name for _, name in players)]  # fmt: skip
        mark = text(await self.run(self._count_teams, keys, args))
        return [(int(change), int(rating)) for change, rating in (item.split(":") for item in mark.split(","))]

    async def team_stats(self, chat_id: int | None, user_id: int) -> dict[str, str]:
        """A player's stats hash in a table of matches played in teams (None: the global one)."""
        return texts(await self.call(self.redis.hgetall(self.keys.team_stats(scope_of(chat_id), user_id))))

    async def pair(self, chat_id: int, a: int, b: int) -> dict[str, str]:
        """Two people's rated matches in teams in a chat, as partners and as opponents (``Keys.pair``)."""
        return texts(await self.call(self.redis.hgetall(self.keys.pair(chat_id, a, b))))

    # -- reading -----------------------------------------------------------------------

    async def stats(self, chat_id: int | None, user_id: int) -> dict[str, str]:
        """A player's stats hash in a chat's table (None: the global one)."""
        return texts(await self.call(self.redis.hgetall(self.keys.stats(scope_of(chat_id), user_id))))

    async def ranked(self, chat_id: int | None, limit: int) -> list[int]:
        """The ids of the best ``limit`` players of a table, best first."""
        rows = await self.call(self.redis.zrevrange(self.keys.leaderboard(scope_of(chat_id)), 0, limit - 1))
        return [int(cast(bytes, uid)) for uid in rows]

    async def rank(self, chat_id: int | None, user_id: int) -> int | None:
        """A player's place in a table (1: the best), None when they have none."""
        rank = await self.call(self.redis.zrevrank(self.keys.leaderboard(scope_of(chat_id)), user_id))
        return None if rank is None else cast(int, rank) + 1

    async def rating_log(self, chat_id: int | None, user_id: int, limit: int) -> list[str]:
        """The player's last ``limit`` rating log rows in a table (``rating,change,finished,won``), newest first."""
        rows = await self.call(self.redis.lrange(self.keys.rating_log(scope_of(chat_id), user_id), 0, limit - 1))
        return [text(row) for row in rows]

    async def picture(self, user_id: int, digest: str) -> str | None:
        """The ``file_id`` of the user's picture that shows ``digest``, if one was sent (``Keys.picture``)."""
        found = await self.call(self.redis.get(self.keys.picture(user_id, digest)))
        return None if found is None else text(found)

    async def keep_picture(self, user_id: int, digest: str, file_id: str, *, ttl: int) -> None:
        """Remember the ``file_id`` Telegram gave the user's picture that shows ``digest``."""
        await self.call(self.redis.set(self.keys.picture(user_id, digest), file_id, ex=ttl))

    async def history(self, *, chat_id: int | None = None, user_id: int | None = None, limit: int) -> list[str]:
        """The last ``limit`` summaries (JSON) of a chat's or a user's finished matches, newest first."""
        key = self.keys.chat_history(chat_id) if chat_id is not None else self.keys.user_history(user_id or 0)
        return [text(row) for row in await self.call(self.redis.lrange(key, 0, limit - 1))]

    async def rivalry(self, chat_id: int, a: int, b: int) -> dict[str, str]:
        """Two people's head-to-head record in a chat (``Keys.rivalry``); empty when they never played there."""
        return texts(await self.call(self.redis.hgetall(self.keys.rivalry(chat_id, a, b))))

    async def season_table(self, chat_id: int, season: str, limit: int) -> list[int]:
        """The ids of the best ``limit`` players of a chat's season, best first."""
        rows = await self.call(self.redis.zrevrange(self.keys.season(chat_id, season), 0, limit - 1))
        return [int(cast(bytes, uid)) for uid in rows]

    async def season_counts(self, chat_id: int, season: str) -> dict[str, str]:
        """A chat's season's counts (``Keys.season_stats``); empty when no match was counted in it."""
        return texts(await self.call(self.redis.hgetall(self.keys.season_stats(chat_id, season))))

    async def season_rank(self, chat_id: int, season: str, user_id: int) -> int | None:
        """A player's place in a chat's season (1: the best), None when they did not play in it."""
        rank = await self.call(self.redis.zrevrank(self.keys.season(chat_id, season), user_id))
        return None if rank is None else cast(int, rank) + 1

    async def claim_season_post(self, chat_id: int, season: str) -> bool:
        """Whether this caller is the one to post the season's final table in the chat (then marked, for good:
        a job run again, or by another process, finds the mark)."""
        key = self.keys.season_posted(chat_id, season)
        return bool(await self.call(self.redis.set(key, "1", nx=True, ex=SEASON_KEPT)))

    async def release_season_post(self, chat_id: int, season: str) -> None:
        """The post failed before Telegram took it: the next run of the job posts it."""
        await self.call(self.redis.delete(self.keys.season_posted(chat_id, season)))

    async def chat_keys(self, old: int, new: int) -> list[tuple[str, str]]:
        """The keys of this kind that move when chat ``old`` becomes ``new``: its table, the stats and rating
        logs of everyone in it, its history."""
        k = self.keys
        old_scope, new_scope = chat_scope(old), chat_scope(new)
        ranked = await self.call(self.redis.zrange(k.leaderboard(old_scope), 0, -1))
        members = [int(text(cast(bytes, m))) for m in ranked]
        return [
            (k.leaderboard(old_scope), k.leaderboard(new_scope)),
            (k.chat_history(old), k.chat_history(new)),
            *((k.stats(old_scope, m), k.stats(new_scope, m)) for m in members),
            *((k.rating_log(old_scope, m), k.rating_log(new_scope, m)) for m in members),
        ]
