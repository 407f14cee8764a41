"""Lua scripts: every write that must be atomic happens in one of these."""

from __future__ import annotations

# Compare-and-set on the match version and the token of the write that made it
# (fields 'v' and 'w'; the same version made again after Redis lost writes has
# another token). KEYS[1] the match hash.
# ARGV: 1 expected 'version/token', 2 new 'version/token', 3 new record, 4 TTL
# seconds; 5 the field of the pressed panel ('p0', 'p1'; '' for a write that is
# not a press on a panel) and 6 the pressed message's id: a message older than
# that panel is an old panel, and nothing is written.
# Returns {1} when written, {0, version, record} when the match is not the one
# expected, {-1} when the match is gone, {-2} when the press came from an old panel.
_CAS = """
local v = redis.call('HGET', KEYS[1], 'v')
if not v then return {-1} end
if ARGV[5] ~= '' then
  local panel = redis.call('HGET', KEYS[1], ARGV[5])
  if panel and tonumber(ARGV[6]) < tonumber(panel) then return {-2} end
end
if v .. '/' .. (redis.call('HGET', KEYS[1], 'w') or '') ~= ARGV[1] then
  return {0, v, redis.call('HGET', KEYS[1], 'd')}
end
local nv, nw = string.match(ARGV[2], '^([^/]*)/(.*)$')
redis.call('HSET', KEYS[1], 'v', nv, 'w', nw, 'd', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[4])
"""


# What every write of a match also does: append the results it made to the
# match's posts (KEYS[posts]). ARGV[count] the number of posts, the posts right
# after it. (The writer has marked the match's screens as due before the write:
# the set of those is in another slot.)
def _posts(*, posts: int, count: int) -> str:
    return f"""
for i = 1, tonumber(ARGV[{count}]) do redis.call('RPUSH', KEYS[{posts}], ARGV[{count} + i]) end
if redis.call('EXISTS', KEYS[{posts}]) == 1 then redis.call('EXPIRE', KEYS[{posts}], ARGV[4]) end
"""


# A move that leaves the match on: CAS, the results it made appended to the posts, and (ARGV[7],
# when the move hands the turn to a seat: 'p0n' or 'p1n') that seat's panel marked to come as a new
# message. Returns, when written, {1, the message fields (MESSAGE_FIELDS), the posts}: what the
# match's messages show now, for its delivery to start from without reading them.
# KEYS: 1 match, 2 posts. ARGV: 1-6 as CAS, 7 the handed panel's field or '', 8 number of posts,
# 9... posts.
MESSAGE_FIELDS = ("t", "tn", "tv", "p0", "p0v", "p0n", "p0x", "p1", "p1v", "p1n", "p1x", "s", "f", "c0", "c1")
MOVE = (
    _CAS
    + _posts(posts=2, count=8)
    + f"""
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], ARGV[7], '-1') end
return {{1, redis.call('HMGET', KEYS[1], '{"', '".join(MESSAGE_FIELDS)}'), redis.call('LRANGE', KEYS[2], 0, -1)}}
"""
)

# The move that ends a match (by reaching the target, surrender, forfeit or abandon), in the
# match's slot: CAS, and what the rest of the finish needs (field 'f', JSON: how it counts, the
# players, the summary), until the steps in the other slots are done (COUNT_CHAT, COUNT_GLOBAL,
# COUNT_USER, then FINISHED, which posts the result and drops 'f').
# KEYS: 1 match, 2 posts. ARGV: 1-6 as CAS, 7 the finish (JSON), 8 number of posts, 9... posts.
FINISH = (
    _CAS
    + _posts(posts=2, count=8)
    + """
redis.call('HSET', KEYS[1], 'f', ARGV[7])
return {1}
"""
)

# A counted step of a finish is done once in its slot: KEYS[1] its mark (the answer it gave,
# kept ARGV[1] s). A step run again answers the same and changes nothing.
_ONCE = """
local done = redis.call('GET', KEYS[1])
if done then return done end
"""

