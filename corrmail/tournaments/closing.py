"""The end of a tournament: closing it, its frozen final table and the referee's final report.

At the end of play the sweep opens the adjudications of unfinished games (``corrmail.referee.
sweep``). ``close`` refuses while a game is unfinished or a case undecided, naming each; otherwise
it marks the tournament finished on the day, freezes the final table as it then stands
(``Tournament.final_table``, the JSON of the standings export, never recomputed: a later
correction of the code cannot change a published result) and issues and queues the referee's
final report (002 §4.1.7) through the bulletins' archive.

Letters are kept: nothing here or in ``corrmail.ops.backup`` deletes a letter, and players keep
theirs for a month after the results (002 §4.1.13).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import CaseState, case_from_dict
from corrmail import audit
from corrmail.bulletins.archive import issue
from corrmail.bulletins.sending import send_issue
from corrmail.letters.write import LetterWriter
from corrmail.models import (
    Case,
    Game,
    GameState,
    Tournament,
    TournamentStatus,
    User,
)
from corrmail.models.bulletins import BulletinIssue, BulletinKind
from corrmail.standings.results import load_tournament, tournament_table
from corrmail.tournaments.lock import lock_tournament
from corrmail.web.state_labels import case_state, case_type, game_state

__all__ = ["CloseRefused", "Closed", "close", "blockers"]

FINAL_REPORT_RULE = "002 §4.1.7"


class CloseRefused(ValueError):
    def __init__(self, tournament_code: str, reasons: Sequence[str]) -> None:
        super().__init__(f"{tournament_code}: " + "; ".join(reasons))
        self.tournament_code = tournament_code
        self.reasons = tuple(reasons)


@dataclass(frozen=True)
class Closed:
    tournament: Tournament
    report: BulletinIssue
    letters: int


def _game_name(game: Game) -> str:
    return str(_("game %(id)s (round %(round)s, %(white)s – %(black)s): %(state)s", id=game.id,
             round=game.round, white=game.white.player.name, black=game.black.player.name,
             state=game_state(game.state)))


def blockers(session: Session, tournament: Tournament, today: dt.date) -> list[str]:
    """What keeps the tournament from closing: each unfinished game and each case not closed
    — the Close page and the close itself read this one list (002 §4.1.7)."""
    reasons: list[str] = []
    if tournament.status is TournamentStatus.DRAFT:
        reasons.append(_("the tournament has not been published"))
    for game in session.scalars(select(Game).where(
            Game.tournament_id == tournament.id, Game.state != GameState.FINISHED)
            .order_by(Game.round, Game.id)):
        reasons.append(_("unfinished %(game)s", game=_game_name(game)))
    for case in session.scalars(select(Case).where(
            Case.tournament_id == tournament.id, Case.closed_at.is_(None)).order_by(Case.id)):
        if case.state == CaseState.DECIDED.value:
            # Decided, not yet final: called «undecided» it contradicted its own «decided».
            due = case_from_dict(case.payload).protest_window_until()
            if due is not None and due >= today:
                reasons.append(_("case %(id)s (%(type)s) is decided and open to protest until "
                                 "%(date)s (002 §4.1.12)", id=case.id,
                                 type=case_type(case.case_type), date=f"{due:%d.%m.%Y}"))
            else:
                reasons.append(_("case %(id)s (%(type)s) is decided and final: close it on the "
                                 "referee's desk", id=case.id, type=case_type(case.case_type)))
            continue
        reasons.append(_("undecided case %(id)s (%(type)s, %(state)s)", id=case.id,
                         type=case_type(case.case_type), state=case_state(case.state)))
    return reasons


def close(session: Session, tournament: Tournament, *, by: User | None,
          writer: LetterWriter | None, today: dt.date) -> Closed:
    """Finish the tournament, freeze its table, issue and queue the final report; all or nothing."""
    lock_tournament(session, tournament.id)
    if tournament.status is TournamentStatus.FINISHED:
        raise CloseRefused(tournament.code, [_("the tournament was closed on %(day)s", day=(
            tournament.finished_on or today).strftime("%d.%m.%Y"))])
    reasons = blockers(session, tournament, today)
    if reasons:
        raise CloseRefused(tournament.code, reasons)
    table = tournament_table(load_tournament(session, tournament.code))
    # Round-tripped through JSON text so the stored table is exactly what an export shows.
    tournament.final_table = json.loads(json.dumps(table.as_dict(), ensure_ascii=False))
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_on = today
    report = issue(session, tournament, today, kind=BulletinKind.FINAL_REPORT, user=by)
    letters = 0
    if writer is not None:
        letters = len(send_issue(session, writer, report))
    audit.record(session, user=by, action="tournament.closed", entity="tournament",
                 entity_id=tournament.id, tournament_id=tournament.id, rule=FINAL_REPORT_RULE,
                 summary=f"{tournament.code}: finished {today:%d.%m.%Y}, final report "
                         f"{report.id} v{report.version}")
    return Closed(tournament, report, letters)
