"""The materials of an overstep claim the server holds count as present (002 §4.3.6): the
ledger's letters, the game record and the time chart; only paper the server never received
(registered-mail receipts of a postal game, 002 §4.3.4) is recorded by the referee."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import Channel, GameResult, Participant
from tests.cases.test_overstep_claims import LATE

if TYPE_CHECKING:
    from tests.cases.conftest import Cup


def _plays(cup: Cup, channel: Channel, *numbers: int) -> None:
    with cup.database.transaction() as session:
        for participant in session.scalars(select(Participant).where(
                Participant.tournament_id == cup.tournament_id,
                Participant.start_number.in_(numbers))):
            participant.channel = channel


def _web_claim(cup: Cup, who: str, game_id: int, claimant: str) -> int:
    """A player's claim as the web form posts it: no materials (the form asks for none)."""
    form = cup.client(who).get(f"/cases/new/{cup.code}").data.decode()
    assert 'name="overstep-evidence"' not in form
    response = cup.client(who).post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": game_id, "overstep-claimant": claimant, "overstep-held_move": "d4-c5",
        "overstep-letter": "Заявляю о просрочке."})
    assert response.status_code == 303, response.data.decode()
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_a_web_claim_is_confirmed_on_the_servers_letters_and_chart(cup: Cup, set_today) -> None:
    _plays(cup, Channel.WEB, 1, 6)
    cup.play(1, 6, LATE, channel=Channel.EMAIL)  # Black's reply took 76 days
    set_today(dt.date(2026, 11, 25))
    case_id = _web_claim(cup, "player1", cup.games[(1, 6)], "white")
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert sorted(row.payload["evidence"]) == [
            "game_record", "offender_letters", "overstep_notice", "time_chart"]
    client = cup.client("referee")
    with client.session_transaction() as session:
        session["locale"] = "en"
    page = client.get(f"/cases/{case_id}").data.decode()
    assert "The server holds this game's letters" in page
    assert "missing" not in page.split("Materials")[1].split("</dd>")[0]
    assert f'action="/cases/{case_id}/evidence"' not in page  # nothing for the referee to tick
    set_today(dt.date(2026, 12, 6))  # after the accused's ten days (002 §4.3.8)
    cup.act("referee", case_id, "decide", ruling="confirmed")
    with cup.database.session() as session:
        assert cup.game(session, 1, 6).result is GameResult.WHITE_WIN


def test_a_postal_claim_asks_only_for_the_paper_the_server_never_held(
        cup: Cup, set_today) -> None:
    _plays(cup, Channel.POST, 1, 6)
    cup.play(1, 6, LATE)  # postcards entered with their dates
    set_today(dt.date(2026, 11, 25))
    case_id = _web_claim(cup, "player1", cup.games[(1, 6)], "white")
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert sorted(row.payload["evidence"]) == [
            "game_record", "offender_letters", "overstep_notice", "time_chart"]
    set_today(dt.date(2026, 12, 6))
    text = cup.act("referee", case_id, "decide", 422, ruling="confirmed")
    assert "квитанции заказных писем" in text or "registered" in text
    assert "график времени" not in text.split("квитанции")[0][-300:]
