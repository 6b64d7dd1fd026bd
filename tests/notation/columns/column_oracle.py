"""A second, test-only column-draughts move generator, written differently from the engine.

The engine (notation.columns.engine) works on dense square indices and column codes, searches
captures by backtracking over one shared state and makes moves in place.  This one works on
(row, column) coordinates and dicts of piece lists, copies the whole state at every jump, and
removes each prisoner from the live board the moment it is taken, keeping a separate set of
"ghost" squares that still block under deferred placement.  It knows the rules only from the
digest (/work/shared/rules/column-draughts.md), so agreement between the two is evidence.
"""

from __future__ import annotations

from dataclasses import dataclass

Coord = tuple[int, int]
Piece = tuple[str, bool]  # colour 'w'/'b', king
State = dict[Coord, list[Piece]]
STEPS = ((1, 1), (1, -1), (-1, 1), (-1, -1))


@dataclass(frozen=True)
class Rules:
    size: int
    bashni_moves: bool  # men capture backwards, flying kings, promotion continues the capture
    rejump: bool = False
    deferred: bool = True
    king_must_continue: bool = True


BASHNI = Rules(8, True)
LASCA = Rules(7, False)


def initial(size: int) -> State:
    state: State = {}
    for row in range(size):
        for col in range(size):
            if (row + col) % 2 == 0 and row < 3:
                state[(row, col)] = [("w", False)]
            elif (row + col) % 2 == 0 and row >= size - 3:
                state[(row, col)] = [("b", False)]
    return state


def frozen(state: State) -> tuple[tuple[Coord, tuple[Piece, ...]], ...]:
    return tuple(sorted((c, tuple(p)) for c, p in state.items() if p))


def _inside(rules: Rules, coord: Coord) -> bool:
    return 0 <= coord[0] < rules.size and 0 <= coord[1] < rules.size


def _far_row(rules: Rules, colour: str) -> int:
    return rules.size - 1 if colour == "w" else 0


def _forward(colour: str) -> int:
    return 1 if colour == "w" else -1


@dataclass(frozen=True)
class Found:
    path: tuple[Coord, ...]
    after: State


def moves(rules: Rules, state: State, colour: str) -> list[Found]:
    """Every legal route with the state it leads to."""
    found: list[Found] = []
    for coord in sorted(state):
        if state[coord] and state[coord][-1][0] == colour:
            found.extend(_captures(rules, state, coord))
    if found:
        return found
    for coord in sorted(state):
        column = state[coord]
        if not column or column[-1][0] != colour:
            continue
        king = column[-1][1]
        for dr, dc in STEPS:
            if not king and dr != _forward(colour):
                continue
            distance = 1
            while True:
                target = (coord[0] + dr * distance, coord[1] + dc * distance)
                if not _inside(rules, target) or state.get(target):
                    break
                after = {c: list(p) for c, p in state.items() if p}
                mover = after.pop(coord)
                if not king and target[0] == _far_row(rules, colour):
                    mover[-1] = (colour, True)
                after[target] = mover
                found.append(Found((coord, target), after))
                if not (king and rules.bashni_moves):
                    break
                distance += 1
    return found


def _captures(rules: Rules, state: State, origin: Coord) -> list[Found]:
    live = {c: list(p) for c, p in state.items() if p}
    mover = live.pop(origin)
    out: list[Found] = []
    _jump(rules, live, frozenset(), (), mover, (origin,), [], out)
    return out


def _jump(
    rules: Rules,
    live: State,
    ghosts: frozenset[Coord],
    jumped: tuple[Coord, ...],
    mover: list[Piece],
    path: tuple[Coord, ...],
    prisoners: list[Piece],
    out: list[Found],
) -> bool:
    """Try every next jump; a route that cannot go on is finished.  True if a jump existed."""
    colour, king = mover[-1]
    at = path[-1]
    any_jump = False
    for dr, dc in STEPS:
        if not king and not rules.bashni_moves and dr != _forward(colour):
            continue
        flying = king and rules.bashni_moves
        distance = 1
        victim: Coord | None = None
        while True:
            square = (at[0] + dr * distance, at[1] + dc * distance)
            if not _inside(rules, square):
                break
            if live.get(square) or square in ghosts:
                victim = square
                break
            if not flying:
                break
            distance += 1
        if victim is None:
            continue
        rest = live.get(victim)
        if not rest or rest[-1][0] == colour or (victim in jumped and not rules.rejump):
            continue
        # Take the prisoner now; under deferred placement the square keeps blocking (a ghost).
        new_live = {c: list(p) for c, p in live.items()}
        prisoner = new_live[victim].pop()
        if not new_live[victim]:
            del new_live[victim]
        new_ghosts = ghosts | {victim} if rules.deferred else ghosts
        landings = []
        distance = 1
        while True:
            square = (victim[0] + dr * distance, victim[1] + dc * distance)
            if not _inside(rules, square) or new_live.get(square) or square in new_ghosts:
                break
            landings.append(square)
            if not flying:
                break
            distance += 1
        if not landings:
            continue
        any_jump = True
        goes_on: dict[Coord, bool] = {}
        finished: dict[Coord, Found] = {}
        for land in landings:
            new_mover = list(mover)
            promoted_here = not king and land[0] == _far_row(rules, colour)
            if promoted_here:
                new_mover[-1] = (colour, True)
            args = (new_live, new_ghosts, jumped + (victim,), new_mover, path + (land,),
                    prisoners + [prisoner])
            if promoted_here and not rules.bashni_moves:
                goes_on[land] = False  # Lasker: promotion ends the move
            else:
                goes_on[land] = _jump(rules, *args, out)
            final = {c: list(p) for c, p in new_live.items()}
            final[land] = list(reversed(prisoners + [prisoner])) + new_mover
            finished[land] = Found(path + (land,), final)
        stop_anywhere = not (flying and rules.king_must_continue and any(goes_on.values()))
        for land in landings:
            if not goes_on[land] and stop_anywhere:
                out.append(finished[land])
    return any_jump


def perft(rules: Rules, state: State, colour: str, depth: int, distinct: bool = True) -> int:
    if depth == 0:
        return 1
    found = moves(rules, state, colour)
    if distinct:
        unique = {(f.path[0], f.path[-1], frozen(f.after)): f for f in found}
        found = list(unique.values())
    if depth == 1:
        return len(found)
    other = "b" if colour == "w" else "w"
    return sum(perft(rules, f.after, other, depth - 1, distinct) for f in found)
