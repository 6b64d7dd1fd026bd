"""A double round robin of six players by post, played out card by card (Evidence).

Thirty games over four simulated months, every move through postal entry, with the events a
referee meets: a late start sheet (002 §4.3.2), a break (002 §4.4), a postmark correction
(002 §4.3.1), an impossible move the recipient corrects (002 §4.2.10), a wrong repetition with its
6 penalty days (002 §4.2.9, §4.2.11), an overstep claimed and confirmed (002 §4.3.6–4.3.7) and a
draw by agreement — ending in the crosstable `scoring` computes. The daily sweep runs along.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from sqlalchemy import func, select

from adjudication import Evidence
from adjudication.outcomes import Side as CaseSide
from corrmail.db import Database
from corrmail.games.view import GameView
from corrmail.letters.write import LetterWriter
from corrmail.mail.settings import MailSettings
from corrmail.models import (
    AuditEntry,
    Case,
    Game,
    GameResult,
    GameState,
    Letter,
    OutboxMessage,
    Participant,
    Penalty,
    ResultKind,
    Role,
    Tournament,
    TournamentOfficial,
    TournamentSystem,
    User,
)
from corrmail.play.postcards import (
    Declaration,
    PostcardCheck,
    PostcardEntry,
    enter_postcard,
    record_break_notice,
    record_start_sheet_receipt,
)
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import Desk, actor_for
from corrmail.standings.results import tournament_table
from corrmail.sweep import sweep
from corrmail.tournaments.start_sheets import pair_round_robin
from timekeeping import ChartRow

D = dt.date
START = D(2026, 9, 1)


@dataclass
class League:
    database: Database
    tournament_id: int
    steward: User
    referee: User
    #: (white start number, black start number, cycle 1|2) -> game id
    games: dict[tuple[int, int, int], int]

    def card(self, key: tuple[int, int, int], sender: str, today: D, **fields: object
             ) -> PostcardCheck:
        with self.database.transaction() as session:
            game = session.get(Game, self.games[key])
            assert game is not None
            entry = PostcardEntry(sender_id=game.white_id if sender == "white" else game.black_id,
                                  **fields)  # type: ignore[arg-type]
            check, _ = enter_postcard(session, game, entry, session.merge(self.steward),
                                      today=today)
            return check

    def chart_rows(self, key: tuple[int, int, int]) -> list[ChartRow]:
        with self.database.transaction() as session:
            game = session.get(Game, self.games[key])
            assert game is not None
            return list(GameView(game).chart().rows)


def _writers() -> tuple[LetterWriter, LetterWriter]:
    mail = MailSettings.from_env({}, secret_fallback="test-secret")
    return case_letter_writer(mail), LetterWriter(mail)


@pytest.fixture
def league(make_tournament, make_user, database: Database) -> League:  # type: ignore[no-untyped-def]
    tournament = make_tournament(players=6, code="ЗКР-E2E", system=TournamentSystem.ROUND_ROBIN_DOUBLE,
                                 start_date=START, end_date=D(2027, 8, 31))
    steward = make_user("e2e-steward", Role.STEWARD)
    referee = make_user("e2e-referee", Role.REFEREE)
    games: dict[tuple[int, int, int], int] = {}
    with database.transaction() as session:
        row = session.get(Tournament, tournament.id)
        assert row is not None
        for user, role in ((steward, Role.STEWARD), (referee, Role.REFEREE)):
            session.add(TournamentOfficial(tournament_id=row.id, user_id=user.id, role=role))
        paired = pair_round_robin(session, row, None)
        numbers = {p.id: p.start_number for p in row.participants}
        rounds = max(game.round for game in paired)
        for game in paired:
            cycle = 1 if game.round <= rounds // 2 else 2
            games[(numbers[game.white_id], numbers[game.black_id], cycle)] = game.id
    assert len(games) == 30
    return League(database, tournament.id, steward, referee, games)


def _key(league: League, a: int, b: int, cycle: int) -> tuple[int, int, int]:
    return (a, b, cycle) if (a, b, cycle) in league.games else (b, a, cycle)


def test_a_double_round_robin_by_post(league: League, database: Database) -> None:
    case_writer, mail_writer = _writers()
    # -- the special games ---------------------------------------------------------------------
    keys = sorted(league.games)
    # Player 6's start sheet came late; he is Black here.
    late = next(k for k in keys if k[1] == 6 and k[2] == 1)
    # Player 2 takes a break in October; he is Black here.
    with_break = next(k for k in keys if k[1] == 2 and k[2] == 1 and 6 not in k)
    postmark = _key(league, 1, 3, 1)      # a postmark correction
    substituted = _key(league, 4, 5, 1)   # an impossible move with a single move
    penalised = _key(league, 3, 4, 1)     # a wrong repetition: 6 days
    overstep = _key(league, 1, 5, 2)      # an overstep by Black, claimed and confirmed
    draw = _key(league, 1, 2, 2)          # a draw by agreement
    special = {late, with_break, postmark, substituted, penalised, overstep, draw}
    assert len(special) == 7

    with database.transaction() as session:
        tournament = session.get(Tournament, league.tournament_id)
        assert tournament is not None
        by_number = {p.start_number: p for p in tournament.participants}
        record_start_sheet_receipt(session, by_number[6], D(2026, 9, 10), None)
        record_break_notice(session, by_number[2], D(2026, 10, 1), D(2026, 10, 15),
                            D(2026, 9, 20), None)

    # Late start sheet (002 §4.3.2): player 6 starts on 11 September, not the 4th.
    league.card(late, "white", D(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26",
                postmark="01.09.26", declared_white_days=0, declared_black_days=0)
    league.card(late, "black", D(2026, 9, 16), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
                received="04.09", sent="14.09", postmark="14.09", declared_white_days=0,
                declared_black_days=3)
    rows = league.chart_rows(late)
    assert rows[1].days == 3  # 12–14 September, not 5–14

    # A break (002 §4.4.2): 1–15 October are not player 2's days.
    league.card(with_break, "white", D(2026, 9, 27), moves_text="1. c3-d4", sent="25.09.26")
    league.card(with_break, "black", D(2026, 10, 22), moves_text="1. c3-d4 f6-g5",
                partner_sent="25.09", received="28.09", sent="20.10", declared_white_days=24,
                declared_black_days=7)
    rows = league.chart_rows(with_break)
    assert rows[1].days == 7  # 29–30 September, 16–20 October

    # A postmark correction (002 §4.3.1): White wrote 01.09, the card is stamped 03.09.
    league.card(postmark, "white", D(2026, 9, 5), moves_text="1. c3-d4", sent="01.09.26",
                postmark="03.09.26")
    check = league.card(postmark, "black", D(2026, 9, 10), moves_text="1. c3-d4 f6-g5",
                        partner_sent="03.09", received="06.09", sent="08.09")
    assert any(f.rule == "002 §4.3.1" for f in check.findings)
    rows = league.chart_rows(postmark)
    assert rows[0].sent == D(2026, 9, 3) and rows[0].days == 2

    # An impossible move with a single move (002 §4.2.10): a3-c5 is read as a3-b4.
    check = league.card(substituted, "white", D(2026, 9, 4), moves_text="1. a3-c5",
                        sent="01.09.26")
    assert check.own_moves == "a3-b4" and check.penalty_days == 0
    league.card(substituted, "black", D(2026, 9, 10), moves_text="1. a3-b4 f6-g5",
                partner_sent="01.09", received="05.09", sent="07.09")

    # A wrong repetition (002 §4.2.9): play stops, 6 days to Black (002 §4.2.11), the corrected
    # card replaces it (002 §4.2.5).
    league.card(penalised, "white", D(2026, 9, 4), moves_text="1. c3-d4", sent="01.09.26")
    check = league.card(penalised, "black", D(2026, 9, 10), moves_text="1. c3-b4 f6-g5",
                        partner_sent="01.09", received="05.09", sent="07.09")
    assert check.stops_play and check.penalty_days == 6
    with database.transaction() as session:
        faulty = session.scalars(select(Letter).where(Letter.game_id == league.games[penalised])
                                 .order_by(Letter.sequence.desc())).first()
        assert faulty is not None and faulty.moves_text == ""
        faulty_id = faulty.id
    league.card(penalised, "black", D(2026, 9, 16), moves_text="1. c3-d4 f6-g5",
                partner_sent="01.09", received="05.09", sent="14.09", corrects_letter_id=faulty_id)
    with database.transaction() as session:
        game = session.get(Game, league.games[penalised])
        assert game is not None
        chart = GameView(game).chart()
        assert chart.totals.black == 9 + 6
        assert [c.rule for c in chart.charges] == ["002 §4.2.11"]

    # A draw by agreement: Black offers with his move, White accepts.
    league.card(draw, "white", D(2026, 9, 4), moves_text="1. c3-d4", sent="01.09.26")
    league.card(draw, "black", D(2026, 9, 10), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
                received="05.09", sent="07.09", raw_text="1. c3-d4 f6-g5. Предлагаю ничью.")
    league.card(draw, "white", D(2026, 9, 16), partner_sent="07.09", received="11.09",
                sent="14.09", declaration=Declaration.ACCEPTS_DRAW)

    # An overstep (002 §4.3.5): Black answers after 76 days; White claims, the referee confirms.
    league.card(overstep, "white", D(2026, 9, 4), moves_text="1. c3-d4", sent="01.09.26")
    check = league.card(overstep, "black", D(2026, 11, 23), moves_text="1. c3-d4 f6-g5",
                        partner_sent="01.09", received="05.09", sent="20.11")
    assert any(f.rule == "002 §4.3.5" for f in check.findings)

    # -- every other game: White opens, Black answers, the higher start number resigns -------
    results: dict[tuple[int, int, int], GameResult] = {
        draw: GameResult.DRAW, overstep: GameResult.WHITE_WIN}
    for key in sorted(league.games):
        white, black, cycle = key
        loser = "white" if white > black else "black"
        if key not in special:
            base = START + dt.timedelta(days=3 * (cycle - 1) + white)
            league.card(key, "white", base + dt.timedelta(days=2), moves_text="1. c3-d4",
                        sent=f"{base:%d.%m.%y}")
            league.card(key, "black", base + dt.timedelta(days=9), moves_text="1. c3-d4 f6-g5",
                        partner_sent=f"{base:%d.%m}", received=f"{base + dt.timedelta(4):%d.%m}",
                        sent=f"{base + dt.timedelta(6):%d.%m}")
        if key not in (draw, overstep):
            league.card(key, loser, D(2026, 11, 24), sent="20.11.26",
                        declaration=Declaration.RESIGNS)
            results[key] = GameResult.WHITE_WIN if loser == "black" else GameResult.BLACK_WIN

    # The daily sweep along the way: twice on one day changes nothing the second time.
    with database.transaction() as session:
        sweep(session, case_writer=case_writer, mail_writer=mail_writer, today=D(2026, 11, 25))
    counts = _counts(database)
    with database.transaction() as session:
        report = sweep(session, case_writer=case_writer, mail_writer=mail_writer,
                       today=D(2026, 11, 25))
    assert _counts(database) == counts
    assert report.clocks == 1  # only the overstep game is still open

    # The claim, entered by the referee from White's file; confirmed after the ten days.
    with database.transaction() as session:
        game = session.get(Game, league.games[overstep])
        assert game is not None
        actor = actor_for(session, session.merge(league.referee), league.tournament_id)
        Desk(session, case_writer, on=D(2026, 11, 25)).open_overstep_claim(
            actor, game, claimant=CaseSide.WHITE, held_move="d4-c5",
            evidence=frozenset(Evidence), letter_text="Заявляю о просрочке.")
        assert game.state is GameState.SUSPENDED
    with database.transaction() as session:
        case = session.scalars(select(Case).where(Case.game_id == league.games[overstep])).one()
        actor = actor_for(session, session.merge(league.referee), league.tournament_id)
        Desk(session, case_writer, on=D(2026, 12, 6)).decide(
            actor, case.id, revision=case.revision, ruling="confirmed")
    with database.transaction() as session:
        game = session.get(Game, league.games[overstep])
        assert game is not None
        assert (game.result, game.result_kind) == (GameResult.WHITE_WIN, ResultKind.OVERSTEP)
        sweep(session, case_writer=case_writer, mail_writer=mail_writer, today=D(2026, 12, 31))

    # -- the crosstable ------------------------------------------------------------------------
    expected: dict[int, float] = dict.fromkeys(range(1, 7), 0.0)
    for (white, black, _cycle), result in results.items():
        white_points = {GameResult.WHITE_WIN: 1.0, GameResult.DRAW: 0.5}.get(result, 0.0)
        expected[white] += white_points
        expected[black] += 1.0 - white_points
    with database.transaction() as session:
        tournament = session.get(Tournament, league.tournament_id)
        assert tournament is not None
        assert all(game.state is GameState.FINISHED for game in tournament.games)
        for key, result in results.items():
            game = session.get(Game, league.games[key])
            assert game is not None and game.result is result, key
        table = tournament_table(tournament)
        points = {row.start_no: row.points for row in table.rows}
        assert points == expected
        assert sum(expected.values()) == 30
        assert [row.points for row in table.rows] == sorted(points.values(), reverse=True)
        # The draw and the overstep in the crosstable: ½ and 1 between their players.
        index = {number: i for i, number in enumerate(table.crosstable.order)}
        one, two = index[1], index[2]
        assert "½" in [cell.symbol for cell in table.crosstable.matrix[one][two]]
        # Every card entered is in the ledger and the audit log, with who entered it.
        postal = session.scalar(select(func.count()).select_from(AuditEntry)
                                .where(AuditEntry.action == "letter.postal"))
        letters = session.scalar(select(func.count()).select_from(Letter))
        assert postal == letters
        assert session.scalar(select(func.count()).select_from(Penalty)) == 1
        steward_id = league.steward.id
        assert session.scalar(select(func.count()).select_from(Letter)
                              .where(Letter.entered_by_id != steward_id)) == 0


def _counts(database: Database) -> tuple[int, ...]:
    with database.transaction() as session:
        return tuple(session.scalar(select(func.count()).select_from(model)) or 0
                     for model in (AuditEntry, Case, Letter, OutboxMessage, Participant))
