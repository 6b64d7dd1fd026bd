"""Team events: matches from board games, team standings and team tiebreaks, board colours,
team defaults and Scheveningen schedules (000 §3.17, 001 §5.4.8.3.2/5.4.8.4.2, 003 §9–11, 004).

A team event is a :class:`~scoring.model.Tournament` with :class:`~scoring.model.Team` entries:
the games are the board games; a round's match between two teams is derived from the games of
their members. Game points are the sum of the board results; a match won, drawn or lost gives
2, 1 or 0 match points (000 §3.17.7 note, 001 §5.4.8.3.2). The primary score is the game points
(000 §3.17.6) unless the regulations rank by match points (the FMJD order, 000 §3.17.7 note).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, partial

from scoring.errors import (
    InconsistentResultError,
    PlayoffError,
    ScheduleError,
    ScoringError,
    TiebreakNotApplicableError,
    UnknownTiebreakError,
)
from scoring.model import Colour, Game, Team, Tournament
from scoring.ranking import Criterion, Ranked, TiebreakValue, TieRule, direct_encounter_values, rank
from scoring.result import GameResult

#: Match points for a match won, drawn, lost (000 §3.17.7 note, 001 §5.4.8.3.2).
MATCH_WIN, MATCH_DRAW, MATCH_LOSS = 2.0, 1.0, 0.0


class TeamScoring(enum.Enum):
    """What decides the places of teams first."""

    GAME_POINTS = "game-points"
    MATCH_POINTS = "match-points"


@dataclass(frozen=True)
class TeamMatch:
    """One team's match in one round; ``opponent`` is ``None`` when the team had no opponent."""

    round: int
    team: str
    opponent: str | None
    game_points: float
    opponent_game_points: float

    @property
    def match_points(self) -> float:
        if self.game_points > self.opponent_game_points:
            return MATCH_WIN
        if self.game_points == self.opponent_game_points and self.opponent is not None:
            return MATCH_DRAW
        return MATCH_WIN if self.opponent is None and self.game_points > 0 else MATCH_LOSS

    @property
    def opponent_match_points(self) -> float:
        return MATCH_WIN + MATCH_LOSS - self.match_points if self.opponent is not None else MATCH_LOSS


def team_matches(tournament: Tournament) -> dict[str, list[TeamMatch]]:
    """Every team's matches in round order, from the board games of its members."""
    team_of = {start_no: team.name for team in tournament.teams for start_no in team.members}
    points = tournament.points
    scored: dict[tuple[str, int], list[float]] = {}
    opponents: dict[tuple[str, int], set[str]] = {}
    for game in tournament.games:
        if game.annulled or game.result is GameResult.PENDING:
            continue
        for player in (game.white, game.black):
            if player not in team_of:
                raise InconsistentResultError(
                    f"round {game.round}: player {player} plays in a team event but is in no team (000 §3.17.1)",
                    game.round,
                    (game.white, game.black),
                )
        white_result, black_result = game.result.sides
        for team, opponent, own, other in (
            (team_of[game.white], team_of[game.black], white_result, black_result),
            (team_of[game.black], team_of[game.white], black_result, white_result),
        ):
            totals = scored.setdefault((team, game.round), [0.0, 0.0])
            totals[0] += points.points(own)
            totals[1] += points.points(other)
            opponents.setdefault((team, game.round), set()).add(opponent)
    for entry in tournament.unpaired:
        if entry.player in team_of:
            scored.setdefault((team_of[entry.player], entry.round), [0.0, 0.0])[0] += points.points(entry.result)
    matches: dict[str, list[TeamMatch]] = {team.name: [] for team in tournament.teams}
    for (team, round_no), (own_points, other_points) in sorted(scored.items(), key=lambda item: (item[0][1], item[0][0])):
        met = opponents.get((team, round_no), set())
        if len(met) > 1 or team in met:
            raise InconsistentResultError(
                f"round {round_no}: team {team!r} meets {sorted(met)}; a match is one team against "
                "one other (000 §3.17.1)",
                round_no,
                (),
            )
        matches[team].append(TeamMatch(round_no, team, next(iter(met), None), own_points, other_points))
    return matches


