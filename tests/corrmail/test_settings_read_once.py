"""Settings are parsed from the environment once, when the app or a command starts
(``docs/architecture.md``): no web view reads the environment on a request, it reads the app's
copy (``corrmail.web.database.settings`` and ``mail_settings``)."""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "corrmail" / "web"
READS = re.compile(r"\bfrom_env\(|\bos\.environ\b|\bgetenv\(")


def test_no_view_reads_the_environment() -> None:
    found = [
        f"{path.name}:{number}: {line.strip()}"
        for path in sorted(WEB.glob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if READS.search(line)
    ]
    assert found == [], "read the app's settings instead:\n" + "\n".join(found)
