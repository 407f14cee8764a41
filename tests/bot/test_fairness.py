"""Provably fair deals in the services and the texts (fakeredis): players' seeds (``/seed``), the match key drawn
when a challenge opens and committed on its message, the seeds recorded at the accept and mixed into every deal,
what the table, the panels and the result show, and records made before any of it."""

from __future__ import annotations

import hashlib
import random

import pytest

from bot import render
from bot.codec import StoredDeal
from bot.i18n import I18n
from bot.models import SEED_LIMIT, Challenge, FairKey, Finish, MatchRecord, Player, Status, Summary
from bot.services import Services
from bot.services.fairness import clean_seed
from engine import Match
from engine.fairness import COMPUTER_SEED, commitment, deal_key, deal_secret, fingerprint, seeded_key
from tests.bot.helpers import ALA, BOB, CEZ, CHAT, play_random

TR = I18n()["ru"]


async def accepted(services: Services, joiner: Player = BOB, **options: object) -> tuple[Challenge, MatchRecord]:
    """A challenge opened by Ala and accepted by ``joiner`` (a match dealt from a key and seeds: no given seed)."""
    challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru", **options)  # type: ignore[arg-type]
    return challenge, await services.challenges.accept(challenge.id, joiner)


class TestSeeds:
    """A player's seed: their own words, else a random one kept from the first time it is needed."""

    async def test_default_is_kept(self, services: Services) -> None:
        first = await services.fairness.seed(ALA.id)
        assert first and len(first) <= SEED_LIMIT
        assert await services.fairness.seed(ALA.id) == first
        assert await services.fairness.seed(BOB.id) != first

    async def test_set_and_changed(self, services: Services) -> None:
        """Words typed with any spaces become one line; setting again replaces them."""
        assert await services.fairness.set_seed(ALA.id, "  ala\n ma   kota ") == "ala ma kota"
        assert await services.fairness.seed(ALA.id) == "ala ma kota"
        assert await services.fairness.set_seed(ALA.id, "Źdźbło") == "Źdźbło"
        assert await services.fairness.seed(ALA.id) == "Źdźbło"

    @pytest.mark.parametrize("text", ["", "   ", "x" * (SEED_LIMIT + 1)])
    async def test_refused(self, services: Services, text: str) -> None:
        """An empty seed, or one over the limit, is refused and the seed kept."""
        await services.fairness.set_seed(ALA.id, "mine")
        with pytest.raises(ValueError):
            await services.fairness.set_seed(ALA.id, text)
        assert await services.fairness.seed(ALA.id) == "mine"

    async def test_limit_counts_the_cleaned_words(self, services: Services) -> None:
        words = "x" * (SEED_LIMIT - 2) + "   " + "y"
        assert len(clean_seed(words)) == SEED_LIMIT
        assert await services.fairness.set_seed(ALA.id, words) == clean_seed(words)

    async def test_the_computer_has_none(self, services: Services) -> None:
        computer = Player(id=-5, name="🤖", level="hard")
        assert await services.fairness.seed_of(computer) == COMPUTER_SEED == ""


