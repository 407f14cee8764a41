"""Lua scripts: every write that must be atomic happens in one of these."""

from __future__ import annotations

# Compare-and-set on the match version and the token of the write that made it
# (fields 'v' and 'w'; the same version made again after Redis lost writes has
# another token). KEYS[1] the match hash.
# ARGV: expected 'version/token', new 'version/token', new record, TTL seconds.
# Returns {1} when written, {0, version, record} when the match is not the one
# expected, {-1} when the match is gone.
_CAS = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {-1} end
if v .. '/' .. (redis.call('HGET', KEYS[1], 'w') or '') ~= ARGV[1] then
  return {0, v, redis.call('HGET', KEYS[1], 'd')}
end
local nv, nw = string.match(ARGV[2], '^([^/]*)/(.*)$')
redis.call('HSET', KEYS[1], 'v', nv, 'w', nw, 'd', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
"""


# What every write of a match also does: append the results it made to the
# match's posts (KEYS[posts]) and mark the match as having screens to bring
# up to date (KEYS[dirty], a sorted set by time). ARGV[match_id], ARGV[now],
# ARGV[count] the number of posts, the posts right after it.
def _screens(*, posts: int, dirty: int, match_id: int, now: int, count: int) -> str:
    return f"""
for i = 1, tonumber(ARGV[{count}]) do redis.call('RPUSH', KEYS[{posts}], ARGV[{count} + i]) end
if redis.call('EXISTS', KEYS[{posts}]) == 1 then redis.call('EXPIRE', KEYS[{posts}], ARGV[4]) end
redis.call('ZADD', KEYS[{dirty}], ARGV[{now}], ARGV[{match_id}])
"""


# KEYS: 1 match, 2-3 the players' active-match keys (they live as long as the
# match), 4 posts, 5 the matches with screens to update.
# ARGV: 1-4 as CAS, 5 match id, 6 now, 7 number of posts, 8... posts.
MOVE = (
    _CAS
    + _screens(posts=4, dirty=5, match_id=5, now=6, count=7)
    + """
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[3], ARGV[4])
return {1}
"""
)

# The move that ends a match (by reaching the target, surrender, forfeit or abandon):
# CAS, drop the active indexes and the match's clock job, and, when ARGV[5] == '1',
# count the result once in the chat's and the global tables; when ARGV[5] == 'h'
# (abandoned), post it and keep it in the histories without counting it.
# KEYS: 1 match, 2-3 active keys of seat 0/1, 4 chat's active set,
#       5-6 the players' active sets, 7-8 chat stats of winner/loser,
#       9 chat leaderboard, 10-11 global stats of winner/loser,
#       12 global leaderboard, 13 chat history, 14-15 histories of winner/loser,
#       16 posts, 17 the matches with screens to update, 18 the scheduler's jobs.
# ARGV: 1-4 as CAS, 5 count ('1', 'h' or '0'), 6 match id, 7 winner id, 8 loser id,
#       9 K, 10 start rating, 11 game, 12 winner name, 13 loser name,
#       14 summary JSON without its closing brace, 15 chat history length,
#       16 user history length, 17 now, 18 number of posts, 19... posts.
# A counted match also stores its summary (field 's') and posts its result.
# Returns {1, chat rating change, global rating change, winner's and loser's new chat
# ratings} or CAS's answers.
FINISH = (
    _CAS
    + _screens(posts=16, dirty=17, match_id=6, now=17, count=18)
    + """
for i = 2, 3 do
  if redis.call('GET', KEYS[i]) == ARGV[6] then redis.call('DEL', KEYS[i]) end
end
redis.call('SREM', KEYS[4], ARGV[6])
redis.call('SREM', KEYS[5], ARGV[6])
redis.call('SREM', KEYS[6], ARGV[6])
redis.call('ZREM', KEYS[18], 't:' .. ARGV[6])