@dataclass
class TeamContext:
    """What team tiebreaks read."""

    matches: dict[str, list[TeamMatch]]
    primary: TeamScoring
    cache: dict[str, dict[str, TiebreakValue]] = field(default_factory=dict)

    @cached_property
    def game_points(self) -> dict[str, float]:
        return {team: sum(m.game_points for m in ms) for team, ms in self.matches.items()}

    @cached_property
    def match_points(self) -> dict[str, float]:
        return {team: sum(m.match_points for m in ms) for team, ms in self.matches.items()}

    @property
    def scores(self) -> dict[str, float]:
        return self.game_points if self.primary is TeamScoring.GAME_POINTS else self.match_points


TeamCriterion = Callable[[TeamContext, Sequence[str], Sequence[str]], Mapping[str, TiebreakValue]]


@dataclass(frozen=True)
class TeamTiebreak:
    name: str
    rule: str
    title: str
    criterion: TeamCriterion
    round_robin_only: bool = False


def _per_team(compute: Callable[[TeamContext, str], TiebreakValue], cache_name: str) -> TeamCriterion:
    def criterion(context: TeamContext, group: Sequence[str], order: Sequence[str]) -> Mapping[str, TiebreakValue]:
        if cache_name not in context.cache:
            context.cache[cache_name] = {team: compute(context, team) for team in context.matches}
        return context.cache[cache_name]

    return criterion


def _opponent_products(
    opponent_measure: str, own_measure: str, cut: bool
) -> Callable[[TeamContext, str], TiebreakValue]:
    """Σ opponent's total × what the team scored against it (003 §11.9–11.16).

    ``opponent_measure``/``own_measure``: ``"mp"`` match points or ``"gp"`` game points; ``cut``
    leaves out the opponent with the lowest total of ``opponent_measure``."""

    def compute(context: TeamContext, team: str) -> TiebreakValue:
        totals = context.match_points if opponent_measure == "mp" else context.game_points
        products = [
            (totals[m.opponent], totals[m.opponent] * (m.match_points if own_measure == "mp" else m.game_points))
            for m in context.matches[team]
            if m.opponent is not None
        ]
        if cut and products:
            products.remove(min(products))
        return TiebreakValue.of(sum(product for _, product in products))

    return compute


def _primary_products(context: TeamContext, team: str) -> TiebreakValue:
    """Σ opponent's score (game or match points) × game points against it (001 §5.4.8.3.2, 003 §9.14)."""
    totals = context.scores
    return TiebreakValue.of(sum(totals[m.opponent] * m.game_points for m in context.matches[team] if m.opponent is not None))


def _team_shmulyan(context: TeamContext, team: str) -> TiebreakValue:
    """Σ over matches won of opponent's score × own points, less Σ over matches lost of
    opponent's score × the opponent's points in that match (001 §5.4.8.4.2)."""
    totals = context.scores
    won = sum(totals[m.opponent] * m.game_points for m in context.matches[team] if m.opponent and m.match_points == MATCH_WIN)
    lost = sum(totals[m.opponent] * m.opponent_game_points for m in context.matches[team] if m.opponent and m.match_points == MATCH_LOSS)
    return TiebreakValue.of(won - lost)


def _buchholz(cut: int) -> Callable[[TeamContext, str], TiebreakValue]:
    def compute(context: TeamContext, team: str) -> TiebreakValue:
        scores = sorted(context.scores[m.opponent] for m in context.matches[team] if m.opponent is not None)
        return TiebreakValue.of(sum(scores[cut:]))

    return compute


