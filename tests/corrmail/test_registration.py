"""Setting a tournament up: regulations, players by hand and from CSV."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable
from decimal import Decimal

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.models import (
    AuditEntry,
    Participant,
    Player,
    Tournament,
    TournamentChannel,
    TournamentSystem,
)
from corrmail.tournaments.player_import import PlayerImportError, read_player_csv

FORM = {
    "code": "ЧР-2027",
    "title": "Чемпионат России по переписке",
    "game_type": "russian",
    "system": "round_robin_double",
    "pairing_system": "",
    "channel": "mixed",
    "start_date": "2027-01-15",
    "end_date": "2028-06-30",
    "time_control_days": "50",
    "time_control_moves": "10",
    "point_system": "fmjd",
    "tiebreak_order": "sonneborn_berger, koya",
    "breaks_per_year": "1",
    "break_max_days": "30",
    "time_zone": "Europe/Moscow",
    "status": "draft",
}


def _count(database: Database, model: type) -> int:
    with database.session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_director_creates_a_tournament(organizer_client: FlaskClient, database: Database) -> None:
    response = organizer_client.post("/tournaments/new", data=FORM)
    assert response.status_code == 302
    with database.session() as session:
        tournament = session.scalar(select(Tournament))
        assert tournament is not None
        assert tournament.code == "ЧР-2027"
        assert tournament.system is TournamentSystem.ROUND_ROBIN_DOUBLE
        assert (tournament.points_win, tournament.points_draw) == (Decimal(2), Decimal(1))
        assert tournament.tiebreak_order == ["sonneborn_berger", "koya"]
        assert tournament.end_date == dt.date(2028, 6, 30)
        audit = session.scalar(select(AuditEntry))
        assert (
            audit is not None and audit.action == "tournament.create" and audit.user_id is not None
        )


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"end_date": "2027-01-01"}, "end_date", "окончание игры должно быть позже начала"),
        ({"code": "ЧР/2027"}, "code", "буквы, цифры"),
        ({"code": "new"}, "code", "шифр new уже занят"),
        ({"system": "swiss"}, "pairing_system", "000 §3.18"),
        ({"pairing_system": "buchholz"}, "pairing_system", "только у швейцарской"),
        ({"tiebreak_order": "buchholz, nonsense"}, "tiebreak_order", "nonsense"),
        ({"tiebreak_order": "koya, koya"}, "tiebreak_order", "дважды"),
        ({"time_zone": "Mars/Olympus"}, "time_zone", "Mars/Olympus"),
        ({"time_control_days": "0"}, "time_control_days", ""),
    ],
)
def test_bad_regulations_are_refused_with_the_reason(
    organizer_client: FlaskClient,
    database: Database,
    changes: dict[str, str],
    field: str,
    message: str,
) -> None:
    response = organizer_client.post("/tournaments/new", data={**FORM, **changes})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert message in page
    assert 'class="has-error"' in page
    assert _count(database, Tournament) == 0


def test_round_robin_only_tiebreak_is_refused_for_swiss(organizer_client: FlaskClient) -> None:
    """Which tiebreaks need a round robin is `scoring`'s knowledge (001 §5.4.8.4.3)."""
    from scoring.tiebreaks import TIEBREAKS

    (name,) = [n for n, t in TIEBREAKS.items() if t.round_robin_only][:1]
    response = organizer_client.post(
        "/tournaments/new",
        data={**FORM, "system": "swiss", "pairing_system": "buchholz", "tiebreak_order": name},
    )
    page = response.get_data(as_text=True)
    assert f"{name} применяется только в круговых турнирах ({TIEBREAKS[name].rule})" in page


def test_tiebreak_order_from_a_rulebook_preset(
    organizer_client: FlaskClient, database: Database
) -> None:
    from scoring.standings import PRESETS

    data = {**FORM, "tiebreak_order": "", "tiebreak_preset": "003-14.1"}
    assert organizer_client.post("/tournaments/new", data=data).status_code == 302
    with database.session() as session:
        tournament = session.scalar(select(Tournament))
        assert tournament is not None and tournament.tiebreak_order == list(PRESETS["003-14.1"])


def test_preset_and_own_list_together_are_refused(organizer_client: FlaskClient) -> None:
    data = {**FORM, "tiebreak_preset": "003-14.1"}
    page = organizer_client.post("/tournaments/new", data=data).get_data(as_text=True)
    assert "выберите готовый порядок или перечислите показатели, но не то и другое" in page


def test_taken_code_is_refused(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament]
) -> None:
    make_tournament(code="ЧР-2027")
    page = organizer_client.post("/tournaments/new", data=FORM).get_data(as_text=True)
    assert "шифр ЧР-2027 уже занят" in page


