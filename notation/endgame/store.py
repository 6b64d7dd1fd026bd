"""The tables on disk: ``<root>/<game type>/<material>.bin`` and ``manifest.json``.

A table file is the raw bytes of one material's values in index order
(:mod:`notation.endgame.material`, :mod:`notation.endgame.values`), nothing else, so a build is
byte-for-byte reproducible.  The manifest lists every table with its size and SHA-256 and the
largest piece count every material of which is present; it is written last, so a directory
with a manifest holds a complete build.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from notation.endgame.material import Material, MaterialIndex, materials_needed, materials_up_to
from notation.endgame.solve import Progress, _quiet, solve
from notation.rules import GameType

MANIFEST = "manifest.json"
FORMAT = 1


class DamagedTableError(ValueError):
    """A table file missing, of the wrong size, or not matching its checksum."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}; rebuild the tables")
        self.path = path
        self.reason = reason


class StoredTables(Mapping[Material, bytes]):
    """The tables of one game type under ``root``, each read (and its checksum checked) the
    first time it is asked for."""

    def __init__(self, root: Path, game_type: GameType) -> None:
        self.directory = Path(root) / game_type.value
        self.game_type = game_type
        manifest_path = self.directory / MANIFEST
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            manifest = {"format": FORMAT, "game_type": game_type.value, "tables": {}}
        except (OSError, ValueError) as error:
            raise DamagedTableError(manifest_path, f"unreadable manifest ({error})") from None
        if manifest.get("format") != FORMAT or manifest.get("game_type") != game_type.value:
            raise DamagedTableError(manifest_path, "not a manifest of this format and game type")
        self.entries: dict[Material, dict[str, object]] = {
            Material.parse(name): entry for name, entry in manifest["tables"].items()
        }
        self._loaded: dict[Material, bytes] = {}

    @property
    def pieces(self) -> int:
        """The largest piece count every material of which is present (0: none)."""
        count = 0
        while all(m in self.entries for m in materials_up_to(count + 1) if m.pieces == count + 1):
            count += 1
        return count

    def __getitem__(self, material: Material) -> bytes:
        found = self._loaded.get(material)
        if found is not None:
            return found
        entry = self.entries[material]
        path = self.directory / f"{material.name}.bin"
        try:
            data = path.read_bytes()
        except OSError as error:
            raise DamagedTableError(path, f"unreadable ({error.strerror})") from None
        if len(data) != entry["size"]:
            raise DamagedTableError(path, f"{len(data)} bytes, the manifest says {entry['size']}")
        if hashlib.sha256(data).hexdigest() != entry["sha256"]:
            raise DamagedTableError(path, "checksum differs from the manifest")
        self._loaded[material] = data
        return data

    def __iter__(self) -> Iterator[Material]:
        return iter(sorted(self.entries, key=lambda m: (m.pieces, m.all_men, m)))

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, material: object) -> bool:
        return material in self.entries


def write_tables(root: Path, game_type: GameType, tables: Mapping[Material, bytes | bytearray]) -> Path:
    """Write every table of ``tables`` not on disk yet, then the manifest (of all of them)."""
    directory = Path(root) / game_type.value
    directory.mkdir(parents=True, exist_ok=True)
    entries: dict[str, dict[str, object]] = {}
    for material in sorted(tables, key=lambda m: (m.pieces, m.all_men, m)):
        data = bytes(tables[material])
        path = directory / f"{material.name}.bin"
        if not path.exists() or path.stat().st_size != len(data):
            partial = path.with_suffix(".part")
            partial.write_bytes(data)
            os.replace(partial, path)
        entries[material.name] = {"size": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    manifest = {"format": FORMAT, "game_type": game_type.value, "tables": entries}
    partial = directory / (MANIFEST + ".part")
    partial.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(partial, directory / MANIFEST)
    return directory


def build_tables(
    root: Path,
    game_type: GameType,
    pieces: int | None = None,
    materials: list[Material] | None = None,
    progress: Progress = _quiet,
) -> dict[Material, bytes | bytearray]:
    """Solve every material of up to ``pieces`` pieces (or ``materials`` and what they need)
    that ``root`` does not hold yet, write them, and return all the tables.  Tables already on
    disk are used as they are (their checksums checked)."""
    rules = game_type.rules
    wanted = materials_needed(materials) if materials else materials_up_to(pieces or 0)
    stored = StoredTables(root, game_type)
    solved: dict[Material, bytes | bytearray] = {m: stored[m] for m in stored}
    solve(rules, wanted, solved, progress)
    write_tables(root, game_type, solved)
    return solved


def table_sizes(game_type: GameType, pieces: int) -> dict[Material, int]:
    """Bytes of every table of up to ``pieces`` pieces, without building anything."""
    rules = game_type.rules
    return {m: MaterialIndex(rules, m).size for m in materials_up_to(pieces)}
