"""Tournament list, tournament page, game page and outbox viewer, in Russian and English."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_CODE
from corrmail.games.ledger import LetterInput, append_letter
from corrmail.models import (
    AuditEntry,
    Channel,
    Game,
    GameResult,
    GameState,
    Letter,
    OutboxMessage,
    Participant,
    Player,
    Role,
    Tournament,
    TournamentOfficial,
    User,
)


def test_tournament_list_shows_the_demo(
    organizer_client: FlaskClient, demo_tournament: Tournament
) -> None:
    page = organizer_client.get("/tournaments/").get_data(as_text=True)
    assert DEMO_CODE in page
    assert "Турниры" in page  # Russian by default


def test_english_on_request(organizer_client: FlaskClient, demo_tournament: Tournament) -> None:
    response = organizer_client.post(
        "/locale", data={"locale": "en"}, headers={"Referer": "http://localhost/tournaments/"}
    )
    assert response.headers["Location"] == "http://localhost/tournaments/"
    page = organizer_client.get("/tournaments/").get_data(as_text=True)
    assert "Tournaments" in page and "Турниры" not in page
    assert 'lang="en"' in page


def test_locale_switch_does_not_redirect_off_site(organizer_client: FlaskClient) -> None:
    response = organizer_client.post(
        "/locale", data={"locale": "en"}, headers={"Referer": "https://evil.example/"}
    )
    assert response.headers["Location"] == "/tournaments/"


def test_tournament_page_lists_players_and_who_is_to_move(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database
) -> None:
    # A steward sees the tournaments he serves (and only those): the demo's steward.
    steward_client = login(Role.STEWARD, login="page-steward")
    with database.transaction() as session:
        steward = session.scalar(select(User).where(User.login == "page-steward"))
        assert steward is not None
        session.add(TournamentOfficial(tournament_id=demo_tournament.id, user_id=steward.id,
                                       role=Role.STEWARD))
    page = steward_client.get(f"/tournaments/{DEMO_CODE}").get_data(as_text=True)
    assert "Иванов Пётр Сергеевич" in page
    assert "Соколов Денис Юрьевич" in page
    assert page.count("<tr data-game=") == 15
    assert "просрочка времени" in page  # the overstepped game
    assert "Ход за" in page


def test_unknown_tournament_is_404(steward_client: FlaskClient) -> None:
    assert steward_client.get("/tournaments/НЕТ-ТАКОГО").status_code == 404


def test_game_page_shows_letters_and_a_correction_beside_its_original(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    with database.transaction() as session:
        tournament = session.get(Tournament, make_tournament(players=2).id)
        assert tournament is not None
        white, black = tournament.participants
        game = Game(
            tournament_id=tournament.id, round=1, white_id=white.id, black_id=black.id,
            state=GameState.IN_PLAY,
        )  # fmt: skip
        session.add(game)
        session.flush()
        first = append_letter(
            session, game, LetterInput(white.id, Channel.POST, moves_text="c3-d4"), None
        )
        append_letter(
            session,
            game,
            LetterInput(black.id, Channel.POST, moves_text="f6-g5", raw_text="Мой ход: f6-g5."),
            None,
        )
        append_letter(
            session,
            game,
            LetterInput(white.id, Channel.POST, moves_text="c3-b4", corrects_letter_id=first.id),
            None,
        )
        game_id = game.id
    page = organizer_client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "исправляет письмо 1" in page
    assert "исправлено письмом 3" in page
    assert 'class="corrected"' in page
    assert "Мой ход: f6-g5." in page
    moves = page.split('<ol class="moves">')[1].split("</ol>")[0]
    assert "c3-b4" in moves and "c3-d4" not in moves


def test_players_see_only_their_own_games(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database
) -> None:
    with database.session() as session:
        ivanov = session.scalar(select(Player).where(Player.name.startswith("Иванов")))
        assert ivanov is not None
        games = session.scalars(select(Game).where(Game.tournament_id == demo_tournament.id))
        own = [g.id for g in games if ivanov.id in (g.white.player_id, g.black.player_id)]
        others = session.scalars(select(Game.id).where(Game.id.not_in(own))).all()
    client = login(Role.PLAYER)  # a player without games first
    assert client.get(f"/games/{own[0]}").status_code == 403
    client.post("/logout")
    client.post("/login", data={"login": "ivanov", "password": "demo2026"})
    assert client.get(f"/games/{own[0]}").status_code == 200
    assert client.get(f"/games/{others[0]}").status_code == 403
    assert client.get("/games/999999").status_code == 404


def test_demo_game_page_shows_the_finished_result(
    organizer_client: FlaskClient, demo_tournament: Tournament, database: Database
) -> None:
    with database.session() as session:
        finished = session.scalar(
            select(Game).where(Game.result == GameResult.WHITE_WIN, Game.result_kind == "played")
        )
        assert finished is not None
        game_id = finished.id
    page = organizer_client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "1–0" in page and "Сдаюсь" in page


def test_outbox_viewer_shows_the_captured_letter(
    organizer_client: FlaskClient, demo_tournament: Tournament, database: Database
) -> None:
    listing = organizer_client.get("/admin/outbox").get_data(as_text=True)
    assert "стартовый лист" in listing
    with database.session() as session:
        sheet = session.scalar(select(OutboxMessage.id).where(OutboxMessage.kind == "start_sheet"))
    detail = organizer_client.get(f"/admin/outbox/{sheet}").get_data(as_text=True)
    assert "Auto-Submitted" in detail
    assert f"Турнир {DEMO_CODE} начинается 01.09.2026" in detail
    assert organizer_client.get("/admin/outbox?status=captured").status_code == 200
    assert organizer_client.get("/admin/outbox/999").status_code == 404


def test_stewards_see_games_of_their_own_tournament_only(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database
) -> None:
    with database.session() as session:
        game_id = session.scalars(
            select(Game.id).where(Game.tournament_id == demo_tournament.id)
        ).first()
    outsider = login(Role.STEWARD)
    assert outsider.get(f"/games/{game_id}").status_code == 403
    assigned = outsider.application.test_client()
    assigned.post("/login", data={"login": "steward", "password": "demo2026"})
    assert assigned.get(f"/games/{game_id}").status_code == 200


def _demo_game(database: Database, demo_tournament: Tournament) -> tuple[int, int, int]:
    """(game id, id of its first letter, sender of that letter) of an in-play demo game."""
    with database.session() as session:
        game = session.scalar(
            select(Game).where(
                Game.tournament_id == demo_tournament.id, Game.state == GameState.IN_PLAY
            ).order_by(Game.id)
        )
        assert game is not None
        first = game.letters[0]
        assert first.sender_id is not None
        return game.id, first.id, first.sender_id


def test_steward_records_a_correction_and_the_page_shows_both(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database
) -> None:
    game_id, first_id, sender_id = _demo_game(database, demo_tournament)
    with database.session() as session:
        stored = session.get(Letter, first_id)
        assert stored is not None
        stored_postmark = stored.postmark_date
    # The correction reads the postmark as a day the original does not carry (002 §4.2.5).
    corrected = (stored_postmark or dt.date(2026, 9, 2)) + dt.timedelta(days=1)
    steward = login(Role.STEWARD)
    assert steward.get(f"/games/{game_id}/letters/new").status_code == 403  # not his tournament
    steward.post("/logout")
    steward.post("/login", data={"login": "steward", "password": "demo2026"})
    assert "Внести письмо" in steward.get(f"/games/{game_id}").get_data(as_text=True)
    response = steward.post(
        f"/games/{game_id}/letters/new",
        data={
            "sender": str(sender_id), "channel": "post", "corrects": str(first_id),
            "postmark_date": corrected.isoformat(),
            "raw_text": f"Штемпель читается как {corrected:%d.%m.%Y}",
        },
    )  # fmt: skip
    assert response.status_code == 302
    page = steward.get(f"/games/{game_id}").get_data(as_text=True)
    assert "исправлено письмом" in page and "исправляет письмо 1" in page
    with database.session() as session:
        original = session.get(Letter, first_id)
        # The original entry is never edited in place: its postmark is what it was.
        assert original is not None and original.postmark_date == stored_postmark
        correction = session.scalars(
            select(Letter).where(Letter.corrects_letter_id == first_id)
        ).one()
        assert correction.postmark_date == corrected
        audit = session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
        assert audit is not None and (audit.action, audit.rule) == ("letter.correct", "002 §4.2.5")


def test_a_correction_from_the_other_player_is_refused(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database
) -> None:
    game_id, first_id, sender_id = _demo_game(database, demo_tournament)
    with database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        other = game.black_id if sender_id == game.white_id else game.white_id
        letters_before = len(game.letters)
    client = login(Role.ORGANIZER)
    response = client.post(
        f"/games/{game_id}/letters/new",
        data={
            "sender": str(other),
            "channel": "post",
            "corrects": str(first_id),
            "moves_text": "c3-b4",
        },
    )
    assert response.status_code == 422
    assert "002 §4.2.5" in response.get_data(as_text=True)
    with database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None and len(game.letters) == letters_before


def test_players_cannot_enter_letters(
    login: Callable[..., FlaskClient], demo_tournament: Tournament, database: Database
) -> None:
    game_id, _, _ = _demo_game(database, demo_tournament)
    client = login(Role.PLAYER)
    client.post("/logout")
    client.post("/login", data={"login": "ivanov", "password": "demo2026"})
    assert client.get(f"/games/{game_id}/letters/new").status_code == 403


def test_the_demo_start_sheet_tells_a_postal_player_where_to_write(
    client: FlaskClient, demo_tournament: Tournament, database: Database
) -> None:
    """The demo's steward has a postal address, so its printed start sheets name where a
    postal player sends his cards (002 §4.1.1, 002 §4.3.2) instead of warning that none is
    on record."""
    with database.session() as session:
        participant_id = session.scalars(select(Participant.id).where(
            Participant.tournament_id == demo_tournament.id).order_by(Participant.start_number)
        ).first()
    client.post("/login", data={"login": "steward", "password": "demo2026"})
    sheet = client.get(f"/tournaments/{DEMO_CODE}/start-sheets/{participant_id}/print")
    assert sheet.status_code == 200
    page = sheet.get_data(as_text=True)
    assert "ул. Волхонка, 14" in page
    assert 'role="alert"' not in page
