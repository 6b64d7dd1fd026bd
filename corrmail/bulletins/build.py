"""Building the paperwork from the database as of a date: the steward's bulletin
(002 §4.1.8), the referee's final report (002 §4.1.7) and a player's own sheet.

Every number comes from a pure package: the standings and crosstable from `scoring`, think
time, days left and the last safe reply date from `timekeeping`, records and diagrams from
`notation`, case deadlines from `adjudication`. This module only gathers and arranges them.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import Adjudication, GameRecordCase, OverstepClaim, Sanction, Side, Withdrawal
from corrmail.bulletins.asof import AsOfGameView, CaseOnRecord, Snapshot
from corrmail.bulletins.content import (
    AdjudicationLine,
    BreakLine,
    Bulletin,
    ClaimLine,
    ClockLine,
    Crosstable,
    DeadlineLine,
    DecisionLine,
    DelayLine,
    FinalReport,
    FinishedGame,
    GameCourse,
    Heading,
    IssueLine,
    OverstepLine,
    PenaltyLine,
    PlayerSheet,
    ProtestMark,
    RecordLine,
    RoundCell,
    SheetGame,
    StandingLine,
    Statistics,
    StewardReport,
    TeamLine,
    UnfinishedGame,
    WithdrawalLine,
)
from corrmail.bulletins.sending import WITHHELD_BY
from corrmail.games.ledger import letter_date, standing_penalties
from corrmail.games.view import UnsupportedGameType
from corrmail.models import (
    AuditEntry,
    Game,
    GameResult,
    Participant,
    Penalty,
    ResultKind,
    Role,
    Tournament,
    TournamentChannel,
)
from corrmail.models.bulletins import BulletinIssue, BulletinKind
from corrmail.referee.results import outcome_of
from corrmail.standings.results import marked_results, marker, result_kind_marks, team_rows
from notation.letters import LegalMove
from notation.short import format_short
from notation.svg import board_svg
from scoring.crosstable import crosstable
from scoring.standings import StandingRow, default_tiebreaks, standings
from scoring.tiebreaks import TIEBREAKS
from timekeeping import (
    NotToMoveError,
    Overstep,
    TimeChart,
    compute_chart,
    effective_start,
    first_move_query_date,
    repeat_due_of,
    reply_clock,
)
from timekeeping import Side as ClockSide

__all__ = [
    "build_bulletin",
    "build_final_report",
    "build_player_sheet",
    "build_steward_report",
    "records_decision",
    "short_record",
]

OVERSTEP_RULE = "002 §4.3.5"
DELAY_RULE = "002 §4.3.4"
RECORD_RULE = "002 §4.5.1"
DECISION_ACTIONS = frozenset({"case.decided", "case.protest_decided"})
OPENING_ACTIONS = (".opened", ".recorded", ".requested", ".detected")
"""Opening a case may decide it at once (a steward's sanction): the audit entry then carries
the ruling. Other entries that carry the ruling in force (a protest filed, a receipt, a ban, the
case closed) record no new decision."""


def records_decision(entry: AuditEntry) -> bool:
    """Whether an audit entry of a case records one of its decisions."""
    if entry.entity != "case" or "ruling" not in entry.detail:
        return False
    return entry.action in DECISION_ACTIONS or entry.action.endswith(OPENING_ACTIONS)


def build_bulletin(
    session: Session,
    tournament: Tournament,
    as_of: dt.date,
    *,
    number: int = 0,
    since: dt.date | None = None,
) -> Bulletin:
    """The bulletin as of ``as_of``; games finished and decisions taken after ``since`` (the
    previous bulletin's date) are the news."""
    snapshot = Snapshot(session, tournament, as_of)
    games = _games_by_state(snapshot)
    clocks, oversteps = _clocks(snapshot, games.in_play)
    return Bulletin(
        **_standings_part(snapshot),
        number=number,
        since=since,
        finished=tuple(
            _finished_game(snapshot, game)
            for game in games.finished
            if since is None or game.result_on is None or game.result_on > since
        ),
        in_adjudication=_adjudications(snapshot),
        oversteps=oversteps,
        decisions=tuple(
            line for line in _decisions(snapshot)
            if since is None or line.decided_on > since
        ),
        penalties=tuple(
            line for line in _penalties(snapshot) if since is None or line.charged_on > since
        ),
        breaks=_breaks(snapshot, since=since),
        clocks=clocks,
        deadlines=_deadlines(snapshot, clocks),
    )


def build_final_report(session: Session, tournament: Tournament, as_of: dt.date) -> FinalReport:
    """The referee's report to the organizer: the whole tournament as of ``as_of``."""
    snapshot = Snapshot(session, tournament, as_of)
    standings_part = _standings_part(snapshot)
    games = _games_by_state(snapshot)
    _, in_play_oversteps = _clocks(snapshot, games.in_play)
    order: tuple[str, ...] = standings_part["tiebreak_order"]
    return FinalReport(
        **standings_part,
        tiebreak_rules=tuple((name, TIEBREAKS[name].rule) for name in order if name in TIEBREAKS),
        decisions=_decisions(snapshot),
        penalties=_penalties(snapshot),
        withdrawals=_withdrawals(snapshot),
        records=_records(snapshot),
        statistics=_statistics(snapshot),
        oversteps=_unclaimed_oversteps(snapshot, in_play_oversteps),
        breaks=_breaks(snapshot, every=True),
        unfinished=_unfinished(snapshot),
    )


def build_steward_report(
    session: Session, tournament: Tournament, as_of: dt.date, *, steward: str = ""
) -> StewardReport:
    """The steward's report to the referee on the games he serves, as of ``as_of`` (002 §4.1.8:
    he registers the finished games' records, keeps the results, informs the players, decides
    their conflicts, informs the referee of the course of play and reports to him at the end).
    ``steward`` is who signs it (the referee when the tournament has no steward)."""
    snapshot = Snapshot(session, tournament, as_of)
    games = _games_by_state(snapshot)
    _, oversteps = _clocks(snapshot, games.in_play)
    referees = tuple(
        official.user.display_name for official in tournament.officials
        if official.role is Role.REFEREE
    )
    bulletins = session.scalars(
        select(BulletinIssue)
        .where(BulletinIssue.tournament_id == tournament.id,
               BulletinIssue.kind == BulletinKind.BULLETIN, BulletinIssue.as_of <= as_of)
        .order_by(BulletinIssue.number, BulletinIssue.version)
    ).all()
    return StewardReport(
        heading=_heading(tournament),
        as_of=as_of,
        steward=steward,
        referees=referees,
        statistics=_statistics(snapshot),
        games=tuple(
            _course(snapshot, game)
            for game in sorted(tournament.games, key=lambda g: (g.round, g.board or 0, g.id))
        ),
        unfinished=_unfinished(snapshot),
        delays=_delays(snapshot, games.in_play),
        oversteps=oversteps,
        open_claims=_open_claims(snapshot),
        penalties=_penalties(snapshot),
        breaks=_breaks(snapshot, every=True),
        decisions=tuple(line for line in _decisions(snapshot) if line.instance == "steward"),
        records=_records(snapshot),
        withdrawals=_withdrawals(snapshot),
        bulletins=tuple(IssueLine(row.number, row.version, row.as_of) for row in bulletins),
    )


def build_player_sheet(session: Session, participant: Participant, as_of: dt.date) -> PlayerSheet:
    """One player's games, clocks, days left and deadlines, and the last bulletin issued."""
    tournament = participant.tournament
    snapshot = Snapshot(session, tournament, as_of)
    _, lines, _ = _standings(snapshot)
    mine = next((line for line in lines if line.start_no == participant.start_number), None)
    games = _games_by_state(snapshot)
    own_games = [g for g in tournament.games if participant.id in (g.white_id, g.black_id)]
    clocks, _ = _clocks(snapshot, [g for g in games.in_play if g in own_games])
    clock_of = {clock.game_id: clock for clock in clocks}
    sheet_games = []
    for game in own_games:
        white = game.white_id == participant.id
        partner = game.black if white else game.white
        clock = clock_of.get(game.id)
        state = _state(snapshot, game)
        own_days = partner_days = None
        if clock is not None:
            own_days, partner_days = (
                (clock.white_days, clock.black_days) if white
                else (clock.black_days, clock.white_days)
            )
        to_move = clock is not None and clock.to_move_side == ("white" if white else "black")
        sheet_games.append(SheetGame(
            game_id=game.id,
            round=game.round,
            opponent=partner.player.name,
            colour="white" if white else "black",
            state=state,
            result=_result(snapshot, game),
            moves=clock.moves if clock is not None else _moves(snapshot.view(game)),
            own_days=own_days,
            partner_days=partner_days,
            to_move=to_move,
            days_left=clock.days_left if to_move and clock is not None else None,
            last_safe_reply=clock.last_safe_reply if to_move and clock is not None else None,
        ))
    names = {participant.player.name}
    deadlines = tuple(
        line for line in _deadlines(snapshot, clocks)
        if line.who in names or line.game_id in {g.id for g in own_games}
    )
    # The last bulletin he may read: one issued while information was withheld from him
    # (002 §4.1.9) is not his to see.
    issued = session.scalars(
        select(BulletinIssue)
        .where(BulletinIssue.tournament_id == tournament.id,
               BulletinIssue.kind == BulletinKind.BULLETIN,
               BulletinIssue.as_of <= as_of)
        .order_by(BulletinIssue.number.desc(), BulletinIssue.version.desc())
    )
    last = next((row for row in issued if Snapshot(session, tournament, row.as_of)
                 .sanction_in_force(participant, WITHHELD_BY[BulletinKind.BULLETIN]) is None),
                None)
    return PlayerSheet(
        heading=_heading(tournament),
        as_of=as_of,
        participant_id=participant.id,
        name=participant.player.name,
        start_no=participant.start_number,
        place=mine.place if mine else None,
        points=mine.points if mine else None,
        games=tuple(sheet_games),
        deadlines=deadlines,
        last_bulletin=(last.id, last.number, last.as_of) if last is not None else None,
    )


def short_record(view: AsOfGameView) -> tuple[str, int, str | None]:
    """The game's moves in short notation (002 §4.5.1), its length in moves and a diagram of the
    last position (``None`` when `notation` cannot replay the game)."""
    try:
        played = view.played
    except ValueError:  # no rules engine, or a rule option `notation` refuses: as written
        return " ".join(view.plies), _full_moves(len(view.plies)), None
    parts: list[str] = []
    for index, (position, reading) in enumerate(zip(played.positions, played.readings, strict=False)):
        if not isinstance(reading, LegalMove):
            break
        text = format_short(position, reading.move)
        parts.append(f"{index // 2 + 1}.{text}" if index % 2 == 0 else text)
    last = played.position
    moves = played.moves
    game = view.game
    diagram = board_svg(last, last_move=moves[-1] if moves else None, square_size=26,
                        title=f"{game.white.player.name} — {game.black.player.name}")
    return " ".join(parts), _full_moves(len(parts)), diagram


# -- parts ------------------------------------------------------------------------------------


def _standings_part(snapshot: Snapshot) -> dict[str, Any]:
    """The fields the bulletin and the final report share, built alike so the two papers agree:
    the heading and date, the standings and crosstable, a team event's table and the overstep
    claims still open."""
    order, lines, table = _standings(snapshot)
    team_order, teams = _teams(snapshot)
    return {
        "heading": _heading(snapshot.tournament), "as_of": snapshot.as_of,
        "tiebreak_order": order, "standings": lines, "crosstable": table,
        "teams": teams, "team_tiebreak_order": team_order, "open_claims": _open_claims(snapshot),
    }


def _heading(tournament: Tournament) -> Heading:
    return Heading(
        code=tournament.code,
        title=tournament.title,
        game_type=tournament.game_type.value,
        system=tournament.system.value,
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        control=f"{tournament.time_control_days}/{tournament.time_control_moves}",
    )


def _standings(
    snapshot: Snapshot,
) -> tuple[tuple[str, ...], tuple[StandingLine, ...], Crosstable]:
    scoring = snapshot.scoring
    order = tuple(snapshot.tournament.tiebreak_order) or default_tiebreaks(scoring)
    rows: list[StandingRow] = standings(scoring, tiebreaks=order)
    lines = tuple(
        StandingLine(
            place=row.place,
            start_no=row.start_no,
            name=row.name,
            points=row.points,
            games_played=row.games_played,
            tiebreaks=tuple(row.tiebreaks.items()),
            withdrawn=row.withdrawn,
        )
        for row in rows
    )
    numbers = [row.start_no for row in rows]
    table = crosstable(scoring, order=numbers)
    names = {player.start_no: player.name for player in scoring.players}
    # The marks of the web crosstable (000 §3.14.4, 002 §4.3.7, §4.5.3), as the record stood.
    kind_marks = result_kind_marks(snapshot.tournament, snapshot.tournament.games, snapshot.as_of)
    cells = tuple(
        tuple(
            () if i == j else marked_results(table.matrix[i][j], marker(kind_marks, number))
            for j in range(len(table.order))
        )
        for i, number in enumerate(table.order)
    )
    # A Swiss or team event is printed by rounds, as the web's table (TournamentTable.by_rounds).
    rounds = () if scoring.system.is_round_robin else tuple(
        tuple(
            None if cell is None else RoundCell(
                opponent=cell.opponent,
                colour=cell.colour.value if cell.opponent is not None and cell.colour else None,
                results=marked_results([cell], marker(kind_marks, number)))
            for cell in row
        )
        for number, row in zip(table.order, table.rounds, strict=True)
    )
    return order, lines, Crosstable(
        start_numbers=tuple(table.order),
        names=tuple(names[number] for number in table.order),
        cells=cells,
        points=tuple(table.points),
        rounds=rounds,
    )


@dataclass
class _GamesByState:
    finished: list[Game]
    in_play: list[Game]


def _games_by_state(snapshot: Snapshot) -> _GamesByState:
    finished = sorted(
        (g for g in snapshot.tournament.games if snapshot.result_on_record(g)),
        key=lambda g: (g.result_on or dt.date.min, g.id),
    )
    adjudicating = _adjudicated_game_ids(snapshot)
    in_play = [
        g for g in snapshot.tournament.games
        if not snapshot.result_on_record(g) and g.id not in adjudicating
    ]
    return _GamesByState(finished, in_play)


def _adjudicated_game_ids(snapshot: Snapshot) -> set[int]:
    return {
        stored.row.game_id for stored in snapshot.cases
        if isinstance(stored.case, Adjudication) and stored.row.game_id is not None
    }


def _state(snapshot: Snapshot, game: Game) -> str:
    if snapshot.result_on_record(game):
        return "finished"
    if game.id in _adjudicated_game_ids(snapshot):
        return "adjudication"
    if game.id in _claimed_game_ids(snapshot):
        return "suspended"
    return "in_play" if snapshot.view(game).letters else "not_started"


def _open_claim_cases(snapshot: Snapshot) -> list[CaseOnRecord]:
    """Overstep claims not settled by the date: opened, decided within the protest window or
    under protest (002 §4.3.6–§4.3.8), for a game whose result is not on record."""
    return [
        stored for stored in snapshot.cases
        if isinstance(stored.case, OverstepClaim)
        and not stored.as_it_stood.is_closed
        and stored.row.game is not None
        and not snapshot.result_on_record(stored.row.game)
    ]


def _claimed_game_ids(snapshot: Snapshot) -> set[int]:
    return {stored.row.game_id for stored in _open_claim_cases(snapshot)
            if stored.row.game_id is not None}


def _open_claims(snapshot: Snapshot) -> tuple[ClaimLine, ...]:
    lines = []
    for stored in _open_claim_cases(snapshot):
        case = stored.as_it_stood
        assert isinstance(case, OverstepClaim)
        game = stored.row.game
        assert game is not None
        names = {Side.WHITE: game.white.player.name, Side.BLACK: game.black.player.name}
        accused = Side.BLACK if case.claimant is Side.WHITE else Side.WHITE
        deadline = case.deadline_on(snapshot.as_of)
        lines.append(ClaimLine(
            case_id=stored.row.id,
            case_ref=case.case_id,
            game_id=game.id,
            white=names[Side.WHITE],
            black=names[Side.BLACK],
            claimant=names[case.claimant],
            accused=names[accused],
            opened_on=case.opened_on,
            state=case.state.value,
            next_due=deadline.due if deadline is not None else None,
            next_what=deadline.what if deadline is not None else "",
        ))
    return tuple(lines)


def _teams(snapshot: Snapshot) -> tuple[tuple[str, ...], tuple[TeamLine, ...]]:
    """A team event's table as of the date (000 §3.17.6: the places are the teams')."""
    rows = team_rows(snapshot.tournament, snapshot.scoring)
    order = tuple(rows[0].tiebreaks) if rows else ()
    return order, tuple(
        TeamLine(row.place, row.team, row.match_points, row.game_points,
                 tuple(row.tiebreaks.items()))
        for row in rows
    )


def _unfinished(snapshot: Snapshot) -> tuple[UnfinishedGame, ...]:
    return tuple(
        UnfinishedGame(
            game_id=game.id,
            round=game.round,
            white=game.white.player.name,
            black=game.black.player.name,
            moves=_moves(snapshot.view(game)),
            state=_state(snapshot, game),
        )
        for game in sorted(snapshot.tournament.games, key=lambda g: (g.round, g.board or 0, g.id))
        if not snapshot.result_on_record(game)
    )


def _result(snapshot: Snapshot, game: Game) -> str:
    if not snapshot.result_on_record(game):
        return ""
    outcome = outcome_of(game)
    return outcome.symbol if outcome is not None else ""


def _finished_game(snapshot: Snapshot, game: Game) -> FinishedGame:
    record, moves, diagram = short_record(snapshot.view(game))
    return FinishedGame(
        game_id=game.id,
        round=game.round,
        white=game.white.player.name,
        black=game.black.player.name,
        result=_result(snapshot, game),
        how=(game.result_kind or ResultKind.PLAYED).value,
        rule=game.result_rule,
        finished_on=game.result_on,
        record=record,
        moves=moves,
        diagram_svg=diagram,
    )


def _adjudications(snapshot: Snapshot) -> tuple[AdjudicationLine, ...]:
    lines = []
    for stored in snapshot.cases:
        case, game = stored.case, stored.row.game
        if not isinstance(case, Adjudication) or game is None or stored.decisions:
            continue
        lines.append(AdjudicationLine(
            game_id=game.id,
            white=game.white.player.name,
            black=game.black.player.name,
            opened_on=case.opened_on,
            analyses_due=case.analyses_due,
            decision_due=case.decision_due,
            state="awaiting_decision" if case.analyses_due < snapshot.as_of else "awaiting_parties",
        ))
    return tuple(lines)


def _clocks(
    snapshot: Snapshot, games: Iterable[Game]
) -> tuple[tuple[ClockLine, ...], tuple[OverstepLine, ...]]:
    """Each game in play: `timekeeping`'s chart over the letters on record, the clock of the
    player to move on the date, and any overstep the chart or the clock shows (002 §4.3.5)."""
    clocks: list[ClockLine] = []
    oversteps: list[OverstepLine] = []
    claimed = _claimed_game_ids(snapshot)
    for game in games:
        view = snapshot.view(game)
        try:
            chart: TimeChart = view.chart()
            side = view.side_to_move
        except (UnsupportedGameType, ValueError):
            continue
        name = {ClockSide.WHITE: game.white.player.name, ClockSide.BLACK: game.black.player.name}
        try:
            clock = reply_clock(view.ledger(), side, view.relayed_to_mover(), chart=chart)
            days_left: int | None = clock.days_left(snapshot.as_of)
            last_safe = clock.last_safe_reply_date()
            limit = clock.limit
        except NotToMoveError:
            days_left, last_safe, limit = None, None, 0
        clocks.append(ClockLine(
            game_id=game.id,
            white=name[ClockSide.WHITE],
            black=name[ClockSide.BLACK],
            moves=_moves(view),
            white_days=chart.totals.white,
            black_days=chart.totals.black,
            to_move=name[side],
            to_move_side=side.value,
            limit=limit,
            days_left=None if game.id in claimed else days_left,
            last_safe_reply=None if game.id in claimed else last_safe,
            suspended=game.id in claimed,
        ))
        if chart.overstep is not None:
            oversteps.append(_chart_overstep(snapshot, game, chart.overstep))
        elif days_left is not None and days_left < 0:
            oversteps.append(OverstepLine(game.id, name[side], _moves(view), limit - days_left,
                                          limit, OVERSTEP_RULE, name[ClockSide.WHITE],
                                          name[ClockSide.BLACK], _state(snapshot, game)))
    return tuple(clocks), tuple(oversteps)


def _chart_overstep(snapshot: Snapshot, game: Game, over: Overstep) -> OverstepLine:
    player = game.white if over.player is ClockSide.WHITE else game.black
    return OverstepLine(game.id, player.player.name, over.move, over.total, over.limit,
                        OVERSTEP_RULE, game.white.player.name, game.black.player.name,
                        _state(snapshot, game))


def _unclaimed_oversteps(
    snapshot: Snapshot, in_play: Iterable[OverstepLine]
) -> tuple[OverstepLine, ...]:
    """The final report's oversteps nobody claimed (002 §4.1.7, §4.3.5): those of the games in
    play (``in_play``, the chart's or the running clock's) and the first overstep in the chart
    of every other game — finished or sent to adjudication without anyone claiming it, the
    referee must still see it. A game with an overstep claim on record, in any state, or whose
    result was already given for an overstep, is left out: the overstep was dealt with."""
    claimed = {stored.row.game_id for stored in snapshot.cases
               if isinstance(stored.case, OverstepClaim)}
    found = {line.game_id: line for line in in_play}
    lines = []
    for game in sorted(snapshot.tournament.games, key=lambda g: (g.round, g.board or 0, g.id)):
        if game.id in claimed or (snapshot.result_on_record(game)
                                  and game.result_kind is ResultKind.OVERSTEP):
            continue
        line = found.get(game.id)
        if line is None:
            try:
                over = snapshot.view(game).chart().overstep
            except (UnsupportedGameType, ValueError):
                continue
            line = _chart_overstep(snapshot, game, over) if over is not None else None
        if line is not None:
            lines.append(line)
    return tuple(lines)


def _course(snapshot: Snapshot, game: Game) -> GameCourse:
    """One game's course on the date: its letters, think time, penalty days and overstep."""
    view = snapshot.view(game)
    sent = [letter.sent for letter in view.letters if letter.sent is not None]
    white_days: int | None = None
    black_days: int | None = None
    overstep = ""
    try:
        chart = view.chart()
    except (UnsupportedGameType, ValueError):
        pass
    else:
        white_days, black_days = chart.totals.white, chart.totals.black
        if chart.overstep is not None:
            overstep = (game.white if chart.overstep.player is ClockSide.WHITE
                        else game.black).player.name
    penalties = view.game_penalties()  # those charged by the date
    finished = snapshot.result_on_record(game)
    return GameCourse(
        game_id=game.id,
        round=game.round,
        white=game.white.player.name,
        black=game.black.player.name,
        state=_state(snapshot, game),
        result=_result(snapshot, game),
        how=(game.result_kind or ResultKind.PLAYED).value if finished else "",
        finished_on=game.result_on if finished else None,
        moves=_moves(view),
        letters=len(view.letters),
        first_sent=min(sent, default=None),
        last_sent=max(sent, default=None),
        white_days=white_days,
        black_days=black_days,
        white_penalty_days=sum(row.days for row in penalties
                               if row.participant_id == game.white_id),
        black_penalty_days=sum(row.days for row in penalties
                               if row.participant_id == game.black_id),
        overstep=overstep,
    )


def _delays(snapshot: Snapshot, games: Iterable[Game]) -> tuple[DelayLine, ...]:
    """Games in play waiting past the dates of 002 §4.3.4: a move letter unanswered on the day
    its repeat is due, or no first move by the day the partner must ask for it. A game whose
    overstep claim waits is suspended (002 §4.3.6) and is not delayed."""
    claimed = _claimed_game_ids(snapshot)
    lines = []
    for game in games:
        if game.id in claimed:
            continue
        view = snapshot.view(game)
        try:
            ledger = view.ledger()
            chart = compute_chart(ledger)
            side = view.side_to_move
        except (UnsupportedGameType, ValueError):
            continue
        name = {ClockSide.WHITE: game.white.player.name, ClockSide.BLACK: game.black.player.name}
        if chart.rows:
            # A move the steward forwarded waits from the day he posted it (002 §4.1.1).
            last = ledger.letters[-1]
            since = last.forwarded_on or chart.rows[-1].sent
            due = repeat_due_of(last, chart.break_calendar)
            what = "repeat"
        else:
            # White's play begins on the start date, or the day after a late start sheet
            # reached him (002 §4.3.2): the calendar's first-move query counts from the same day.
            since = effective_start(ledger, ClockSide.WHITE)
            due = first_move_query_date(since, chart.break_calendar)
            what = "first_move"
        if snapshot.as_of < due:
            continue
        lines.append(DelayLine(
            game_id=game.id,
            white=name[ClockSide.WHITE],
            black=name[ClockSide.BLACK],
            waiting_for=name[side],
            since=since,
            days=(snapshot.as_of - since).days,
            due=due,
            what=what,
            rule=DELAY_RULE,
        ))
    return tuple(sorted(lines, key=lambda line: (line.due, line.game_id)))


def _party_name(stored: Any, party: str) -> str:
    """A side stays its code (the page words it); a player's entry becomes his name."""
    if party.isdigit():
        for participant in stored.row.tournament.participants:
            if participant.id == int(party):
                return str(participant.player.name)
    return party


def _decisions(snapshot: Snapshot) -> tuple[DecisionLine, ...]:
    """Every decision on record, oldest first, each matched to the audit entry that recorded it
    (the k-th decision entry of a case is its k-th decision)."""
    entries = snapshot.session.scalars(
        select(AuditEntry)
        .where(AuditEntry.tournament_id == snapshot.tournament.id, AuditEntry.entity == "case")
        .order_by(AuditEntry.id)
    ).all()
    audit_ids: dict[int, list[int]] = defaultdict(list)
    for entry in entries:
        if entry.entity_id is not None and records_decision(entry):
            audit_ids[entry.entity_id].append(entry.id)
    lines = []
    for stored in snapshot.cases:
        recorded = audit_ids.get(stored.row.id, [])
        for index, decision in enumerate(stored.decisions):
            protests = tuple(
                f"{p.party} {p.filed_on.strftime('%d.%m.%Y')} → {p.to.value}"
                for p in stored.case.protests
                if p.decision == index and p.filed_on <= snapshot.as_of
            )
            marks = tuple(
                ProtestMark(_party_name(stored, p.party), p.filed_on, p.to.value)
                for p in stored.case.protests
                if p.decision == index and p.filed_on <= snapshot.as_of
            )
            lines.append(DecisionLine(
                case_id=stored.row.id,
                case_ref=stored.case.case_id,
                case_type=stored.case.TYPE,
                subject=_subject(stored),
                instance=decision.instance.value,
                ruling=decision.ruling,
                decided_on=decision.decided_on,
                rules=decision.rules,
                reasons=decision.reasons,
                protests=protests,
                protest_marks=marks,
                audit_id=recorded[index] if index < len(recorded) else None,
                sanction=(stored.case.sanction.value if isinstance(stored.case, Sanction)
                          else None),
            ))
    return tuple(sorted(lines, key=lambda line: (line.decided_on, line.case_id)))


def _penalties(snapshot: Snapshot) -> tuple[PenaltyLine, ...]:
    """Every penalty charged by the date, oldest first."""
    game_ids = [game.id for game in snapshot.tournament.games]
    rows = snapshot.session.scalars(
        select(Penalty).where(Penalty.game_id.in_(game_ids), Penalty.charged_on <= snapshot.as_of)
        .order_by(Penalty.charged_on, Penalty.id)
    ).all() if game_ids else []
    zone = snapshot.tournament.time_zone
    letters = [letter for game in snapshot.tournament.games for letter in game.letters
               if letter_date(letter, zone) <= snapshot.as_of]
    return tuple(
        PenaltyLine(row.game_id, row.participant.player.name, row.days, row.rule, row.reason,
                    row.charged_on)
        for row in standing_penalties(rows, letters)
    )


def _subject(stored: CaseOnRecord) -> str:
    row = stored.row
    if row.game is not None:
        return f"{row.game.white.player.name} — {row.game.black.player.name}"
    if row.participant is not None:
        return row.participant.player.name
    return ""


def _breaks(
    snapshot: Snapshot, *, since: dt.date | None = None, every: bool = False
) -> tuple[BreakLine, ...]:
    """Breaks of every kind (002 §4.4): in force on the date and announced for later; those
    taken since the previous bulletin (``since``); with ``every``, all on record (the final
    report)."""
    lines = []
    as_of = snapshot.as_of
    for participant in snapshot.tournament.participants:
        for item in participant.breaks:
            announced = item.announced_on or item.start_date
            if announced > as_of:
                continue
            over = item.end_date < as_of
            if over and not every and (since is None or item.end_date <= since):
                continue
            in_force = item.start_date <= as_of and not over
            lines.append(BreakLine(
                player=participant.player.name,
                start=item.start_date,
                end=item.end_date,
                days=(item.end_date - item.start_date).days + 1,
                kind=item.kind.value,
                in_force=in_force,
                state="taken" if over else "in_force" if in_force else "announced",
            ))
    return tuple(sorted(lines, key=lambda line: (line.start, line.player)))


def _deadlines(snapshot: Snapshot, clocks: Iterable[ClockLine]) -> tuple[DeadlineLine, ...]:
    """The next dates that matter: each player to move's last safe reply (002 §4.3.5) and each
    open case's next deadline (as `adjudication` states it)."""
    lines = [
        DeadlineLine(clock.last_safe_reply, clock.to_move, "reply", OVERSTEP_RULE, clock.game_id)
        for clock in clocks
        if clock.last_safe_reply is not None and clock.last_safe_reply >= snapshot.as_of
    ]
    for stored in snapshot.cases:
        case = stored.as_it_stood
        if case.is_closed:
            continue
        deadline = case.deadline_on(snapshot.as_of)
        if deadline is None or deadline.due < snapshot.as_of:
            continue
        lines.append(DeadlineLine(deadline.due, _subject(stored), deadline.what, deadline.rule,
                                  stored.row.game_id))
    return tuple(sorted(lines, key=lambda line: (line.due, line.who)))


def _withdrawals(snapshot: Snapshot) -> tuple[WithdrawalLine, ...]:
    cases = {
        stored.case.player: stored for stored in snapshot.cases
        if isinstance(stored.case, Withdrawal)
    }
    return tuple(
        WithdrawalLine(
            player=p.player.name,
            withdrawn_on=p.withdrawn_on,
            reason=p.withdrawal_reason or "",
            decision=(stored.ruling or "") if (stored := cases.get(str(p.id))) else "",
            ban_until=_ban(stored) if (stored := cases.get(str(p.id))) else None,
        )
        for p in snapshot.tournament.participants
        if p.withdrawn_on is not None and snapshot.withdrawn(p)
    )


def _ban(stored: CaseOnRecord) -> dt.date | None:
    """The bar from the organizer's tournaments (002 §4.1.14); its date is not kept, so it is
    shown from the withdrawal's decision on."""
    case = stored.case
    assert isinstance(case, Withdrawal)
    return case.ban_until if stored.decisions else None


def _records(snapshot: Snapshot) -> tuple[RecordLine, ...]:
    """Each finished game's records: received, generated by the server, due or missing."""
    record_cases = {
        stored.row.game_id: stored.case for stored in snapshot.cases
        if isinstance(stored.case, GameRecordCase)
    }
    email = snapshot.tournament.channel is TournamentChannel.EMAIL
    lines = []
    for game in snapshot.tournament.games:
        if not snapshot.result_on_record(game) or game.result is GameResult.ANNULLED:
            continue
        case = record_cases.get(game.id)
        marks: list[tuple[str, dt.date | None]] = []
        for side in (Side.WHITE, Side.BLACK):
            if email:
                marks.append(("generated", None))
            elif case is None:
                marks.append(("not_registered", None))
            elif (receipt := case.received_from(side)) and receipt.received_on <= snapshot.as_of:
                marks.append(("received", receipt.received_on))
            elif case.due < snapshot.as_of:
                marks.append(("missing", case.due))
            else:
                marks.append(("due", case.due))
        lines.append(RecordLine(
            game_id=game.id,
            white=game.white.player.name,
            black=game.black.player.name,
            result=_result(snapshot, game),
            channel="email" if email else "post",
            white_record=marks[0][0],
            black_record=marks[1][0],
            white_record_on=marks[0][1],
            black_record_on=marks[1][1],
        ))
    return tuple(lines)


def _statistics(snapshot: Snapshot) -> Statistics:
    games = snapshot.tournament.games
    finished = [g for g in games if snapshot.result_on_record(g)]
    played = [
        g for g in finished
        if g.result not in (GameResult.ANNULLED, GameResult.DOUBLE_LOSS)
        and g.result_kind is not ResultKind.FORFEIT
    ]
    lengths: list[int] = []
    durations: list[int] = []
    for game in played:
        view = snapshot.view(game)
        if not view.plies:
            continue
        lengths.append(_moves(view))
        first = min((letter.sent for letter in view.letters if letter.sent), default=None)
        if first is not None and game.result_on is not None:
            durations.append((game.result_on - first).days)
    return Statistics(
        games=len(games),
        finished=len(finished),
        unfinished=len(games) - len(finished),
        played=len(played),
        white_wins=sum(g.result is GameResult.WHITE_WIN for g in played),
        black_wins=sum(g.result is GameResult.BLACK_WIN for g in played),
        draws=sum(g.result is GameResult.DRAW for g in played),
        unplayed=sum(g.result_kind is ResultKind.FORFEIT for g in finished),
        adjudicated=sum(g.result_kind is ResultKind.ADJUDICATED for g in finished),
        annulled=sum(g.result is GameResult.ANNULLED for g in finished),
        average_moves=round(sum(lengths) / len(lengths), 1) if lengths else None,
        average_days=round(sum(durations) / len(durations), 1) if durations else None,
    )


def _moves(view: AsOfGameView) -> int:
    return _full_moves(len(view.plies))


def _full_moves(plies: int) -> int:
    """Moves as a record numbers them: White's and Black's ply share a number."""
    return (plies + 1) // 2
