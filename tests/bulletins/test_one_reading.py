"""One tournament's points read the same on every page and paper, and its final report's
crosstable carries the marks of the web crosstable (docs/rules/standings.md, "One reading of
points and marks").

The league (a four-player round robin) ends with a draw, an adjudicated game (000 §3.14.4,
002 §4.5.5), a game lost on time (002 §4.3.7) and a player who withdrew after two of his three
games, his game never begun forfeited by the referee's decision (000 §3.14.3, 002 §4.5.3):

    1 Иванов   ½ 1* 1   = 2½      3 Кузнецов 0* 0† +  = 1
    2 Смирнова ½ 1† ½   = 2       4 Попова   0 ½ −    = ½
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import html
import re
from typing import Any

import flask
import pytest
from flask.testing import FlaskClient
from flask_babel import refresh
from sqlalchemy import select

from corrmail.bulletins import build_final_report
from corrmail.bulletins.content import to_json
from corrmail.bulletins.render import _environment, render_printable
from corrmail.letters.write import letters_env
from corrmail.models import Case, Game, GameResult, GameState, Participant, ResultKind
from corrmail.standings.exports import reader_points, standings_csv, standings_text
from corrmail.standings.results import load_tournament, tournament_table

WITHDREW = dt.date(2026, 11, 1)
TODAY = dt.date(2026, 11, 10)
#: A point or a half written as a decimal (``2.5``, ``0,5``), not a rule's number (``§4.2.5``).
DECIMAL_POINTS = re.compile(r"(?<![\d.,§])\d+[.,](?:5|25|75)(?![\d%]|rem|em|px|cm|pt)")


def _set_result(league: Any, white: int, black: int, result: GameResult, kind: ResultKind,
                on: dt.date) -> None:
    with league.database.transaction() as session:
        game = _game(session, league, white, black)
        game.result, game.result_kind, game.state, game.result_on = (
            result, kind, GameState.FINISHED, on)


def _game(session: Any, league: Any, one: int, other: int) -> Game:
    numbers = {p.id: p.start_number for p in session.scalars(
        select(Participant).where(Participant.tournament_id == league.tournament_id))}
    for game in session.scalars(select(Game).where(Game.tournament_id == league.tournament_id)):
        if {numbers[game.white_id], numbers[game.black_id]} == {one, other}:
            return game
    raise AssertionError(f"no game {one}-{other}")


def _won(session: Any, league: Any, winner: int, loser: int) -> GameResult:
    game = _game(session, league, winner, loser)
    return GameResult.WHITE_WIN if game.white.start_number == winner else GameResult.BLACK_WIN


def _post(client: FlaskClient, url: str, **data: object) -> str:
    response = client.post(url, data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


@pytest.fixture
def finished_league(league: Any) -> Any:
    with league.database.session() as session:
        adjudicated = _won(session, league, 1, 3)
        overstep = _won(session, league, 2, 3)
        played = _won(session, league, 1, 4)
        participant_4 = session.scalar(select(Participant).where(
            Participant.tournament_id == league.tournament_id, Participant.start_number == 4)).id
    on = dt.date(2026, 10, 20)
    _set_result(league, 1, 2, GameResult.DRAW, ResultKind.PLAYED, on)
    _set_result(league, 1, 3, adjudicated, ResultKind.ADJUDICATED, on)
    _set_result(league, 2, 3, overstep, ResultKind.OVERSTEP, on)
    _set_result(league, 1, 4, played, ResultKind.PLAYED, on)
    _set_result(league, 2, 4, GameResult.DRAW, ResultKind.PLAYED, on)
    settings = league.app.config["CORRMAIL_SETTINGS"]
    league.app.config["CORRMAIL_SETTINGS"] = dataclasses.replace(settings, today=TODAY)
    referee = league.client("referee")
    case = _post(referee, f"/cases/new/{league.code}/withdrawal",
                 **{"withdrawal-participant": participant_4,
                    "withdrawal-withdrew_on": WITHDREW.isoformat(),
                    "withdrawal-reason": "уехал"})
    case_id = int(case.rsplit("/", 1)[1])
    with league.database.session() as session:
        revision = session.get(Case, case_id).revision
    # Two of his three games played: his results stay, the game never begun is −/+ (000 §3.14.3).
    _post(referee, f"/cases/{case_id}/decide", revision=revision, reasons="выбыл")
    with league.database.session() as session:
        forfeited = _game(session, league, 3, 4)
        assert (forfeited.result_kind, forfeited.result) == (
            ResultKind.FORFEIT, _won(session, league, 3, 4))
    return league


def _pages(league: Any, client: FlaskClient) -> dict[str, str]:
    as_of = TODAY.isoformat()
    urls = {
        "standings": f"/tournaments/{league.code}/standings",
        "printable crosstable": f"/tournaments/{league.code}/crosstable/print",
        "tournament": f"/tournaments/{league.code}",
        "bulletin": f"/bulletins/{league.code}/preview?as_of={as_of}&kind=bulletin",
        "final report": f"/bulletins/{league.code}/preview?as_of={as_of}&kind=final_report",
    }
    pages = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.get_data(as_text=True))
        pages[name] = response.get_data(as_text=True)
    return pages


def _row_points(html: str, marker: str) -> str:
    """The points cell of the row that begins at ``marker``."""
    row = html[html.index(marker):]
    return re.search(r'class="num points">([^<]*)<', row)[1]  # type: ignore[index]


@pytest.mark.parametrize("locale", ["ru", "en"])
def test_the_same_points_on_every_page_and_paper(finished_league: Any, locale: str) -> None:
    league = finished_league
    steward = league.client("steward")
    steward.post("/locale", data={"locale": locale})
    pages = _pages(league, steward)
    player = league.client("player1")
    player.post("/locale", data={"locale": locale})
    me = player.get("/me")
    assert me.status_code == 200
    pages["/me"] = me.get_data(as_text=True)

    assert _row_points(pages["standings"], 'data-start-no="1"') == "2½"
    assert _row_points(pages["standings"], 'data-start-no="4"') == "½"
    assert _row_points(pages["/me"], f'data-tournament="{league.code}"') == "2½"
    for name in ("bulletin", "final report"):
        standings = pages[name][pages[name].index('class="standings"'):]
        assert re.search(r"Иванов Пётр</td>\s*<td class=\"num\">2½</td>", standings), name
        assert re.search(r"Попова Мария \([^)]*\)</td>\s*<td class=\"num\">½</td>",
                         standings), name
    tournament = pages["tournament"]
    assert re.search(r"Иванов Пётр.*?class=\"num points\">2½<", tournament, re.S)
    for name, page in pages.items():
        assert "2½" in page, name
        # No point written as a decimal anywhere: not the points, nor Sonneborn-Berger (player
        # 1: beaten 3 and 4 with 1 and ½, half of drawn 2's 2 — 2½), nor the level groups.
        assert not DECIMAL_POINTS.findall(page), (name, DECIMAL_POINTS.findall(page))


def test_letters_and_files_read_their_own_way(finished_league: Any) -> None:
    """The letters read as the pages (2½); the CSV for the federation's Excel keeps a decimal
    comma and the API/JSON a number (docs/rules/standings.md)."""
    league = finished_league
    with league.database.session() as session:
        table = tournament_table(load_tournament(session, league.code))
        assert [(row.start_no, row.points) for row in table.rows] == [
            (1, 2.5), (2, 2.0), (3, 1.0), (4, 0.5)]
        text = standings_text(table)
        csv = standings_csv(table).decode("utf-8-sig")
    assert ";2,5;" in csv and "2½" not in csv
    assert "2½" in text and "2.5" not in text
    api = league.client("steward").get(f"/tournaments/{league.code}/standings.json").get_json()
    assert api["standings"][0]["points"] == 2.5
    env = letters_env()
    for language in ("ru", "en"):
        letter = env.get_template(f"{language}/final_report.txt").render(
            doc={"heading": {"code": league.code, "title": "Кубок"},
                 "standings": [{"place": "1", "name": "Иванов Пётр", "points": 2.5}],
                 "statistics": {"games": 6, "finished": 6}, "decisions": []},
            issue={"as_of": TODAY}, recipient="Иванов Пётр")
        assert "Иванов Пётр — 2½" in letter and "2.5" not in letter
    assert reader_points(-1.5) == "−1½" and reader_points(12.25) == "12¼"


@pytest.mark.parametrize(("locale", "legend"), [
    ("ru", ("присуждено", "просрочка времени", "неявка (000 §3.15.2)",
            "выбывшего участника (000 §3.14.3)", "аннулирован")),
    ("en", ("adjudicated", "overstep", "a forfeit (000 §3.15.2)",
            "a withdrawn player's games never begun (000 §3.14.3)", "annulled")),
])
def test_the_final_report_crosstable_carries_the_marks_of_the_web_one(
    finished_league: Any, locale: str, legend: tuple[str, ...]
) -> None:
    league = finished_league
    steward = league.client("steward")
    steward.post("/locale", data={"locale": locale})
    pages = _pages(league, steward)
    web = pages["standings"]
    for name in ("final report", "bulletin"):
        paper = pages[name]
        cross = paper[paper.index('<table class="crosstable">'):]
        cross = cross[:cross.index("</table>")]
        for cell in ("1<sup>*</sup>", "0<sup>*</sup>", "1<sup>†</sup>", "0<sup>†</sup>",
                     '">+</span>', '">−</span>', '">½</span>'):
            assert cell in cross, (name, cell)
            assert cell in web, ("standings", cell)
        # The marks carry their meaning as on the web page, and the legend explains each.
        assert re.search(r'class="result adjudicated" title="[^"]+">1<sup>\*</sup>', cross)
        after = paper[paper.index('<table class="crosstable">'):]
        legend_text = html.unescape(after[after.index('class="legend"'):][:1500])
        for sign in ("*", "†", "‡"):
            assert f"{sign} " in legend_text, (name, sign)
        for words in legend:
            assert words in legend_text, (name, words)
            assert words in html.unescape(web), ("standings", words)


def test_a_paper_archived_before_the_marks_reads_as_it_was_issued(finished_league: Any) -> None:
    """An issued paper reads the same forever: one archived with its cells as text keeps them;
    one archived now keeps each result's mark in its JSON."""
    league = finished_league
    with league.database.session() as session:
        content = to_json(build_final_report(session, load_tournament(session, league.code),
                                             TODAY))
    archived = content["crosstable"]["cells"]
    first = archived[0]  # player 1: ×, ½ against 2, 1* against 3, 1 against 4
    assert first[0] == []
    assert {"symbol": "1", "mark": "*", "annulled": False, "adjudicated": True} in [
        result for cell in first for result in cell]
    content["crosstable"]["cells"] = [
        ["×" if i == j else " ".join(result["symbol"] for result in cell)
         for j, cell in enumerate(row)]
        for i, row in enumerate(archived)
    ]
    page = render_printable(content, language="ru")
    cross = page[page.index('<table class="crosstable">'):]
    cross = cross[:cross.index("</table>")]
    assert '<td class="cell">×</td>' in cross and '<td class="cell">½</td>' in cross
    assert "<sup>" not in cross