-- The match's summary: kept with it (field 's'), posted to the group, and first in the histories.
local function keep(summary)
  redis.call('HSET', KEYS[1], 's', summary)
  redis.call('RPUSH', KEYS[16], '{"k":"match"}')
  redis.call('EXPIRE', KEYS[16], ARGV[4])
  redis.call('LPUSH', KEYS[13], summary)
  redis.call('LTRIM', KEYS[13], 0, tonumber(ARGV[15]) - 1)
  for i = 14, 15 do
    redis.call('LPUSH', KEYS[i], summary)
    redis.call('LTRIM', KEYS[i], 0, tonumber(ARGV[16]) - 1)
  end
end

if ARGV[5] == 'h' then
  keep(ARGV[14] .. '}')
  return {1, 0, 0, 0, 0}
end
if ARGV[5] ~= '1' then return {1, 0, 0} end

local K = tonumber(ARGV[9])
local start = tonumber(ARGV[10])
local game = ARGV[11]

local function count(kw, kl, board)
  local rw = tonumber(redis.call('HGET', kw, 'rating') or start)
  local rl = tonumber(redis.call('HGET', kl, 'rating') or start)
  local expected = 1 / (1 + 10 ^ ((rl - rw) / 400))
  local d = math.floor(K * (1 - expected) + 0.5)
  redis.call('HSET', kw, 'rating', rw + d, 'name', ARGV[12])
  redis.call('HSET', kl, 'rating', rl - d, 'name', ARGV[13])
  redis.call('HINCRBY', kw, 'played', 1)
  redis.call('HINCRBY', kl, 'played', 1)
  redis.call('HINCRBY', kw, 'won', 1)
  redis.call('HINCRBY', kl, 'lost', 1)
  redis.call('HINCRBY', kw, 'played:' .. game, 1)
  redis.call('HINCRBY', kl, 'played:' .. game, 1)
  redis.call('HINCRBY', kw, 'won:' .. game, 1)
  local streak = redis.call('HINCRBY', kw, 'streak', 1)
  if streak > tonumber(redis.call('HGET', kw, 'best') or 0) then
    redis.call('HSET', kw, 'best', streak)
  end
  redis.call('HSET', kl, 'streak', 0)
  redis.call('ZADD', board, rw + d, ARGV[7])
  redis.call('ZADD', board, rl - d, ARGV[8])
  return {d, rw + d, rl - d}
end

local chat = count(KEYS[7], KEYS[8], KEYS[9])
local dg = count(KEYS[10], KEYS[11], KEYS[12])[1]
local dc = chat[1]
keep(ARGV[14] .. ',"rating_change":' .. dc .. ',"ratings":[' .. chat[2] .. ',' .. chat[3] .. ']}')
return {1, dc, dg, chat[2], chat[3]}
"""
)

# Accept a challenge: consume it and create the match with its indexes, or
# refuse if either player is already in a match in this chat.
# KEYS: 1 challenge, 2 creator's open-challenge key, 3 match, 4-5 active keys
#       of creator/joiner, 6 chat's active set, 7-8 their active sets,
#       9 the challenges awaiting an expiry notice, 10 the matches with screens to update,
#       11 the scheduler's jobs (the challenge's expiry leaves, the match's clock ``t:<id>`` comes).
# ARGV: 1 the challenge JSON as read, 2 match id, 3 record, 4 TTL, 5 challenge id, 6 now,
#       7 when the match's clock is first due.
# Returns {1}, {-1} challenge gone or changed, {-2, who} already playing.
ACCEPT = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1} end
if redis.call('EXISTS', KEYS[4]) == 1 then return {-2, 'creator'} end
if redis.call('EXISTS', KEYS[5]) == 1 then return {-2, 'joiner'} end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HSET', KEYS[3], 'v', '0', 'd', ARGV[3])
redis.call('EXPIRE', KEYS[3], ARGV[4])
redis.call('SET', KEYS[4], ARGV[2], 'EX', ARGV[4])
redis.call('SET', KEYS[5], ARGV[2], 'EX', ARGV[4])
redis.call('SADD', KEYS[6], ARGV[2])
redis.call('SADD', KEYS[7], ARGV[2])
redis.call('SADD', KEYS[8], ARGV[2])
redis.call('HDEL', KEYS[9], ARGV[5])
redis.call('ZADD', KEYS[10], ARGV[6], ARGV[2])
redis.call('ZREM', KEYS[11], 'x:' .. ARGV[5])
redis.call('ZADD', KEYS[11], ARGV[7], 't:' .. ARGV[2])
return {1}
"""

