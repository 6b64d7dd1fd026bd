"""Every case letter for a player goes where his game letters go (002 §4.1.1,
``game_letter_addressees``): to his own address when he plays by e-mail or on the web; to the
steward, who posts it on or reads it out, when he plays by post or by telephone — even though a
postal player's address is on file. For the steward the letter names the player it is for.

One test per kind of case letter: an overstep claim's notice, its decisions and the held reply
(002 §4.3.6–4.3.7), a dispute's decision and the decision on its protest (002 §4.1.12), a
withdrawal's decision and ban (002 §4.5.3, §4.1.14), a sanction (002 §4.1.10), a special break
(002 §4.4.5). A missing game record's letter to a postal player: test_game_records.py."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from corrmail.models import Channel, OutboxMessage, Participant, Player
from tests.cases.conftest import delivered
from tests.cases.test_overstep_claims import IN_TIME, LATE, claim

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

CHANNELS = [Channel.POST, Channel.PHONE, Channel.EMAIL, Channel.WEB]
OFFICIALS = {"steward@example.org", "referee@example.org", "referee2@example.org",
             "organizer@example.org"}


def plays_by(cup: Cup, channel: Channel) -> None:
    """Every player of the cup plays by ``channel``; each has an e-mail address on file."""
    with cup.database.transaction() as session:
        for participant in session.scalars(select(Participant).where(
                Participant.tournament_id == cup.tournament_id)):
            assert participant.player.email
            participant.channel = channel


def reader(number: int, channel: Channel) -> str:
    """Where the letter for player ``number`` goes (see :func:`delivered`)."""
    if channel in (Channel.EMAIL, Channel.WEB):
        return f"p1-{number}@example.org"
    return f"steward@example.org → Player 1.{number}"


def to_players(cup: Cup, kind: str, case_id: int | None = None) -> list[str]:
    """The letters of ``kind`` written for players, leaving out the officials' own copies."""
    with cup.database.session() as session:
        query = select(OutboxMessage).where(OutboxMessage.kind == kind)
        if case_id is not None:
            query = query.where(OutboxMessage.case_id == case_id)
        rows = list(session.scalars(query.order_by(OutboxMessage.id)))
        return [where for where in delivered(rows) if where not in OFFICIALS]


def expected(channel: Channel, *numbers: int) -> list[str]:
    return sorted(reader(number, channel) for number in numbers)


