"""The bulletin and the final report head the tiebreak columns with the rulebook's names in the
reader's language; the archive keeps the code names (they are the JSON's identifiers)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from corrmail.bulletins import build_bulletin, build_final_report, load_tournament, render_printable
from corrmail.bulletins.content import to_json
from corrmail.standings.tiebreak_labels import tiebreak_label

AS_OF = dt.date(2026, 11, 1)


def _documents(league: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    with league.database.transaction() as session:
        tournament = load_tournament(session, league.code)
        bulletin = to_json(build_bulletin(session, tournament, AS_OF))
        report = to_json(build_final_report(session, tournament, AS_OF))
    return bulletin, report


def test_russian_bulletin_and_report_show_the_rulebooks_names(league: Any) -> None:
    bulletin, report = _documents(league)
    assert bulletin["tiebreak_order"] == ["sonneborn_berger", "koya"]  # the archive's identifiers
    page = render_printable(bulletin, language="ru")
    assert ('title="Система коэффициентов Зонненборна-Бергера: очки участников, у которых игрок '
            "выиграл, и половина очков участников, с которыми он сыграл вничью "
            '(001 §5.4.8.3.1, 003 §9.13)">Зонненборн-Бергер</th>') in page
    assert '(003 §9.9)">Койя</th>' in page
    assert "sonneborn_berger" not in page and "koya" not in page
    final = render_printable(report, language="ru")
    assert ("1. Зонненборн-Бергер — Система коэффициентов Зонненборна-Бергера: очки участников, "
            "у которых игрок выиграл, и половина очков участников, с которыми он сыграл вничью "
            "(001 §5.4.8.3.1, 003 §9.13); 2. Койя — Система Койя:") in final
    assert "sonneborn_berger" not in final and "koya" not in final


def test_english_bulletin_shows_english_names(league: Any) -> None:
    bulletin, report = _documents(league)
    page = render_printable(bulletin, language="en")
    assert ">Sonneborn-Berger</th>" in page and ">Koya</th>" in page
    assert "sonneborn_berger" not in page and "koya" not in page
    final = render_printable(report, language="en")
    assert "2. Koya — Koya system: points scored against the opponents who made half" in final


def test_an_archived_name_no_table_knows_is_shown_as_written(league: Any) -> None:
    """A bulletin archived before a tiebreak was renamed still renders, under its old name."""
    bulletin, _ = _documents(league)
    bulletin["tiebreak_order"] = ["sonneborn_berger", "retired_tiebreak"]
    bulletin["standings"] = [
        {**row, "tiebreaks": [["sonneborn_berger", 1.0], ["retired_tiebreak", 2.0]]}
        for row in bulletin["standings"]
    ]
    page = render_printable(bulletin, language="ru")
    assert "<th title=\"retired_tiebreak\">retired_tiebreak</th>" in page
    assert tiebreak_label("retired_tiebreak").rule == ""