# Open a challenge unless the creator has one open in this chat or is playing there.
# The challenge is also kept, without a TTL, among those awaiting an expiry
# notice, so that a restarted bot still says so on the challenge's message.
# Its expiry is a job of the scheduler (``x:<id>`` at ARGV[4]); the keys' TTL only
# collects what a stopped bot leaves behind.
# KEYS: 1 challenge, 2 creator's open-challenge key, 3 creator's active key,
#       4 the challenges awaiting an expiry notice, 5 the scheduler's jobs.
# ARGV: 1 challenge id, 2 challenge JSON, 3 TTL, 4 when it expires.
# Returns {1}, {-1, open challenge id}, {-2} already playing.
OPEN = """
if redis.call('EXISTS', KEYS[3]) == 1 then return {-2} end
local open = redis.call('GET', KEYS[2])
if open then return {-1, open} end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[3])
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[5], ARGV[4], 'x:' .. ARGV[1])
return {1}
"""

# A challenge whose time is up: removed, and its notice taken, by one caller only.
# KEYS: 1 challenge, 2 creator's open-challenge key, 3 the challenges awaiting an
# expiry notice. ARGV: 1 challenge id.
# Returns 1 when this call expired it (the caller edits its message), 0 when it
# was joined, withdrawn or announced already.
EXPIRE_CHALLENGE = """
if redis.call('HEXISTS', KEYS[3], ARGV[1]) == 0 then return 0 end
redis.call('DEL', KEYS[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
"""

# Store a challenge's message id (its new JSON) while it is open.
# KEYS: 1 challenge, 2 the challenges awaiting an expiry notice.
# ARGV: 1 challenge id, 2 the new JSON. Returns 1, or 0 when it is gone.
CHALLENGE_MESSAGE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then redis.call('HSET', KEYS[2], ARGV[1], ARGV[2]) end
return 1
"""

# Withdraw a challenge only if it is still the one that was read.
# KEYS: 1 challenge, 2 creator's open-challenge key, 3 the challenges awaiting
# an expiry notice, 4 the scheduler's jobs. ARGV: 1 the challenge JSON as read, 2 challenge id.
# Returns 1 when removed, 0 when it was gone or had changed.
WITHDRAW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('ZREM', KEYS[4], 'x:' .. ARGV[2])
return 1
"""

# Drop the oldest post of a match once it has been delivered (only if it is
# still that post: a second delivery of it changes nothing).
# KEYS: 1 posts. ARGV: 1 the post as read. Returns 1 when dropped.
POP_POST = """
if redis.call('LINDEX', KEYS[1], 0) == ARGV[1] then redis.call('LPOP', KEYS[1]) return 1 end
return 0
"""

# Record what the match's messages show now (fields of the match hash), while the match exists.
# KEYS: 1 match. ARGV: field, value, field, value...
SHOWN = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
return 1
"""

# A match whose screens are up to date leaves the set of those to update:
# no post left, and the table and both panels at the match's version (or
# not to be delivered: ARGV[2] is '1' when the group is gone, ARGV[3] and
# ARGV[4] when that seat's player blocked the bot). A match that expired leaves too.
# KEYS: 1 match, 2 posts, 3 the matches with screens to update. ARGV: 1 match id, 2-4 as above.
SETTLE = """
local f = redis.call('HMGET', KEYS[1], 'v', 'tv', 'p0v', 'p1v')
if not f[1] then redis.call('ZREM', KEYS[3], ARGV[1]) return 1 end
if redis.call('LLEN', KEYS[2]) > 0 and ARGV[2] ~= '1' then return 0 end
if f[2] ~= f[1] and ARGV[2] ~= '1' then return 0 end
if f[3] ~= f[1] and ARGV[3] ~= '1' then return 0 end
if f[4] ~= f[1] and ARGV[4] ~= '1' then return 0 end
redis.call('ZREM', KEYS[3], ARGV[1])
return 1
"""

# The scheduler (``bot/scheduler.py``). A job is a member of a sorted set scored by
# when it is due. Claiming moves a due job's score to the end of a lease, so that
# exactly one process acts on it; a process that dies holding it leaves it due
# again when the lease ends.
# KEYS: 1 jobs. ARGV: 1 now, 2 the lease's end, 3 how many at most.
# Returns the jobs claimed (each now scored ARGV[2]).
CLAIM_JOBS = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, job in ipairs(due) do redis.call('ZADD', KEYS[1], ARGV[2], job) end
return due
"""

