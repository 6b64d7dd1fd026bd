"""The tournament as the database shows it on a given date (reproducible paperwork).

Every fact is kept with the date it happened in the tournament's calendar, so a bulletin "as of"
a date reads only what was on record that day (the readings are in ``docs/rules/bulletins.md``):

* a letter counts from the day it was sent (its ``sent`` date; a letter without one from the
  day it was entered), a correction likewise (002 §4.2.5);
* a result from ``Game.result_on``; a penalty from ``Penalty.charged_on``;
* a case from ``opened_on`` and each decision from its ``decided_on``; a protest from its
  ``filed_on``;
* a break from its announcement (or its first day, if none is recorded); a withdrawal from
  ``withdrawn_on``.

Nothing here computes a rule: the time charts are `timekeeping`'s over the letters on record,
the standings `scoring`'s over the results on record.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from adjudication import Case as PureCase
from adjudication import Decision, Sanction, case_from_dict
from adjudication.case import CaseState
from adjudication.sanction import SanctionKind, SanctionRuling
from corrmail.games.ledger import effective_letters, letter_date
from corrmail.games.view import GameView
from corrmail.models import (
    Case,
    Forwarding,
    Game,
    Letter,
    Participant,
    Tournament,
    TournamentNotFound,
)
from corrmail.models import Penalty as PenaltyRow
from corrmail.standings.results import result_on_record, scoring_tournament
from scoring.model import Tournament as ScoringTournament
from timekeeping import Ledger

__all__ = ["AsOfGameView", "CaseOnRecord", "Snapshot", "TournamentNotFound", "load_tournament"]

INFORMATION_RULE = "002 §4.1.9"


def load_tournament(session: Session, code: str) -> Tournament:
    tournament = session.scalar(
        select(Tournament)
        .where(Tournament.code == code)
        .options(
            selectinload(Tournament.participants).selectinload(Participant.player),
            selectinload(Tournament.participants).selectinload(Participant.breaks),
            selectinload(Tournament.games).selectinload(Game.letters),
        )
    )
    if tournament is None:
        raise TournamentNotFound(code)
    return tournament


@dataclass
class AsOfGameView(GameView):
    """`GameView` over the letters and penalties on record on ``as_of``."""

    as_of: dt.date = dt.date.max

    @cached_property
    def letters(self) -> list[Letter]:
        zone = self.game.tournament.time_zone
        return effective_letters(
            [letter for letter in self.game.letters if letter_date(letter, zone) <= self.as_of
             and letter.reports_error_of_id is None]
        )

    def error_report_letters(self) -> list[Letter]:
        zone = self.game.tournament.time_zone
        return [letter for letter in super().error_report_letters()
                if letter_date(letter, zone) <= self.as_of]

    def letters_on_record(self) -> list[Letter]:
        zone = self.game.tournament.time_zone
        return [letter for letter in self.game.letters if letter_date(letter, zone) <= self.as_of]

    def game_penalties(self) -> list[PenaltyRow]:
        return [row for row in super().game_penalties() if row.charged_on <= self.as_of]

    def forwarding_rows(self) -> list[Forwarding]:
        """The steward's forwardings posted (or telephoned) by the date."""
        return [row for row in super().forwarding_rows() if row.forwarded_on <= self.as_of]

    def ledger(self) -> Ledger:
        """The game's ledger without the breaks announced (or granted) after the date."""
        full = super().ledger()
        breaks = tuple(
            span for span in full.breaks
            if (span.notice_postmark or span.first_day) <= self.as_of
        )
        return dataclasses.replace(full, breaks=breaks)


@dataclass(frozen=True)
class CaseOnRecord:
    """A case row with the package's case as it stood on the snapshot date."""

    row: Case
    case: PureCase
    decisions: tuple[Decision, ...]
    """The decisions taken on or before the snapshot date, oldest first."""
    then: PureCase | None = None
    """The case as it stood on the snapshot date (decisions and protests of later days left
    out, the state they implied); ``None``: as :attr:`case` (nothing happened later)."""

    @property
    def as_it_stood(self) -> PureCase:
        return self.then if self.then is not None else self.case

    @property
    def ruling(self) -> str | None:
        return self.decisions[-1].ruling if self.decisions else None


def case_as_of(case: PureCase, as_of: dt.date) -> PureCase | None:
    """``case`` as it stood on ``as_of``: without the decisions and protests of later days, in
    the state they leave it (a bulletin rebuilt for a past date shows the deadlines that ran
    then, also of cases decided since). ``None`` when nothing happened after the date."""
    decisions = tuple(d for d in case.decisions if d.decided_on <= as_of)
    protests = tuple(p for p in case.protests if p.filed_on <= as_of)
    if len(decisions) == len(case.decisions) and len(protests) == len(case.protests):
        return None
    if not decisions:
        state = CaseState.AWAITING_PARTIES
    elif protests and protests[-1].decision == len(decisions) - 1:
        state = CaseState.UNDER_PROTEST
    else:
        state = CaseState.DECIDED
    return dataclasses.replace(case, decisions=decisions, protests=protests, state=state)


class Snapshot:
    """One tournament on one date."""

    def __init__(self, session: Session, tournament: Tournament, as_of: dt.date) -> None:
        self.session = session
        self.tournament = tournament
        self.as_of = as_of

    # -- games --------------------------------------------------------------------------------

    def result_on_record(self, game: Game) -> bool:
        return result_on_record(game, self.as_of) is not None

    def view(self, game: Game) -> AsOfGameView:
        return AsOfGameView(game, as_of=self.as_of)

    def withdrawn(self, participant: Participant) -> bool:
        return participant.withdrawn_on is not None and participant.withdrawn_on <= self.as_of

    @cached_property
    def scoring(self) -> ScoringTournament:
        """The tournament for `scoring` as the record stood on the date: the one adapter's
        (`corrmail.standings.results.scoring_tournament`) results, games in progress and decided
        withdrawals on record then."""
        return scoring_tournament(self.tournament, as_of=self.as_of)

    # -- cases --------------------------------------------------------------------------------

    @cached_property
    def cases(self) -> tuple[CaseOnRecord, ...]:
        rows = self.session.scalars(
            select(Case).where(Case.tournament_id == self.tournament.id).order_by(Case.id)
        ).all()
        on_record = []
        for row in rows:
            case = case_from_dict(row.payload)
            if case.opened_on > self.as_of:
                continue
            decisions = tuple(d for d in case.decisions if d.decided_on <= self.as_of)
            on_record.append(CaseOnRecord(row, case, decisions, case_as_of(case, self.as_of)))
        return tuple(on_record)

    def sanction_in_force(
        self, participant: Participant, kinds: Sequence[SanctionKind]
    ) -> CaseOnRecord | None:
        """The sanction of one of ``kinds`` imposed on ``participant`` and not lifted by the
        date (002 §4.1.9: the steward may deprive a player of the current information)."""
        for stored in reversed(self.cases):
            case = stored.case
            if (
                isinstance(case, Sanction)
                and case.player == str(participant.id)
                and case.sanction in kinds
                and stored.ruling == SanctionRuling.IMPOSED.value
            ):
                return stored
        return None
