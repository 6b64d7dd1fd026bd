"""A tournament (:class:`scoring.model.Tournament`) as the pairing of one round sees it.

:func:`entrants_before` replays the rounds before ``round_no`` and gives every player his score,
the opponents he actually met, his colours in games actually played, his floats (``002``) and
whether he already had a point without play (``000 §3.18.2``).  :func:`draw_as_round` turns a
:class:`~scoring.pairing.model.Draw` back into the model's games and unpaired entries.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from scoring.model import Game, PlayerRound, Tournament, Unpaired
from scoring.pairing.colours import can_split, permitted_colours
from scoring.pairing.model import Colour, Draw, Entrant, Float, FloatDirection
from scoring.result import Result

__all__ = ["entrants_before", "draw_as_round", "met_before"]


@dataclass
class _State:
    score: float = 0.0
    opponents: list[int] = field(default_factory=list)
    colours: list[Colour] = field(default_factory=list)
    floats: list[Float] = field(default_factory=list)
    point_without_play: bool = False


def _met_over_the_board(entry: PlayerRound) -> bool:
    """A game decided at the board (adjudicated included, ``000 §3.14.4``).  An annulled game was
    still played: the pair met and the colours were used (``000 §3.14.3`` annuls only points)."""
    return entry.opponent is not None and entry.result.is_played


def entrants_before(
    tournament: Tournament, round_no: int, absent: Collection[int] = ()
) -> list[Entrant]:
    """Everyone's state before ``round_no``; ``absent`` are players known not to play it.

    A player recorded as absent in ``round_no`` itself counts as absent too; a player whose
    withdrawal is dated before ``round_no`` is withdrawn (``000 §3.18.2``).
    """
    states = {player.start_no: _State() for player in tournament.players}
    points = tournament.points
    rounds: dict[int, list[tuple[int, PlayerRound]]] = {}
    for start_no, entries in tournament.history.items():
        for entry in entries:
            rounds.setdefault(entry.round, []).append((start_no, entry))
    absentees = set(absent)
    for round_played in sorted(rounds):
        if round_played >= round_no:
            absentees.update(
                n
                for n, e in rounds[round_played]
                if round_played == round_no and e.result is Result.ABSENT
            )
            continue
        _record_floats(states, round_played, rounds[round_played])
        for start_no, entry in rounds[round_played]:
            state = states[start_no]
            if entry.counts:
                state.score += points.points(entry.result)
            if _met_over_the_board(entry):
                assert entry.opponent is not None and entry.colour is not None
                state.opponents.append(entry.opponent)
                state.colours.append(entry.colour)
            if entry.result in (Result.FORFEIT_WIN, Result.BYE) and not entry.annulled:
                state.point_without_play = True
    withdrawn = {w.player for w in tournament.withdrawals if w.after_round < round_no}
    return [
        Entrant(
            start_no=player.start_no,
            score=states[player.start_no].score,
            rating=player.rating or 0,
            opponents=tuple(states[player.start_no].opponents),
            colours=tuple(states[player.start_no].colours),
            floats=tuple(states[player.start_no].floats),
            had_point_without_play=states[player.start_no].point_without_play,
            withdrawn=player.start_no in withdrawn,
            absent=player.start_no in absentees and player.start_no not in withdrawn,
        )
        for player in tournament.players
    ]


def met_before(tournament: Tournament, round_no: int) -> dict[int, set[int]]:
    """Who met whom over the board before ``round_no``."""
    met: dict[int, set[int]] = {player.start_no: set() for player in tournament.players}
    for start_no, entries in tournament.history.items():
        for entry in entries:
            if entry.round < round_no and _met_over_the_board(entry):
                assert entry.opponent is not None
                met[start_no].add(entry.opponent)
    return met


def _record_floats(
    states: dict[int, _State], round_no: int, entries: Iterable[tuple[int, PlayerRound]]
) -> None:
    """Floats of a published round: each pair across scores (002); forced when the higher player
    had nobody in his score group he could legally meet."""
    paired = [(n, e) for n, e in entries if e.opponent is not None]
    by_score: dict[float, list[int]] = {}
    for start_no, _ in paired:
        by_score.setdefault(states[start_no].score, []).append(start_no)
    for start_no, entry in paired:
        assert entry.opponent is not None
        own, theirs = states[start_no].score, states[entry.opponent].score
        if own == theirs:
            continue
        higher = start_no if own > theirs else entry.opponent
        forced = not any(
            _could_meet(states, higher, other)
            for other in by_score[states[higher].score]
            if other != higher
        )
        direction = FloatDirection.DOWN if start_no == higher else FloatDirection.UP
        states[start_no].floats.append(Float(round_no, start_no, direction, forced))


def _could_meet(states: dict[int, _State], a: int, b: int) -> bool:
    if b in states[a].opponents:
        return False
    return can_split(permitted_colours(states[a].colours), permitted_colours(states[b].colours))


def draw_as_round(draw: Draw) -> tuple[tuple[Game, ...], tuple[Unpaired, ...]]:
    """The draw as the model's pending games, bye (``+``) and absences (``0``)."""
    games = tuple(Game(draw.round_no, pair.white, pair.black) for pair in draw.pairs)
    unpaired = [Unpaired(draw.round_no, n, Result.ABSENT) for n in draw.absent]
    if draw.bye is not None:
        unpaired.append(Unpaired(draw.round_no, draw.bye, Result.BYE))
    return games, tuple(unpaired)