# The Elo update of a table (the scope's two stats hashes and its leaderboard), for COUNT_CHAT and
# COUNT_GLOBAL. ARGV: 2 winner id, 3 loser id, 4 K, 5 start rating, 6 game, 7 winner name, 8 loser name.
# Each player's rating log in the scope (newest first, the last ``keep``) gets 'rating after,change,time,won'.
_ELO = """
local K = tonumber(ARGV[4])
local start = tonumber(ARGV[5])
local game = ARGV[6]
local function count(kw, kl, board, logw, logl, at, keep)
  local rw = tonumber(redis.call('HGET', kw, 'rating') or start)
  local rl = tonumber(redis.call('HGET', kl, 'rating') or start)
  local expected = 1 / (1 + 10 ^ ((rl - rw) / 400))
  local d = math.floor(K * (1 - expected) + 0.5)
  redis.call('HSET', kw, 'rating', rw + d, 'name', ARGV[7])
  redis.call('HSET', kl, 'rating', rl - d, 'name', ARGV[8])
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
  redis.call('ZADD', board, rw + d, ARGV[2])
  redis.call('ZADD', board, rl - d, ARGV[3])
  redis.call('LPUSH', logw, (rw + d) .. ',' .. d .. ',' .. at .. ',1')
  redis.call('LPUSH', logl, (rl - d) .. ',' .. (-d) .. ',' .. at .. ',0')
  redis.call('LTRIM', logw, 0, keep - 1)
  redis.call('LTRIM', logl, 0, keep - 1)
  return {d, rw + d, rl - d}
end
"""

