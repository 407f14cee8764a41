"""A finished match shown again, step by step, with both hands open (``/replay``, ``/start r_<match>``).

A replay is one message that a press edits in place: ◀ ▶ step through the
deal (a step is one trick, or one action that is not a play: a claim, a close,
a choice of the last pair, a bid, trumps named) and ⏮ ⏭ jump between deals.
Each step is the deal rebuilt from its stored form (``StoredDeal``: hands,
stock, first seat, every action) with the actions up to it replayed by the
engine; the text is read from the table's view and each seat's view for its
hand and its points. Only a match that is over is shown: its hands are no
secret any more.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot import render
from bot.callbacks import ReplayCb
from bot.codec import StoredDeal
from bot.games import game_of
from bot.i18n import Translator
from bot.models import DealLine, MatchRecord, Summary
from bot.texts import clip, name, tiles
from engine import Action, Deal, Kind, find_preset

BUTTON_LIMIT = 32
"""Characters of a match's button in the /replay list."""
MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")
"""What a match id looks like (``secrets.token_urlsafe``): anything else in a button or a link is forged."""
GOES = ("o", "p", "n", "P", "N")
"""Where a button goes: open (the first deal's start), the previous / next step, the previous / next deal."""


@dataclass(frozen=True)
class ReelDeal:
    """One deal of a replay: its stored form (None: the match was played before deals were kept whole) and
    the number of actions played at each of its steps (the first is 0: the hands as dealt)."""

    number: int
    stored: StoredDeal | None
    line: DealLine | None
    steps: tuple[int, ...]

    def at(self, step: int) -> Deal:
        """The deal with the actions of its first ``step`` steps played."""
        assert self.stored is not None, "a deal kept without its actions has no steps"
        actions = self.stored.a.split()[: self.steps[step]]
        return self.stored.model_copy(update={"a": " ".join(actions)}).to_match().deal


def steps_of(stored: StoredDeal) -> tuple[int, ...]:
    """How many actions are played at each step: a step ends with a trick settled or an action that is not a
    play (a lead waits for its reply)."""
    deal = stored.model_copy(update={"a": ""}).to_match().deal
    steps = [0]
    for count, text in enumerate(stored.a.split(), start=1):
        action = Action.parse(text)
        deal.play(action)
        if action.kind is not Kind.PLAY or deal.view(None).lead is None or deal.is_over:
            steps.append(count)
    if steps[-1] != len(stored.a.split()):
        steps.append(len(stored.a.split()))
    return tuple(steps)


def reel_of(record: MatchRecord) -> tuple[ReelDeal, ...]:
    """The deals of a match in order: each finished one from the match's log, then the deal it ended in when
    that one was cut short (a surrender, a forfeit). A log line kept without its deal takes the match's own
    deal when that is the one (the last deal of a match won)."""
    reel = []
    for line in record.log:
        stored = line.d or (record.deal if record.deal.n == line.n else None)
        steps = steps_of(stored) if stored is not None else (0,)
        reel.append(ReelDeal(line.n, stored, line, steps))
    if record.deal.a and all(line.n != record.deal.n for line in record.log):
        reel.append(ReelDeal(record.deal.n, record.deal, None, steps_of(record.deal)))
    return tuple(reel)


def go(reel: tuple[ReelDeal, ...], deal: int, step: int, where: str) -> tuple[int, int] | None:
    """The position a button leads to from (``deal``, ``step``), None when there is none that way (an end).
    ⏮ goes to the deal's start, or from there to the previous deal's; ⏭ to the next deal's start, or on the
    last deal to its end."""
    last = len(reel[deal].steps) - 1
    if where == "o":
        return 0, 0
    if where == "p":
        return (deal, step - 1) if step > 0 else (deal - 1, len(reel[deal - 1].steps) - 1) if deal > 0 else None
    if where == "n":
        return (deal, step + 1) if step < last else (deal + 1, 0) if deal + 1 < len(reel) else None
    if where == "P":
        return (deal, 0) if step > 0 else (deal - 1, 0) if deal > 0 else None
    return (deal + 1, 0) if deal + 1 < len(reel) else (deal, last) if step < last else None


def valid(reel: tuple[ReelDeal, ...], deal: int, step: int) -> bool:
    """Whether (``deal``, ``step``) is a position of the replay (a forged button's is not)."""
    return 0 <= deal < len(reel) and 0 <= step < len(reel[deal].steps)


# -- texts ----------------------------------------------------------------------------------------


def replay_url(bot_username: str, match_id: str) -> str:
    """The deep link that opens a match's replay in the bot's private chat."""
    return f"https://t.me/{bot_username}?start=r_{match_id}"


