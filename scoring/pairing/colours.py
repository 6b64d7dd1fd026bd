"""Colour rules of the Swiss pairing: which colours a player may still get, and who gets white.

Only games actually played count: byes, forfeits and games not played are ignored
(``000 §3.18.2``, ``004``).  Limits, strictest first:

* ``000 §3.18.2``: never the same colour four times running (absolute);
* ``002``: the numbers of whites and blacks differ by at most one, at most two "with an even
  number of rounds" (absolute; read as ``|whites - blacks| <= 2`` after every game, which is the
  same as "one" after an odd number of games, see ``docs/rules/pairing.md``);
* ``002``: the same colour more than twice running only in exceptional cases (relative: the
  engine allows a third only when no pairing of the round avoids it).
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.pairing.model import Colour

__all__ = [
    "MAX_COLOUR_DIFFERENCE",
    "ABSOLUTE_MAX_RUN",
    "PREFERRED_MAX_RUN",
    "trailing_run",
    "permitted_colours",
    "colour_violations",
    "can_split",
    "rule_prefers_first_white",
]

MAX_COLOUR_DIFFERENCE = 2
ABSOLUTE_MAX_RUN = 3
PREFERRED_MAX_RUN = 2


def trailing_run(colours: Sequence[Colour]) -> tuple[Colour | None, int]:
    """The colour of the last game and how many games in a row ended with it."""
    if not colours:
        return None, 0
    last = colours[-1]
    run = 0
    for colour in reversed(colours):
        if colour is not last:
            break
        run += 1
    return last, run


_BOTH = frozenset(Colour)
_ONLY = {Colour.WHITE: frozenset({Colour.WHITE}), Colour.BLACK: frozenset({Colour.BLACK})}
_NEITHER: frozenset[Colour] = frozenset()


def permitted_colours(
    colours: Sequence[Colour], max_run: int = ABSOLUTE_MAX_RUN
) -> frozenset[Colour]:
    """The colours the next game may give without breaking a limit (``max_run`` in a row)."""
    # Called for every player of every round replayed (history, checker, generator): shared
    # constant sets and ``list.count`` avoid hashing enum members, which costs a Python call.
    difference = 2 * colours.count(Colour.WHITE) - len(colours)
    may_white = difference + 1 <= MAX_COLOUR_DIFFERENCE
    may_black = difference - 1 >= -MAX_COLOUR_DIFFERENCE
    if len(colours) >= max_run:
        last = colours[-1]
        if all(c is last for c in colours[len(colours) - max_run :]):
            if last is Colour.WHITE:
                may_white = False
            else:
                may_black = False
    if may_white and may_black:
        return _BOTH
    if may_white:
        return _ONLY[Colour.WHITE]
    if may_black:
        return _ONLY[Colour.BLACK]
    return _NEITHER


def can_split(first: frozenset[Colour], second: frozenset[Colour]) -> bool:
    """Whether two players with these permitted colours can be given opposite colours."""
    return (Colour.WHITE in first and Colour.BLACK in second) or (
        Colour.BLACK in first and Colour.WHITE in second
    )


def colour_violations(colours: Sequence[Colour]) -> list[str]:
    """Every absolute colour limit a finished colour history breaks, each citing its rule."""
    problems: list[str] = []
    difference = 0
    last: Colour | None = None
    run = 0
    for game, colour in enumerate(colours, start=1):
        difference += 1 if colour is Colour.WHITE else -1
        run = run + 1 if colour is last else 1
        last = colour
        if abs(difference) > MAX_COLOUR_DIFFERENCE:
            problems.append(
                f"after game {game} whites and blacks differ by {abs(difference)} (002: at most 2)"
            )
        if run > ABSOLUTE_MAX_RUN:
            problems.append(
                f"game {game} is the {run}th {colour.name.lower()} in a row (000 §3.18.2: never four)"
            )
    return problems


def rule_prefers_first_white(
    first: Sequence[Colour], second: Sequence[Colour], first_ranks_higher: bool
) -> bool:
    """``000 §3.18.2``: white to fewer whites, then to whoever had black last, then to the higher.

    "Whoever had black last" is read back from the latest game: the first game, counting
    backwards, in which the two had different colours decides.
    """
    first_whites = sum(1 for c in first if c is Colour.WHITE)
    second_whites = sum(1 for c in second if c is Colour.WHITE)
    if first_whites != second_whites:
        return first_whites < second_whites
    for mine, theirs in zip(reversed(first), reversed(second), strict=False):
        if mine is not theirs:
            return mine is Colour.BLACK
    return first_ranks_higher