class TestCommittedKey:
    """The key is drawn when the challenge is opened; the seeds are taken at the accept; every deal comes from
    both."""

    async def test_drawn_at_the_opening(self, services: Services) -> None:
        a = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        b = await services.challenges.open(CHAT, BOB, "bingo", "ru")
        assert a.key is not None and b.key is not None and a.key != b.key
        assert len(bytes.fromhex(a.key)) == 32
        assert await services.challenges.challenge(a.id) == a

    async def test_the_match_is_dealt_from_the_key_and_the_seeds_at_the_accept(self, services: Services) -> None:
        """Ala opens, then changes her seed; Bob sets his and accepts: the match records the challenge's key and
        both seeds as they stood at the accept, and deals each deal from them."""
        await services.fairness.set_seed(ALA.id, "before")
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru", target=3)
        await services.fairness.set_seed(ALA.id, "after the opening")
        await services.fairness.set_seed(BOB.id, "bob's own")
        record = await services.challenges.accept(challenge.id, BOB)
        assert record.fair == FairKey(key=challenge.key or "", seeds=("after the opening", "bob's own"))
        dealt = deal_key(bytes.fromhex(record.fair.key), record.fair.seeds)
        match = record.match()
        assert match.deal.key == dealt and match.deal.secret == deal_secret(dealt, 1)
        # A seed changed after the accept changes nothing of this match.
        await services.fairness.set_seed(BOB.id, "later")
        result = await play_random(services, record, match, random.Random(3))
        assert result.record.status is Status.FINISHED and result.record.fair == record.fair
        for line in result.record.log:
            assert line.d is not None
            assert line.d.x == deal_secret(dealt, line.n).hex()

    async def test_other_seeds_other_deals(self, services: Services) -> None:
        """The same key with another seed deals another match."""
        _, record = await accepted(services)
        assert record.fair is not None
        other = deal_key(bytes.fromhex(record.fair.key), (record.fair.seeds[0], record.fair.seeds[1] + "!"))
        assert Match.new("bingo", 1, key=other).deal.start_hands != record.match().deal.start_hands

    async def test_against_the_computer(self, services: Services) -> None:
        """The computer's seat brings the empty string."""
        await services.fairness.set_seed(ALA.id, "solo")
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        record = await services.challenges.play_computer(challenge.id, ALA.id, "easy", "🤖")
        assert record.fair == FairKey(key=challenge.key or "", seeds=("solo", COMPUTER_SEED))

    async def test_a_given_seed_is_as_before(self, services: Services) -> None:
        """A match made from a given seed (tests) is that seed's alone: no key, no seeds."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        record = await services.challenges.accept(challenge.id, BOB, seed=5)
        assert record.fair is None and record.match() == Match.new("bingo", 5)

    async def test_a_challenge_opened_before_keys(self, services: Services) -> None:
        """A challenge stored before keys were drawn at the opening gets one at the accept."""
        challenge = await services.challenges.open(CHAT, ALA, "bingo", "ru")
        old = challenge.model_copy(update={"key": None})
        assert Challenge.model_validate_json(old.model_dump_json(exclude={"key"})).key is None
        key = services.stores.keys.challenge(challenge.id)
        ttl = await services.stores.redis.ttl(key)
        await services.stores.redis.set(key, old.model_dump_json(exclude={"key"}), ex=ttl)
        record = await services.challenges.accept(challenge.id, BOB)
        assert record.fair is not None and record.fair.key != challenge.key

    async def test_a_rematch_has_a_key_of_its_own(self, services: Services) -> None:
        _, record = await accepted(services, target=1)
        result = await play_random(services, record, record.match(), random.Random(1))
        assert result.record.status is Status.FINISHED
        first = await services.rematches.press(record.id, ALA)
        again = await services.rematches.press(record.id, BOB)
        assert again.record is not None and again.record.fair is not None
        assert again.record.fair.key == first.challenge.key != record.fair.key  # type: ignore[union-attr]

    async def test_a_tournament_pairing(self, services: Services) -> None:
        """A pairing's match is dealt from a key drawn at its start and the players' seeds then."""
        await services.fairness.set_seed(BOB.id, "bob")
        await services.fairness.set_seed(CEZ.id, "cez")
        t = await services.tournaments.open(CHAT, ALA, "bingo", 1, "ru", thread_id=None)
        for player in (BOB, CEZ):
            await services.tournaments.toggle(t.id, player)
        await services.tournaments.begin(t.id, ALA.id)
        started = (await services.tournament_play.progress(t.id)).started
        assert started
        for record in started:
            assert record.fair is not None
            seeds = tuple([await services.fairness.seed(p.id) for p in record.players])
            assert record.fair.seeds == seeds
            assert record.match().deal.key == deal_key(bytes.fromhex(record.fair.key), record.fair.seeds)


class TestStored:
    """The record and the challenge as stored, now and as records made before keys and seeds."""

    def test_round_trip(self) -> None:
        fair = FairKey(key="ab" * 32, seeds=("ala", ""))
        key = deal_key(bytes.fromhex(fair.key), fair.seeds)
        match = Match.new("42", 3, key=key)
        record = MatchRecord(id="m", chat_id=CHAT, players=(ALA, BOB), lang="pl", created=0, updated=0,
                             deal=StoredDeal.of(match), fair=fair)  # fmt: skip
        again = MatchRecord.model_validate_json(record.model_dump_json())
        assert again == record and again.fair == fair
        assert again.deal.y == key.hex() and again.match() == match

    def test_an_old_record(self) -> None:
        """A record stored before keys were committed: no ``fair``; its deals go on from its key as before
        (deal n's secret is HMAC(key, "deal/n")), and nothing about a key is shown."""
        old_key = seeded_key(9)
        match = Match.new("bingo", 9, target=2, key=old_key)
        stored = StoredDeal.of(match).model_dump()
        record_json = MatchRecord(
            id="m", chat_id=CHAT, players=(ALA, BOB), lang="ru", created=0, updated=0, deal=StoredDeal.of(match)
        ).model_dump_json(exclude={"fair"})
        assert '"fair"' not in record_json
        record = MatchRecord.model_validate_json(record_json)
        assert record.fair is None and stored["y"] == old_key.hex()
        reloaded = record.match()
        rng = random.Random(4)
        while reloaded.deal.number == 1:
            reloaded.play(rng.choice(reloaded.legal_actions()))
        assert reloaded.deal.secret == deal_secret(old_key, 2)
        view = reloaded.deal.view(None)
        assert "🔐" not in render.table_text(TR, record, view) and "🗝" not in render.table_text(TR, record, view)


class TestShown:
    """What the texts show of the key, the seeds and the commitments, and when."""

    @staticmethod
    def record(seeds: tuple[str, str] = ("<ala>", "bob")) -> MatchRecord:
        fair = FairKey(key="cd" * 32, seeds=seeds)
        match = Match.new("bingo", 2, 2, key=deal_key(bytes.fromhex(fair.key), fair.seeds))
        return MatchRecord(id="m", chat_id=CHAT, players=(ALA, BOB), lang="ru", created=0, updated=0,
                           deal=StoredDeal.of(match), fair=fair)  # fmt: skip

    def test_challenge_shows_the_keys_commitment(self) -> None:
        challenge = Challenge(id="c", chat_id=CHAT, creator=ALA, preset="bingo", target=8, lang="ru", created=0,
                              expires=600, key="cd" * 32)  # fmt: skip
        text = render.challenge_text(TR, challenge)
        committed = hashlib.sha256(bytes.fromhex("cd" * 32)).hexdigest()
        assert f"<code>{committed}</code>" in text and "cd" * 32 not in text
        assert "🔐" not in render.challenge_text(TR, challenge.model_copy(update={"key": None}))
        record = self.record()
        assert record.fair is not None
        accepted_text = render.challenge_accepted_text(TR, record, "bingo", 8)
        assert f"<code>{commitment(bytes.fromhex(record.fair.key))}</code>" in accepted_text

    def test_deal_one_and_the_others(self) -> None:
        """Deal 1's table shows the key's commitment and the seeds (escaped), its panels the key's commitment and
        the deal's whole commitment; later deals' panels the deal's commitment only; the key never while the match
        is on."""
        record = self.record()
        match = record.match()
        assert record.fair is not None
        key_line = TR("fair-key-commitment", hash=commitment(bytes.fromhex(record.fair.key)))
        rng = random.Random(1)
        seen = set()
        while not match.is_over:
            deal = match.deal
            table = render.table_text(TR, record, deal.view(None))
            panels = [render.panel_text(TR, record, deal.view(seat)) for seat in (0, 1)]
            whole = deal.commitment
            assert whole is not None and len(whole) == 64
            assert f"<code>{fingerprint(whole)}</code>" in table and whole not in table
            assert all(f"<code>{whole}</code>" in panel for panel in panels)
            first = deal.number == 1
            assert (key_line in table) == first and all((key_line in panel) == first for panel in panels)
            assert ("<code>&lt;ala&gt;</code>" in table) == first
            assert record.fair.key not in table + "".join(panels)
            seen.add(deal.number)
            match.play(rng.choice(match.legal_actions()))
        assert len(seen) >= 2

    def test_the_result_reveals(self) -> None:
        """Once the match is over its result and the last panels show the key and both seeds."""
        record = self.record().model_copy(update={"status": Status.FINISHED, "winner": 0})
        summary = Summary(id="m", chat_id=CHAT, preset="bingo", players=record.players, score=(2, 0), winner=0,
                          finish=Finish.TARGET, finished=0)  # fmt: skip
        caption = render.result_caption(TR, record, summary)
        panel = render.panel_text(TR, record, record.match().deal.view(0), summary=summary)
        for text in (caption, panel):
            assert TR("fair-key", hex="cd" * 32) in text and render.seeds_line(TR, record) in text
        active = self.record()
        assert render.key_reveal_lines(TR, active) == []