def _team_direct_encounter(context: TeamContext, group: Sequence[str], order: Sequence[str]) -> Mapping[str, TiebreakValue]:
    """Match points in the matches among the level teams (000 §3.17.6: the team that won the
    match), with 003 §9.8's rule when some of them have not met."""
    members = set(group)
    points = {team: sum(m.match_points for m in context.matches[team] if m.opponent in members) for team in group}
    met = {team: {m.opponent for m in context.matches[team] if m.opponent in members} for team in group}
    return direct_encounter_values(group, points, met, MATCH_WIN)


def _team_results_vs_placed(context: TeamContext, group: Sequence[str], order: Sequence[str]) -> Mapping[str, TiebreakValue]:
    """The best match result against the other teams in order of places (000 §3.16.3 read for
    teams, 001 §5.4.8.2): match points against the team placed highest first, then the next.

    As for players, only teams every level team has met are compared: a match not played is no
    result."""
    members = set(group)
    vectors: dict[str, list[float]] = {team: [] for team in group}
    for other in order:
        if other in members:
            continue
        against = {team: [m.match_points for m in context.matches[team] if m.opponent == other] for team in group}
        if all(against.values()):
            for team in group:
                vectors[team].append(sum(against[team]))
    return {team: TiebreakValue(None, tuple(vectors[team])) for team in group}


def _team_tiebreaks() -> dict[str, TeamTiebreak]:
    def team(name: str, rule: str, title: str, compute: Callable[[TeamContext, str], TiebreakValue], **flags: bool) -> TeamTiebreak:
        return TeamTiebreak(name, rule, title, _per_team(compute, name), **flags)

    definitions = [
        team("match_points", "003 §9.15, 000 §3.17.7 note", "match points: 2 a match won, 1 drawn, 0 lost", lambda c, t: TiebreakValue.of(c.match_points[t])),
        team("game_points", "003 §9.16, 000 §3.17.6", "game points: the sum of all board results", lambda c, t: TiebreakValue.of(c.game_points[t])),
        TeamTiebreak("direct_encounter", "000 §3.17.6, 003 §10.3", "match points in the matches among the level teams", _team_direct_encounter),
        TeamTiebreak("results_vs_placed", "000 §3.16.3, 001 §5.4.8.2", "best match result against the other teams in order of places", _team_results_vs_placed),
        team("match_wins", "000 §3.17.6", "number of matches won", lambda c, t: TiebreakValue.of(float(sum(1 for m in c.matches[t] if m.match_points == MATCH_WIN)))),
        team("team_sonneborn_berger", "001 §5.4.8.3.2, 003 §9.14", "Σ opponent's score × game points against it", _primary_products),
        team("team_sb_a", "003 §11.9", "Σ opponent's match points × match points against it", _opponent_products("mp", "mp", False)),
        team("team_sb_b", "003 §11.10", "Σ opponent's match points × game points against it", _opponent_products("mp", "gp", False)),
        team("team_sb_c", "003 §11.11", "Σ opponent's game points × match points against it", _opponent_products("gp", "mp", False)),
        team("team_sb_d", "003 §11.12", "Σ opponent's game points × game points against it", _opponent_products("gp", "gp", False)),
        team("team_sb_a_cut", "003 §11.13", "team SB A less the opponent with the fewest match points", _opponent_products("mp", "mp", True)),
        team("team_sb_b_cut", "003 §11.14", "team SB B less the opponent with the fewest match points", _opponent_products("mp", "gp", True)),
        team("team_sb_c_cut", "003 §11.15", "team SB C less the opponent with the fewest game points", _opponent_products("gp", "mp", True)),
        team("team_sb_d_cut", "003 §11.16", "team SB D less the opponent with the fewest game points", _opponent_products("gp", "gp", True)),
        team("team_shmulyan", "001 §5.4.8.4.2", "Shmulyan for teams (round robin only, 001 §5.4.8.4.3)", _team_shmulyan, round_robin_only=True),
        team("buchholz", "001 §5.4.8.5, 003 §11.1", "sum of the opponent teams' scores", _buchholz(0)),
        team("buchholz_cut1", "003 §11.4", "team Buchholz less the lowest opponent", _buchholz(1)),
    ]
    return {definition.name: definition for definition in definitions}


