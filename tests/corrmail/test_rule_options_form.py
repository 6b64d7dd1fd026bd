"""Column draughts' rule options on the tournament form (002 §4.1.4; docs/rules/columns.md): a
Lasca tournament is created with its options and its games are played under them; a forged
option or value is refused citing the rule and nothing is stored; once play has begun the
options are fixed (docs/rules/columns.md, reading 11)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.games.view import GameView
from corrmail.models import (
    AuditEntry,
    Game,
    GameState,
    GameType,
    Tournament,
    TournamentChannel,
)
from notation.columns import ColumnRules
from notation.rules import GameType as BoardType

FORM = {
    "code": "ЛАСКА-27",
    "title": "Ласка по переписке",
    "game_type": "column_international",
    "system": "round_robin_single",
    "pairing_system": "",
    "channel": "email",
    "start_date": "2027-01-15",
    "end_date": "2028-06-30",
    "time_control_days": "50",
    "time_control_moves": "10",
    "point_system": "classical",
    "tiebreak_order": "",
    "breaks_per_year": "1",
    "break_max_days": "30",
    "time_zone": "Europe/Moscow",
    "status": "draft",
    "rule_moves": "bashni",
    "rule_rejump": "",
    "rule_placement": "",
    "rule_king_landing": "",
    "rule_numbering": "g1",
    "rule_quiet_limit": "15",
}


def _english(client: FlaskClient) -> FlaskClient:
    assert client.post("/locale", data={"locale": "en"}).status_code == 302
    return client


def _count(database: Database, model: type) -> int:
    with database.session() as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_a_lasca_tournament_is_created_with_options_and_its_games_use_them(
    organizer_client: FlaskClient, database: Database
) -> None:
    form_page = _english(organizer_client).get("/tournaments/new").get_data(as_text=True)
    assert 'id="rule-options"' in form_page and "digest §2, §9 Q1" in form_page
    assert 'name="rule_numbering"' in form_page and "rule-options.js" in form_page

    assert organizer_client.post("/tournaments/new", data=FORM).status_code == 302
    with database.transaction() as session:
        tournament = session.scalars(select(Tournament)).one()
        assert tournament.rule_options == {"moves": "bashni", "numbering": "g1",
                                           "quiet-limit": "15"}
        assert session.scalars(select(AuditEntry.action)).all() == ["tournament.create"]
        tournament_id = tournament.id
    for name in ("Петров Иван", "Сидорова Анна", "Кузнецов Олег"):
        added = organizer_client.post(f"/tournaments/{FORM['code']}/players/new",
                                      data={"name": name, "email": f"{len(name)}{name[0]}@ex.org"})
        assert added.status_code == 302, added.get_data(as_text=True)
    assert organizer_client.post(f"/tournaments/{FORM['code']}/pair").status_code == 302

    expected = ColumnRules.of(BoardType.COLUMN_INTERNATIONAL,
                              {"moves": "bashni", "numbering": "g1", "quiet-limit": "15"})
    with database.session() as session:
        games = session.scalars(select(Game).where(Game.tournament_id == tournament_id)).all()
        assert len(games) == 3
        for game in games:
            start = GameView(game).start
            assert start.rules == expected  # type: ignore[attr-defined]
            # moves=bashni on the 7x7 board: flying kings, men capture backwards (digest §9 Q3)
            assert start.rules.flying_kings  # type: ignore[attr-defined]
    shown = organizer_client.get(f"/tournaments/{FORM['code']}/edit").get_data(as_text=True)
    assert '<option selected value="g1">' in shown and '<option selected value="15">' in shown


@pytest.mark.parametrize(("changes", "wording"), [
    ({"rule_rejump": "sometimes"},
     "rule option rejump takes forbidden, allowed, not sometimes (column-draughts digest §2, §9 Q1)"),
    ({"rule_quiet_limit": "0"}, "rule option quiet-limit takes off, N, not 0"),
    ({"rule_castling": "yes"}, "unknown rule option castling: column draughts have moves, rejump"),
    ({"rule_numbering": "g1", "game_type": "column_russian"},
     "rule option numbering applies to Lasca&#39;s squares 1-25 only"),
    ({"game_type": "russian"}, "russian has no rule options: only column draughts"),
])
def test_a_forged_option_is_refused_citing_the_rule_and_nothing_is_stored(
    organizer_client: FlaskClient, database: Database, changes: dict[str, str], wording: str
) -> None:
    answer = _english(organizer_client).post("/tournaments/new", data={**FORM, **changes})
    assert answer.status_code == 200
    page = answer.get_data(as_text=True)
    assert wording in page and 'role="alert"' in page
    assert _count(database, Tournament) == 0
    assert _count(database, AuditEntry) == 0


def test_options_are_fixed_once_play_has_begun(
    organizer_client: FlaskClient, database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    # The form posts the tournament's own regulations (a published tournament's are fixed,
    # docs/rules/entries.md); only the rule options and the title change below.
    tournament = make_tournament(players=2, code="ЛАСКА-1",
                                 game_type=GameType.COLUMN_INTERNATIONAL,
                                 channel=TournamentChannel.EMAIL,
                                 rule_options={"rejump": "allowed"})
    form = {**FORM, "code": "ЛАСКА-1", "start_date": "2026-09-01", "end_date": "2027-08-31",
            "rule_moves": "", "rule_numbering": "", "rule_quiet_limit": "",
            "rule_rejump": "allowed", "status": "running"}
    edit = f"/tournaments/{tournament.code}/edit"
    _english(organizer_client)
    # Before any game has begun the director may still change them.
    saved = organizer_client.post(edit, data={**form, "rule_placement": "immediate"})
    assert saved.status_code == 302
    with database.transaction() as session:
        stored = session.get(Tournament, tournament.id)
        assert stored is not None
        assert stored.rule_options == {"rejump": "allowed", "placement": "immediate"}
        white, black = stored.participants
        session.add(Game(tournament_id=stored.id, round=1, white_id=white.id,
                         black_id=black.id, state=GameState.IN_PLAY))
    page = organizer_client.get(edit).get_data(as_text=True)
    assert "Fixed: 1 game(s) have begun" in page and "reading 11" in page
    assert '<select data-rule-option="rejump" disabled id="rule_rejump"' in page

    refused = organizer_client.post(edit, data={**form, "rule_rejump": "forbidden",
                                                "rule_placement": "immediate"})
    assert refused.status_code == 200
    assert ("the rule options cannot be changed: 1 game(s) have begun"
            in refused.get_data(as_text=True))
    assert "docs/rules/columns.md, reading 11" in refused.get_data(as_text=True)
    # The browser does not post disabled fields: other changes still save, the options stay.
    unposted = {k: v for k, v in form.items() if not k.startswith("rule_")}
    assert organizer_client.post(edit, data={**unposted, "title": "Ласка-2"}).status_code == 302
    with database.session() as session:
        stored = session.get(Tournament, tournament.id)
        assert stored is not None
        assert stored.title == "Ласка-2"
        assert stored.rule_options == {"rejump": "allowed", "placement": "immediate"}
        assert session.scalars(select(AuditEntry.action)).all() == [
            "tournament.update", "tournament.update"]
