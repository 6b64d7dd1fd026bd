"""The tournament data model shared by standings, tiebreaks, pairing and file formats.

Plain frozen dataclasses: a :class:`Tournament` holds its :class:`Player` list, the
:class:`Game` list (both colours and the :class:`~scoring.result.GameResult`), the
:class:`Unpaired` entries (bye ``+`` for an odd number, known absence ``0``), the
:class:`Withdrawal` list, the :class:`Team` list and a recorded play-off. Everything that
standings and pairings need per player — opponent, colour, result per round — is derived once by
:attr:`Tournament.history`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import NamedTuple

from scoring.errors import (
    DuplicatePairingError,
    DuplicatePlayerError,
    InconsistentResultError,
    SelfPairingError,
    UnknownPlayerError,
)
from scoring.points import PointSystem
from scoring.result import GameResult, Result


class Colour(enum.Enum):
    WHITE = "w"
    BLACK = "b"

    @property
    def opposite(self) -> Colour:
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE


class TournamentSystem(enum.Enum):
    """How the tournament is paired; Shmulyan needs a round robin (001 §5.4.8.4.3)."""

    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"

    @property
    def is_round_robin(self) -> bool:
        return self is TournamentSystem.ROUND_ROBIN


class WithdrawalDecision(enum.Enum):
    """The referee's decision on a player who leaves the tournament (000 §3.14.3, 002 §4.5.3)."""

    #: The rule's default: keep the results if half or more were played, annul otherwise.
    AUTO = "auto"
    #: Keep the results; remaining games become ``−`` for him and ``+`` for his partners.
    KEEP = "keep"
    #: Annul all his games (allowed only if he played fewer than half, 000 §3.14.3).
    ANNUL = "annul"


@dataclass(frozen=True)
class Player:
    """A participant. ``start_no`` is the number in the start sheet (TRF's starting rank)."""

    start_no: int
    name: str
    rating: int | None = None
    club: str = ""
    federation: str = ""
    title: str = ""
    sex: str = ""
    fide_id: str = ""
    birth_date: str = ""


@dataclass(frozen=True)
class Game:
    """One game of one round. Adjudicated games count as played (000 §3.14.4); annulled games
    stay visible in the crosstable but count for nothing (000 §3.14.3, 002 §4.5.3).

    ``in_progress`` marks a game begun but not finished (a correspondence game with moves sent):
    for a withdrawal it counts as played and goes to adjudication, not to ``−``/``+``
    (000 §3.14.4)."""

    round: int
    white: int
    black: int
    result: GameResult = GameResult.PENDING
    adjudicated: bool = False
    annulled: bool = False
    in_progress: bool = False

    def __post_init__(self) -> None:
        if self.white == self.black:
            raise SelfPairingError(self.round, self.white)
        if self.round < 1:
            raise InconsistentResultError(
                f"round {self.round}: rounds are numbered from 1", self.round, (self.white, self.black)
            )
        if self.in_progress and self.result is not GameResult.PENDING:
            raise InconsistentResultError(
                f"round {self.round}: a game with a result is no longer in progress (000 §3.14.4)",
                self.round,
                (self.white, self.black),
            )
        if self.adjudicated and self.result is GameResult.PENDING:
            raise InconsistentResultError(
                f"round {self.round}: an adjudicated game needs a result (002 §4.5.2)",
                self.round,
                (self.white, self.black),
            )

    def side(self, start_no: int) -> tuple[Colour, int, Result]:
        """Colour, opponent and result of ``start_no`` in this game."""
        white_result, black_result = self.result.sides
        if start_no == self.white:
            return Colour.WHITE, self.black, white_result
        if start_no == self.black:
            return Colour.BLACK, self.white, black_result
        raise UnknownPlayerError(start_no, f"round {self.round} game {self.white}-{self.black}")


@dataclass(frozen=True)
class Unpaired:
    """A player without a game in a round: ``Result.BYE`` (``+`` for an odd number, 002 note а)
    or ``Result.ABSENT`` (known absence: not paired, 0 points, 000 §3.18.2)."""

    round: int
    player: int
    result: Result = Result.BYE

    def __post_init__(self) -> None:
        if self.result not in (Result.BYE, Result.ABSENT):
            raise InconsistentResultError(
                f"round {self.round}: player {self.player} without a partner can only have a bye (+) "
                f"or be absent (0), not {self.result.name} (000 §3.18.2)",
                self.round,
                (self.player,),
            )


@dataclass(frozen=True)
class Withdrawal:
    """Player ``player`` left after round ``after_round`` (0: before the first)."""

    player: int
    after_round: int
    decision: WithdrawalDecision = WithdrawalDecision.AUTO


@dataclass(frozen=True)
class Team:
    """A team with its players in board order, board one first (000 §3.17.2–3.17.3)."""

    name: str
    members: tuple[int, ...]


class PlayerRound(NamedTuple):
    """One player's round as tiebreaks and pairing see it (a tuple: built for every round of
    every player, so it has to be cheap)."""

    round: int
    opponent: int | None
    colour: Colour | None
    result: Result
    adjudicated: bool = False
    annulled: bool = False

    @property
    def played(self) -> bool:
        """Played over the board (or adjudicated) and not annulled."""
        return self.result.is_played and not self.annulled

    @property
    def counts(self) -> bool:
        """Counts for the score: not annulled and not pending."""
        return not self.annulled and self.result is not Result.PENDING


