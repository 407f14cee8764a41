"""The bot's data (pydantic models): what is stored (matches, challenges, settings, results) and what the
services return."""

from __future__ import annotations

import enum
import secrets
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from bot.codec import StoredDeal
from engine import Deal, Match

Lang = Literal["ru", "pl"]
LANGS: tuple[Lang, ...] = ("ru", "pl")
INLINE_CHATS = -(4 * 10**15)
"""Chat ids at or below this are no Telegram chat: each challenge made in inline mode (``bot.routers.inline``) gets
one of its own, so that the rules of a chat (one open challenge per creator, one match per player) hold for
each pair of friends apart; its match's table is the inline message (``MatchRecord.inline_message_id``)."""
OUTSIDE_GROUPS = 0
"""The chat whose rating table counts the matches played outside groups (inline mode): ``/top`` in private."""


def new_inline_chat() -> int:
    """A fresh chat id for an inline challenge (48 random bits below ``INLINE_CHATS``)."""
    return INLINE_CHATS - secrets.randbits(48)


def is_inline_chat(chat_id: int) -> bool:
    """Whether ``chat_id`` is an inline challenge's own (no Telegram chat: nothing is ever sent to it)."""
    return chat_id <= INLINE_CHATS


def known_lang(code: str | None) -> Lang | None:
    """A Telegram ``language_code`` reduced to one of ours; None for any other language."""
    if code:
        base = code.split("-")[0].lower()
        for lang in LANGS:
            if base == lang:
                return lang
    return None


def pick_lang(code: str | None, default: Lang = "ru") -> Lang:
    """A Telegram ``language_code`` reduced to one of ours (``default``, Russian, otherwise)."""
    return known_lang(code) or default


Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")


class Player(BaseModel):
    """A Telegram user in a match, or the computer (``level`` set; its id is negative and this match's own)."""

    model_config = ConfigDict(frozen=True)

    id: int
    name: str
    level: Level | None = None
    lang: Lang | None = None
    """The language of what the player reads in private (their /lang choice, else their Telegram language when
    it is one of ours); None: the match's (the group's)."""

    @property
    def computer(self) -> bool:
        return self.level is not None


class Status(enum.Enum):
    ACTIVE = "active"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class Finish(enum.Enum):
    """How a match ended."""

    TARGET = "target"
    """A player reached the target of game points."""
    SURRENDER = "surrender"
    """A player gave up."""
    FORFEIT = "forfeit"
    """A player's time for a move ran out (or the opponent claimed the win after a day without a move)."""
    ABANDONED = "abandoned"
    """Nobody moved for ``ACTIVE_TTL``: no winner, no rating."""


class MomentRecord(BaseModel):
    """A moment of a finished deal worth showing on the match card (``bot.games``)."""

    model_config = ConfigDict(frozen=True)

    k: Literal["bingo", "claim", "close", "made42"]
    """bingo took the trump double, a scored claim of 6 or 7 doubles, a failed close, a bid of 42 made."""
    s: int
    """The seat it belongs to (who took, claimed, closed or made it)."""
    t: tuple[str, ...] = ()
    """Its tiles in notation ("66"): bingo and the trump double, the doubles claimed, the trump double of 42."""


class DealLine(BaseModel):
    """One finished deal of a match, as its card draws it."""

    model_config = ConfigDict(frozen=True)

    n: int
    """The deal's number."""
    g: tuple[int, int]
    """Game points each seat won in it."""
    m: tuple[MomentRecord, ...] = ()
    last: tuple[str, str] | None = None
    """The deal's last trick (lead, reply) in notation."""
    d: StoredDeal | None = None
    """The deal itself (hands, stock, every action): replays and the post-mortem read it. None in the log of a
    match begun before it was kept."""


SEED_LIMIT = 64
"""Characters a player's seed (``/seed``) may have."""