#: Every team tiebreak by name.
TEAM_TIEBREAKS: dict[str, TeamTiebreak] = _team_tiebreaks()

#: Team orders of the rulebook, written for game points as the primary score; with match points
#: primary, ``match_points`` reads ``game_points`` (003 §14.2, §14.5).
TEAM_PRESETS: dict[str, tuple[str, ...]] = {
    "000-3.17.6": ("direct_encounter", "match_wins", "team_sonneborn_berger"),
    "003-14.2": ("match_points", "direct_encounter", "team_sonneborn_berger"),
    "003-14.5": ("match_points", "direct_encounter", "buchholz_cut1", "buchholz", "team_sonneborn_berger"),
}
TEAM_PRESET_ALIASES = {"team-round-robin": "003-14.2", "team-swiss": "003-14.5"}


def team_preset(name: str, primary: TeamScoring = TeamScoring.GAME_POINTS) -> tuple[str, ...]:
    key = TEAM_PRESET_ALIASES.get(name, name)
    if key not in TEAM_PRESETS:
        raise UnknownTiebreakError(name, tuple(TEAM_PRESETS) + tuple(TEAM_PRESET_ALIASES))
    if primary is TeamScoring.GAME_POINTS:
        return TEAM_PRESETS[key]
    return tuple("game_points" if n == "match_points" else n for n in TEAM_PRESETS[key])


@dataclass
class TeamStandingRow:
    place: str
    position: int
    team: str
    points: float
    match_points: float
    game_points: float
    tiebreaks: dict[str, float | None] = field(default_factory=dict)
    by_lot: bool = False

    def as_dict(self) -> dict[str, object]:
        return {
            "place": self.place,
            "team": self.team,
            "points": self.points,
            "match_points": self.match_points,
            "game_points": self.game_points,
            "tiebreaks": dict(self.tiebreaks),
            "by_lot": self.by_lot,
        }


def team_standings(
    tournament: Tournament,
    tiebreaks: Sequence[str] | None = None,
    primary: TeamScoring = TeamScoring.GAME_POINTS,
    tie_rule: TieRule = TieRule.SHARED,
    seed: int = 0,
) -> list[TeamStandingRow]:
    """Rank the teams of ``tournament``; default order 003 §14.2 (round robin) or §14.5 (Swiss).

    A recorded team play-off (``tournament.team_playoff``) overrides the order for the teams in
    it, as for players (000 §3.16.2, 003 §2), when they are level on the primary score. One
    play-off needs no level score: the extra match for first place that a team placed second
    after winning every match may claim (000 §3.17.6); it is recorded as its winner then the
    loser, and a drawn extra match is not recorded — first place stays with the team with more
    points. Anything else is refused (:class:`~scoring.errors.PlayoffError`)."""
    if not tournament.teams:
        raise ScoringError("team standings need teams (000 §3.17.1): the tournament has none")
    round_robin = tournament.system.is_round_robin
    names = tuple(tiebreaks) if tiebreaks is not None else team_preset("003-14.2" if round_robin else "003-14.5", primary)
    chosen = []
    for name in names:
        if name not in TEAM_TIEBREAKS:
            raise UnknownTiebreakError(name, tuple(TEAM_TIEBREAKS))
        if TEAM_TIEBREAKS[name].round_robin_only and not round_robin:
            raise TiebreakNotApplicableError(name, "the Shmulyan system is used only in round robins (001 §5.4.8.4.3)")
        chosen.append(TEAM_TIEBREAKS[name])
    context = TeamContext(team_matches(tournament), primary)
    criteria: list[tuple[str, Criterion[str]]] = [(t.name, partial(t.criterion, context)) for t in chosen]
    teams = [team.name for team in tournament.teams]
    playoff = tournament.team_playoff
    extra_match = _first_place_match(playoff, context)
    ranked = rank(teams, context.scores, criteria, () if extra_match else playoff, tie_rule, seed)
    if extra_match:
        ranked = _apply_first_place_match(ranked, playoff, context)
    return [
        TeamStandingRow(
            entry.place,
            entry.position,
            entry.participant,
            context.scores[entry.participant],
            context.match_points[entry.participant],
            context.game_points[entry.participant],
            dict(entry.values),
            entry.by_lot,
        )
        for entry in ranked
    ]


