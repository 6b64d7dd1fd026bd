"""A ban the organizer recorded (002 §4.1.14) stops the player's entry into any tournament that
starts before it ends — by the manual form and by CSV import, where nothing is imported."""

from __future__ import annotations

import datetime as dt
import io
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import func, select

from corrmail.models import (
    GameResult,
    Participant,
    Tournament,
    TournamentChannel,
    TournamentSystem,
)
from corrmail.models import GameType as StoredGameType
from corrmail.tournaments.player_import import PlayerRow, read_player_csv
from corrmail.tournaments.registration import (
    RegistrationError,
    TournamentSpec,
    add_participant,
    create_tournament,
    import_participants,
)

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

WITHDREW = dt.date(2026, 12, 1)
BAN_UNTIL = dt.date(2028, 12, 1)
OPENING = [("c3-d4", dt.date(2026, 9, 1), None), ("f6-g5", dt.date(2026, 9, 10),
                                                  dt.date(2026, 9, 5))]


def ban_player_5(cup: Cup, set_today) -> tuple[str, str]:  # type: ignore[no-untyped-def]
    """Player 5 quits without a good reason after half his games; the organizer bans him."""
    *finished, unfinished, _unplayed = sorted(pair for pair in cup.games if 5 in pair)
    for pair in finished:
        cup.finish(*pair, GameResult.DRAW)
    cup.play(*unfinished, OPENING)
    set_today(WITHDREW)
    with cup.database.session() as session:
        participant = session.scalar(select(Participant).where(
            Participant.tournament_id == cup.tournament_id, Participant.start_number == 5))
        assert participant is not None
        participant_id, name, email = participant.id, participant.player.name, participant.player.email
    location = cup.post("referee", f"/cases/new/{cup.code}/withdrawal",
                        **{"withdrawal-participant": participant_id,
                           "withdrawal-withdrew_on": WITHDREW.isoformat(),
                           "withdrawal-reason": "stopped answering",
                           "withdrawal-without_good_reason": "y"})
    case_id = int(location.rsplit("/", 1)[1])
    cup.act("referee", case_id, "decide")
    cup.act("organizer", case_id, "ban", until=BAN_UNTIL.isoformat())
    return name, email


def new_tournament(cup: Cup, code: str, start: dt.date) -> int:
    with cup.database.transaction() as session:
        tournament = create_tournament(session, TournamentSpec(
            code=code, title="Кубок", game_type=StoredGameType.RUSSIAN,
            system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.EMAIL,
            start_date=start, end_date=start + dt.timedelta(days=700),
        ), None)
        return tournament.id


def entries(cup: Cup, tournament_id: int) -> int:
    with cup.database.session() as session:
        return session.scalar(select(func.count()).select_from(Participant).where(
            Participant.tournament_id == tournament_id)) or 0


def test_a_banned_player_is_refused_by_hand_and_by_file(cup: Cup, set_today) -> None:
    name, email = ban_player_5(cup, set_today)
    within = new_tournament(cup, "CUP-2", dt.date(2027, 3, 1))
    # By hand (the organizer's form): refused with the rule and the ban's end.
    page = cup.post("organizer", "/tournaments/CUP-2/players/new", 200, name=name,
                    email=email.upper())
    assert "002 §4.1.14" in page and "01.12.2028" in page
    with cup.database.transaction() as session:
        tournament = session.get(Tournament, within)
        assert tournament is not None
        with pytest.raises(RegistrationError) as refused:
            add_participant(session, tournament, PlayerRow(name=name, email=email), None)
        [error] = refused.value.errors
        assert error.column == "email" and "002 §4.1.14" in error.message
        assert "01.12.2028" in error.message
        # A CSV with him among others: the whole file is refused, nobody is entered.
        csv = f"ФИО;Email\nНовиков Олег;novikov@example.org\n{name};{email}\n".encode()
        with pytest.raises(RegistrationError) as whole:
            import_participants(session, tournament,
                                read_player_csv(csv, TournamentChannel.EMAIL), None)
        [line] = whole.value.errors
        assert line.line == 3 and "002 §4.1.14" in line.message and "01.12.2028" in line.message
    assert entries(cup, within) == 0
    # The web import says the same and imports nothing.
    response = cup.client("organizer").post(
        "/tournaments/CUP-2/players/import",
        data={"file": (io.BytesIO(csv), "players.csv")}, content_type="multipart/form-data")
    assert response.status_code == 422 and "002 §4.1.14" in response.data.decode()
    assert entries(cup, within) == 0


def test_a_tournament_starting_after_the_ban_enters_him(cup: Cup, set_today) -> None:
    name, email = ban_player_5(cup, set_today)
    on_the_last_day = new_tournament(cup, "CUP-3", BAN_UNTIL)
    after = new_tournament(cup, "CUP-4", BAN_UNTIL + dt.timedelta(days=1))
    with cup.database.transaction() as session:
        last_day = session.get(Tournament, on_the_last_day)
        assert last_day is not None
        with pytest.raises(RegistrationError):
            add_participant(session, last_day, PlayerRow(name=name, email=email), None)
    with cup.database.transaction() as session:
        later = session.get(Tournament, after)
        assert later is not None
        add_participant(session, later, PlayerRow(name=name, email=email), None)
        # Someone else is not touched by his ban.
        add_participant(session, later, PlayerRow(name="Новиков Олег",
                                                  email="novikov@example.org"), None)
    assert entries(cup, after) == 2