class FairKey(BaseModel):
    """What a match's deals are drawn from (``engine.fairness``): the match key, committed before the match and
    shown at its end, and both seats' seeds as they stood when it began."""

    model_config = ConfigDict(frozen=True)

    key: str
    """The match key in hex (64 digits): never shown before the match is over."""
    seeds: tuple[str, str]
    """Seat 0's seed and seat 1's (``engine.fairness.COMPUTER_SEED`` for the computer's seat)."""


class MatchRecord(BaseModel):
    """One match as stored: the engine state plus who, where and in which language."""

    id: str
    chat_id: int
    players: tuple[Player, Player]
    lang: Lang
    version: int = 0
    rev: str = ""
    """A token unique to the write that made this version: after Redis lost writes, another move can make
    the same version number again, and the two must not pass for one another."""
    status: Status = Status.ACTIVE
    created: float
    updated: float
    deal: StoredDeal
    recent: list[str] = Field(default_factory=list)
    """The last few request ids (callback query ids) applied, newest last."""
    winner: int | None = None
    finish: Finish | None = None
    prev: StoredDeal | None = None
    """The last finished deal (the panels show its result until the next deal's first trick)."""
    turn_since: int = 0
    """The version at which the seat to act got the turn (its panel then arrives as a new message)."""
    pressed: tuple[float, float] = (0.0, 0.0)
    """When each seat last moved (a player who did in the last seconds is handed the turn silently)."""
    turn_timeout: int = 0
    """Seconds the player to act has for a move (0: no clock); the group's setting when the match began."""
    log: tuple[DealLine, ...] = ()
    """Every finished deal of the match, oldest first (its card's chart and moments)."""
    opener: int | None = None
    """The seat that acted first in the match's first deal (its rematch lets the other open); None in records
    made before it was kept."""
    hints: tuple[int, int] = (0, 0)
    """The 💡 hints each seat asked for (a match against the computer only; its card counts them)."""
    thread_id: int | None = None
    """The forum topic (its ``message_thread_id``) the match's challenge was written in: every group message
    of the match goes there, until Telegram says the topic is closed or gone (``Messages.general``)."""
    tournament: str | None = None
    """The tournament this match is a pairing of (its end moves the tournament on)."""
    inline_message_id: str | None = None
    """A match begun in inline mode: the message posted via the bot that is its table (edited by this id; the
    bot cannot send to the chat it is in)."""
    fair: FairKey | None = None
    """The match key and the seeds its deals come from; None in a match made before keys were committed (its
    deal key, in ``deal``, was never shown) and in one made from a given seed (tests)."""

    @property
    def is_active(self) -> bool:
        return self.status is Status.ACTIVE

    @property
    def computer_seat(self) -> int | None:
        """The seat the computer holds, if it plays in this match."""
        for seat, player in enumerate(self.players):
            if player.computer:
                return seat
        return None

    @property
    def private_seat(self) -> int | None:
        """The seat whose private chat the match is played in (a match against the computer begun there), if
        any: its panel there is the match's one message, table and hand at once (``bot.delivery.passes``)."""
        for seat, player in enumerate(self.players):
            if player.id == self.chat_id:
                return seat
        return None

    def lang_of(self, seat: int | None) -> Lang:
        """The language of what the seat's player reads in private: their own, else the match's (also for
        ``None``, somebody who does not play it)."""
        return self.lang if seat is None else self.players[seat].lang or self.lang

    def panel_lang(self, seat: int | None) -> Lang:
        """The language of the seat's panel: the match's in the match's own chat (a match against the computer
        in private), else the player's own (:meth:`lang_of`)."""
        if seat is not None and self.chat_id == self.players[seat].id:
            return self.lang
        return self.lang_of(seat)

    def seat_of(self, user_id: int) -> int | None:
        for seat, player in enumerate(self.players):
            if player.id == user_id:
                return seat
        return None

    def match(self) -> Match:
        """The engine match (decoded on each call: keep the result)."""
        return self.deal.to_match()