def _first_place_match(playoff: Sequence[Sequence[str]], context: TeamContext) -> bool:
    """Whether ``playoff`` is 000 §3.17.6's extra match (two teams not level on points)."""
    if len(playoff) != 2 or any(len(group) != 1 for group in playoff):
        return False
    first, second = playoff[0][0], playoff[1][0]
    scores = context.scores
    return first in scores and second in scores and abs(scores[first] - scores[second]) > 1e-9


def _apply_first_place_match(
    ranked: list[Ranked[str]], playoff: Sequence[Sequence[str]], context: TeamContext
) -> list[Ranked[str]]:
    winner, loser = playoff[0][0], playoff[1][0]
    teams = (winner, loser)
    top = [entry.participant for entry in ranked[:2]]
    if set(top) != set(teams) or ranked[0].place != "1" or (len(ranked) > 2 and ranked[2].place.startswith("2")):
        raise PlayoffError(teams, "the teams are not level on points (000 §3.16.2), and an extra match for "
                                  "first place is only between the teams placed first and second alone "
                                  "(000 §3.17.6)", code="teams_not_level")
    runner_up = top[1]
    matches = context.matches[runner_up]
    if not matches or any(m.opponent is None or m.match_points != MATCH_WIN for m in matches):
        raise PlayoffError(teams, f"team {runner_up!r} did not win every match, so it has no right to an "
                                  "extra match for first place (000 §3.17.6), and the teams are not level "
                                  "on points for a play-off (000 §3.16.2)", code="runner_up_lost",
                           values={"team": repr(runner_up)})
    by_team = {entry.participant: entry for entry in ranked[:2]}
    reordered = [replace(by_team[winner], position=1, place="1"), replace(by_team[loser], position=2, place="2")]
    return reordered + ranked[2:]


def board_colours(boards: int, board_one: Colour) -> tuple[Colour, ...]:
    """Colours of a team's boards: odd boards as board one, even boards the other (000 §3.17.3)."""
    return tuple(board_one if board % 2 else board_one.opposite for board in range(1, boards + 1))


def match_games(round_no: int, first: Team, second: Team, board_one: Colour, boards: int | None = None) -> tuple[Game, ...]:
    """The board games of ``first`` against ``second``, ``first``'s board one having ``board_one``."""
    count = boards if boards is not None else min(len(first.members), len(second.members))
    games = []
    for board, colour in enumerate(board_colours(count, board_one)):
        ours, theirs = first.members[board], second.members[board]
        games.append(Game(round_no, ours, theirs) if colour is Colour.WHITE else Game(round_no, theirs, ours))
    return tuple(games)


def default_match(games: Sequence[Game], defaulting: Team) -> tuple[Game, ...]:
    """A match lost by default on every board by ``defaulting`` (000 §3.17.4: too few players)."""
    members = set(defaulting.members)
    return tuple(
        replace(game, result=GameResult.BLACK_FORFEIT_WIN if game.white in members else GameResult.WHITE_FORFEIT_WIN)
        for game in games
    )


def withdraw_team(tournament: Tournament, team_name: str, annul: bool) -> Tournament:
    """A team leaves (000 §3.17.5): the referee annuls all its matches or scores the rest as lost."""
    team = next((t for t in tournament.teams if t.name == team_name), None)
    if team is None:
        raise ScoringError(f"no team {team_name!r} in this tournament")
    members = set(team.members)
    games = []
    for game in tournament.games:
        if game.white not in members and game.black not in members:
            games.append(game)
        elif annul:
            games.append(replace(game, annulled=True))
        elif game.result is GameResult.PENDING:
            games.append(default_match([game], team)[0])
        else:
            games.append(game)
    return replace(tournament, games=tuple(games))


