"""The adjudication case page shows the end-of-play position (002 §4.5.2) as the referee reads
it: the diagram the game page draws, whose move it is and each side's men and kings by square,
in Russian and English; the FEN only as a small line under them."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import Case, CaseType, Game
from corrmail.referee.evidence import position_reading

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)
# White c3-b4, black f6-e5, white b4-c5, black d6:b4, white a3:c5: each side has lost a man and
# black is to move.
OPENING = [("c3-b4", dt.date(2026, 9, 1), None),
           ("f6-e5", dt.date(2026, 9, 10), dt.date(2026, 9, 5)),
           ("b4-c5", dt.date(2026, 9, 20), dt.date(2026, 9, 14)),
           ("d6:b4", dt.date(2026, 9, 30), dt.date(2026, 9, 24)),
           ("a3:c5", dt.date(2026, 10, 10), dt.date(2026, 10, 4))]


def _page(cup: Cup, case_id: int, locale: str) -> str:
    client = cup.client("referee")
    with client.session_transaction() as session:
        session["locale"] = locale
    response = client.get(f"/cases/{case_id}")
    assert response.status_code == 200, response.data
    return response.data.decode()


def _section(text: str) -> str:
    match = re.search(r'<section class="position" id="adjudication-position">(.*?)</section>',
                      text, re.S)
    assert match is not None, "no position section"
    return match.group(1)


def _adjudication_of_the_played_game(cup: Cup, set_today: Callable[[dt.date], None]) -> int:
    cup.play(1, 6, OPENING)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        case_id = session.scalar(select(Case.id).where(
            Case.case_type == CaseType.ADJUDICATION, Case.game_id == cup.games[(1, 6)]))
    assert case_id is not None
    return case_id


def test_the_case_page_draws_the_position_and_reads_it_out(
    cup: Cup, set_today: Callable[[dt.date], None]
) -> None:
    case_id = _adjudication_of_the_played_game(cup, set_today)
    with cup.database.session() as session:
        fen = cup.case_row(session, case_id).payload["diagram"]
    russian = _section(_page(cup, case_id, "ru"))
    assert "Позиция на конец игры (002 §4.5.2)" in russian
    assert '<figure class="board"><svg' in russian and "<?xml" not in russian
    assert "<strong>Ход чёрных</strong>" in russian
    white = re.search(r'<li id="pieces-white">(.*?)</li>', russian, re.S)
    black = re.search(r'<li id="pieces-black">(.*?)</li>', russian, re.S)
    assert white is not None and black is not None
    assert white.group(1).startswith("Белые (11): простые ")
    assert "c5" in white.group(1) and "a3" not in white.group(1) and "дамки" not in white.group(1)
    assert black.group(1).startswith("Чёрные (11): простые ")
    assert "e5" in black.group(1) and "d6" not in black.group(1)
    # The FEN stays, small, under the words.
    assert f"<small>FEN: <code>{fen}</code></small>" in russian
    english = _section(_page(cup, case_id, "en"))
    assert "Position at the end of play (002 §4.5.2)" in english
    assert "<strong>Black to move</strong>" in english
    assert re.search(r'<li id="pieces-white">White \(11\): men [^<]*c5', english)
    assert "<dt>FEN</dt>" not in _page(cup, case_id, "en")
    # The game stands where play ended: one board, not the same one again as "position now".
    whole = _page(cup, case_id, "ru")
    assert whole.count('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 360 360"') == 1
    assert "Позиция сейчас" not in whole


def test_kings_are_named_apart_from_men(cup: Cup) -> None:
    with cup.database.session() as session:
        game = session.get(Game, cup.games[(1, 6)])
        assert game is not None
        reading = position_reading(game, "W:WKa1,c3:Bh8,Kd8")
        assert reading is not None
        assert reading.to_move == "white"
        assert (reading.white.men, reading.white.kings) == (("c3",), ("a1",))
        assert (reading.black.men, reading.black.kings) == (("h8",), ("d8",))
        assert position_reading(game, "not a position") is None
