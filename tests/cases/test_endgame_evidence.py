"""The endgame tables as the referee's evidence: a game unfinished at the end of play whose
position the tables hold shows its verdict and a line of best play on the case page, comes
first among the end-of-play cases, and is cited as evidence in the decision letter — while the
referee still decides (002 §4.5.5)."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from corrmail.models import Case, Game, GameResult, GameType, Tournament
from corrmail.referee.endgame import BUILD_ON_FIRST_NEED, _endgames, batch_listing, endgame_verdict
from notation.endgame.material import Material
from notation.endgame.store import StoredTables, build_tables
from notation.rules import GameType as BoardType

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

START = dt.date(2026, 9, 1)
END = dt.date(2027, 8, 31)
# A legal game (a seeded random playout) down to a man against king and man, White to move:
# Black wins in 4 plies.
ENDGAME_PLIES = (
    "e3-d4 d6-e5 f2-e3 h6-g5 d4-c5 b6:d4:f2:h4 h2-g3 h4:f2 e1:g3 e5-d4 c3:e5 f6:d4 g1-h2 a7-b6 "
    "a3-b4 c7-d6 g3-h4 d4-e3 d2:f4:h6 d6-c5 b4:d6 e7:c5 b2-a3 d8-c7 h4-g5 g7-f6 g5:e7 f8:d6 "
    "a3-b4 c5:a3 h2-g3 h8-g7 h6:f8:c5:a7 c7-b6 a7:f2 b8-a7 f2-b6 a7:c5 g3-f4 c5-b4 c1-b2 "
    "a3:c1:h6"
).split()

# International draughts: a legal game (a seeded random playout, sacrifices preferred) down to a
# man on 45 against a king on 26, White to move: Black wins in 6 plies. Its first 82 plies leave
# two men (46, 50) against a king (11), White to move.
INTERNATIONAL_PLIES = (
    "34-30 20-24 33-29 24:33 38:29 19-24 29:20 14:34 40:29 18-23 29:18 12:23 32-28 23:32 37:28 "
    "17-22 28:17 11:22 31-27 22:31 36:27 13-18 27-22 18:27 39-34 6-11 41-36 27-31 36:27 16-21 "
    "27:16 7-12 16:18 8-12 18:7 2:11 47-41 9-13 34-30 15-20 30-24 20:29 41-36 10-14 42-37 11-16 "
    "43-39 29-33 39:28 3-8 28-23 13-18 23:3 5-10 3:25 4-9 25:3 16-21 3:26 1-6 37-32 6-11 26-17 "
    "11:22 32-27 22:31 36:27 10-15 44-39 15-20 48-42 20-24 35-30 24:35 45-40 35:33 42-38 33:42 "
    "27-22 42-48 49-43 48:11 50-45 11-33 46-41 33-42 41-37 42:26"
).split()
THREE_PIECES = 82


def _text(raw: bytes) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    return "".join(
        part.get_content() for part in message.walk() if part.get_content_type() == "text/plain"
    )


@pytest.fixture
def tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CORRMAIL_ENDGAME_DIR", str(tmp_path / "endgame"))
    return tmp_path / "endgame"


def test_endgame_verdict_on_the_case_page_queue_and_letter(cup: Cup, set_today, tables: Path) -> None:
    pairs = sorted(cup.games)
    endgame, ordinary = pairs[0], pairs[1]
    cup.play(*endgame, [
        (ply, START + dt.timedelta(days=i), START + dt.timedelta(days=i + 1))
        for i, ply in enumerate(ENDGAME_PLIES)
    ])
    cup.play(*ordinary, [("c3-d4", START, START + dt.timedelta(days=1))])
    for pair in pairs[2:]:
        cup.finish(*pair, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    # No tables were there: the first game that needed them built them.
    assert (tables / "russian" / "manifest.json").is_file()
    with cup.database.session() as session:
        rows = list(session.scalars(select(Case).order_by(Case.id)))
        by_game = {row.game_id: row.id for row in rows}
        settled = by_game[cup.games[endgame]]
        # The end-of-play listing: the game the tables settle first, whatever its case number.
        listing = batch_listing(list(reversed(rows)))
        assert listing[0].startswith(f"  case #{settled} ")
        assert "endgame tables: black wins in 2 moves (4 plies), MvKM (evidence)" in listing[0]
        assert "endgame tables" not in listing[1]
        game = session.get(Game, cup.games[endgame])
        assert game is not None
        verdict = endgame_verdict(game)
        assert verdict is not None and verdict.ruling == "black_wins" and len(verdict.line) == 4
        assert verdict.line[0].label == "22."  # White's 22nd move starts the line

    page = cup.client("referee").get(f"/cases/{settled}").data.decode()
    assert 'id="endgame-verdict" data-ruling="black_wins"' in page
    assert "ходов до конца при лучшей игре: 2 (полуходов: 4)" in page  # the referee reads Russian
    assert "решение принимает судья (002 §4.5.5)" in page
    for label in ("22. ", "22... ", "23. ", "23... "):  # the line, a board after each move
        assert page.count(f"<figcaption>{label}") == 1
    other = by_game[cup.games[ordinary]]
    assert "endgame-verdict" not in cup.client("referee").get(f"/cases/{other}").data.decode()

    queue = cup.client("referee").get("/cases/").data.decode()
    settled_list = queue.split('class="endgame-settled"')[1].split("</ul>")[0]
    assert f'data-case="{settled}"' in settled_list and f'data-case="{other}"' not in settled_list

    # The referee decides; the letter cites the tables as evidence, not as the ruling.
    cup.act(f"player{endgame[0]}", settled, "analysis", side="white", assessment="draw",
            analysis="the king holds")
    cup.act(f"player{endgame[1]}", settled, "analysis", side="black", assessment="win",
            analysis="the man crowns")
    set_today(END + dt.timedelta(days=11))
    cup.act("referee", settled, "decide", ruling="black_wins", reasons="the tables' line holds")
    with cup.database.session() as session:
        letters = cup.outbox(session, "case.adjudication.result_differs")
        assert letters  # to White, whose assessment the result contradicts
        letters += cup.outbox(session, "case.adjudication.result")
        texts = [_text(m.raw) for m in letters]
    cited = [t for t in texts if "Evidence: the endgame tables (every position of up to 3" in t
             or "Доказательство: по эндшпильным таблицам (все позиции до 3 шашек" in t]
    assert len(cited) == len(texts)
    assert all("(MvKM)" in t and "(002 §4.5.5)" in t for t in cited)


def test_no_verdict_outside_the_tables(cup: Cup, tables: Path) -> None:
    pair = sorted(cup.games)[0]
    cup.play(*pair, [("c3-d4", START, START + dt.timedelta(days=1))])
    with cup.database.session() as session:
        stored = session.get(Game, cup.games[pair])
        assert stored is not None and endgame_verdict(stored) is None
    assert not tables.exists()  # a position of many pieces builds nothing


@pytest.fixture
def international_cup(cup: Cup) -> Cup:
    """The cup, its tournament played as international draughts (no game has a move yet)."""
    with cup.database.transaction() as session:
        tournament = session.get(Tournament, cup.tournament_id)
        assert tournament is not None
        tournament.game_type = GameType.INTERNATIONAL
    return cup


def test_endgame_verdict_of_an_international_game(international_cup: Cup, set_today,
                                                  tables: Path) -> None:
    """International draughts as Russian: the verdict and its line on the case page, the case
    first in the queue and the end-of-play listing, the tables cited in the decision letter.
    The first need builds only 2 pieces of international draughts (3 would keep the page
    waiting for seconds), enough for this man against a king."""
    cup = international_cup
    pairs = sorted(cup.games)
    endgame, ordinary, three = pairs[0], pairs[1], pairs[2]
    cup.play(*endgame, [
        (ply, START + dt.timedelta(days=i), START + dt.timedelta(days=i + 1))
        for i, ply in enumerate(INTERNATIONAL_PLIES)
    ])
    cup.play(*ordinary, [("32-28", START, START + dt.timedelta(days=1))])
    # The same game six plies before: three pieces, more than the first need built.
    cup.play(*three, [
        (ply, START + dt.timedelta(days=i), START + dt.timedelta(days=i + 1))
        for i, ply in enumerate(INTERNATIONAL_PLIES[:THREE_PIECES])
    ])
    for pair in pairs[3:]:
        cup.finish(*pair, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    # The first game that needed them built the international tables, and only those.
    assert (tables / "international" / "manifest.json").is_file()
    assert not (tables / "russian").exists()
    assert StoredTables(tables, BoardType.INTERNATIONAL).pieces == 2
    assert BUILD_ON_FIRST_NEED[BoardType.INTERNATIONAL] == 2
    with cup.database.session() as session:
        rows = list(session.scalars(select(Case).order_by(Case.id)))
        by_game = {row.game_id: row.id for row in rows}
        settled = by_game[cup.games[endgame]]
        listing = batch_listing(list(reversed(rows)))
        assert listing[0].startswith(f"  case #{settled} ")
        assert "endgame tables: black wins in 3 moves (6 plies), MvK (evidence)" in listing[0]
        assert "endgame tables" not in listing[1]
        game = session.get(Game, cup.games[endgame])
        assert game is not None
        verdict = endgame_verdict(game)
        assert verdict is not None and verdict.ruling == "black_wins" and verdict.pieces == 2
        assert [step.move for step in verdict.line] == [
            "45-40", "26-48", "40-35", "48-43", "35-30", "43:25"]
        assert verdict.line[0].label == "45."  # White's 45th move starts the line
        # A 10x10 board: ten squares of 24 and the coordinates margin.
        assert 'viewBox="0 0 264 264"' in verdict.line[0].board_svg

    page = cup.client("referee").get(f"/cases/{settled}").data.decode()
    assert 'id="endgame-verdict" data-ruling="black_wins"' in page
    assert "ходов до конца при лучшей игре: 3 (полуходов: 6)" in page
    assert "все позиции до 2 шашек" in page and "решение принимает судья (002 §4.5.5)" in page
    for label in ("45. ", "45... ", "46. ", "46... ", "47. ", "47... "):
        assert page.count(f"<figcaption>{label}") == 1
    other = by_game[cup.games[ordinary]]
    page = cup.client("referee").get(f"/cases/{other}").data.decode()
    assert "endgame-verdict" not in page and "endgame-to-build" not in page
    # Three pieces: no verdict yet; the referee is told how to build the tables, the players not.
    unsettled = by_game[cup.games[three]]
    page = cup.client("referee").get(f"/cases/{unsettled}").data.decode()
    assert "endgame-verdict" not in page and 'id="endgame-to-build"' in page
    assert "все позиции до 2 шашек, а в этой позиции их 3" in page
    assert (f"python -m notation endgame build --type international --pieces 4 -o {tables}"
            in page)
    response = cup.client(f"player{three[0]}").get(f"/cases/{unsettled}")
    assert response.status_code == 200 and "endgame-to-build" not in response.data.decode()

    queue = cup.client("referee").get("/cases/").data.decode()
    settled_list = queue.split('class="endgame-settled"')[1].split("</ul>")[0]
    assert f'data-case="{settled}"' in settled_list and f'data-case="{other}"' not in settled_list
    assert f'data-case="{unsettled}"' not in settled_list

    cup.act(f"player{endgame[0]}", settled, "analysis", side="white", assessment="draw",
            analysis="the man runs")
    cup.act(f"player{endgame[1]}", settled, "analysis", side="black", assessment="win",
            analysis="the king catches it")
    set_today(END + dt.timedelta(days=11))
    cup.act("referee", settled, "decide", ruling="black_wins", reasons="the tables' line holds")
    with cup.database.session() as session:
        letters = cup.outbox(session, "case.adjudication.result_differs")
        assert letters
        letters += cup.outbox(session, "case.adjudication.result")
        texts = [_text(m.raw) for m in letters]
    cited = [t for t in texts if "Evidence: the endgame tables (every position of up to 2" in t
             or "Доказательство: по эндшпильным таблицам (все позиции до 2 шашек" in t]
    assert len(cited) == len(texts)
    assert all("(MvK)" in t and "(002 §4.5.5)" in t for t in cited)


def test_no_verdict_for_an_international_game_of_many_pieces(international_cup: Cup,
                                                             tables: Path) -> None:
    pair = sorted(international_cup.games)[0]
    international_cup.play(*pair, [("32-28", START, START + dt.timedelta(days=1))])
    with international_cup.database.session() as session:
        stored = session.get(Game, international_cup.games[pair])
        assert stored is not None and endgame_verdict(stored) is None
    assert not tables.exists()


def test_a_newer_build_is_probed_without_a_restart(tables: Path) -> None:
    """The referee runs the build command after the first need built 2 pieces: the service
    probes the new tables from the next verdict on (its manifest was replaced)."""
    endgames, pieces = _endgames(BoardType.INTERNATIONAL)
    kings = Material.parse("KKvK")
    assert pieces == 2 and kings not in endgames.tables
    build_tables(tables, BoardType.INTERNATIONAL, materials=[kings])  # as the command would
    endgames, pieces = _endgames(BoardType.INTERNATIONAL)
    assert kings in endgames.tables
    assert pieces == 2  # not every 3-piece table: the letter still says "up to 2 pieces"