@dataclass(frozen=True)
class BoardPairing:
    """A Scheveningen game: board ``first`` of the first team against board ``second`` of the other."""

    round: int
    first: int
    second: int
    first_colour: Colour


def scheveningen_schedule(size: int, semi: bool = False) -> tuple[BoardPairing, ...]:
    """Every player of one team meets every player of the other (004); ``size`` rounds.

    Semi-Scheveningen: the first halves meet each other and so do the second halves, in
    ``size / 2`` rounds (004's example: eight players, four rounds).

    Colours follow 000 §3.17.3 in every round: the first team's board 1 sets them and they
    alternate board by board across the whole match (boards 1, 3, 5 … one colour, 2, 4, 6 … the
    other), also across the two halves of a semi-Scheveningen with an odd half. Board 1's colour
    alternates by round, so each player of the first team is as near half white as the number of
    rounds allows. Who meets whom in which round is then chosen so that the second team's players
    are balanced too (:func:`_balanced_block`): exactly half white when a half has a multiple of
    four boards, within one game of that otherwise (see docs/rules/scoring.md)."""
    if size < 1 or (semi and size % 2):
        raise ScheduleError(size, semi)
    blocks = [(0, size // 2), (size // 2, size // 2)] if semi else [(0, size)]
    pairings = []
    for offset, width in blocks:
        for round_no, opponents in enumerate(_balanced_block(width, offset), start=1):
            for board, other in enumerate(opponents):
                colour = _first_team_colour(offset + board + 1, round_no)
                pairings.append(BoardPairing(round_no, offset + board + 1, offset + other + 1, colour))
    return tuple(sorted(pairings, key=lambda p: (p.round, p.first)))


def _first_team_colour(board: int, round_no: int) -> Colour:
    """000 §3.17.3: board 1 white in odd rounds, and colours alternate along the boards."""
    return Colour.WHITE if (board + round_no) % 2 == 0 else Colour.BLACK


_SCHEDULE_SEARCH_NODES = 30_000


def _balanced_block(width: int, offset: int) -> list[list[int]]:
    """For each round, the second team's player (0-based, within the block) facing each board.

    A Latin square: every pair meets once. The first team's colours are fixed by
    :func:`_first_team_colour`; the square is searched depth first so that no player of the
    second team has more than ``ceil(width / 2) + slack`` games of one colour, with the least
    slack that a bounded search finds (0 when ``width`` is a multiple of 4, 1 for the other
    sizes up to 12). Deterministic: the same size always gives the same schedule."""
    for slack in range(width + 1):
        found = _latin_square_within(width, offset, (width + 1) // 2 + slack)
        if found is not None:
            return found
    raise AssertionError("a Latin square always exists with slack = width")  # pragma: no cover


def _latin_square_within(width: int, offset: int, most: int) -> list[list[int]] | None:
    met = [[False] * width for _ in range(width)]
    counts = {Colour.WHITE: [0] * width, Colour.BLACK: [0] * width}
    rounds: list[list[int]] = []
    budget = [_SCHEDULE_SEARCH_NODES if most < width else 10**9]

    def fill(round_no: int) -> bool:
        if round_no > width:
            return True
        row = [0] * width
        taken = [False] * width

        def place(board: int) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if board == width:
                rounds.append(row[:])
                if fill(round_no + 1):
                    return True
                rounds.pop()
                return False
            theirs = counts[_first_team_colour(offset + board + 1, round_no).opposite]
            for other in sorted(range(width), key=theirs.__getitem__):
                if taken[other] or met[board][other] or theirs[other] + 1 > most:
                    continue
                theirs[other] += 1
                taken[other] = met[board][other] = True
                row[board] = other
                if place(board + 1):
                    return True
                theirs[other] -= 1
                taken[other] = met[board][other] = False
            return False

        return place(0)

    return rounds if fill(1) else None