# A finish in the chat's slot: the players are no longer playing there, and (ARGV[9] '1') the result
# counts in the chat's table; a counted or abandoned match (ARGV[9] '1' or 'h', or 'v' a match won
# against or lost to the computer, never rated) goes first in the chat's history, its summary completed
# with the chat's rating change.
# KEYS: 1 the mark, 2-3 active keys of seat 0/1, 4 the chat's active set, 5-6 chat stats of
#       winner/loser, 7 the chat's leaderboard, 8 the chat's history, 9-10 the chat rating logs of
#       winner/loser.
# ARGV: 1 the mark's TTL, 2-8 as _ELO, 9 count, 10 match id, 11 the summary without its closing
#       brace, 12 the history's length, 13 when the match finished, 14 the rating logs' length.
# Returns the mark: 'rating change,winner's rating,loser's rating|summary' (0,0,0 uncounted).
COUNT_CHAT = (
    _ONCE
    + _ELO
    + """
for i = 2, 3 do
  if redis.call('GET', KEYS[i]) == ARGV[10] then redis.call('DEL', KEYS[i]) end
end
redis.call('SREM', KEYS[4], ARGV[10])
local answer = '0,0,0|'
if ARGV[9] == '1' then
  local chat = count(KEYS[5], KEYS[6], KEYS[7], KEYS[9], KEYS[10], ARGV[13], tonumber(ARGV[14]))
  local summary = ARGV[11] .. ',"rating_change":' .. chat[1] .. ',"ratings":[' .. chat[2] .. ',' .. chat[3] .. ']}'
  answer = chat[1] .. ',' .. chat[2] .. ',' .. chat[3] .. '|' .. summary
elseif ARGV[9] == 'h' or ARGV[9] == 'v' then
  answer = '0,0,0|' .. ARGV[11] .. '}'
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

# The last step of a finish, in the match's slot: the summary is kept with the match (field 's') and
# its result posted to the group (a summary given), and the finish is no longer pending.
# KEYS: 1 match, 2 posts. ARGV: 1 the summary or '', 2 TTL of the posts.
# Returns 1 when this call did it, 0 when it was done already.
FINISHED = """
if redis.call('HEXISTS', KEYS[1], 'f') == 0 then return 0 end
if ARGV[1] ~= '' then
  redis.call('HSET', KEYS[1], 's', ARGV[1])
  redis.call('RPUSH', KEYS[2], '{"k":"match"}')
  redis.call('EXPIRE', KEYS[2], ARGV[2])
end
redis.call('HDEL', KEYS[1], 'f')
return 1
"""

# Accept a challenge, in its chat's slot: consume it and make the players active in the chat with
# the new match, or refuse if either already plays there. The match's record is kept with the
# challenge (KEYS[7]) until CREATE_MATCH writes it in its own slot.
# KEYS: 1 challenge, 2 creator's open-challenge key, 3-4 active keys of creator/joiner, 5 the chat's
#       active set, 6 the challenges' accepted record.
# ARGV: 1 the challenge JSON as read, 2 match id, 3 record, 4 TTL.
# Returns {1}, {-1} challenge gone or changed, {-2, who} already playing.
ACCEPT = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {-1} end
if redis.call('EXISTS', KEYS[3]) == 1 then return {-2, 'creator'} end
if redis.call('EXISTS', KEYS[4]) == 1 then return {-2, 'joiner'} end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SET', KEYS[3], ARGV[2], 'EX', ARGV[4])
redis.call('SET', KEYS[4], ARGV[2], 'EX', ARGV[4])
redis.call('SADD', KEYS[5], ARGV[2])
redis.call('SET', KEYS[6], ARGV[3], 'EX', ARGV[4])
return {1}
"""

# Write a new match's record in its slot unless it is there already. KEYS: 1 match.
# ARGV: 1 record, 2 TTL. Returns 1 when written.
CREATE_MATCH = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'v', '0', 'd', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
"""

# Open a challenge unless the creator has one open in this chat or is playing there (in the chat's
# slot; its notice and its expiry job, in their own slots, are written before, and taken back when
# refused).
# KEYS: 1 challenge, 2 creator's open-challenge key, 3 creator's active key.
# ARGV: 1 challenge id, 2 challenge JSON, 3 TTL.
# Returns {1}, {-1, open challenge id}, {-2} already playing.
OPEN = """
if redis.call('EXISTS', KEYS[3]) == 1 then return {-2} end
local open = redis.call('GET', KEYS[2])
if open then return {-1, open} end
redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[1], 'EX', ARGV[3])
return {1}
"""

# A challenge whose time is up, in its chat's slot: removed, unless it was accepted (KEYS[3]
# holds the match it became). KEYS: 1 challenge, 2 creator's open-challenge key, 3 the accepted
# record. ARGV: 1 challenge id. Returns the accepted record, or '' (expired, or gone already).
EXPIRE_CHALLENGE = """
local accepted = redis.call('GET', KEYS[3])
if accepted then return accepted end
redis.call('DEL', KEYS[1])
if redis.call('GET', KEYS[2]) == ARGV[1] then redis.call('DEL', KEYS[2]) end
return ''
"""

# Store a challenge's new JSON (its message id) while it is open, keeping its TTL.
# KEYS: 1 challenge. ARGV: 1 the new JSON. Returns 1, or 0 when it is gone.
CHALLENGE_MESSAGE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'KEEPTTL')
return 1
"""

