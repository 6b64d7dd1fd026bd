"""Errors of the pairing engine; each is a :class:`~scoring.errors.ScoringError` (a ``ValueError``)
that carries the offending input, and a ``code`` with its ``values`` for a reader's own words.

The codes, by error (values beside the ones every error of its kind has):

* :class:`PairingError`: ``no_teams`` (a team Swiss without teams, 000 §3.17.1); the command
  line's ``absent_not_a_number`` (``text``);
* :class:`EntrantError` (``player``): ``start_number_below_one``, ``start_number_twice``
  (000 §3.18.5.1), ``colours_not_games`` (``games``, ``colours``), ``met_twice`` (000 §3.18.2),
  ``meets_himself``, ``opponent_not_in_event`` and ``game_not_in_history`` (``opponent``); the
  command line's ``absent_not_in_event``;
* :class:`UnknownSystemError`: ``unknown_system`` (``name``, ``known``; 000 §3.18.3-3.18.7);
* :class:`NoLegalPairingError` (``round``): ``round_below_one``, ``every_bye_taken``,
  ``cannot_meet_anyone`` and ``no_legal_opponent`` (``players``), ``odd_blocks`` (``players``,
  ``count``, ``others``), ``redraw_blocked`` (``players``); the three found by matching may add
  ``bye_candidates``, the players of whom none could take the bye (000 §3.18.2);
* :class:`RoundNotReadyError` (``round``): ``results_missing`` (``previous``, ``whites``, 000
  §3.18.1), ``all_rounds_paired`` (``rounds``).
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.errors import ErrorValue, ScoringError

__all__ = [
    "PairingError",
    "EntrantError",
    "UnknownSystemError",
    "NoLegalPairingError",
    "RoundNotReadyError",
]


class PairingError(ScoringError):
    """Base class of every error the pairing engine raises for input it cannot pair."""

    def __init__(self, message: str, *, code: str, **values: ErrorValue) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


class EntrantError(PairingError):
    """An entrant whose history is impossible (duplicate number, self-pairing, unknown opponent)."""

    def __init__(self, start_no: int, reason: str, *, code: str, **values: ErrorValue) -> None:
        super().__init__(f"player {start_no}: {reason}", code=code, player=start_no, **values)
        self.start_no = start_no
        self.reason = reason


class UnknownSystemError(PairingError):
    """A pairing system name that is not one of the four programs of ``000 §3.18.4–3.18.7``."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        super().__init__(
            f"unknown pairing system {name!r}; known: {', '.join(known)} (000 §3.18.3-3.18.7)",
            code="unknown_system",
            name=name,
            known=tuple(known),
        )
        self.name = name
        self.known = tuple(known)


class NoLegalPairingError(PairingError):
    """No pairing of the round satisfies the absolute criteria of ``000 §3.18.2``.

    ``blocked`` are players a maximum legal pairing leaves without a partner and ``barrier`` the
    players they could still meet (too few of them: Tutte's condition fails).
    """

    def __init__(
        self,
        round_no: int,
        reason: str,
        blocked: Sequence[int] = (),
        barrier: Sequence[int] = (),
        *,
        code: str,
        **values: ErrorValue,
    ) -> None:
        super().__init__(
            f"round {round_no}: no legal pairing: {reason}", code=code, round=round_no, **values
        )
        self.round_no = round_no
        self.reason = reason
        self.blocked = tuple(blocked)
        self.barrier = tuple(barrier)


class RoundNotReadyError(PairingError):
    """The next round cannot be paired yet (results missing), or every round is already paired."""

    def __init__(self, round_no: int, reason: str, *, code: str, **values: ErrorValue) -> None:
        super().__init__(f"round {round_no}: {reason}", code=code, round=round_no, **values)
        self.round_no = round_no
        self.reason = reason