def test_edit_is_audited_field_by_field(organizer_client: FlaskClient, database: Database) -> None:
    organizer_client.post("/tournaments/new", data=FORM)
    form_page = organizer_client.get("/tournaments/ЧР-2027/edit").get_data(as_text=True)
    # The order is shown by the rulebook's names in the reader's language, not by code names;
    # typed back as codes (below) it is the same order, so the audit records no change of it.
    assert 'value="Зонненборн-Бергер, Койя"' in form_page
    response = organizer_client.post(
        "/tournaments/ЧР-2027/edit", data={**FORM, "time_control_days": "40"}
    )
    assert response.status_code == 302
    with database.session() as session:
        entry = session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
        assert entry is not None and entry.action == "tournament.update"
        assert entry.detail["time_control_days"] == ["50", "40"]
        assert set(entry.detail) == {"time_control_days"}


@pytest.mark.parametrize(
    "path",
    [
        "/tournaments/new",
        "/tournaments/T-1/edit",
        "/tournaments/T-1/players/new",
        "/tournaments/T-1/players/import",
    ],
)
def test_only_organizers_set_tournaments_up(
    login: Callable[..., FlaskClient], make_tournament: Callable[..., Tournament], path: str
) -> None:
    from corrmail.models import Role

    make_tournament(code="T-1")
    for role in (Role.REFEREE, Role.STEWARD, Role.PLAYER):
        assert login(role).get(path).status_code == 403
        assert login(role).post(path, data=FORM).status_code == 403


def test_player_entered_by_hand_gets_the_next_start_number(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=2, code="T-1")
    response = organizer_client.post(
        "/tournaments/T-1/players/new",
        data={
            "name": "Петров  Иван",
            "email": "Petrov@Example.org",
            "postal_address": "Тверь, ул. Советская, 1",
        },
    )
    assert response.status_code == 302
    with database.session() as session:
        entry = session.scalars(
            select(Participant).order_by(Participant.start_number.desc())
        ).first()
        assert entry is not None and entry.start_number == 3
        assert entry.player.name == "Петров Иван" and entry.player.email == "petrov@example.org"


def test_postal_tournament_needs_the_address(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    page = organizer_client.post(
        "/tournaments/T-1/players/new", data={"name": "Петров Иван", "email": "p@example.org"}
    ).get_data(as_text=True)
    assert "002 §4.3.2" in page
    assert _count(database, Participant) == 0


def test_postal_player_of_a_mixed_tournament_needs_the_address(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    """In a mixed tournament the player's own channel decides: by post, the start sheet and the
    partners' cards need his postal address (002 §4.3.2), an e-mail alone is not enough."""
    make_tournament(players=0, code="T-1", channel=TournamentChannel.MIXED)
    page = organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "Орлов Олег", "email": "orlov@example.org", "channel": "post"}).get_data(as_text=True)
    assert "игроку по почте нужен почтовый адрес (002 §4.3.2)" in page
    assert _count(database, Participant) == 0
    # With neither address the refusal is the form's, not a file's, and cites the rule.
    page = organizer_client.post("/tournaments/T-1/players/new", data={
        "name": "Орлов Олег", "channel": ""}).get_data(as_text=True)
    assert "нет ни адреса эл. почты, ни почтового адреса (002 §4.3.2)" in page
    assert "файл:" not in page
    assert _count(database, Participant) == 0


def test_a_mixed_tournament_names_every_channel_it_takes(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament]
) -> None:
    """A mixed tournament takes players by post, e-mail and telephone (002 §4.1.1 а–в) and on
    the site: its label says so, in the form and on the tournament's page, not «post and
    e-mail»."""
    make_tournament(players=0, code="T-1", channel=TournamentChannel.MIXED)
    shown = organizer_client.get("/tournaments/T-1").get_data(as_text=True)
    assert "смешанная: почта, эл. почта, телефон, сайт" in shown
    form = organizer_client.get("/tournaments/new").get_data(as_text=True)
    assert ">смешанная: почта, эл. почта, телефон, сайт</option>" in form


def test_same_email_cannot_enter_twice(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.EMAIL)
    data = {"name": "Петров Иван", "email": "p@example.org"}
    assert organizer_client.post("/tournaments/T-1/players/new", data=data).status_code == 302
    page = organizer_client.post("/tournaments/T-1/players/new", data=data).get_data(as_text=True)
    assert "p@example.org уже участвует" in page
    assert _count(database, Participant) == 1