def replay_link(tr: Translator, bot_username: str, match_id: str) -> str:
    """The line under a match's result that links to its replay."""
    return tr("replay-link", url=replay_url(bot_username, match_id))


def replay_text(tr: Translator, record: MatchRecord, reel: tuple[ReelDeal, ...], deal: int, step: int) -> str:
    """The replay at one step: the deal, the position, both hands, the trick, the points, the scores; the
    deal's result at its end."""
    shown = reel[deal]
    preset = shown.stored.p if shown.stored is not None else record.deal.p
    lines = [
        tr("replay-title", a=name(record, 0), b=name(record, 1), game=render.game_name(tr, preset)),
        tr("replay-position", deal=deal + 1, deals=len(reel), step=step, steps=len(shown.steps) - 1),
    ]
    if shown.stored is None:
        lines.append(tr("replay-not-kept", deal=shown.number))
        if shown.line is not None:
            lines.append(tr("replay-deal-points", a=name(record, 0), b=name(record, 1), pa=shown.line.g[0],
                            pb=shown.line.g[1]))  # fmt: skip
        return "\n".join(lines)
    now = shown.at(step)
    view = now.view(None)
    if view.commitment is not None:
        lines.append(tr("panel-commitment", hash=view.commitment))
    if deal == 0 and step == 0:
        # Where the replay opens: the match's key and seeds, which every deal's secret is derived from.
        lines += render.key_reveal_lines(tr, record)
    if shown.stored.x and view.end is None:
        # The match is over: the deal's secret is no secret any more (its result shows it too).
        lines.append(tr("deal-secret", secret=shown.stored.x))
    return "\n".join(lines + step_lines(tr, record, now))


def step_lines(tr: Translator, record: MatchRecord, deal: Deal) -> list[str]:
    """What a step shows of the deal: the table's lines with both hands open and both seats' points."""
    view = deal.view(None)
    seats = deal.view(0), deal.view(1)
    game = game_of(view)
    lines = [
        tr("table-score", a=name(record, 0), b=name(record, 1), sa=view.score[0], sb=view.score[1], target=view.target),
        *game.table_lines(tr, record, view),
        *(tr("replay-hand", name=name(record, s), tiles=tiles(seats[s].hand) or "—") for s in (0, 1)),
    ]
    if view.lead is not None and view.leader is not None:
        lines.append(tr("table-lead", tile=render.tile(view.lead), name=name(record, view.leader)))
    last = game.shown_last_trick(view)
    if last is not None:
        lines.append(render.last_trick_text(tr, record, last))
    lines += game.tally_lines(tr, record, view)
    lines += game.replay_lines(tr, record, seats)
    if view.end is not None:
        lines += ["", render.deal_result_text(tr, record, deal)]
    elif view.turn is not None:
        lines.append(game.turn_line(tr, record, view) or tr("table-turn", name=name(record, view.turn)))
    return lines


def replay_keyboard(tr: Translator, match_id: str, deal: int, step: int) -> InlineKeyboardMarkup:
    """⏮ ◀ ▶ ⏭, each carrying the position it was pressed at and where it goes."""

    def button(key: str, where: str) -> InlineKeyboardButton:
        return InlineKeyboardButton(text=tr(key), callback_data=ReplayCb(m=match_id, d=deal, s=step, g=where).pack())

    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                button("btn-replay-first", "P"),
                button("btn-replay-prev", "p"),
                button("btn-replay-next", "n"),
                button("btn-replay-last", "N"),
            ]
        ]
    )


def match_button_text(tr: Translator, summary: Summary, user_id: int) -> str:
    """A match's button in the /replay list: the opponent, the game, the score (the user's first), the day;
    the opponent's name cut so that it fits in ``BUTTON_LIMIT`` characters."""
    mine = 0 if summary.players[0].id == user_id else 1
    args: dict[str, object] = {
        "game": tr(f"game-{find_preset(summary.preset).game}"),
        "mine": summary.score[mine],
        "theirs": summary.score[1 - mine],
        "date": render.date(summary.finished)[:5],
    }
    opponent = summary.players[1 - mine].name
    room = BUTTON_LIMIT - len(tr("replay-match-button", opponent="", **args))
    return tr("replay-match-button", opponent=clip(opponent, max(room, 1)), **args)


def list_keyboard(tr: Translator, summaries: list[Summary], user_id: int) -> InlineKeyboardMarkup:
    """One button per match, each opening its replay."""
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [
                InlineKeyboardButton(
                    text=match_button_text(tr, summary, user_id),
                    callback_data=ReplayCb(m=summary.id, d=0, s=0, g="o").pack(),
                )
            ]
            for summary in summaries
        ]
    )
