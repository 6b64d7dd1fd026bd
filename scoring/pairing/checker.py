"""Re-check the published rounds of a tournament, like bbpPairings' and JaVaFo's checkers.

:func:`check_round` lists every breach of the absolute criteria (``000 §3.18.2``, ``002``,
``004``) in one published round; :func:`compare_round` pairs the round again with one of our
programs from the same history and lists what differs.  Games not played (forfeits) are ignored
for colours, and a later pairing that repeats an unplayed pair is legal (``000 §3.18.2``, ``004``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from scoring.errors import ErrorValue
from scoring.model import Colour, Tournament
from scoring.pairing.colours import ABSOLUTE_MAX_RUN, permitted_colours
from scoring.pairing.engine import pair_round
from scoring.pairing.errors import NoLegalPairingError
from scoring.pairing.history import entrants_before, entrants_each_round
from scoring.pairing.model import Entrant, PairingSystem
from scoring.result import GameResult, Result

_UNPLAYED = frozenset(
    {GameResult.WHITE_FORFEIT_WIN, GameResult.BLACK_FORFEIT_WIN, GameResult.DOUBLE_FORFEIT}
)

__all__ = [
    "Violation",
    "RoundDifference",
    "CheckReport",
    "check_round",
    "compare_round",
    "check_tournament",
]


@dataclass(frozen=True)
class Violation:
    """One breach of an absolute criterion in one published round.

    ``code`` and ``values`` say which, for a reader's own words (``message`` is the English):
    ``met_before`` (``white``, ``black``), ``withdrawn_paired``, ``colour_limits`` (``player``,
    ``colour``: ``white`` or ``black``), ``byes`` (``count``), ``second_point_without_play``,
    ``withdrawn_bye`` (``player``), ``bye_even_number``, ``incomplete`` (``players``).
    """

    round_no: int
    players: tuple[int, ...]
    rule: str
    message: str
    code: str
    values: Mapping[str, ErrorValue] = field(default_factory=dict, hash=False)

    def __str__(self) -> str:
        return f"round {self.round_no}: {self.message} ({self.rule})"

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round_no,
            "players": list(self.players),
            "rule": self.rule,
            "message": self.message,
        }


@dataclass(frozen=True)
class RoundDifference:
    """How our pairing of a round differs from the published one (pairs as ``(white, black)``)."""

    round_no: int
    only_published: tuple[tuple[int, int], ...] = ()
    only_ours: tuple[tuple[int, int], ...] = ()
    published_bye: int | None = None
    our_bye: int | None = None
    error: str = ""

    @property
    def differs(self) -> bool:
        return bool(
            self.only_published
            or self.only_ours
            or self.published_bye != self.our_bye
            or self.error
        )

    def lines(self) -> list[str]:
        if self.error:
            return [f"round {self.round_no}: we cannot pair it: {self.error}"]
        shown = [f"round {self.round_no}:"]
        if self.only_published:
            shown.append(
                "  published only: " + ", ".join(f"{w}-{b}" for w, b in self.only_published)
            )
        if self.only_ours:
            shown.append("  ours only:      " + ", ".join(f"{w}-{b}" for w, b in self.only_ours))
        if self.published_bye != self.our_bye:
            shown.append(f"  bye: published {self.published_bye}, ours {self.our_bye}")
        return shown

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.round_no,
            "published_only": [{"white": w, "black": b} for w, b in self.only_published],
            "ours_only": [{"white": w, "black": b} for w, b in self.only_ours],
            "published_bye": self.published_bye,
            "our_bye": self.our_bye,
            "error": self.error,
        }


@dataclass
class CheckReport:
    violations: list[Violation] = field(default_factory=list)
    differences: list[RoundDifference] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.violations and not any(d.differs for d in self.differences)


def check_round(tournament: Tournament, round_no: int) -> list[Violation]:
    """Every breach of the absolute criteria in published round ``round_no``."""
    return _check_round(tournament, round_no, entrants_before(tournament, round_no))


def _check_round(
    tournament: Tournament, round_no: int, entrants: list[Entrant]
) -> list[Violation]:
    found: list[Violation] = []
    before = {e.start_no: e for e in entrants}
    withdrawn = {n for n, e in before.items() if e.withdrawn}
    games = [g for g in tournament.games if g.round == round_no]
    unpaired = [u for u in tournament.unpaired if u.round == round_no]
    seen: set[int] = set()
    for game in games:
        seen.update((game.white, game.black))
        pair = (game.white, game.black)
        if game.black in before[game.white].opponents:
            found.append(
                Violation(
                    round_no, pair, "000 §3.18.2", f"{game.white} and {game.black} have met before",
                    "met_before", {"white": game.white, "black": game.black},
                )
            )
        for player in pair:
            if player in withdrawn:
                found.append(
                    Violation(
                        round_no,
                        (player,),
                        "000 §3.18.2",
                        f"player {player} has withdrawn but is paired",
                        "withdrawn_paired",
                        {"player": player},
                    )
                )
        if game.result in _UNPLAYED:
            continue  # 004: colours of games not played are not taken into account
        for player, colour in ((game.white, Colour.WHITE), (game.black, Colour.BLACK)):
            if colour not in permitted_colours(before[player].colours, ABSOLUTE_MAX_RUN):
                found.append(
                    Violation(
                        round_no,
                        (player,),
                        "000 §3.18.2, 002",
                        f"player {player} gets {colour.name.lower()} beyond the colour limits "
                        "(never four in a row, whites and blacks at most two apart)",
                        "colour_limits",
                        {"player": player, "colour": colour.name.lower()},
                    )
                )
    byes = [u.player for u in unpaired if u.result is Result.BYE]
    seen.update(u.player for u in unpaired)
    absent = {u.player for u in unpaired if u.result is Result.ABSENT}
    playing = [n for n, e in before.items() if not e.withdrawn and n not in absent]
    if len(byes) > 1:
        found.append(
            Violation(
                round_no, tuple(byes), "000 §3.18.2", f"{len(byes)} byes in one round; at most one",
                "byes", {"count": len(byes)},
            )
        )
    for player in byes:
        if before[player].had_point_without_play:
            found.append(
                Violation(
                    round_no,
                    (player,),
                    "000 §3.18.2",
                    f"player {player} gets a second point without play",
                    "second_point_without_play",
                    {"player": player},
                )
            )
        if player in withdrawn:
            found.append(
                Violation(
                    round_no,
                    (player,),
                    "000 §3.18.2",
                    f"player {player} has withdrawn but gets the bye",
                    "withdrawn_bye",
                    {"player": player},
                )
            )
    if byes and len(playing) % 2 == 0:
        found.append(
            Violation(
                round_no, tuple(byes), "000 §3.18.2", "a bye with an even number of players",
                "bye_even_number",
            )
        )
    missing = sorted(n for n in playing if n not in seen)
    if missing:
        found.append(
            Violation(
                round_no,
                tuple(missing),
                "002",
                f"players {missing} are neither paired nor absent: the draw is incomplete",
                "incomplete",
                {"players": tuple(missing)},
            )
        )
    return found


def compare_round(
    tournament: Tournament, round_no: int, system: PairingSystem | str, seed: int = 0
) -> RoundDifference:
    """Pair ``round_no`` again from the history before it and list what differs."""
    return _compare_round(
        tournament, round_no, entrants_before(tournament, round_no), system, seed
    )


def _compare_round(
    tournament: Tournament,
    round_no: int,
    entrants: list[Entrant],
    system: PairingSystem | str,
    seed: int,
) -> RoundDifference:
    published = {(g.white, g.black) for g in tournament.games if g.round == round_no}
    published_bye = next(
        (u.player for u in tournament.unpaired if u.round == round_no and u.result is Result.BYE),
        None,
    )
    try:
        ours = pair_round(entrants, round_no, system, seed)
    except NoLegalPairingError as error:
        return RoundDifference(round_no, published_bye=published_bye, error=str(error))
    mine = {(p.white, p.black) for p in ours.pairs}
    return RoundDifference(
        round_no,
        only_published=tuple(sorted(published - mine)),
        only_ours=tuple(sorted(mine - published)),
        published_bye=published_bye,
        our_bye=ours.bye,
    )


def check_tournament(
    tournament: Tournament, system: PairingSystem | str | None = None, seed: int = 0
) -> CheckReport:
    """Check every published round; with ``system``, also pair each one again and compare."""
    report = CheckReport()
    for round_no, entrants in entrants_each_round(tournament):
        report.violations.extend(_check_round(tournament, round_no, entrants))
        if system is not None:
            report.differences.append(_compare_round(tournament, round_no, entrants, system, seed))
    return report
