"""A Swiss event as the pairing sees it: players, the rounds played, and the state before a round.

:func:`entrants_before` replays the rounds to give every player his score, the opponents he
actually met, his colours in games actually played, his floats (``002``) and whether he already
had a point without play (``000 §3.18.2``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

from scoring.pairing.colours import can_split, permitted_colours
from scoring.pairing.model import Colour, Entrant, Float, FloatDirection

__all__ = ["Outcome", "Game", "RoundRecord", "Competitor", "SwissEvent", "entrants_before"]


class Outcome(enum.Enum):
    """A game's result from white's side; forfeits are "+"/"−" (``000 §3.15.2``)."""

    WHITE_WINS = "1-0"
    DRAW = "=-="
    BLACK_WINS = "0-1"
    WHITE_WINS_BY_FORFEIT = "+--"
    BLACK_WINS_BY_FORFEIT = "--+"
    DOUBLE_FORFEIT = "---"

    @property
    def played(self) -> bool:
        return self in (Outcome.WHITE_WINS, Outcome.DRAW, Outcome.BLACK_WINS)


@dataclass(frozen=True)
class Game:
    white: int
    black: int
    outcome: Outcome | None = None  # None: paired, result not in yet


@dataclass(frozen=True)
class RoundRecord:
    """One published round (immutable, ``004``): its games, the bye and the absentees."""

    round_no: int
    games: tuple[Game, ...] = ()
    bye: int | None = None
    absent: tuple[int, ...] = ()

    def players(self) -> list[int]:
        paired = [n for game in self.games for n in (game.white, game.black)]
        return paired + ([self.bye] if self.bye is not None else []) + list(self.absent)


@dataclass(frozen=True)
class Competitor:
    """A player (or team) with his classification number; ``withdrawn_from`` is the first round
    he is no longer paired in (``000 §3.18.2``)."""

    start_no: int
    name: str = ""
    rating: int = 0
    withdrawn_from: int | None = None


@dataclass
class SwissEvent:
    """Players, points per result (``000 §3.15``) and the rounds published so far."""

    competitors: list[Competitor]
    rounds: list[RoundRecord] = field(default_factory=list)
    points: tuple[float, float, float] = (1.0, 0.5, 0.0)
    total_rounds: int | None = None


@dataclass
class _State:
    score: float = 0.0
    opponents: list[int] = field(default_factory=list)
    colours: list[Colour] = field(default_factory=list)
    floats: list[Float] = field(default_factory=list)
    point_without_play: bool = False


def entrants_before(event: SwissEvent, round_no: int, absent: Sequence[int] = ()) -> list[Entrant]:
    """Everyone's state before ``round_no`` from the rounds before it; ``absent`` marks players
    known not to play that round (``000 §3.18.2``)."""
    win, draw, loss = event.points
    states = {c.start_no: _State() for c in event.competitors}
    for record in event.rounds:
        if record.round_no >= round_no:
            break
        _record_floats(states, record)
        for game in record.games:
            white, black = states[game.white], states[game.black]
            outcome = game.outcome
            if outcome is None:
                continue
            if outcome.played:
                white.opponents.append(game.black)
                black.opponents.append(game.white)
                white.colours.append(Colour.WHITE)
                black.colours.append(Colour.BLACK)
            white_points, black_points = {
                Outcome.WHITE_WINS: (win, loss),
                Outcome.DRAW: (draw, draw),
                Outcome.BLACK_WINS: (loss, win),
                Outcome.WHITE_WINS_BY_FORFEIT: (win, loss),
                Outcome.BLACK_WINS_BY_FORFEIT: (loss, win),
                Outcome.DOUBLE_FORFEIT: (loss, loss),
            }[outcome]
            white.score += white_points
            black.score += black_points
            if outcome is Outcome.WHITE_WINS_BY_FORFEIT:
                white.point_without_play = True
            elif outcome is Outcome.BLACK_WINS_BY_FORFEIT:
                black.point_without_play = True
        if record.bye is not None:
            states[record.bye].score += win
            states[record.bye].point_without_play = True
    absentees = set(absent)
    return [
        Entrant(
            start_no=c.start_no,
            score=states[c.start_no].score,
            rating=c.rating,
            opponents=tuple(states[c.start_no].opponents),
            colours=tuple(states[c.start_no].colours),
            floats=tuple(states[c.start_no].floats),
            had_point_without_play=states[c.start_no].point_without_play,
            withdrawn=c.withdrawn_from is not None and c.withdrawn_from <= round_no,
            absent=c.start_no in absentees,
        )
        for c in event.competitors
    ]


def _record_floats(states: dict[int, _State], record: RoundRecord) -> None:
    """Floats of a published round: a pair across scores (002); forced when the higher player
    had nobody in his score group he could legally meet."""
    paired = [n for game in record.games for n in (game.white, game.black)]
    by_score: dict[float, list[int]] = {}
    for player in paired:
        by_score.setdefault(states[player].score, []).append(player)
    for game in record.games:
        white, black = states[game.white], states[game.black]
        if white.score == black.score:
            continue
        higher, lower = (
            (game.white, game.black) if white.score > black.score else (game.black, game.white)
        )
        forced = not any(
            _could_meet(states, higher, other)
            for other in by_score[states[higher].score]
            if other != higher
        )
        states[higher].floats.append(Float(record.round_no, higher, FloatDirection.DOWN, forced))
        states[lower].floats.append(Float(record.round_no, lower, FloatDirection.UP, forced))


def _could_meet(states: dict[int, _State], a: int, b: int) -> bool:
    if b in states[a].opponents:
        return False
    return can_split(permitted_colours(states[a].colours), permitted_colours(states[b].colours))