class Messages(BaseModel):
    """A match's Telegram messages and what each shows now; what must still be posted.

    The match's version is what every message must reach: the delivery
    (``bot.delivery``) brings Telegram there and records it here.
    """

    table: int | None = None
    table_deal: int | None = None
    """The deal the table message belongs to (a new deal gets a new table)."""
    table_version: int = -1
    panels: tuple[int | None, int | None] = (None, None)
    panel_versions: tuple[int, int] = (-1, -1)
    panel_since: tuple[int, int] = (-1, -1)
    """The version at which each panel message was sent (-1: send a new one)."""
    panels_replaced: tuple[int | None, int | None] = (None, None)
    """Each seat's panel message that a newer one replaced and that may still have its buttons (a process
    died before deleting it): deleted, or stripped of its buttons, by the seat's next pass."""
    posts: list[str] = Field(default_factory=list)
    """Results still to post in the group, oldest first (JSON: a finished deal or the match's end)."""
    summary: Summary | None = None
    """The result of a finished match, as counted."""
    finishing: str | None = None
    """A finish whose steps in the other slots are not all done (JSON, ``bot.services.finish``)."""
    cards: tuple[bool, bool] = (False, False)
    """Whether each player's copy of the match card went to their private chat (or needs none)."""
    reviews: tuple[bool, bool] = (False, False)
    """Whether each player's post-mortem (the ``🔎`` message) went to their private chat (or needs none)."""
    result: int | None = None
    """The match's result message in its chat (the one with the rematch button)."""
    result_photo: bool = False
    """Whether that message is the match card (a caption) rather than text."""
    general: bool = False
    """The match's topic was closed or deleted: its group messages go to the General topic from then on."""
    given_up: dict[str, int] = Field(default_factory=dict)
    """The version each lane (``g``, ``0``, ``1``) stopped trying to deliver at, after failing again and again in
    a way no retry mends (``bot.delivery.lanes``): at that version it counts as delivered; the next one tries."""

    def panel(self, seat: int) -> int | None:
        return self.panels[seat]


class ChatSettings(BaseModel):
    """Per-chat defaults."""

    lang: Lang | None = None
    """None until set: the bot then takes the creator's language."""
    preset: str = "bingo"
    target: int | None = None
    """None: the preset's own target."""
    turn_timeout: int | None = None
    """Seconds for a move (0: no clock); None: the operator's ``TURN_TIMEOUT``."""

    def turn_clock(self, default: int) -> int:
        """The chat's seconds for a move, ``default`` (the operator's) while it chose none."""
        return default if self.turn_timeout is None else self.turn_timeout


class UserProfile(BaseModel):
    id: int
    name: str = ""
    lang: Lang | None = None
    started: bool = False
    """Whether the user has started the bot in private (so it may write to them)."""
    blocked: bool = False
    """Telegram answered 403 to a message for them (they blocked the bot); cleared by /start, /hand or unblocking."""


class Challenge(BaseModel):
    """An open challenge in a group, waiting for a second player."""

    id: str
    chat_id: int
    creator: Player
    opponent_id: int | None = None
    """Only this user may join (None: anyone, unless ``opponent_username`` is set)."""
    opponent_username: str | None = None
    """Only the user with this @username may join (a challenge by @mention)."""
    opponent_name: str | None = None
    preset: str
    target: int
    lang: Lang
    created: float
    expires: float
    message_id: int | None = None
    inline_message_id: str | None = None
    """An inline challenge's message, once a press on it told the bot its id."""
    rematch_of: str | None = None
    """The finished match this challenge is a rematch of: its message is that match's result, its opponent the
    other player, and it is accepted only by the rematch button."""
    opener: int | None = None
    """The seat that acts first in the match it becomes (None: by lot)."""
    clock: int | None = None
    """The match's seconds for a move (None: the chat's setting when it is accepted)."""
    thread_id: int | None = None
    """The forum topic (``message_thread_id``) the challenge was written in (None: no topic, or General)."""
    key: str | None = None
    """The key of the match it becomes, in hex, drawn when it was opened (its commitment is on the challenge's
    message); None in a challenge opened before keys were (its match draws one at the accept)."""


