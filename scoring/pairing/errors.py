"""Errors of the pairing engine; each is a :class:`~scoring.errors.ScoringError` (a ``ValueError``)
that carries the offending input."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.errors import ScoringError

__all__ = [
    "PairingError",
    "EntrantError",
    "UnknownSystemError",
    "NoLegalPairingError",
    "RoundNotReadyError",
]


class PairingError(ScoringError):
    """Base class of every error the pairing engine raises for input it cannot pair."""


class EntrantError(PairingError):
    """An entrant whose history is impossible (duplicate number, self-pairing, unknown opponent)."""

    def __init__(self, start_no: int, reason: str) -> None:
        super().__init__(f"player {start_no}: {reason}")
        self.start_no = start_no
        self.reason = reason


class UnknownSystemError(PairingError):
    """A pairing system name that is not one of the four programs of ``000 §3.18.4–3.18.7``."""

    def __init__(self, name: str, known: Sequence[str]) -> None:
        super().__init__(
            f"unknown pairing system {name!r}; known: {', '.join(known)} (000 §3.18.3-3.18.7)"
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
    ) -> None:
        super().__init__(f"round {round_no}: no legal pairing: {reason}")
        self.round_no = round_no
        self.reason = reason
        self.blocked = tuple(blocked)
        self.barrier = tuple(barrier)


class RoundNotReadyError(PairingError):
    """The next round cannot be paired yet (results missing), or every round is already paired."""

    def __init__(self, round_no: int, reason: str) -> None:
        super().__init__(f"round {round_no}: {reason}")
        self.round_no = round_no
        self.reason = reason
