"""What the Mini App shows one viewer of a match: a plain JSON document built from the match as stored.

The page draws it and nothing else: every word in it comes from the Fluent
files in the viewer's language (the lines of the table and of the panel are
the same texts the group's table and the private panel show, in Telegram's
HTML subset), the tiles come as their two ends (the page draws the pips),
and each control carries the engine's notation of its action, enabled
exactly when the action is legal for the viewer now. A viewer who does not
play gets the table view only: no hand, no controls, nothing a seat's view
holds (``View.seat`` None).
"""

from __future__ import annotations

from typing import Any

from bot import render
from bot.games import Button, game_of
from bot.i18n import Translator
from bot.models import MatchRecord, Summary
from bot.texts import game_name, name, tile
from engine import Action, Kind, Match, Tile
from engine.fairness import fingerprint
from engine.games import View

LABELS = (
    "webapp-hand", "webapp-table-empty", "webapp-lead", "webapp-last", "webapp-turn-clock", "webapp-offline",
    "webapp-watching", "webapp-your-turn", "webapp-rematch", "webapp-next", "webapp-over", "webapp-refused",
)  # fmt: skip
"""The page's own words (its headings, the connection notice), sent with every state in the viewer's language."""


def tile_ends(t: Tile) -> list[int]:
    return [t.high, t.low]


def viewer_state(
    tr: Translator,
    record: MatchRecord,
    match: Match,
    seat: int | None,
    *,
    summary: Summary | None,
    now: float,
    next_match: str | None = None,
    may_rematch: bool = False,
) -> dict[str, Any]:
    """The state of ``match`` as ``seat`` sees it (None: somebody who does not play), at ``now`` (the bot's
    clock: the turn clock's deadline is on it). ``summary``: the finished match's counted result, when there is
    one; ``next_match``: the rematch the viewer plays now, once it began; ``may_rematch``: the 🔁 is offered."""
    view = match.deal.view(seat)
    table = match.deal.view(None) if seat is not None else view
    game = game_of(view)
    over = not record.is_active
    state: dict[str, Any] = {
        "match": record.id,
        "version": record.version,
        "seat": seat,
        "lang": tr.lang,
        "state": "over" if over else "active",
        "title": tr("table-title", game=game_name(tr, view.preset), deal=view.deal),
        "fingerprint": None if view.commitment is None else tr("table-commitment", hash=fingerprint(view.commitment)),
        "score": render.score_line(tr, record, view),
        "target": view.target,
        "players": [_player(tr, record, view, s) for s in (0, 1)],
        "lines": game.table_lines(tr, record, table) + game.tally_lines(tr, record, table),
        **_board(tr, record, table),
        "turn": None,
        "deadline": None,
        "now": now,
        "prompt": None,
        "hand": None,
        "actions": [],
        "prev": None,
        "result": None,
        "next": next_match,
        "rematch": may_rematch,
        "labels": {key.removeprefix("webapp-"): tr(key) for key in LABELS},
    }
    if not over and view.turn is not None and view.end is None:
        state["turn"] = game.turn_line(tr, record, table) or tr("table-turn", name=name(record, view.turn))
        if record.turn_timeout:
            state["deadline"] = record.updated + record.turn_timeout
    if record.prev is not None and not record.deal.a:
        state["prev"] = render.deal_result_text(tr, record, record.prev.to_match().deal)
    if over:
        state["result"] = render.group_result_text(tr, record, summary or _summary(record, view))
    if seat is not None:
        state["prompt"] = render.prompt(tr, record, view)
        state["hand"], state["actions"] = controls(tr, record, view)
    return state


def _player(tr: Translator, record: MatchRecord, view: View, seat: int) -> dict[str, Any]:
    """One player as the page's head shows them: the name, the score, how many tiles they hold, their turn."""
    return {
        "name": name(record, seat),
        "score": view.score[seat],
        "tiles": tr("tiles", n=view.hand_sizes[seat]),
        "turn": view.turn == seat and record.is_active,
    }


def _board(tr: Translator, record: MatchRecord, table: View) -> dict[str, Any]:
    """The tile on the table and the last trick the game shows: their tiles (drawn) and their lines (words)."""
    last = game_of(table).shown_last_trick(table)
    lead = None
    if table.lead is not None and table.leader is not None:
        text = tr("table-lead", tile=tile(table.lead), name=name(record, table.leader))
        lead = {"tile": tile_ends(table.lead), "text": text}
    shown = None
    if last is not None:
        tiles = [tile_ends(last.lead), tile_ends(last.reply)]
        shown = {"tiles": tiles, "text": render.last_trick_text(tr, record, last)}
    return {"lead": lead, "last": shown}


def controls(tr: Translator, record: MatchRecord, view: View) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """A player's hand (each tile with its play's notation, enabled when that play is legal now) and the game's
    own actions that are legal now (claims, the close, the reserve's choice, bids, passes, trumps), with the
    texts of the panel's buttons."""
    acting = record.is_active and view.turn == view.seat and view.end is None
    legal = set(view.legal) if acting else set()
    hand = []
    for t in view.hand:
        play = Action(Kind.PLAY, t.index)
        hand.append({"tile": tile_ends(t), "action": play.notation(), "enabled": play in legal})
    actions: list[dict[str, Any]] = []
    if acting:

        def button(text: str, action: Action) -> Button:
            return {"text": text, "action": action.notation()}

        for row in game_of(view).own_rows(tr, view, button):
            actions += [{**b, "enabled": Action.parse(b["action"]) in legal} for b in row]
    return hand, actions


def _summary(record: MatchRecord, view: View) -> Summary:
    """The result of a finished match whose counting has not been written yet: what the record says of it."""
    assert record.finish is not None
    return Summary(
        id=record.id, chat_id=record.chat_id, preset=view.preset, players=record.players, score=view.score,
        winner=record.winner, finish=record.finish, finished=record.updated,
    )  # fmt: skip