class Entrant(BaseModel):
    """A player of a tournament."""

    player: Player
    rating: int = 0
    """The group's rating at the start (the knockout's seeding)."""
    left: bool = False
    """They left the started tournament (or were removed from it): their remaining matches are forfeited."""
    removed: bool = False
    """The organiser or an admin removed them (``left`` is set too)."""


class Pairing(BaseModel):
    """One match of a tournament's plan (``bot.services.bracket``): entrants by their index."""

    n: int
    round: int
    a: int | None = None
    """Seat 0 of its match; None: nobody (a bye), or not yet known (a later knockout round)."""
    b: int | None = None
    match: str | None = None
    """Its match, once started."""
    done: bool = False
    winner: int | None = None
    score: tuple[int, int] | None = None
    """Game points of ``a`` and ``b`` in its match (None: decided without one)."""
    forfeit: bool = False
    """Decided without a match because a player left, was removed, or was busy too long."""
    bye: bool = False
    """A slot without a player: the other goes on without playing."""
    filled: bool = False
    """A later knockout round: its players came on from the round before."""
    waiting: float | None = None
    """Since when it has waited for a player busy in another match of the chat (None: it does not)."""


TournamentStatus = Literal["signup", "running", "finished", "cancelled", "stopped", "moved"]
"""``stopped``: ended by its organiser or an admin before its last pairing (no champion); ``moved``: its group
became a supergroup, and it goes on there under a new id (``Tournament.moved_to``)."""


class Tournament(BaseModel):
    """A group's tournament: its sign-up, then its pairings as they are played (``bot.services.tournaments``)."""

    id: str
    chat_id: int
    thread_id: int | None = None
    creator: Player
    preset: str
    target: int
    lang: Lang
    created: float
    expires: float
    """The sign-up closes by itself at this time if it was not started."""
    status: TournamentStatus = "signup"
    format: Literal["rr", "ko"] | None = None
    entrants: list[Entrant] = Field(default_factory=list)
    pairings: list[Pairing] = Field(default_factory=list)
    clock: int = 0
    """Seconds for a move in its matches (set at the start)."""
    message_id: int | None = None
    """The sign-up message, then the standings (edited in place)."""
    version: int = 0
    champion: int | None = None
    finished: float | None = None
    stopped_by: Player | None = None
    """Who stopped it (``status`` ``stopped``)."""
    moved_to: str | None = None
    """Its id in the supergroup its group became (``status`` ``moved``)."""

    @property
    def ended(self) -> bool:
        """Whether it is over for good (finished, cancelled or stopped; a moved one goes on elsewhere)."""
        return self.status in ("finished", "cancelled", "stopped")

    def entrant_of(self, user_id: int) -> int | None:
        for i, entrant in enumerate(self.entrants):
            if entrant.player.id == user_id:
                return i
        return None

    def pairing_of(self, match_id: str) -> Pairing | None:
        for p in self.pairings:
            if p.match == match_id:
                return p
        return None


