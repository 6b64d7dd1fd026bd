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


def N_(text: str) -> str:
    """Mark ``text`` for ``pybabel extract``; it is translated when shown."""
    return text


#: Why a written play-off cannot be read or recorded, by code: the English texts are also the
#: catalog's message ids, so a page words the refusal in its reader's language
#: (``corrmail.web.refusals``); ``detail`` is the scoring engine's own text.
PLAYOFF_REFUSALS: dict[str, str] = {
    "empty": N_("nothing written; write the finishing order, e.g. '3 7 / 5'"),
    "empty_group": N_("group %(number)s is empty (two '/' in a row?)"),
    "not_start_number": N_("%(numbers)s is not a start number"),
    "one_participant": N_("a play-off is between two or more participants (%(rule)s)"),
    "listed_twice": N_("a participant is listed twice"),
    "unfinished": N_(
        "%(count)s game(s) of %(tournament)s have no result yet: a play-off decides the places of the "
        "final table (%(rule)s); record it once every game is decided"),
    "no_teams": N_("%(tournament)s has no teams (000 §3.17.1)"),
    "unknown_team": N_("no team named %(names)s in %(tournament)s"),
    "engine": N_("the table refuses this play-off: %(detail)s"),
    # The scoring engine's refusals, by its codes (scoring.PlayoffError.code).
    "takes_no_place": N_("%(numbers)s take no place in this table"),
    "not_level": N_("a play-off is only for participants level on points (000 §3.16.2)"),
    "teams_not_level": N_(
        "the teams are not level on points (000 §3.16.2), and an extra match for first place is "
        "only between the teams placed first and second alone (000 §3.17.6)"),
    "runner_up_lost": N_(
        "team %(team)s did not win every match, so it has no right to an extra match for first "
        "place (000 §3.17.6), and the teams are not level on points for a play-off (000 §3.16.2)"),
}

#: The frame of a play-off that cannot be read.
UNREADABLE = N_("cannot read the play-off %(text)s: %(reason)s")


class PlayoffSyntaxError(ValueError):
    """The written outcome cannot be read; carries the text and what is wrong with it
    (``code`` and ``params``; ``reason`` in English)."""

    def __init__(self, text: str, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        self.reason = PLAYOFF_REFUSALS[code] % params if params else PLAYOFF_REFUSALS[code]
        super().__init__(UNREADABLE % {"text": repr(text), "reason": self.reason})
        self.text = text


class PlayoffRefused(ValueError):
    """The play-off cannot be recorded for this tournament now (the reason cites the rule);
    ``code`` and ``params`` name it, ``reason`` is its English text."""

    def __init__(self, code: str, **params: object) -> None:
        self.code = code
        self.params = params
        self.reason = PLAYOFF_REFUSALS[code] % params if params else PLAYOFF_REFUSALS[code]
        super().__init__(self.reason)


def engine_refusal(error: PlayoffError) -> PlayoffRefused:
    """The scoring engine's refusal in the service's words (its code and values), so a page says
    it in the reader's language; one the service has no words for keeps the engine's text."""
    if error.code in PLAYOFF_REFUSALS:
        return PlayoffRefused(error.code, **error.values)
    return PlayoffRefused("engine", detail=str(error))


@dataclass(frozen=True)
class Recorded:
    teams: bool
    groups: tuple[tuple[str, ...], ...]


def parse_playoff(text: str, *, teams: bool) -> tuple[tuple[str, ...], ...]:
    """Groups in finishing order; start numbers are checked to be numbers, not yet known."""
    stripped = text.strip()
    if not stripped:
        raise PlayoffSyntaxError(text, "empty")
    groups: list[tuple[str, ...]] = []
    for number, chunk in enumerate(stripped.split("/"), start=1):
        separator = r"," if teams else r"[,\s]+"
        members = tuple(m.strip() for m in re.split(separator, chunk) if m.strip())
        if not members:
            raise PlayoffSyntaxError(text, "empty_group", number=number)
        if not teams:
            wrong = [m for m in members if not m.isdigit() or int(m) == 0]
            if wrong:
                raise PlayoffSyntaxError(text, "not_start_number", numbers=", ".join(wrong))
            members = tuple(str(int(m)) for m in members)
        groups.append(members)
    listed = [m.casefold() for group in groups for m in group]
    if len(listed) < 2:
        raise PlayoffSyntaxError(text, "one_participant", rule=_RULE)
    if len(set(listed)) != len(listed):
        raise PlayoffSyntaxError(text, "listed_twice")
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
        raise PlayoffRefused("unfinished", count=pending, tournament=tournament.code, rule=_RULE)
    try:
        if teams:
            names = _team_names(session, tournament)
            if not names:
                raise PlayoffRefused("no_teams", tournament=tournament.code)
            unknown = [m for group in raw for m in group if m.casefold() not in names]
            if unknown:
                raise PlayoffRefused("unknown_team", names=", ".join(unknown),
                                     tournament=tournament.code)
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
        raise engine_refusal(error) from None
    except ScoringError as error:  # a table that cannot be computed cannot take a play-off
        raise PlayoffRefused("engine", detail=str(error)) from None
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


def playoff_problems(session: Session, tournament: Tournament) -> list[PlayoffRefused]:
    """Why a recorded play-off no longer fits the table (a result corrected after it was
    recorded); the tables are then shown without it."""
    problems: list[PlayoffRefused] = []
    if tournament.playoff:
        try:
            _check_players(tournament, tuple(tuple(g) for g in tournament.playoff))
        except PlayoffError as error:
            problems.append(engine_refusal(error))
    if tournament.team_playoff:
        try:
            _check_teams(session, tournament, tuple(tuple(g) for g in tournament.team_playoff))
        except PlayoffError as error:
            problems.append(engine_refusal(error))
    return problems
