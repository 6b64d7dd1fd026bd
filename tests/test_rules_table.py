"""docs/rules.md has a row for every numbered point of 002 §4 and 000 §3.14–3.18, and every test a
row names exists (a renamed or deleted test must take its row with it)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "rules.md"

#: The numbered points of 002 section 4 ("ПРАВИЛА ИГРЫ ПО ПЕРЕПИСКЕ") as the rulebook's text has
#: them; checked against the text itself when it is at hand (below).
POINTS_002 = (
    *(f"4.1.{n}" for n in range(1, 15)),
    *(f"4.2.{n}" for n in range(1, 15)),
    *(f"4.3.{n}" for n in range(1, 9)),
    *(f"4.4.{n}" for n in range(1, 6)),
    *(f"4.5.{n}" for n in range(1, 9)),
)
#: The numbered points of 000 §3.14–3.18 in the seed (its text begins at 3.14.3).
POINTS_000 = (
    "3.14.3", "3.14.4", "3.14.5", "3.15.1", "3.15.2",
    *(f"3.16.{n}" for n in range(1, 13)),
    *(f"3.17.{n}" for n in range(1, 8)),
    "3.18.1", "3.18.2", "3.18.3", "3.18.4",
    "3.18.5", *(f"3.18.5.{n}" for n in range(1, 7)),
    "3.18.6", "3.18.6.1", "3.18.6.2",
    "3.18.7", *(f"3.18.7.{n}" for n in range(1, 5)),
)

_ROW = re.compile(r"^\| (00[02]) §(\d+(?:\.\d+)+) \|(.*)$", re.MULTILINE)
_TEST = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)`")


def _rows() -> dict[str, list[str]]:
    rows: dict[str, list[str]] = {}
    for match in _ROW.finditer(TABLE.read_text(encoding="utf-8")):
        key = f"{match[1]} §{match[2]}"
        assert key not in rows, f"{key} has two rows"
        rows[key] = [cell.strip() for cell in match[3].split("|")[:-1]]
    return rows


def _origin_parent() -> tuple[Path, ...]:
    """The folder holding the checkout this one was cloned from, when that is a local folder:
    a clean clone in a temporary directory (the README's check before a commit) has no
    ``shared`` beside it, the checkout it came from does."""
    try:
        origin = subprocess.run(["git", "-C", str(ROOT), "config", "--get", "remote.origin.url"],
                                capture_output=True, text=True, check=False).stdout.strip()
    except OSError:
        return ()
    return (Path(origin).parent,) if origin and Path(origin).is_dir() else ()


def _seed(prefix: str) -> Path | None:
    """The rulebook's text: ``CORRMAIL_RULEBOOK_DIR``, else ``shared/seeds`` beside the checkout
    (as CI lays it), beside the folder of worktrees or beside the checkout this one was cloned
    from. Under CI it must be found."""
    given = os.environ.get("CORRMAIL_RULEBOOK_DIR")
    folders = [Path(given)] if given else [
        base / "shared" / "seeds" for base in (ROOT.parent, ROOT.parent.parent, *_origin_parent())]
    for folder in folders:
        found = sorted(folder.glob(f"{prefix}_*.txt")) if folder.is_dir() else []
        if found:
            return found[0]
    if os.environ.get("CI"):
        pytest.fail(f"the rulebook's text is not in {', '.join(map(str, folders))}")
    return None


def _key(point: str) -> tuple[int, ...]:
    return tuple(int(part) for part in point.split("."))


def test_every_point_of_002_section_4_and_000_3_14_to_3_18_has_a_row() -> None:
    rows = _rows()
    wanted = [f"002 §{p}" for p in POINTS_002] + [f"000 §{p}" for p in POINTS_000]
    assert [point for point in wanted if point not in rows] == []
    assert sorted(set(rows) - set(wanted)) == []


@pytest.mark.parametrize("prefix, pattern, points", [
    ("002", r"^\s*(4\.\d+\.\d+)\.", POINTS_002),
    ("000", r"(3\.1[4-8](?:\.\d+)+)\.", POINTS_000),
])
def test_the_points_listed_are_the_points_of_the_rulebooks_text(prefix: str, pattern: str,
                                                                 points: tuple[str, ...]) -> None:
    seed = _seed(prefix)
    if seed is None:
        pytest.skip("the rulebook's text is not at hand (set CORRMAIL_RULEBOOK_DIR)")
    text = seed.read_text(encoding="utf-8")
    found = sorted(set(re.findall(pattern, text, re.MULTILINE)), key=_key)
    assert found == sorted(points, key=_key)


def test_every_row_shows_a_test_or_says_why_it_is_left_to_people() -> None:
    for point, (what, where, tests, people) in _rows().items():
        assert what and where, point
        assert _TEST.search(tests) or people not in ("", "—"), point


def test_every_test_named_in_the_table_exists() -> None:
    missing = []
    for point, cells in _rows().items():
        for path, name in _TEST.findall(cells[2]):
            source = ROOT / path
            if not source.is_file() or not re.search(
                    rf"^(?:async )?def {name}\(", source.read_text(encoding="utf-8"), re.MULTILINE):
                missing.append(f"{point}: {path}::{name}")
    assert missing == []
