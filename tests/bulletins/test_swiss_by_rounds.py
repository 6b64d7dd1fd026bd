"""A Swiss's bulletin and final report print its table by rounds, as the web's standings do
(one game reads the same on every page): each round the opponent's start number, the colour and
the result with its mark, a bye as a plus (002 note а), a round not yet paired left empty. A
round robin keeps its player-against-player matrix (tests/bulletins/test_one_reading.py)."""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Callable

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from corrmail.db import Database
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import Game, GameResult, GameState, ResultKind, Tournament, TournamentSystem
from corrmail.rounds.swiss import pair_next_round, publish_round

WRITER = LetterWriter(
    MailSettings(domain="turnir.example", from_address="turnir@turnir.example", secret=b"r" * 16)
)
TODAY = dt.date(2026, 9, 1)
AS_OF = dt.date(2026, 12, 1)


def _round_texts(row: str) -> list[str]:
    return [re.sub(r"\s+", "", html.unescape(re.sub(r"<[^>]+>", "", cell)))
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def _web_rounds(page: str, rounds: int) -> dict[int, list[str]]:
    """Start number → the texts of his round cells on the web's standings."""
    table = page[page.index('<table class="crosstable">'):]
    table = table[:table.index("</table>")]
    found = {}
    for number, row in re.findall(r'<tr data-start-no="(\d+)"[^>]*>(.*?)</tr>', table, re.S):
        found[int(number)] = _round_texts(row)[3:3 + rounds]  # after place, №, name
    return found


def _paper_rounds(page: str, rounds: int) -> dict[int, list[str]]:
    table = page[page.index('<table class="crosstable by-rounds">'):]
    head, body = table[:table.index("</thead>")], table[table.index("<tbody>"):table.index("</table>")]
    assert len(re.findall(r"<th>", head)) == 2 + rounds + 1  # №, player, R1…Rn, points
    found = {}
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S):
        cells = _round_texts(row)
        found[int(cells[0])] = cells[2:2 + rounds]
    return found


@pytest.fixture
def swiss_two_rounds(make_tournament: Callable[..., Tournament], database: Database) -> Tournament:
    """Five players (a bye each round): round 1 finished (a win, a draw), round 2 published."""
    tournament = make_tournament(players=5, system=TournamentSystem.SWISS,
                                 pairing_system="coefficients", code="SW-R")
    with database.transaction() as session:
        found = session.get_one(Tournament, tournament.id)
        pair_next_round(session, found, None, seed=7)
        publish_round(session, found, None, writer=WRITER, today=TODAY)
    with database.transaction() as session:
        games = session.scalars(select(Game).where(Game.tournament_id == tournament.id)
                                .order_by(Game.id)).all()
        for index, game in enumerate(games):
            game.result = GameResult.WHITE_WIN if index == 0 else GameResult.DRAW
            game.result_kind = ResultKind.PLAYED
            game.state, game.result_on = GameState.FINISHED, dt.date(2026, 11, 1)
    with database.transaction() as session:
        found = session.get_one(Tournament, tournament.id)
        pair_next_round(session, found, None, seed=7)
        publish_round(session, found, None, writer=WRITER, today=dt.date(2026, 11, 2))
    return tournament


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_swiss_papers_print_the_table_by_rounds_as_the_web_does(
    swiss_two_rounds: Tournament, organizer_client: FlaskClient, locale: str
) -> None:
    code = swiss_two_rounds.code
    organizer_client.post("/locale", data={"locale": locale})
    web = organizer_client.get(f"/tournaments/{code}/standings")
    assert web.status_code == 200
    expected = _web_rounds(web.get_data(as_text=True), 2)
    assert len(expected) == 5
    # Round 1: one bye (a plus), two decided games; round 2: paired, no result yet.
    first = [cells[0] for cells in expected.values()]
    assert first.count("+") == 1
    assert sum(1 for text in first if re.fullmatch(r"\d[wb]1", text)) == 1
    assert sum(1 for text in first if re.fullmatch(r"\d[wb]½", text)) == 2
    assert sum(1 for cells in expected.values() if re.fullmatch(r"\d[wb]", cells[1])) == 4
    for kind in ("bulletin", "final_report"):
        paper = organizer_client.get(
            f"/bulletins/{code}/preview?as_of={AS_OF.isoformat()}&kind={kind}")
        assert paper.status_code == 200, paper.get_data(as_text=True)
        text = paper.get_data(as_text=True)
        assert _paper_rounds(text, 2) == expected, kind
        # Not the matrix of a round robin: a Swiss's players never all meet.
        assert '<table class="crosstable">' not in text
        assert ("R1" if locale == "en" else "Т1") in text


def test_a_round_robin_keeps_its_matrix(demo_tournament: Tournament,
                                        organizer_client: FlaskClient) -> None:
    paper = organizer_client.get(
        f"/bulletins/{demo_tournament.code}/preview?as_of={AS_OF.isoformat()}&kind=bulletin")
    assert paper.status_code == 200
    text = paper.get_data(as_text=True)
    assert '<table class="crosstable">' in text and "by-rounds" not in text