def claimed(cup: Cup, set_today: Callable[[dt.date], None], channel: Channel,
            letters: list[tuple[str, dt.date, dt.date | None]], on: dt.date) -> int:
    """Player 1 (White) claims on ``on`` in game 1 — 6 played with ``letters``, everyone
    playing by ``channel``."""
    plays_by(cup, channel)
    cup.play(1, 6, letters)
    set_today(on)
    return claim(cup, "player1", cup.games[(1, 6)], "white")


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: c.value)
def test_a_confirmed_claim(cup: Cup, set_today, channel: Channel) -> None:
    case_id = claimed(cup, set_today, channel, LATE, dt.date(2026, 11, 25))
    # The accused is told of the claim (002 §4.3.6).
    assert to_players(cup, "case.overstep.claim_opened", case_id) == expected(channel, 6)
    set_today(dt.date(2026, 12, 6))
    cup.act("referee", case_id, "decide", ruling="confirmed")
    assert to_players(cup, "case.overstep.confirmed", case_id) == expected(channel, 1, 6)


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: c.value)
def test_a_rejected_claim_and_its_held_reply(cup: Cup, set_today, channel: Channel) -> None:
    case_id = claimed(cup, set_today, channel, IN_TIME, dt.date(2026, 9, 25))
    cup.act("referee", case_id, "decide", ruling="rejected", reasons="15/19 days")
    assert to_players(cup, "case.overstep.rejected", case_id) == expected(channel, 1, 6)
    # The held reply reaches the accused where his partner's moves reach him (002 §4.3.7).
    assert to_players(cup, "case.overstep.held_move", case_id) == expected(channel, 6)


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: c.value)
def test_a_dispute_and_the_decision_on_its_protest(cup: Cup, channel: Channel) -> None:
    plays_by(cup, channel)
    filed = cup.post("player1", f"/cases/new/{cup.code}/dispute", **{
        "dispute-game": cup.games[(1, 6)], "dispute-subject": "the move number is wrong"})
    case_id = int(filed.rsplit("/", 1)[1])
    cup.act("steward", case_id, "decide", ruling="dismissed")
    assert to_players(cup, "case.dispute.decision", case_id) == expected(channel, 1, 6)
    cup.act("player1", case_id, "protest", party="white", grounds="it is wrong")
    cup.act("referee", case_id, "decide", ruling="upheld")
    assert to_players(cup, "case.protest.decision", case_id) == expected(channel, 1, 6)


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: c.value)
def test_a_withdrawal_and_its_ban(cup: Cup, set_today, channel: Channel) -> None:
    plays_by(cup, channel)
    # His person's number differs from his entry's, as it does in a federation's database:
    # each letter tells its own reader's protest right, read by his entry (002 §4.1.12).
    with cup.database.transaction() as session:
        entry = session.get(Participant, cup.participant_id(6))
        assert entry is not None
        moved = Player(name=entry.player.name, email=entry.player.email, language="ru")
        session.add(moved)
        session.flush()
        assert moved.id != entry.id
        entry.player = moved
    set_today(dt.date(2026, 10, 1))
    location = cup.post("referee", f"/cases/new/{cup.code}/withdrawal", **{
        "withdrawal-participant": cup.participant_id(6), "withdrawal-withdrew_on": "2026-10-01",
        "withdrawal-without_good_reason": "y", "withdrawal-reason": "left"})
    case_id = int(location.rsplit("/", 1)[1])
    cup.act("referee", case_id, "decide", reasons="left without a word")
    # He and each of his five partners (002 §4.4.2).
    assert to_players(cup, "case.withdrawal.decision", case_id) == expected(
        channel, 1, 2, 3, 4, 5, 6)
    with cup.database.session() as session:
        letters = cup.outbox(session, "case.withdrawal.decision")
        for letter in letters:
            own = "Протест можно подать до 11.10.2026 включительно (002 §4.1.12)"
            assert (own in letter.body_text) == (delivered([letter])[0] not in OFFICIALS), \
                letter.body_text
    set_today(dt.date(2026, 12, 1))
    cup.act("organizer", case_id, "ban", until="2027-10-01")
    assert to_players(cup, "case.withdrawal.ban", case_id) == expected(channel, 6)


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: c.value)
def test_a_sanction(cup: Cup, channel: Channel) -> None:
    plays_by(cup, channel)
    cup.post("steward", f"/cases/new/{cup.code}/sanction", **{
        "sanction-participant": cup.participant_id(2), "sanction-sanction": "reprimand",
        "sanction-rules_violated": "002 §4.2.6", "sanction-game": 0,
        "sanction-reasons": "late again"})
    assert to_players(cup, "case.sanction.imposed") == expected(channel, 2)


@pytest.mark.parametrize("channel", CHANNELS, ids=lambda c: c.value)
def test_a_special_break(cup: Cup, set_today, channel: Channel) -> None:
    plays_by(cup, channel)
    set_today(dt.date(2026, 11, 20))
    filed = cup.post("player4", f"/cases/new/{cup.code}/break", **{
        "break-participant": cup.participant_id(4), "break-break_kind": "retroactive",
        "break-start": "2026-11-10", "break-end": "2026-11-19", "break-reason": "in hospital"})
    case_id = int(filed.rsplit("/", 1)[1])
    cup.act("referee", case_id, "decide", ruling="granted", start="2026-11-12",
            end="2026-11-19")
    # He and his partners, who must know his clock stops (002 §4.4.5).
    assert to_players(cup, "case.special_break.granted", case_id) == expected(
        channel, 1, 2, 3, 4, 5, 6)