# The same in the hash of challenges awaiting an expiry notice, while it is there.
# KEYS: 1 the challenges awaiting an expiry notice. ARGV: 1 challenge id, 2 the new JSON.
NOTICE_MESSAGE = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) return 1 end
return 0
"""

# Withdraw a challenge only if it is still the one that was read (in its chat's slot; its notice
# and its job go after). KEYS: 1 challenge, 2 creator's open-challenge key.
# ARGV: 1 the challenge JSON as read. Returns 1 when removed, 0 when it was gone or had changed.
WITHDRAW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
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


# Whether a match's screens are up to date, in the match's slot: no post left, no finish pending,
# and the table and both panels at the match's version (or not to be delivered: ARGV[1] is '1'
# when the group is gone, ARGV[2] and ARGV[3] when that seat's player blocked the bot). A match
# that expired is too. First, the versions that edits brought the table and the panels to since
# they were last recorded ('tv', 'p0v', 'p1v' and a version each, from ARGV[4] to ARGV[last]),
# never lowered (an edit is recorded lazily: done again, it changes nothing); among them 'p0x' or
# 'p1x' and a message id: that replaced panel was tidied, its field is dropped if it still names it.
# KEYS: 1 match, 2 posts. Returns 1 when up to date.
def _settled(last: str) -> str:
    return f"""
local f = redis.call('HMGET', KEYS[1], 'v', 'tv', 'p0v', 'p1v', 'f', 's', 'c0', 'c1')
if not f[1] then return 1 end
local slot = {{tv = 2, p0v = 3, p1v = 4}}
for i = 4, {last} - 1, 2 do
  local shown = tonumber(ARGV[i + 1])
  local at = slot[ARGV[i]]
  if (ARGV[i] == 'p0x' or ARGV[i] == 'p1x') and redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    redis.call('HDEL', KEYS[1], ARGV[i])
  elseif at and shown > tonumber(f[at] or '-1') then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    f[at] = ARGV[i + 1]
  end
end
if f[5] then return 0 end
if redis.call('LLEN', KEYS[2]) > 0 and ARGV[1] ~= '1' then return 0 end
if f[2] ~= f[1] and ARGV[1] ~= '1' then return 0 end
if f[3] ~= f[1] and ARGV[2] ~= '1' then return 0 end
if f[4] ~= f[1] and ARGV[3] ~= '1' then return 0 end
if f[6] and not f[7] and ARGV[2] ~= '1' then return 0 end
if f[6] and not f[8] and ARGV[3] ~= '1' then return 0 end
return 1
"""


SETTLED = _settled("#ARGV")

# Mark a match's screens as due (before each write of it): its score in the set of matches whose
# screens are due goes up, by at least a microsecond each time, so that a settle that read the
# score before this mark does not take the match out (UNDUE). KEYS: 1 the set. ARGV: 1 match id,
# 2 now. (Several ids: ARGV[1], ARGV[3]... each with its time after.)
MARK_DUE = """
for i = 1, #ARGV, 2 do
  local now = tonumber(ARGV[i + 1])
  local was = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if was and tonumber(was) >= now then now = tonumber(was) + 0.000001 end
  redis.call('ZADD', KEYS[1], now, ARGV[i])
end
return 1
"""

# On one server (no cluster) a write marks its match due in its own script: this goes first in it.
# KEYS[#KEYS] the set of matches whose screens are due; ARGV[#ARGV - 1] the match id, ARGV[#ARGV] now.
MARK_DUE_FIRST = """
local due_now = tonumber(ARGV[#ARGV])
local due_was = redis.call('ZSCORE', KEYS[#KEYS], ARGV[#ARGV - 1])
if due_was and tonumber(due_was) >= due_now then due_now = tonumber(due_was) + 0.000001 end
redis.call('ZADD', KEYS[#KEYS], due_now, ARGV[#ARGV - 1])
"""

# On one server, a settle in one script: SETTLED, then the match out of the due set.
# KEYS: 1 match, 2 posts, 3 the due set. ARGV: as SETTLED, then the match id last.
SETTLE_HERE = (
    "local function settled()\n"
    + _settled("#ARGV - 1")
    + """end
if settled() == 1 then redis.call('ZREM', KEYS[3], ARGV[#ARGV]) return 1 end
return 0
"""
)

# A settled match leaves the set of those whose screens are due, unless it was marked again since
# its score was read. KEYS: 1 the set. ARGV: 1 match id, 2 the score as read. Returns 1 when taken out.
UNDUE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
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
