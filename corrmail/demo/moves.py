# Generated once from random legal Russian-draughts games (checked with pydraughts); data, not rules.
# fmt: off
DEMO_MOVES: tuple[tuple[str, ...], ...] = (
    ("g3-h4", "d6-e5", "a3-b4", "e5-d4", "e3:c5", "b6:d4", "c3:e5", "f6:d4", "f2-g3", "h6-g5", "h4:f6", "e7:g5", "g3-h4", "g7-f6", "e1-f2", "h8-g7", "d2-e3", "c7-b6", "e3:c5", "b6:d4", "b4-a5", "g5-f4"),
    ("c3-b4", "f6-e5", "b4-c5", "d6:b4", "a3:c5", "b6:d4", "e3:c5", "e5-d4", "c5:e3"),
    ("g3-f4", "f6-g5", "c3-d4", "b6-c5", "d4:b6", "a7:c5", "a3-b4", "c5:a3", "f4-e5", "d6:f4", "h2-g3", "f4:h2"),
    ("e3-d4", "f6-e5", "d4:f6", "e7:g5", "d2-e3", "g5-f4"),
    ("e3-d4", "d6-e5", "a3-b4", "h6-g5", "b4-c5", "g5-h4", "f2-e3", "h4:f2", "e1:g3", "c7-d6", "b2-a3", "d6:b4", "a3:c5", "f6-g5"),
    ("e3-d4", "b6-a5", "d4-e5", "f6:d4", "c3:e5", "d6:f4", "g3:e5", "c7-b6"),
    ("g3-h4", "f6-e5", "a3-b4", "e5-f4", "e3:g5", "h6:f4", "b4-a5", "g7-h6", "h2-g3", "f4:h2"),
    ("c3-d4", "b6-c5", "d4:b6", "a7:c5"),
    ("e3-f4", "d6-e5", "f4:d6", "c7:e5", "d2-e3", "d8-c7", "a3-b4", "b6-a5", "c3-d4", "e5:c3", "b4:d2", "f6-g5", "g3-f4", "e7-d6", "b2-c3", "c7-b6"),
    ("e3-d4", "f6-e5", "d4:f6", "g7:e5", "c3-b4", "e7-f6", "b4-a5"),
    ("g3-f4", "b6-c5", "c3-d4", "f6-g5", "d4:b6", "a7:c5", "b2-c3", "c5-d4", "c3:e5", "d6-c5", "a1-b2"),
    ("e3-d4", "h6-g5", "f2-e3", "g5-h4", "c3-b4"),
    ("e3-d4", "d6-c5", "d2-e3", "f6-g5", "g3-h4", "e7-d6", "h4:f6", "g7:e5", "d4:f6", "c5-b4", "c3:a5", "h6-g5", "f6:h4"),
    ("e3-d4", "h6-g5", "d4-c5", "d6:b4", "c3:a5", "g5-h4", "d2-c3", "f6-e5"),
    ("a3-b4", "f6-e5", "e3-d4"),
)
# fmt: on
