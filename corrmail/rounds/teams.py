"""Team events in the service: teams with their board order, the team round robin (Berger table,
board games coloured by board one, 000 §3.17.3, or a Scheveningen match, 004) and the team
standings (`scoring.teams.team_standings`). A team Swiss is paired round by round by
`corrmail.rounds.swiss`."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from corrmail.audit import record
from corrmail.models import (
    Game,
    GameState,
    Team,
    TeamBoard,
    TeamPairing,
    TeamSchedule,
    Tournament,
    TournamentSystem,
    User,
)
from corrmail.rounds.refusals import TEAM_LINE_REFUSALS, english
from corrmail.rounds.swiss import RoundRefused, round_rules, scoring_view
from scoring.errors import PlayoffError, ScoringError
from scoring.model import Colour
from scoring.model import Game as ScoringGame
from scoring.model import Team as ScoringTeam
from scoring.model import Tournament as ScoringTournament
from scoring.roundrobin import round_robin_games
from scoring.teams import (
    TEAM_TIEBREAKS,
    TeamStandingRow,
    match_games,
    scheveningen_schedule,
    team_standings,
)

__all__ = [
    "TeamEntry",
    "TeamLineError",
    "TeamsRefused",
    "pair_team_round_robin",
    "parse_team_lines",
    "set_teams",
    "team_table",
]


@dataclass(frozen=True)
class TeamEntry:
    """A team as entered: its name and its players' start numbers, board one first."""

    name: str
    boards: tuple[int, ...]


@dataclass(frozen=True)
class TeamLineError:
    """What is wrong with one line (or with the teams as a whole): ``code`` and ``params`` name
    it (``corrmail.rounds.refusals``), ``reason`` is its English text."""

    line: int  # 1-based; 0 for an error about the teams as a whole
    text: str
    code: str
    params: dict[str, object] = dataclasses.field(default_factory=dict)

    @property
    def reason(self) -> str:
        return english(TEAM_LINE_REFUSALS, self.code, self.params)

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.reason}"


class TeamsRefused(ValueError):
    """The teams as entered cannot be stored; every problem is listed, nothing is stored."""

    def __init__(self, tournament_code: str, errors: Sequence[TeamLineError]) -> None:
        super().__init__(f"{tournament_code}: " + "; ".join(str(error) for error in errors))
        self.tournament_code = tournament_code
        self.errors = tuple(errors)


def parse_team_lines(text: str) -> tuple[list[TeamEntry], list[TeamLineError]]:
    """Read one team a line, ``Name: 3, 7, 12`` (start numbers, board one first, 000 §3.17.2).

    Lenient: every line is read and every bad one reported; blank lines are skipped.
    """
    entries: list[TeamEntry] = []
    errors: list[TeamLineError] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        name, colon, members = line.partition(":")
        name = " ".join(name.split())
        if not colon or not name:
            errors.append(TeamLineError(number, raw, "line_format"))
            continue
        tokens = [token for token in members.replace(";", ",").replace(" ", ",").split(",") if token]
        bad = [token for token in tokens if not token.isdigit() or int(token) < 1]
        if bad:
            errors.append(TeamLineError(number, raw, "not_numbers", {"numbers": ", ".join(bad)}))
            continue
        if not tokens:
            errors.append(TeamLineError(number, raw, "no_players", {"name": repr(name)}))
            continue
        entries.append(TeamEntry(name, tuple(int(token) for token in tokens)))
    return entries, errors


def _team_event(tournament: Tournament) -> None:
    if tournament.system is not TournamentSystem.TEAM:
        raise RoundRefused(tournament.code, "not_team_event", "000 §3.17")


def set_teams(
    session: Session, tournament: Tournament, entries: Sequence[TeamEntry], user: User | None
) -> list[Team]:
    """Replace the tournament's teams (before any game is paired): all or nothing.

    Refused, with every problem listed: unknown or withdrawn start numbers, a player in two teams
    or twice in one, two teams of one name, fewer than two teams (000 §3.17.1–3.17.2).
    """
    _team_event(tournament)
    games = session.scalar(
        select(func.count()).select_from(Game).where(Game.tournament_id == tournament.id)
    )
    if games:
        raise RoundRefused(
            tournament.code, "teams_fixed", "000 §3.17.2"
        )
    by_number = {p.start_number: p for p in tournament.participants if p.start_number is not None}
    errors: list[TeamLineError] = []
    seen_names: set[str] = set()
    team_of: dict[int, str] = {}
    for entry in entries:
        if entry.name.casefold() in seen_names:
            errors.append(TeamLineError(0, entry.name, "name_twice", {"name": repr(entry.name)}))
        seen_names.add(entry.name.casefold())
        for start in entry.boards:
            participant = by_number.get(start)
            if participant is None:
                errors.append(TeamLineError(0, entry.name, "no_such_player",
                                            {"team": entry.name, "number": start}))
            elif participant.withdrawn:
                errors.append(
                    TeamLineError(0, entry.name, "withdrawn", {"team": entry.name, "number": start})
                )
            if start in team_of:
                errors.append(TeamLineError(
                    0, entry.name, "in_two_teams",
                    {"number": start, "first": repr(team_of[start]), "second": repr(entry.name)},
                ))  # fmt: skip
            team_of[start] = entry.name
    if len(entries) < 2:
        errors.append(TeamLineError(0, "", "two_teams"))
    if errors:
        raise TeamsRefused(tournament.code, errors)
    session.execute(delete(Team).where(Team.tournament_id == tournament.id))
    for participant in tournament.participants:
        participant.team = None
    teams = []
    for number, entry in enumerate(entries, start=1):
        team = Team(tournament_id=tournament.id, number=number, name=entry.name)
        team.boards = [
            TeamBoard(board=board, participant_id=by_number[start].id)
            for board, start in enumerate(entry.boards, start=1)
        ]
        for start in entry.boards:
            by_number[start].team = entry.name
        teams.append(team)
    session.add_all(teams)
    session.flush()
    record(
        session, user=user, action="tournament.teams", entity="tournament",
        entity_id=tournament.id, tournament_id=tournament.id, rule="000 §3.17.2",
        summary="; ".join(f"{e.name}: {', '.join(map(str, e.boards))}" for e in entries),
    )  # fmt: skip
    return teams


