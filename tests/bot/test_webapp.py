"""The Mini App's pure parts: what a viewer is shown (``bot.webapp.state``) and who is signed in
(``bot.webapp.auth``), and the buttons that open it."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import time
from urllib.parse import urlencode

import pytest

from bot import keyboards
from bot.codec import StoredDeal
from bot.games import PRESETS
from bot.i18n import I18n
from bot.models import Finish, MatchRecord, Player, Status
from bot.webapp.auth import MAX_AGE, init_data_of, signed_in
from bot.webapp.links import AppLinks
from bot.webapp.state import viewer_state
from engine import Match

I18N = I18n()
TOKEN = "123456:TEST-token"


def sign(fields: dict[str, str], token: str = TOKEN) -> str:
    """initData as Telegram signs it (core.telegram.org/bots/webapps#validating-data-received-via-the-mini-app):
    the fields sorted as ``key=value`` lines, HMAC-SHA-256 with the key HMAC-SHA-256("WebAppData", token)."""
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode({**fields, "hash": digest})


def launch(user_id: int = 7, *, auth_date: float | None = None, **extra: str) -> dict[str, str]:
    user = {"id": user_id, "first_name": "Аня", "language_code": "ru"}
    when = int(time.time() if auth_date is None else auth_date)
    return {"auth_date": str(when), "user": json.dumps(user, ensure_ascii=False), "query_id": "AAE1", **extra}


class TestSignedIn:
    def test_a_signed_launch_names_its_user(self) -> None:
        data = signed_in(TOKEN, sign(launch(7, start_param="m_abc")), time.time())
        assert data is not None and data.user is not None
        assert (data.user.id, data.start_param) == (7, "m_abc")

    @pytest.mark.parametrize(
        "init_data",
        [
            None,
            "",
            "user=%7B%22id%22%3A7%7D&auth_date=1",  # no hash
            sign(launch(7), token="654321:OTHER-token"),  # another bot's
        ],
        ids=["missing", "empty", "unsigned", "another bot"],
    )
    def test_refused(self, init_data: str | None) -> None:
        assert signed_in(TOKEN, init_data, time.time()) is None

    def test_a_changed_field_breaks_the_signature(self) -> None:
        good = sign(launch(7))
        forged = good.replace("%22id%22%3A+7", "%22id%22%3A+8").replace("%22id%22%3A%207", "%22id%22%3A%208")
        assert forged != good
        assert signed_in(TOKEN, forged, time.time()) is None

    def test_older_than_six_hours_is_refused(self) -> None:
        """L3: launch data is good for six hours (Telegram signs it anew each time the page opens)."""
        now = time.time()
        assert MAX_AGE == 6 * 3600
        assert signed_in(TOKEN, sign(launch(auth_date=now - MAX_AGE + 60)), now) is not None
        assert signed_in(TOKEN, sign(launch(auth_date=now - MAX_AGE - 60)), now) is None
        assert signed_in(TOKEN, sign(launch(auth_date=now - 23 * 3600)), now) is None

    def test_the_header(self) -> None:
        assert init_data_of("tma a=1&b=2") == "a=1&b=2"
        assert init_data_of("Bearer x") is None
        assert init_data_of(None) is None


def record_of(match: Match, *, status: Status = Status.ACTIVE) -> MatchRecord:
    return MatchRecord(
        id="m1", chat_id=-100, players=(Player(id=1, name="Аня"), Player(id=2, name="<b>Bo</b>")), lang="ru",
        created=0, updated=100, deal=StoredDeal.of(match), turn_timeout=60, status=status,
        winner=match.winner if status is not Status.ACTIVE else None,
        finish=Finish.TARGET if status is not Status.ACTIVE else None,
    )  # fmt: skip


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("lang", ["ru", "pl"])
def test_controls_are_exactly_the_legal_actions(preset: str, lang: str) -> None:
    """Through whole matches of each preset: the player to act has one enabled control per legal action and
    nothing else enabled; the other player nothing enabled; a spectator no hand and no controls; every state
    is JSON and carries no tile of a hand to anyone but its seat."""
    rng = random.Random(f"{preset}/{lang}")
    match = Match.new(preset, seed=rng.randrange(10**6))
    tr = I18N[lang]  # type: ignore[index]
    steps = 0
    while not match.is_over and steps < 150:
        record = record_of(match)
        legal = {a.notation() for a in match.legal_actions()}
        for seat in (0, 1):
            state = viewer_state(tr, record, match, seat, summary=None, now=130)
            json.dumps(state)
            enabled = {c["action"] for c in state["hand"] + state["actions"] if c["enabled"]}
            assert enabled == (legal if match.turn == seat else set()), (preset, steps, seat)
            assert [c["tile"] for c in state["hand"]] == [[t.high, t.low] for t in match.deal.view(seat).hand]
            assert state["deadline"] == (160 if match.turn is not None else None)
            assert state["lang"] == lang
        watching = viewer_state(tr, record, match, None, summary=None, now=130)
        assert watching["hand"] is None and watching["actions"] == [] and watching["prompt"] is None
        assert "<b>Bo</b>" not in json.dumps(watching, ensure_ascii=False)  # names are escaped
        action = rng.choice(match.legal_actions())
        match.play(action)
        steps += 1
    while not match.is_over:  # a 42 match takes longer: the rest without looking
        match.play(rng.choice(match.legal_actions()))
    over = viewer_state(tr, record_of(match, status=Status.FINISHED), match, 0, summary=None, now=130)
    assert over["state"] == "over" and over["result"] and over["deadline"] is None
    assert not any(c["enabled"] for c in over["hand"] + over["actions"])


def test_buttons_to_the_app() -> None:
    tr = I18N["pl"]
    links = AppLinks("https://tables.example/app", "table", "domino_bot")
    assert links.direct("m1") == "https://t.me/domino_bot/table?startapp=m_m1"
    assert links.panel("m1") == "https://tables.example/app?m=m1"
    table = keyboards.table_keyboard(tr, links.direct("m1"))
    assert table is not None and table.inline_keyboard[0][0].text == "🎴 Stół"
    assert AppLinks(None, "table", "domino_bot").direct("m1") is None
    assert AppLinks("https://tables.example/app", None, "domino_bot").direct("m1") is None
    match = Match.new("bingo", seed=1)
    turn = match.turn
    assert turn is not None
    rows = json.loads(keyboards.panel_json(tr, "m1", 3, match.deal.view(turn), app=links.panel("m1")) or "")
    assert rows["inline_keyboard"][-1] == [{"text": "🎴 Stół", "web_app": {"url": "https://tables.example/app?m=m1"}}]
    plain = json.loads(keyboards.panel_json(tr, "m1", 3, match.deal.view(turn)) or "")
    assert all("web_app" not in b for row in plain["inline_keyboard"] for b in row)
