"""Recording a play-off: the outcome of an extra match or tournament that decides the places of
participants level on points (000 §3.16.2), or the extra match for first place that a team placed
second after winning every match may claim (000 §3.17.6).

The outcome is written as groups in finishing order, ``/`` between groups, ``,`` (or, for start
numbers, spaces) inside one: ``3 7 / 5`` — 3 and 7 share the higher place, 5 takes the next; for
teams ``Казань / Уфа``. It is stored on the tournament and applied by the one standings adapter
(:func:`corrmail.standings.results.scoring_tournament`), so the pages, bulletins, exports and the API
agree. Whether it fits is decided by `scoring` itself (:class:`scoring.errors.PlayoffError`), on
the table as it stands when it is recorded; nothing is stored when it does not fit.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from corrmail.audit import record
from corrmail.models import Game, Team, Tournament, User
from corrmail.rounds.swiss import scoring_view
from corrmail.rounds.teams import team_tiebreak_order
from corrmail.standings.results import scoring_tournament, tiebreak_order
from scoring.errors import PlayoffError, ScoringError
from scoring.standings import standings
from scoring.teams import team_standings

__all__ = [
    "PlayoffRefused",
    "PlayoffSyntaxError",
    "clear_playoff",
    "format_playoff",
    "parse_playoff",
    "playoff_problems",
    "record_playoff",
]

_RULE = "000 §3.16.2"


class PlayoffSyntaxError(ValueError):
    """The written outcome cannot be read; carries the text and what is wrong with it."""

    def __init__(self, text: str, reason: str) -> None:
        super().__init__(f"cannot read the play-off {text!r}: {reason}")
        self.text = text
        self.reason = reason


class PlayoffRefused(ValueError):
    """The play-off cannot be recorded for this tournament now (the reason cites the rule)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Recorded:
    teams: bool
    groups: tuple[tuple[str, ...], ...]


def parse_playoff(text: str, *, teams: bool) -> tuple[tuple[str, ...], ...]:
    """Groups in finishing order; start numbers are checked to be numbers, not yet known."""
    stripped = text.strip()
    if not stripped:
        raise PlayoffSyntaxError(text, "nothing written; write the finishing order, e.g. '3 7 / 5'")
    groups: list[tuple[str, ...]] = []
    for number, chunk in enumerate(stripped.split("/"), start=1):
        separator = r"," if teams else r"[,\s]+"
        members = tuple(m.strip() for m in re.split(separator, chunk) if m.strip())
        if not members:
            raise PlayoffSyntaxError(text, f"group {number} is empty (two '/' in a row?)")
        if not teams:
            wrong = [m for m in members if not m.isdigit() or int(m) == 0]
            if wrong:
                raise PlayoffSyntaxError(text, f"{', '.join(wrong)} is not a start number")
            members = tuple(str(int(m)) for m in members)
        groups.append(members)
    listed = [m.casefold() for group in groups for m in group]
    if len(listed) < 2:
        raise PlayoffSyntaxError(text, f"a play-off is between two or more participants ({_RULE})")
    if len(set(listed)) != len(listed):
        raise PlayoffSyntaxError(text, "a participant is listed twice")
    return tuple(groups)


def format_playoff(groups: Sequence[Sequence[object]] | None) -> str:
    """The stored groups written back as the director types them."""
    return " / ".join(", ".join(str(m) for m in group) for group in groups or ())


def _unfinished(session: Session, tournament: Tournament) -> int:
    return len(session.scalars(
        select(Game.id).where(Game.tournament_id == tournament.id, Game.result.is_(None))
    ).all())


def _team_names(session: Session, tournament: Tournament) -> dict[str, str]:
    rows = session.scalars(select(Team.name).where(Team.tournament_id == tournament.id))
    return {name.casefold(): name for name in rows}


