"""A tournament reaches its end date with five unfinished games; the referee's queue resolves
them (002 §4.5.2–4.5.7) and `scoring`'s crosstable shows the adjudicated results marked."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import Case, CaseType, GameResult, GameState, ResultKind, Tournament
from corrmail.referee.tournament_view import scoring_tournament
from scoring.crosstable import crosstable

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)


def day(n: int) -> dt.date:
    """The n-th day after the end-of-play date."""
    return END + dt.timedelta(days=n)


def test_five_unfinished_games_resolved_through_the_queue(cup: Cup, set_today) -> None:
    pairs = sorted(cup.games)
    unfinished = pairs[:5]
    for white, black in pairs[5:]:
        cup.finish(white, black, GameResult.DRAW)
    matching, conflicting, one_sided, silent, late_protest = unfinished

    # The day before the end date nothing opens; on the end date all five do.
    set_today(END - dt.timedelta(days=1))
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        assert session.scalars(select(Case)).all() == []
    set_today(END)
    cup.post("steward", f"/cases/new/{cup.code}/adjudications", status=403)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    cases: dict[tuple[int, int], int] = {}
    with cup.database.session() as session:
        for pair in unfinished:
            row = session.scalar(select(Case).where(Case.game_id == cup.games[pair]))
            assert row is not None and row.case_type is CaseType.ADJUDICATION
            assert row.deadline == day(10)  # analyses due (002 §4.5.2)
            assert row.game.state is GameState.ADJUDICATION
            cases[pair] = row.id
        requests = cup.outbox(session, "case.adjudication.request")
        assert len(requests) == 10
        assert all(b"image/svg+xml" in m.raw for m in requests)  # the final-position diagram
        tournament = session.get(Tournament, cup.tournament_id)
        assert tournament is not None and tournament.status.value == "adjudication"
    # Running it again opens nothing twice.
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        assert len(session.scalars(select(Case)).all()) == 5

    def analyse(pair: tuple[int, int], side: str, assessment: str, **status: int) -> str:
        who = f"player{pair[0] if side == 'white' else pair[1]}"
        return cup.act(who, cases[pair], "analysis", status.get("status", 303), side=side,
                       assessment=assessment, analysis=f"{side}: {assessment}, because …")

    set_today(day(3))
    analyse(matching, "white", "draw")
    analyse(matching, "black", "draw")
    # A player sends for his own side only.
    cup.act(f"player{conflicting[0]}", cases[conflicting], "analysis", 403, side="black",
            assessment="loss", analysis="…")
    set_today(day(5))
    analyse(conflicting, "white", "win")
    analyse(conflicting, "black", "draw")
    analyse(one_sided, "white", "win")
    set_today(day(10))  # the last day is in time
    analyse(late_protest, "white", "draw")
    analyse(late_protest, "black", "win")

    # The queue filtered by who must act: both analyses in → the referee; else the players.
    def listed(awaiting: str) -> set[int]:
        page = cup.client("referee").get(f"/cases/?awaiting={awaiting}").data.decode()
        return {case_id for case_id in cases.values() if f'data-case="{case_id}"' in page}

    assert listed("referee") == {cases[matching], cases[conflicting], cases[late_protest]}
    assert listed("players") == {cases[one_sided], cases[silent]}

    # Matching assessments fix the result (002 §4.5.4).
    set_today(day(4))
    cup.act("referee", cases[matching], "agreed")
    # The window is open for the games still missing analyses (002 §4.5.2).
    set_today(day(10))
    text = cup.act("referee", cases[silent], "decide", 422, ruling="draw")
    assert "10.09.2027" in text
    set_today(day(11))
    cup.act("referee", cases[conflicting], "decide", ruling="white_wins",
            reasons="white's extra piece wins")
    cup.act("referee", cases[one_sided], "decide", ruling="white_wins",
            reasons="white's analysis holds")
    cup.act("referee", cases[silent], "decide", ruling="draw", reasons="equal material")
    cup.act("referee", cases[late_protest], "decide", ruling="draw", reasons="equal material")
    with cup.database.session() as session:
        # The players of this tournament play by post: their letters go to the steward, who
        # posts them (002 §4.1.1), each naming the player it is for.
        def told(kind: str) -> set[str]:
            letters = cup.outbox(session, f"case.adjudication.{kind}")
            assert {m.recipient for m in letters} == {"steward@example.org"}
            return {found.group(1) for m in letters
                    if (found := re.search(r"(?:Письмо для игрока|A letter for) (Player [0-9.]+)",
                                           m.body_text))}

        def name(number: int) -> str:
            return f"Player 1.{number}"

        # "Differs from your assessment": only to a player who sent one, and it differs
        # (002 §4.5.5) — black of the conflict, black of the last game (assessed a win).
        assert told("result_differs") == {name(conflicting[1]), name(late_protest[1])}
        # Every other player is told the result too: the one-sided game's black and the
        # silent players (sent none), and those whose assessment matched.
        assert told("result") == {name(n) for pair in unfinished for n in pair} - {
            name(conflicting[1]), name(late_protest[1])}

    # Protests to the organizer within ten days (002 §4.5.6).
    set_today(day(15))
    cup.act(f"player{conflicting[1]}", cases[conflicting], "protest", party="black",
            grounds="the endgame is a book draw")
    text = cup.act(f"player{one_sided[1]}", cases[one_sided], "protest", 422, party="black")
    assert "002 §4.5.6" in text  # no analysis sent: no right to protest
    set_today(day(22))
    text = cup.act(f"player{late_protest[1]}", cases[late_protest], "protest", 422,
                   party="black")
    assert "21.09.2027" in text  # the date it was due
    # The referee may not hear a protest against his own decision; the organizer decides.
    cup.act("referee", cases[conflicting], "decide", 403, ruling="draw")
    cup.act("organizer", cases[conflicting], "decide", ruling="draw",
            reasons="book draw, Petrov's triangle")
    text = cup.act(f"player{conflicting[0]}", cases[conflicting], "protest", 422,
                   party="white")
    assert "final" in text or "§4.5.7" in text

    # Closing once the windows have passed.
    for pair in (matching, one_sided, silent, late_protest):
        cup.act("referee", cases[pair], "close")

    with cup.database.session() as session:
        for pair in unfinished:
            row = cup.case_row(session, cases[pair])
            assert row.closed_at is not None and row.state == "closed"
            game = row.game
            assert game.result_kind is ResultKind.ADJUDICATED
        assert cup.game(session, *conflicting).result is GameResult.DRAW
        assert cup.game(session, *conflicting).result_rule == "002 §4.5.7"
        assert cup.game(session, *matching).result_rule == "002 §4.5.4"
        assert cup.game(session, *one_sided).result is GameResult.WHITE_WIN
        table = crosstable(scoring_tournament(session.get(Tournament, cup.tournament_id)))
    points = dict(zip(table.order, table.points, strict=True))
    expected_points = {number: 2.5 for number in range(1, 7)}
    expected_points[one_sided[0]] += 0.5
    expected_points[one_sided[1]] -= 0.5
    assert points == expected_points
    marked = {(cell.round, min(row, cell.opponent), max(row, cell.opponent))
              for row, cells in zip(table.order, table.rounds, strict=True)
              for cell in cells if cell is not None and cell.adjudicated}
    assert len(marked) == 5
