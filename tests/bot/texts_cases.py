"""Every message that names a player, rendered by the bot's own code for two players (the exact-text tests)."""

from __future__ import annotations

from bot import render
from bot.codec import StoredDeal
from bot.i18n import Translator
from bot.models import Challenge, FairKey, Finish, MatchRecord, Player, Standing, Summary
from bot.routers import stats
from engine import Action, Deal, Match
from tests.engine.helpers import deal_from, play

BINGO_HANDS = ("66 55 44 61 52 43 31", "65 64 63 54 53 42 41")
BINGO_STOCK = "00 10 11 20 21 22 30 32 33 40 50 51 60 62"
"""A Bingo deal where the first player declares three doubles, wins the trick and closes the reserve."""
FORTYTWO_HANDS = ("63 41 55 10 65 21 53", "33 43 30 32 61 20 31")
FORTYTWO_STOCK = "44 50 40 52 22 11 42 51 54 62 60 64 66 00"
"""A 42 deal the second seat opens (the first match seed 5 dealt before deals had secrets)."""


def record_of(deal: Deal, a: str, b: str, *, turn_timeout: int = 0) -> MatchRecord:
    return MatchRecord(
        turn_timeout=turn_timeout,
        id="m1",
        chat_id=-100,
        players=(Player(id=1, name=a), Player(id=2, name=b)),
        lang="ru",
        created=0,
        updated=0,
        deal=StoredDeal.of(Match(deal)),
    )


def forty_two_in_play() -> Deal:
    """A 42 deal after its draw: the first seat bids 30, the other passes, blanks are trumps, one trick played."""
    deal = deal_from("42", FORTYTWO_HANDS, FORTYTWO_STOCK, 1)
    while deal.view(None).phase.value == "draw":
        deal.play(deal.legal_actions()[0])
    play(deal, "B30 P")
    return deal


def render_all(tr: Translator, a: str, b: str) -> dict[str, str]:
    """Each case's text, rendered as the bot renders it, with players named ``a`` and ``b``."""
    out: dict[str, str] = {}
    pa, pb = Player(id=1, name=a), Player(id=2, name=b)
    challenge = Challenge(
        id="c1", chat_id=-100, creator=pa, preset="bingo", target=8, lang="ru", created=0, expires=600
    )
    out["challenge-anyone"] = render.challenge_text(tr, challenge)
    out["challenge-invite"] = render.challenge_text(tr, challenge.model_copy(update={"opponent_name": b}))
    for key in ("challenge-withdrawn", "challenge-cancelled", "challenge-expired"):
        out[key] = render.challenge_closed_text(tr, challenge, key)

    bingo = deal_from("bingo", BINGO_HANDS, BINGO_STOCK)
    record = record_of(bingo, a, b)
    out["challenge-accepted"] = render.challenge_accepted_text(tr, record, "bingo", 8)
    play(bingo, "66*")
    out["bingo-table-claim"] = render.table_text(tr, record, bingo.view(None))
    out["bingo-panel-claimed"] = render.panel_text(tr, record, bingo.view(0))
    out["bingo-panel-to-answer"] = render.panel_text(tr, record, bingo.view(1))
    classic = play(deal_from("bingo-classic", BINGO_HANDS, BINGO_STOCK), "66*")
    out["classic-table-claim"] = render.table_text(tr, record, classic.view(None))
    play(bingo, "41 X 43")
    out["bingo-table-closed"] = render.table_text(tr, record, bingo.view(None))
    out["bingo-panel-closed"] = render.panel_text(tr, record, bingo.view(1))
    out["bingo-panel-clock"] = render.panel_text(tr, record_of(bingo, a, b, turn_timeout=600), bingo.view(1))
    out["refusal-follow"] = render.refusal_text(tr, bingo.refusal(Action.parse("10")), bingo.view(1))
    while bingo.end is None:
        bingo.play(bingo.legal_actions()[0])
    out["bingo-deal-result"] = render.deal_result_text(tr, record, bingo)

    summary = Summary(
        id="m1",
        chat_id=-100,
        preset="bingo",
        players=(pa, pb),
        score=(8, 3),
        winner=0,
        finish=Finish.TARGET,
        finished=1_780_000_000,
        rating_change=17,
        ratings=(1517, 1483),
    )
    out["match-won"] = render.match_result_text(tr, record, summary)
    out["rating-change"] = render.rating_text(tr, record, summary) or ""
    surrendered = summary.model_copy(update={"finish": Finish.SURRENDER, "winner": 1, "score": (2, 5)})
    forfeited = summary.model_copy(update={"finish": Finish.FORFEIT, "winner": 1, "score": (4, 6)})
    abandoned = summary.model_copy(
        update={"finish": Finish.ABANDONED, "winner": None, "score": (3, 2), "ratings": None, "rating_change": 0}
    )
    out["match-forfeit"] = render.match_result_text(tr, record, forfeited)
    out["match-abandoned"] = render.match_result_text(tr, record, abandoned)
    out["reminder-private"], out["reminder-group"] = render.reminder_texts(tr, record, 1, 295)
    out["history-row-forfeit"] = stats.summary_line(tr, forfeited)
    out["history-row-abandoned"] = stats.summary_line(tr, abandoned)
    out["stats-match-row-abandoned"] = stats.summary_line(tr, abandoned, for_user=1)
    out["match-surrender"] = render.match_result_text(tr, record, surrendered)
    out["surrender-confirm"] = render.surrender_question(tr, record, 1)
    out["need-start"] = render.player_notice(tr, record, 0, started=False)
    out["player-blocked"] = render.player_notice(tr, record, 1, started=True)

    fortytwo = forty_two_in_play()
    record = record_of(fortytwo, a, b)
    out["42-table-trumps"] = render.table_text(tr, record, fortytwo.view(None))
    fortytwo.play("T0")
    for _ in range(2):
        fortytwo.play(fortytwo.legal_actions()[0])
    out["42-table-play"] = render.table_text(tr, record, fortytwo.view(None))
    out["42-panel-play"] = render.panel_text(tr, record, fortytwo.view(1))
    while fortytwo.end is None:
        fortytwo.play(fortytwo.legal_actions()[0])
    out["42-deal-result"] = render.deal_result_text(tr, record, fortytwo)
    passed = deal_from("42", FORTYTWO_HANDS, FORTYTWO_STOCK, 1)
    while passed.view(None).phase.value == "draw":
        passed.play(passed.legal_actions()[0])
    play(passed, "P P")
    out["42-all-passed"] = render.deal_result_text(tr, record, passed)

    out["top-row"] = stats.standing_line(tr, Standing(rank=2, user_id=2, name=b, rating=1483, played=4, won=1, lost=3))
    out["history-row"] = stats.summary_line(tr, surrendered)
    out["stats-match-row"] = stats.summary_line(tr, summary, for_user=2)
    fair = record.model_copy(update={"fair": FairKey(key="00" * 32, seeds=("ala & kot", "źdźbło"))})
    out["fair-seeds"] = render.seeds_line(tr, fair)
    computer = fair.model_copy(update={"players": (pa, pb.model_copy(update={"level": "hard"}))})
    out["fair-seeds-computer"] = render.seeds_line(tr, computer)
    return out