GOOD_CSV = (
    "ФИО;E-mail;Адрес;Рейтинг;Клуб\n"
    "Иванов Пётр;ivanov@example.org;Москва, Тверская, 7;2210;ЦШК\n"
    "Смирнова Анна;smirnova@example.org;Санкт-Петербург, Невский, 30;;Петербург\n"
)


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1251"])
def test_csv_in_utf8_or_windows_1251_is_imported(
    organizer_client: FlaskClient,
    make_tournament: Callable[..., Tournament],
    database: Database,
    encoding: str,
) -> None:
    make_tournament(players=1, code="T-1")
    response = organizer_client.post(
        "/tournaments/T-1/players/import",
        data={"file": (io.BytesIO(GOOD_CSV.encode(encoding)), "players.csv")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    with database.session() as session:
        names = session.execute(
            select(Participant.start_number, Player.name, Player.rating)
            .join(Player)
            .order_by(Participant.start_number)
        ).all()
    assert [tuple(row) for row in names][1:] == [
        (2, "Иванов Пётр", 2210),
        (3, "Смирнова Анна", None),
    ]


def test_csv_with_bad_rows_imports_nothing_and_names_every_line(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=0, code="T-1", channel=TournamentChannel.POST)
    bad = (
        GOOD_CSV
        + ";x@example.org;Тула;;\nКузнецов Олег;kuz@;Казань;много;\nПопова;ivanov@example.org;Самара;;\n"
    )
    response = organizer_client.post(
        "/tournaments/T-1/players/import",
        data={"file": (io.BytesIO(bad.encode()), "players.csv")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "строка 4, столбец «ФИО»: не указано имя" in page
    assert "строка 5, столбец «E-mail»: kuz@ — не адрес эл. почты" in page
    assert "строка 5, столбец «Рейтинг»: много — не целое число" in page
    assert "строка 6, столбец «E-mail»: ivanov@example.org также в строке 2" in page
    assert _count(database, Participant) == 0 and _count(database, Player) == 0


def test_csv_against_existing_entries_imports_nothing(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament], database: Database
) -> None:
    make_tournament(players=0, code="T-1")
    organizer_client.post(
        "/tournaments/T-1/players/new",
        data={"name": "Иванов Пётр", "email": "ivanov@example.org", "postal_address": "Москва"},
    )
    response = organizer_client.post(
        "/tournaments/T-1/players/import",
        data={"file": (io.BytesIO(GOOD_CSV.encode()), "players.csv")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "строка 2, столбец «E-mail»: ivanov@example.org уже участвует" in response.get_data(as_text=True)
    assert _count(database, Participant) == 1


def test_csv_reader_is_lenient_about_the_form() -> None:
    text = 'Name,Email,Address\r\nIvanov Petr,IVANOV@example.org,"Moscow, Tverskaya 7"\r\n\r\n'
    parsed = read_player_csv(text.encode(), TournamentChannel.MIXED)
    assert parsed.ok and parsed.encoding == "utf-8"
    ((line, row),) = parsed.rows
    assert (
        line == 2
        and row.email == "ivanov@example.org"
        and row.postal_address == "Moscow, Tverskaya 7"
    )


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"", "the file is empty"), (b"x" * (2 * 1024 * 1024 + 1), "at most")],
)
def test_unreadable_files_are_refused(data: bytes, message: str) -> None:
    with pytest.raises(PlayerImportError, match=message):
        read_player_csv(data, TournamentChannel.POST)


def test_header_problems_are_reported() -> None:
    parsed = read_player_csv("Город;Рейтинг\nТула;2000\n".encode(), TournamentChannel.POST)
    assert not parsed.ok
    assert {(e.line, e.column) for e in parsed.errors} >= {(1, "Город"), (1, None)}


def test_empty_list_is_an_error() -> None:
    parsed = read_player_csv("ФИО;Адрес\n".encode(), TournamentChannel.POST)
    assert [str(e) for e in parsed.errors] == ["file: no players in the file"]


@pytest.mark.parametrize(("locale", "label", "shown"), [
    ("ru", "Статус", "Статус: подготовка. Рассылка стартовых листов начинает турнир, а его закрытие "
                     "завершает; статус здесь не вводится."),
    ("en", "Status", "Status: draft. Publishing the start sheets starts the tournament and closing "
                     "it finishes it; the status is not typed here."),
])
def test_the_tournament_forms_offer_no_status(
    organizer_client: FlaskClient, database: Database, locale: str, label: str, shown: str
) -> None:
    """A tournament's status is its life's: publishing starts it, the referee's desk and closing
    move it on (corrmail.tournaments.publishing, .closing); the director types none of it."""
    assert organizer_client.post("/locale", data={"locale": locale}).status_code == 302
    for path in ("/tournaments/new", None):
        if path is None:
            assert organizer_client.post("/tournaments/new", data=FORM).status_code == 302
            path = "/tournaments/ЧР-2027/edit"
        page = organizer_client.get(path).get_data(as_text=True)
        assert 'name="status"' not in page
        assert f">{label}</label>" not in page
    # The edit form shows it, read-only, and says what sets it.
    assert shown in page


@pytest.mark.parametrize("forged", ["running", "adjudication", "finished"])
def test_a_forged_status_neither_creates_nor_edits_one(
    organizer_client: FlaskClient, database: Database, forged: str
) -> None:
    from corrmail.models import TournamentStatus

    assert organizer_client.post(
        "/tournaments/new", data={**FORM, "status": forged}).status_code == 302
    with database.session() as session:
        tournament = session.scalar(select(Tournament))
        assert tournament is not None and tournament.status is TournamentStatus.DRAFT
    response = organizer_client.post(
        "/tournaments/ЧР-2027/edit", data={**FORM, "title": "Кубок", "status": forged})
    assert response.status_code == 302
    with database.session() as session:
        tournament = session.scalar(select(Tournament))
        assert tournament is not None and tournament.status is TournamentStatus.DRAFT
        assert tournament.title == "Кубок"
        entry = session.scalars(select(AuditEntry).order_by(AuditEntry.id.desc())).first()
        assert entry is not None and set(entry.detail) == {"title"}