class Rejection(enum.Enum):
    """Why the service refused a request; nothing was changed."""

    NO_MATCH = "no_match"
    MATCH_OVER = "match_over"
    NOT_A_PLAYER = "not_a_player"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    STALE = "stale"
    """The button's version is not the match's: the press came from an old message."""
    DUPLICATE = "duplicate"
    """This request id was already applied."""
    BUSY = "busy"
    """Too many concurrent writers; the bounded retry gave up."""
    OLD_PANEL = "old_panel"
    """The press came from a message older than the player's panel."""
    NO_CHALLENGE = "no_challenge"
    OWN_CHALLENGE = "own_challenge"
    NOT_INVITED = "not_invited"
    ALREADY_PLAYING = "already_playing"
    """The one who asked plays in this chat already."""
    CREATOR_PLAYING = "creator_playing"
    """The challenge's creator plays another match in its chat now: it waits for them."""
    CHALLENGE_OPEN = "challenge_open"
    """The creator already has an open challenge in this chat."""
    NOT_ALLOWED = "not_allowed"
    TOO_EARLY = "too_early"
    """The win may be claimed only after a day without a move."""
    NO_TOURNAMENT = "no_tournament"
    """No such tournament, or its sign-up is over."""
    TOURNAMENT_ON = "tournament_on"
    """The chat has a tournament signing up or running already."""
    TOURNAMENT_FULL = "tournament_full"
    TOURNAMENT_SMALL = "tournament_small"
    """Fewer than three players signed up."""
    NOT_ENTERED = "not_entered"
    """The user does not play this tournament (or left it)."""
    TOURNAMENT_RUNNING = "tournament_running"
    """The tournament has started: it is stopped, not cancelled."""
    NOT_MEMBER = "not_member"
    """The user is not in the object's own chat (a deep link, or a button carried there from elsewhere)."""
    NO_REMATCH = "no_rematch"
    """A tournament's match has no rematch: the tournament pairs its players."""
    REMATCH_OVER = "rematch_over"
    """The rematch of a match is no longer offered (its time ran out, it began, or the match was abandoned)."""
    INLINE_UNKNOWN = "inline_unknown"
    """An inline challenge whose message the bot does not know yet: accepted only by a press on that message."""
    NOT_ON_MESSAGE = "not_on_message"
    """A press that is not on the message of what it names (an inline challenge's button on another message)."""


class Standing(BaseModel):
    """One row of a leaderboard."""

    rank: int
    user_id: int
    name: str
    rating: int
    played: int
    won: int
    lost: int


class SeasonStanding(BaseModel):
    """One row of a chat's season table: wins first, then the chat rating gained in the season."""

    rank: int
    user_id: int
    name: str
    won: int
    lost: int
    gained: int


class Meeting(BaseModel):
    """One result of two players' head-to-head record."""

    winner: int
    game: str
    score: tuple[int, int]
    """The winner's game points and the loser's."""


class Rivalry(BaseModel):
    """Two people's head-to-head record in a chat, seen from ``me``."""

    me: int
    them: int
    played: int = 0
    won: int = 0
    lost: int = 0
    streak: tuple[int, int] | None = None
    """Who won the last matches in a row, and how many (None before any)."""
    last: list[Meeting] = Field(default_factory=list)
    """The last five results, newest first."""
    per_game: dict[str, tuple[int, int]] = Field(default_factory=dict)
    """game -> (my wins, theirs)."""


class RatingPoint(BaseModel):
    """A player's rating in a table after one of their rated matches."""

    rating: int
    change: int
    """What the match changed it by."""
    finished: float
    won: bool


class UserStats(BaseModel):
    user_id: int
    played: int = 0
    won: int = 0
    lost: int = 0
    rating: int
    streak: int = 0
    best_streak: int = 0
    per_game: dict[str, tuple[int, int]] = Field(default_factory=dict)
    """game -> (played, won)."""
    computer: dict[str, tuple[int, int]] = Field(default_factory=dict)
    """Matches against the computer (all chats; not in the rating): level -> (played, won)."""


class Summary(BaseModel):
    """A finished match as the history lists it."""

    id: str
    chat_id: int
    preset: str
    players: tuple[Player, Player]
    score: tuple[int, int]
    winner: int | None
    """The winner's seat; None for an abandoned match."""
    finish: Finish
    finished: float
    rating_change: int = 0
    """Points the winner took from the loser in this chat's rating."""
    ratings: tuple[int, int] | None = None
    """The winner's and the loser's chat ratings after the match."""
    series: tuple[int, int] | None = None
    """The winner's and the loser's wins against each other in this chat, this match counted (two people)."""


@dataclass
class MoveResult:
    """An applied move: the record after it and, when a deal ended, that deal."""

    record: MatchRecord
    match: Match
    finished_deal: Deal | None = None
    summary: Summary | None = None
    """Set when the move finished the match."""
    duplicate: bool = False
    """The same request had been applied before; nothing changed now."""
    messages: Messages | None = None
    """What the match's messages showed as the move was written (its script read them): a delivery that
    starts now may start from it instead of reading them."""


Messages.model_rebuild()