def _check_players(tournament: Tournament, groups: tuple[tuple[int, ...], ...]) -> None:
    candidate = dataclasses.replace(scoring_tournament(tournament), playoff=groups)
    standings(candidate, tiebreaks=tiebreak_order(tournament, candidate))


def _check_teams(session: Session, tournament: Tournament, groups: tuple[tuple[str, ...], ...]) -> None:
    view = dataclasses.replace(scoring_view(session, tournament), team_playoff=groups)
    team_standings(view, tiebreaks=team_tiebreak_order(tournament))


def record_playoff(
    session: Session, tournament: Tournament, text: str, user: User | None, *, teams: bool = False
) -> Recorded:
    """Validate and store the play-off written in ``text``; raises :class:`PlayoffSyntaxError`
    or :class:`PlayoffRefused` and then stores nothing."""
    raw = parse_playoff(text, teams=teams)
    pending = _unfinished(session, tournament)
    if pending:
        raise PlayoffRefused(
            f"{pending} game(s) of {tournament.code} have no result yet: a play-off decides the "
            f"places of the final table ({_RULE}); record it once every game is decided"
        )
    try:
        if teams:
            names = _team_names(session, tournament)
            if not names:
                raise PlayoffRefused(f"{tournament.code} has no teams (000 §3.17.1)")
            unknown = [m for group in raw for m in group if m.casefold() not in names]
            if unknown:
                raise PlayoffRefused(f"no team named {', '.join(unknown)} in {tournament.code}")
            team_groups = tuple(tuple(names[m.casefold()] for m in group) for group in raw)
            _check_teams(session, tournament, team_groups)
            tournament.team_playoff = [list(group) for group in team_groups]
            stored: tuple[tuple[str, ...], ...] = team_groups
        else:
            numbers = tuple(tuple(int(m) for m in group) for group in raw)
            _check_players(tournament, numbers)
            tournament.playoff = [list(group) for group in numbers]
            stored = raw
    except PlayoffError as error:
        raise PlayoffRefused(str(error)) from None
    except ScoringError as error:  # a table that cannot be computed cannot take a play-off
        raise PlayoffRefused(str(error)) from None
    what = "team play-off" if teams else "play-off"
    rule = "000 §3.17.6" if teams else _RULE
    record(
        session, user=user, action="tournament.playoff", entity="tournament",
        entity_id=tournament.id, tournament_id=tournament.id, rule=rule,
        summary=f"{what} recorded: {format_playoff(stored)}",
        detail={"teams": teams, "groups": [list(group) for group in stored]},
    )  # fmt: skip
    session.flush()
    return Recorded(teams, stored)


def clear_playoff(session: Session, tournament: Tournament, user: User | None, *, teams: bool = False) -> bool:
    """Remove the recorded play-off; False if there was none."""
    current = tournament.team_playoff if teams else tournament.playoff
    if not current:
        return False
    if teams:
        tournament.team_playoff = None
    else:
        tournament.playoff = None
    record(
        session, user=user, action="tournament.playoff_cleared", entity="tournament",
        entity_id=tournament.id, tournament_id=tournament.id,
        rule="000 §3.17.6" if teams else _RULE,
        summary=f"{'team ' if teams else ''}play-off removed: {format_playoff(current)}",
        detail={"teams": teams, "groups": current},
    )  # fmt: skip
    session.flush()
    return True


def playoff_problems(session: Session, tournament: Tournament) -> list[str]:
    """Why a recorded play-off no longer fits the table (a result corrected after it was
    recorded); the tables are then shown without it."""
    problems: list[str] = []
    if tournament.playoff:
        try:
            _check_players(tournament, tuple(tuple(g) for g in tournament.playoff))
        except PlayoffError as error:
            problems.append(str(error))
    if tournament.team_playoff:
        try:
            _check_teams(session, tournament, tuple(tuple(g) for g in tournament.team_playoff))
        except PlayoffError as error:
            problems.append(str(error))
    return problems
