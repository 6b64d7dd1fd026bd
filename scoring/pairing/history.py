"""A tournament (:class:`scoring.model.Tournament`) as the pairing of one round sees it.

:func:`entrants_before` replays the rounds before ``round_no`` and gives every player his score,
the opponents he actually met, his colours in games actually played, his floats (``002``) and
whether he already had a point without play (``000 §3.18.2``).  :func:`draw_as_round` turns a
:class:`~scoring.pairing.model.Draw` back into the model's games and unpaired entries.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from scoring.model import Game, PlayerRound, Tournament, Unpaired
from scoring.pairing.colours import can_split, permitted_colours
from scoring.pairing.model import Colour, Draw, Entrant, Float, FloatDirection
from scoring.result import Result

__all__ = [
    "Replay",
    "entrants_before",
    "entrants_each_round",
    "round_entries",
    "draw_as_round",
    "met_before",
]


@dataclass
class _State:
    score: float = 0.0
    opponents: list[int] = field(default_factory=list)
    colours: list[Colour] = field(default_factory=list)
    floats: list[Float] = field(default_factory=list)
    point_without_play: bool = False


def _met_over_the_board(entry: PlayerRound) -> bool:
    """A game decided at the board (adjudicated included, ``000 §3.14.4``), or one still in play.
    An annulled game was still played: the pair met and the colours were used (``000 §3.14.3``
    annuls only points). A game still in play is a meeting too: a correspondence Swiss may draw
    the next round before every game ends, and the pair must not be drawn again (``000 §3.18.2``);
    its colours are given."""
    return entry.opponent is not None and (entry.result.is_played
                                           or entry.result is Result.PENDING)


class Replay:
    """Everyone's state round after round.

    :func:`entrants_before` replays the whole history for one round; a caller that walks a
    tournament round by round (the generator, the checker) keeps one :class:`Replay` and adds
    each round once, so a long event costs linear, not quadratic, time.
    """

    def __init__(self, tournament: Tournament) -> None:
        self._players = tournament.players
        self._states = {player.start_no: _State() for player in tournament.players}
        self._points = tournament.points

    def play(self, round_no: int, entries: Sequence[tuple[int, PlayerRound]]) -> None:
        """Add round ``round_no``: every player's entry in it, as ``(start_no, entry)``."""
        states = self._states
        _record_floats(states, round_no, entries)
        for start_no, entry in entries:
            state = states[start_no]
            if entry.counts:
                state.score += self._points.points(entry.result)
            if _met_over_the_board(entry):
                assert entry.opponent is not None and entry.colour is not None
                state.opponents.append(entry.opponent)
                state.colours.append(entry.colour)
            if entry.result in (Result.FORFEIT_WIN, Result.BYE) and not entry.annulled:
                state.point_without_play = True

    def entrants(self, withdrawn: Collection[int], absent: Collection[int] = ()) -> list[Entrant]:
        """Everyone as the next round sees him, given the rounds added so far: ``withdrawn``
        players left before it (``000 §3.18.2``), ``absent`` ones are known not to play it."""
        found: list[Entrant] = []
        for player in self._players:
            start_no = player.start_no
            state = self._states[start_no]
            gone = start_no in withdrawn
            found.append(
                Entrant(
                    start_no=start_no,
                    score=state.score,
                    rating=player.rating or 0,
                    opponents=tuple(state.opponents),
                    colours=tuple(state.colours),
                    floats=tuple(state.floats),
                    had_point_without_play=state.point_without_play,
                    withdrawn=gone,
                    absent=not gone and start_no in absent,
                )
            )
        return found