@pytest.mark.parametrize(("language", "written"), [("ru", "1533,33"), ("en", "1533.33")])
def test_a_decimal_value_takes_the_readers_decimal_mark(
    league: Any, language: str, written: str
) -> None:
    """An average rating (003 §9.1) is no multiple of a quarter: a Russian reader sees a
    decimal comma, an English one a point, on the web pages as on the printable papers; points
    keep their fractions in both (000 §3.15.1)."""
    paper = _environment(language).from_string("{{ a|points }} {{ b|points }}")
    assert paper.render(a=1533.3333, b=2.5) == f"{written} 2½"
    with league.app.test_request_context():
        flask.session["locale"] = language
        refresh()
        page = league.app.jinja_env.from_string("{{ a|points }} {{ b|points }}")
        assert page.render(a=1533.3333, b=2.5) == f"{written} 2½"
    assert reader_points(1533.3333) == "1533.33" and reader_points(0.5) == "½"


def test_a_letter_writes_a_decimal_value_with_its_languages_mark(tmp_path: Any) -> None:
    """One environment writes both languages' letters; each takes its own decimal mark for a
    value not built from points (003 §9.1), and points keep their fractions (000 §3.15.1)."""
    for language in ("ru", "en"):
        (tmp_path / language).mkdir()
        (tmp_path / language / "avg.txt").write_text("{{ 1533.333|points }} {{ 2.5|points }}",
                                                     encoding="utf-8")
    env = letters_env(tmp_path)
    assert env.get_template("ru/avg.txt").render() == "1533,33 2½"
    assert env.get_template("en/avg.txt").render() == "1533.33 2½"
