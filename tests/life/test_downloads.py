"""Every download names its file by RFC 6266, whatever the tournament code (Cyrillic included)."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote

from flask.testing import FlaskClient

from corrmail.models import Game, GameState, Tournament
from corrmail.web.downloads import ascii_fallback, content_disposition

CODE = "ЗКР-2026"


def test_content_disposition_gives_both_names() -> None:
    header = content_disposition("ЗКР-2026-standings.csv")
    assert header.startswith("attachment; filename=\"")
    assert "filename*=UTF-8''" + quote("ЗКР-2026-standings.csv", safe="") in header
    assert header.isascii()
    assert ascii_fallback("ЗКР-2026-standings.csv") == "2026-standings.csv"
    assert ascii_fallback("Ёлка.pdn") == "download.pdn"
    assert ascii_fallback("Café.csv") == "Cafe.csv"
    assert ascii_fallback('a"b;c.csv') == "a_b_c.csv"


def test_cyrillic_code_exports_download(
    make_tournament: Callable[..., Tournament], organizer_client: FlaskClient, database
) -> None:  # type: ignore[no-untyped-def]
    tournament = make_tournament(players=2, code=CODE)
    with database.transaction() as session:
        found = session.get(Tournament, tournament.id)
        white, black = found.participants
        session.add(Game(tournament_id=found.id, round=1, white_id=white.id, black_id=black.id,
                         state=GameState.NOT_STARTED))
    with database.session() as session:
        game_id = session.get(Tournament, tournament.id).games[0].id
    for path, name in (
        (f"/tournaments/{CODE}/standings.csv", f"{CODE}-standings.csv"),
        (f"/tournaments/{CODE}/standings.json", f"{CODE}-standings.json"),
        (f"/tournaments/{CODE}/games.pdn", f"{CODE}.pdn"),
        (f"/games/{game_id}/game.pdn", f"{CODE}-1-{game_id}.pdn"),
    ):
        response = organizer_client.get(path)
        assert response.status_code == 200, (path, response.data[:300])
        header = response.headers["Content-Disposition"]
        assert f"filename*=UTF-8''{quote(name, safe='')}" in header, header
        assert 'filename="' in header and header.isascii()