def round_entries(
    games: Iterable[Game], unpaired: Iterable[Unpaired]
) -> list[tuple[int, PlayerRound]]:
    """One round's games and unpaired players as ``(start_no, entry)``, the way
    :attr:`scoring.model.Tournament.history` records them."""
    entries: list[tuple[int, PlayerRound]] = []
    for game in games:
        white_result, black_result = game.result.sides
        entries.append(
            (
                game.white,
                PlayerRound(
                    game.round, game.black, Colour.WHITE, white_result, game.adjudicated,
                    game.annulled,
                ),
            )
        )
        entries.append(
            (
                game.black,
                PlayerRound(
                    game.round, game.white, Colour.BLACK, black_result, game.adjudicated,
                    game.annulled,
                ),
            )
        )
    entries += [(u.player, PlayerRound(u.round, None, None, u.result)) for u in unpaired]
    return entries


def _entries_by_round(tournament: Tournament) -> dict[int, list[tuple[int, PlayerRound]]]:
    rounds: dict[int, list[tuple[int, PlayerRound]]] = {}
    for start_no, entries in tournament.history.items():
        for entry in entries:
            rounds.setdefault(entry.round, []).append((start_no, entry))
    return rounds


def _withdrawn_before(tournament: Tournament, round_no: int) -> set[int]:
    return {w.player for w in tournament.withdrawals if w.after_round < round_no}


def _absent_in(entries: Iterable[tuple[int, PlayerRound]]) -> set[int]:
    return {n for n, e in entries if e.result is Result.ABSENT}


def entrants_before(
    tournament: Tournament, round_no: int, absent: Collection[int] = ()
) -> list[Entrant]:
    """Everyone's state before ``round_no``; ``absent`` are players known not to play it.

    A player recorded as absent in ``round_no`` itself counts as absent too; a player whose
    withdrawal is dated before ``round_no`` is withdrawn (``000 §3.18.2``).
    """
    rounds = _entries_by_round(tournament)
    replay = Replay(tournament)
    for round_played in sorted(rounds):
        if round_played < round_no:
            replay.play(round_played, rounds[round_played])
    absentees = set(absent) | _absent_in(rounds.get(round_no, ()))
    return replay.entrants(_withdrawn_before(tournament, round_no), absentees)


def entrants_each_round(tournament: Tournament) -> Iterator[tuple[int, list[Entrant]]]:
    """``(round_no, entrants_before(tournament, round_no))`` for every recorded round, in one
    replay of the history."""
    rounds = _entries_by_round(tournament)
    replay = Replay(tournament)
    for round_no in range(1, tournament.last_round + 1):
        entries = rounds.get(round_no, [])
        yield round_no, replay.entrants(
            _withdrawn_before(tournament, round_no), _absent_in(entries)
        )
        replay.play(round_no, entries)


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
    permitted: dict[int, frozenset[Colour]] = {}
    forced_for: dict[int, bool] = {}

    def colours_of(player: int) -> frozenset[Colour]:
        if player not in permitted:
            permitted[player] = permitted_colours(states[player].colours)
        return permitted[player]

    def could_meet(a: int, b: int) -> bool:
        return b not in states[a].opponents and can_split(colours_of(a), colours_of(b))

    for start_no, entry in paired:
        assert entry.opponent is not None
        own, theirs = states[start_no].score, states[entry.opponent].score
        if own == theirs:
            continue
        higher = start_no if own > theirs else entry.opponent
        if higher not in forced_for:
            forced_for[higher] = not any(
                could_meet(higher, other)
                for other in by_score[states[higher].score]
                if other != higher
            )
        direction = FloatDirection.DOWN if start_no == higher else FloatDirection.UP
        states[start_no].floats.append(Float(round_no, start_no, direction, forced_for[higher]))


def draw_as_round(draw: Draw) -> tuple[tuple[Game, ...], tuple[Unpaired, ...]]:
    """The draw as the model's pending games, bye (``+``) and absences (``0``)."""
    games = tuple(Game(draw.round_no, pair.white, pair.black) for pair in draw.pairs)
    unpaired = [Unpaired(draw.round_no, n, Result.ABSENT) for n in draw.absent]
    if draw.bye is not None:
        unpaired.append(Unpaired(draw.round_no, draw.bye, Result.BYE))
    return games, tuple(unpaired)
