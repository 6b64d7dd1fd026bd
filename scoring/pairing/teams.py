"""Swiss pairing of teams: match points, then game points, under the same criteria.

A team is paired like a player: its score group is its match points, ordered inside by game
points and then by the program (``000 §3.17.6``, ``000 §3.18``).  Its colour history is its board
one's: the team whose board one has white has white on every odd board and black on every even
board (``000 §3.17.3``).  Teams are numbered by their order in the file (their classification).
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.model import Colour, Game, Team, Tournament
from scoring.pairing.engine import pair_round
from scoring.pairing.errors import PairingError
from scoring.pairing.model import Draw, Entrant, PairingSystem
from scoring.result import Result
from scoring.teams import match_games, team_matches

__all__ = ["TeamPair", "TeamDraw", "team_entrants_before", "pair_teams", "team_bye_entries"]


@dataclass(frozen=True)
class TeamPair:
    """Two teams paired; ``white`` is the team whose board one has white."""

    white: str
    black: str
    games: tuple[Game, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "white": self.white,
            "black": self.black,
            "games": [{"white": g.white, "black": g.black} for g in self.games],
        }


@dataclass(frozen=True)
class TeamDraw:
    round_no: int
    pairs: tuple[TeamPair, ...]
    bye: str | None
    draw: Draw

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round_no,
            "system": self.draw.system.value,
            "pairs": [pair.as_dict() for pair in self.pairs],
            "bye": self.bye,
            "floats": [drift.as_dict() for drift in self.draw.floats],
            "notes": list(self.draw.notes),
        }


def team_entrants_before(tournament: Tournament, round_no: int) -> list[Entrant]:
    """Every team's state before ``round_no``, numbered 1.. in file order."""
    if not tournament.teams:
        raise PairingError("the tournament has no teams (000 §3.17.1)", code="no_teams")
    number = {team.name: index for index, team in enumerate(tournament.teams, start=1)}
    matches = team_matches(tournament)
    withdrawn = {w.player for w in tournament.withdrawals if w.after_round < round_no}
    entrants = []
    for team in tournament.teams:
        earlier = [m for m in matches[team.name] if m.round < round_no]
        opponents: list[int] = []
        colours: list[Colour] = []
        point_without_play = False
        for match in earlier:
            colour = _board_one_colour(tournament, team, match.round)
            if match.opponent is not None and colour is not None:
                opponents.append(number[match.opponent])
                colours.append(colour)
            elif match.game_points > 0:
                point_without_play = True  # a bye or a match won by default (000 §3.18.2)
        entrants.append(
            Entrant(
                start_no=number[team.name],
                score=sum(m.match_points for m in earlier),
                opponents=tuple(opponents),
                colours=tuple(colours),
                had_point_without_play=point_without_play,
                withdrawn=all(member in withdrawn for member in team.members),
                secondary=sum(m.game_points for m in earlier),
            )
        )
    return entrants


def _board_one_colour(tournament: Tournament, team: Team, round_no: int) -> Colour | None:
    """The colour of the team's highest board that played over the board in ``round_no``."""
    for member in team.members:
        for entry in tournament.history[member]:
            if entry.round == round_no and entry.opponent is not None:
                return entry.colour if entry.result.is_played else None
    return None


def pair_teams(
    tournament: Tournament,
    round_no: int,
    system: PairingSystem | str,
    seed: int = 0,
    boards: int | None = None,
) -> TeamDraw:
    """Pair round ``round_no`` of a team Swiss; board games follow board one (000 §3.17.3)."""
    draw = pair_round(team_entrants_before(tournament, round_no), round_no, system, seed)
    teams = {index: team for index, team in enumerate(tournament.teams, start=1)}
    pairs = tuple(
        TeamPair(
            teams[pair.white].name,
            teams[pair.black].name,
            match_games(round_no, teams[pair.white], teams[pair.black], Colour.WHITE, boards),
        )
        for pair in draw.pairs
    )
    bye = teams[draw.bye].name if draw.bye is not None else None
    return TeamDraw(round_no, pairs, bye, draw)


def team_bye_entries(tournament: Tournament, team_draw: TeamDraw) -> list[tuple[int, Result]]:
    """The members of the team with the bye, each with ``+`` (002 note а)."""
    if team_draw.bye is None:
        return []
    team = next(t for t in tournament.teams if t.name == team_draw.bye)
    return [(member, Result.BYE) for member in team.members]