@dataclass(frozen=True)
class Tournament:
    """A tournament: players, games, unpaired players, withdrawals, teams, play-off.

    ``rounds`` is the planned number of rounds (``None``: as many as recorded). ``cycles`` is 2
    for a double round robin. ``playoff`` lists groups of start numbers in the order a recorded
    play-off finished (000 §3.16.2, 003 §2); players in one group share their place.
    ``team_playoff`` does the same for teams, by team name (000 §3.17.6, 003 §2).
    """

    players: tuple[Player, ...]
    games: tuple[Game, ...] = ()
    unpaired: tuple[Unpaired, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()
    teams: tuple[Team, ...] = ()
    system: TournamentSystem = TournamentSystem.SWISS
    cycles: int = 1
    rounds: int | None = None
    points: PointSystem = field(default_factory=PointSystem)
    playoff: tuple[tuple[int, ...], ...] = ()
    team_playoff: tuple[tuple[str, ...], ...] = ()
    name: str = ""
    header: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.validate()

    # -- consistency ---------------------------------------------------------------------------

    def validate(self) -> None:
        """Raise the first inconsistency: unknown players, a player twice in a round."""
        known: set[int] = set()
        for player in self.players:
            if player.start_no in known:
                raise DuplicatePlayerError(player.start_no)
            known.add(player.start_no)
        taken: set[tuple[int, int]] = set()
        for game in self.games:
            for start_no in (game.white, game.black):
                if start_no not in known:
                    raise UnknownPlayerError(start_no, f"round {game.round} game {game.white}-{game.black}")
                if (game.round, start_no) in taken:
                    raise DuplicatePairingError(game.round, start_no)
                taken.add((game.round, start_no))
        for entry in self.unpaired:
            if entry.player not in known:
                raise UnknownPlayerError(entry.player, f"round {entry.round} bye/absence")
            if (entry.round, entry.player) in taken:
                raise DuplicatePairingError(entry.round, entry.player)
            taken.add((entry.round, entry.player))
        for withdrawal in self.withdrawals:
            if withdrawal.player not in known:
                raise UnknownPlayerError(withdrawal.player, "withdrawal")
        for team in self.teams:
            for start_no in team.members:
                if start_no not in known:
                    raise UnknownPlayerError(start_no, f"team {team.name!r}")

    # -- derived views -------------------------------------------------------------------------

    @cached_property
    def by_start_no(self) -> dict[int, Player]:
        return {player.start_no: player for player in self.players}

    @cached_property
    def history(self) -> dict[int, tuple[PlayerRound, ...]]:
        """Every player's rounds in round order (games and unpaired entries)."""
        rounds: dict[int, list[PlayerRound]] = {player.start_no: [] for player in self.players}
        for game in self.games:
            white_result, black_result = game.result.sides
            rounds[game.white].append(
                PlayerRound(game.round, game.black, Colour.WHITE, white_result, game.adjudicated, game.annulled)
            )
            rounds[game.black].append(
                PlayerRound(game.round, game.white, Colour.BLACK, black_result, game.adjudicated, game.annulled)
            )
        for entry in self.unpaired:
            rounds[entry.player].append(PlayerRound(entry.round, None, None, entry.result))
        return {start_no: tuple(sorted(entries, key=_by_round)) for start_no, entries in rounds.items()}

    @cached_property
    def last_round(self) -> int:
        """The highest round with any entry (0 before the first round)."""
        recorded = [game.round for game in self.games] + [entry.round for entry in self.unpaired]
        return max(recorded, default=0)

    @cached_property
    def scores(self) -> dict[int, float]:
        """Points for places (000 §3.15.2: ``+`` = win, ``−`` = loss), annulled games excluded."""
        return {
            start_no: sum(self.points.points(entry.result) for entry in entries if entry.counts)
            for start_no, entries in self.history.items()
        }

    @cached_property
    def norm_scores(self) -> dict[int, float]:
        """Points for classification norms: pluses left out (000 §3.15.2)."""
        return {
            start_no: sum(self.points.norm_points(entry.result) for entry in entries if entry.counts)
            for start_no, entries in self.history.items()
        }

    def score_after(self, start_no: int, round_no: int) -> float:
        """Points of ``start_no`` counting rounds ``1..round_no`` only."""
        return sum(
            self.points.points(entry.result)
            for entry in self.history[start_no]
            if entry.counts and entry.round <= round_no
        )

    @cached_property
    def withdrawn(self) -> dict[int, Withdrawal]:
        return {withdrawal.player: withdrawal for withdrawal in self.withdrawals}

    @cached_property
    def team_of(self) -> dict[int, Team]:
        return {start_no: team for team in self.teams for start_no in team.members}

    def opponents(self, start_no: int) -> set[int]:
        """Everyone ``start_no`` has been paired against (played, forfeited or pending)."""
        return {entry.opponent for entry in self.history[start_no] if entry.opponent is not None}

    # -- building ------------------------------------------------------------------------------

    def with_round(self, games: Iterable[Game], unpaired: Iterable[Unpaired] = ()) -> Tournament:
        """A copy with one more round's games and unpaired players added."""
        return replace(self, games=self.games + tuple(games), unpaired=self.unpaired + tuple(unpaired))

    def with_results(self, results: Mapping[tuple[int, int], GameResult]) -> Tournament:
        """A copy where the games keyed by ``(round, white)`` get the given results."""
        games = tuple(
            replace(game, result=results[(game.round, game.white)])
            if (game.round, game.white) in results
            else game
            for game in self.games
        )
        return replace(self, games=games)


def _by_round(entry: PlayerRound) -> int:
    return entry.round
