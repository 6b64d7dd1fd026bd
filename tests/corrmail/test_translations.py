"""Russian is complete and its compiled catalog is current (the .mo files are committed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from corrmail.paths import CHECKOUT_DIR, TRANSLATIONS_DIR

RU_PO = TRANSLATIONS_DIR / "ru" / "LC_MESSAGES" / "messages.po"
RU_MO = TRANSLATIONS_DIR / "ru" / "LC_MESSAGES" / "messages.mo"


def test_every_message_in_the_code_has_a_russian_translation(tmp_path: Path) -> None:
    pot = tmp_path / "messages.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract",
         "-F", str(TRANSLATIONS_DIR / "babel.cfg"), "-k", "_l", "-o", str(pot), "."],
        cwd=CHECKOUT_DIR, check=True, capture_output=True,
    )  # fmt: skip
    with pot.open("rb") as handle:
        wanted = {message.id for message in read_po(handle) if message.id}
    with RU_PO.open("rb") as handle:
        catalog = read_po(handle)
    untranslated = sorted(
        str(message_id)
        for message_id in wanted
        if catalog.get(message_id) is None or not catalog.get(message_id).string
    )
    assert untranslated == [], "run pybabel update and translate these in ru/messages.po"


def test_compiled_catalog_matches_the_po_file() -> None:
    with RU_PO.open("rb") as handle:
        source = {m.id: m.string for m in read_po(handle) if m.id and not m.fuzzy}
    with RU_MO.open("rb") as handle:
        compiled = {m.id: m.string for m in read_mo(handle) if m.id}
    assert compiled == source, "run: pybabel compile -d corrmail/translations"
