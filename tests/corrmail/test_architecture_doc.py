"""``docs/architecture.md`` says what the code is: its route table is the app's ``url_map`` and
its package list the real packages, so neither can drift; and it stays a ten-minute read."""

from __future__ import annotations

import re
from pathlib import Path

from corrmail.web.route_table import BEGIN, END, documentation_app, route_table, with_table

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PURE = ("adjudication", "notation", "scoring", "timekeeping")


def test_the_route_table_is_the_app_s_url_map() -> None:
    text = DOC.read_text(encoding="utf-8")
    current = with_table(text, route_table(documentation_app()))
    assert text == current, (
        "docs/architecture.md's route table is stale: run "
        "`python -m corrmail.web.route_table docs/architecture.md`")


def test_every_route_of_the_app_is_in_the_table() -> None:
    app = documentation_app()
    table = DOC.read_text(encoding="utf-8").partition(BEGIN)[2].partition(END)[0]
    for rule in app.url_map.iter_rules():
        assert f"`{rule.rule}`" in table and f"`{rule.endpoint}`" in table, rule.rule


def test_the_package_list_is_the_real_packages() -> None:
    text = DOC.read_text(encoding="utf-8")
    listed = text.partition("Packages: ")[2].partition("\n\n")[0]
    named = set(re.findall(r"`([a-z_.]+)`", listed))
    real = {"corrmail"} | {
        f"corrmail.{path.parent.name}" for path in (ROOT / "corrmail").glob("*/__init__.py")
    } | {name for name in PURE if (ROOT / name / "__init__.py").is_file()}
    assert named == real


def test_the_game_core_is_described() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert "## The game core (`corrmail/games/`)" in text
    for name in ("append", "moves", "changes", "cases"):
        assert (ROOT / "corrmail" / "games" / f"{name}.py").is_file()
        assert f"* `{name}` —" in text


def test_it_reads_in_ten_minutes() -> None:
    # About 200 words a minute for technical prose; the route table is looked up, not read.
    text = DOC.read_text(encoding="utf-8")
    prose = text.partition(BEGIN)[0] + text.partition(END)[2]
    assert len(prose.split()) <= 2000
