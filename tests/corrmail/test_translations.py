"""Russian is complete and every compiled catalog is current (the .mo files are committed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from corrmail.paths import CHECKOUT_DIR, PACKAGE_DIR, TRANSLATIONS_DIR

# Everything a user can read: all Python of corrmail and every template.
EVERYTHING = """
[python: corrmail/**.py]
[jinja2: templates/**.html]
"""


def _ru_catalogs() -> list[Path]:
    return [TRANSLATIONS_DIR / "ru" / "LC_MESSAGES" / "messages.po"]


def test_every_message_in_the_code_has_a_russian_translation(tmp_path: Path) -> None:
    config = tmp_path / "babel.cfg"
    config.write_text(EVERYTHING)
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", str(config),
         "-k", "_l", "-o", str(pot), "."],
        cwd=CHECKOUT_DIR, check=True, capture_output=True,
    )  # fmt: skip
    with pot.open("rb") as handle:
        wanted = {message.id for message in read_po(handle) if message.id}
    translated: set[object] = set()
    for path in _ru_catalogs():
        with path.open("rb") as handle:
            translated |= {m.id for m in read_po(handle) if m.id and m.string and not m.fuzzy}
    untranslated = sorted(str(message_id) for message_id in wanted - translated)
    assert not untranslated, (
        "translate these in a ru/LC_MESSAGES/messages.po (see babel.cfg):\n"
        + "\n".join(untranslated)
    )


@pytest.mark.parametrize("po", _ru_catalogs(), ids=lambda p: str(p.relative_to(CHECKOUT_DIR)))
def test_compiled_catalog_matches_the_po_file(po: Path) -> None:
    # A plural entry's id and strings come as a tuple from the .po and a list from the .mo.
    def plain(value: object) -> object:
        return tuple(value) if isinstance(value, list | tuple) else value

    with po.open("rb") as handle:
        source = {plain(m.id): plain(m.string) for m in read_po(handle) if m.id and not m.fuzzy}
    with po.with_suffix(".mo").open("rb") as handle:
        compiled = {plain(m.id): plain(m.string) for m in read_mo(handle) if m.id}
    assert compiled == source, f"run: pybabel compile -d {po.parent.parent.parent}"


def test_there_is_one_catalog() -> None:
    """One text, one translation: a second catalog would let two wordings of one English text
    compete, and which one a reader sees would depend on the order the catalogs are merged."""
    catalogs = sorted(p.relative_to(PACKAGE_DIR) for p in PACKAGE_DIR.rglob("*.po"))
    assert catalogs == [Path("translations/ru/LC_MESSAGES/messages.po")]