# A claimed job is done: due again at ARGV[3] (or gone when ARGV[3] is ''), unless
# someone scheduled it anew while it was held (its score is no longer the lease's).
# KEYS: 1 jobs. ARGV: 1 job, 2 the lease's end as claimed, 3 when next due or ''.
# Returns 1 when changed, 0 when left as someone else set it.
COMPLETE_JOB = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then redis.call('ZREM', KEYS[1], ARGV[1]) else redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1]) end
return 1
"""

# Mark that the turn clock did something for this version of a match (``r`` reminded,
# ``o`` offered the win), once: a second caller for the same version gets 0.
# KEYS: 1 the match's clock marks. ARGV: 1 field, 2 version, 3 TTL.
MARK_CLOCK = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# A handling of an update failed: drop its mark, if it is still this attempt's.
# KEYS: 1 the update's mark. ARGV: 1 the attempt. Returns 1 when dropped.
FORGET_DELIVERY = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Take a slot of a chat's Telegram budget (``bot/limits.py``): a sliding window of the
# calls made to the chat, shared by every process. KEYS: 1 the window (sorted set of
# calls by time, ms), 2 when the last edit went (a string, ms); both in the chat's slot.
# ARGV: 1 now (ms), 2 the window (ms), 3 how many calls the window may hold before this
# one, 4 '1' when the call is an edit (paced at most one every ARGV[5] ms), 6 a member
# unique to this call. Returns 0 when the call may go (it is counted), else the ms to wait.
TAKE_SLOT = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local wait = 0
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  wait = tonumber(oldest[2]) + window - now
end
if ARGV[4] == '1' then
  local last = tonumber(redis.call('GET', KEYS[2]) or '-1e15')
  wait = math.max(wait, last + tonumber(ARGV[5]) - now)
end
if wait > 0 then return math.ceil(wait) end
redis.call('ZADD', KEYS[1], now, ARGV[6])
redis.call('PEXPIRE', KEYS[1], math.ceil(window) + 1000)
if ARGV[4] == '1' then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', math.ceil(tonumber(ARGV[5])) + 1000)
end
return 0
"""

# A lane of a match's delivery (the group, or a seat's panel) is run by one process at
# a time (``bot/delivery.py``): a lease in the match's slot. KEYS: 1 the lease, 2 the
# lane's "run again" flag. ARGV: 1 the process's token, 2 the lease (ms), 3 (TAKE_LANE
# only, may be '') the token of a holder known to be dead, whose lease is taken over.
# TAKE_LANE returns '' when this process holds the lease now, else the holder's token
# (the holder is then asked to run the lane once more). LEAVE_LANE returns 1 when the
# lane must run again (the lease is kept and renewed), else drops the lease: 0.
# KEEP_LANE renews a lease this process holds (1), or says it lost it (0).
TAKE_LANE = """
local owner = redis.call('GET', KEYS[1])
if not owner or owner == ARGV[1] or owner == ARGV[3] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  redis.call('DEL', KEYS[2])
  return ''
end
redis.call('SET', KEYS[2], '1', 'PX', ARGV[2])
return owner
"""

LEAVE_LANE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('DEL', KEYS[2]) == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
redis.call('DEL', KEYS[1])
return 0
"""

KEEP_LANE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
