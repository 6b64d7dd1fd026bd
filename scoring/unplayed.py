"""Unplayed games for coefficients: the two named policies, and what each player "met".

Every coefficient that looks at opponents' scores reads a player's :class:`Opposition` list:
one entry per counted round with the opponent's score as the policy fixes it.

``russian`` (000 §3.16.11, 002 note б), for Swiss events:
    * a bye's plus counts as a win over an opponent with the lowest score anyone made;
    * a partner who withdrew is credited, for the rounds he did not play, with the average of
      what the players of his score group (when he stopped) scored in those rounds;
    * a plus or minus against a real partner counts as a win or loss against him (000 §3.15.2);
    * a known absence has no opponent and adds nothing.

``virtual-opponent`` (003 §13, 004):
    * each of the player's own unplayed rounds (plus, minus, ``−/−``, bye, absence, a round
      after his withdrawal) is a game against a virtual opponent who had the player's score
      before the round, took the opposite result, and drew every later round;
    * for his opponents' coefficients, every unplayed round of his counts as a draw.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

from scoring.errors import UnknownTiebreakError
from scoring.model import PlayerRound, Tournament, TournamentSystem
from scoring.result import Result


class UnplayedPolicy(enum.Enum):
    RUSSIAN = "russian"
    VIRTUAL_OPPONENT = "virtual-opponent"

    @classmethod
    def parse(cls, text: str) -> UnplayedPolicy:
        for member in cls:
            if member.value == text.strip().lower().replace("_", "-"):
                return member
        raise UnknownTiebreakError(text, tuple(member.value for member in cls))


class Opposition(NamedTuple):
    """One counted round of a player as coefficients see it.

    ``opponent`` is ``None`` for a virtual opponent (bye, or any unplayed round under
    ``virtual-opponent``); ``opponent_score`` is the score the policy credits that opponent with.
    ``result`` is the player's own result (a plus is a win, 000 §3.15.2).
    """

    round: int
    opponent: int | None
    opponent_score: float
    result: Result

    @property
    def won(self) -> bool:
        return self.result.counts_as_win

    @property
    def drew(self) -> bool:
        return self.result is Result.DRAW

    @property
    def lost(self) -> bool:
        return self.result.counts_as_loss


def counted_rounds(tournament: Tournament, start_no: int) -> list[PlayerRound]:
    """The rounds of a player that count, with the Swiss rounds he has no entry for as absences."""
    entries = [entry for entry in tournament.history[start_no] if entry.counts]
    if tournament.system is TournamentSystem.SWISS:
        present = {entry.round for entry in tournament.history[start_no]}
        entries += [
            PlayerRound(round_no, None, None, Result.ABSENT)
            for round_no in range(1, tournament.last_round + 1)
            if round_no not in present
        ]
        entries.sort(key=lambda entry: entry.round)
    return entries


def oppositions(
    tournament: Tournament, policy: UnplayedPolicy, participants: frozenset[int]
) -> dict[int, tuple[Opposition, ...]]:
    """Every participant's :class:`Opposition` list under ``policy``."""
    rounds = {start_no: counted_rounds(tournament, start_no) for start_no in participants}
    if policy is UnplayedPolicy.RUSSIAN:
        return _russian(tournament, rounds)
    return _virtual(tournament, rounds)


def _russian(tournament: Tournament, rounds: dict[int, list[PlayerRound]]) -> dict[int, tuple[Opposition, ...]]:
    scores = {start_no: tournament.scores[start_no] for start_no in rounds}
    lowest = min(scores.values(), default=0.0)
    credited = dict(scores)
    if tournament.system is TournamentSystem.SWISS:
        for withdrawal in tournament.withdrawals:
            if withdrawal.player in rounds:
                credited[withdrawal.player] = _withdrawn_credit(tournament, withdrawal.player, withdrawal.after_round, rounds)
    result: dict[int, tuple[Opposition, ...]] = {}
    bye = Result.BYE
    for start_no, entries in rounds.items():
        counted: list[Opposition] = []
        for entry in entries:
            if entry.result is bye:
                counted.append(Opposition(entry.round, None, lowest, entry.result))
            elif entry.opponent is not None and entry.opponent in credited:
                counted.append(Opposition(entry.round, entry.opponent, credited[entry.opponent], entry.result))
        result[start_no] = tuple(counted)
    return result


def _withdrawn_credit(
    tournament: Tournament, start_no: int, after_round: int, rounds: dict[int, list[PlayerRound]]
) -> float:
    """Score at withdrawal plus the average later gain of his score group then (000 §3.16.11)."""
    at_withdrawal = tournament.score_after(start_no, after_round)
    group = [
        other
        for other in rounds
        if other != start_no and abs(tournament.score_after(other, after_round) - at_withdrawal) < 1e-9
    ]
    if not group:
        return at_withdrawal
    gains = [tournament.scores[other] - tournament.score_after(other, after_round) for other in group]
    return at_withdrawal + sum(gains) / len(gains)


def _virtual(tournament: Tournament, rounds: dict[int, list[PlayerRound]]) -> dict[int, tuple[Opposition, ...]]:
    points = tournament.points
    last_round = max((entry.round for entries in rounds.values() for entry in entries), default=0)
    for_opponents = {
        start_no: sum(
            points.points(entry.result) if entry.result.is_played else points.draw for entry in entries
        )
        for start_no, entries in rounds.items()
    }
    result: dict[int, tuple[Opposition, ...]] = {}
    for start_no, entries in rounds.items():
        counted: list[Opposition] = []
        before = 0.0
        for entry in entries:
            if entry.result.is_played and entry.opponent is not None and entry.opponent in for_opponents:
                counted.append(Opposition(entry.round, entry.opponent, for_opponents[entry.opponent], entry.result))
            elif not entry.result.is_played:
                virtual = before + points.opposite(entry.result) + points.draw * (last_round - entry.round)
                counted.append(Opposition(entry.round, None, virtual, entry.result))
            before += points.points(entry.result)
        result[start_no] = tuple(counted)
    return result