def _scheveningen(tournament: Tournament, teams: Sequence[ScoringTeam], semi: bool) -> list[
    tuple[ScoringGame, int]
]:
    if len(teams) != 2:
        raise RoundRefused(
            tournament.code, "scheveningen_two_teams", "004", count=len(teams),
        )
    first, second = teams
    size = min(len(first.members), len(second.members))
    try:
        schedule = scheveningen_schedule(size, semi)
    except ScoringError as error:
        raise RoundRefused.by_engine(tournament.code, "004", error) from error
    games = []
    for pairing in schedule:
        ours, theirs = first.members[pairing.first - 1], second.members[pairing.second - 1]
        white, black = (ours, theirs) if pairing.first_colour is Colour.WHITE else (theirs, ours)
        games.append((ScoringGame(pairing.round, white, black), pairing.first))
    return games


def pair_team_round_robin(
    session: Session, tournament: Tournament, user: User | None
) -> list[Game]:
    """Create every board game of a team round robin at once (correspondence: all rounds start
    together). Teams are numbered in the order entered and paired by the Berger table; the team
    listed first has white on board one and on every odd board (000 §3.17.3). With the
    Scheveningen schedule (two teams only) every player meets every player of the other team,
    or the halves meet each other (semi-Scheveningen, 004)."""
    _team_event(tournament)
    rules = round_rules(session, tournament)
    if rules.team_pairing is not TeamPairing.ROUND_ROBIN:
        raise RoundRefused(
            tournament.code, "team_swiss_on_rounds_page", "000 §3.18"
        )
    if session.scalar(
        select(func.count()).select_from(Game).where(Game.tournament_id == tournament.id)
    ):
        raise RoundRefused(tournament.code, "has_games")
    teams = scoring_view(session, tournament).teams
    if len(teams) < 2:
        raise RoundRefused(tournament.code, "two_teams_first", "000 §3.17.1")
    planned: list[tuple[ScoringGame, int]]
    if rules.team_schedule is TeamSchedule.BOARDS:
        planned = []
        for scheduled in round_robin_games(list(range(1, len(teams) + 1))):
            first, second = teams[scheduled.white - 1], teams[scheduled.black - 1]
            planned.extend(
                (game, board)
                for board, game in enumerate(
                    match_games(scheduled.round, first, second, Colour.WHITE), start=1
                )
            )
        rule = "000 §3.17.3 (Berger table, colours by board one)"
    else:
        planned = _scheveningen(
            tournament, teams, rules.team_schedule is TeamSchedule.SEMI_SCHEVENINGEN
        )
        rule = "004 (Scheveningen)"
    by_number = {p.start_number: p for p in tournament.participants}
    games = [
        Game(
            tournament_id=tournament.id, round=game.round, board=board,
            white_id=by_number[game.white].id, black_id=by_number[game.black].id,
            state=GameState.NOT_STARTED,
        )  # fmt: skip
        for game, board in planned
    ]
    session.add_all(games)
    session.flush()
    record(
        session, user=user, action="tournament.pair", entity="tournament",
        entity_id=tournament.id, tournament_id=tournament.id, rule=rule[:40],
        summary=f"{len(games)} board games of {len(teams)} teams ({rules.team_schedule.value})",
    )  # fmt: skip
    return games


def team_tiebreak_order(tournament: Tournament) -> tuple[str, ...] | None:
    """The tournament's tiebreak order when it names team tiebreaks only; None: the rulebook's
    recommendation (003 §14.2 / §14.5)."""
    order = tuple(tournament.tiebreak_order)
    return order if order and all(name in TEAM_TIEBREAKS for name in order) else None


def team_table(
    session: Session, tournament: Tournament, results: ScoringTournament | None = None
) -> list[TeamStandingRow]:
    """Team standings by `scoring.teams.team_standings`: the tournament's tiebreak order when it
    names team tiebreaks only, else the rulebook's recommendation (003 §14.2 / §14.5).
    ``results``: the players' results to rank the teams by (as `scoring_view` takes them)."""
    if tournament.system is not TournamentSystem.TEAM:
        return []
    view = scoring_view(session, tournament, results)
    chosen = team_tiebreak_order(tournament)
    try:
        return team_standings(view, tiebreaks=chosen)
    except PlayoffError:
        # A result corrected after the play-off was recorded: the table stays readable without
        # it; corrmail.standings.playoff.playoff_problems tells the referee why.
        return team_standings(dataclasses.replace(view, team_playoff=()), tiebreaks=chosen)
