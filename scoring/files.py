"""Reading a tournament file whatever its format: our JSON or FIDE TRF-16."""

from __future__ import annotations

from pathlib import Path

from scoring.jsonformat import read_json
from scoring.model import Tournament
from scoring.trf import load_trf


def load_tournament(path: str | Path) -> Tournament:
    """The tournament in ``path``: JSON if the file starts with ``{``, TRF-16 otherwise."""
    text = Path(path).read_text(encoding="utf-8-sig")
    if text.lstrip().startswith("{"):
        return read_json(text, str(path))
    return load_trf(text, str(path))
