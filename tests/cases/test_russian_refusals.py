"""What the services say reads in Russian on a Russian page: a case's audit log (worded from the
codes and values its entries keep, an older entry shown as stored), the refusals of the rounds
service, the refusal to close a tournament while games and cases are open, and the time chart's
name for a screen reader."""

from __future__ import annotations

import re
from html import unescape
from typing import TYPE_CHECKING

from corrmail.models import AuditEntry
from tests.cases.test_case_timing import confirmed_claim
from tests.cases.test_russian_pages import _russian_page, _visible

if TYPE_CHECKING:
    from tests.cases.conftest import Cup


def _audit_lines(page: str) -> list[str]:
    block = re.search(r'<ol class="audit">(.*?)</ol>', page, flags=re.S)
    assert block is not None
    return [unescape(re.sub(r"<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li>(.*?)</li>", block.group(1), flags=re.S)]


def test_a_cases_audit_log_reads_in_russian_and_keeps_older_entries(cup: Cup, set_today) -> None:
    case_id = confirmed_claim(cup, set_today)
    with cup.database.transaction() as session:
        row = cup.case_row(session, case_id)
        # An entry written before entries kept their codes: shown as it was stored.
        session.add(AuditEntry(action="case.decided", entity="case", entity_id=row.id,
                               tournament_id=row.tournament_id, rule="002 §4.3.7",
                               summary="overstep_claim legacy: decided, confirmed (002 §4.3.7)",
                               detail={}))
    page = _russian_page(cup, "referee", f"/cases/{case_id}")
    lines = _audit_lines(page)
    assert len(lines) >= 4
    # The decision: the case's state and the ruling with its rules, in Russian (002 §4.3.7).
    assert any("решено, решение: просрочка подтверждена (002 §4.3.7" in line for line in lines), lines
    # The effects of the decision: the game suspended, a letter, the result.
    assert any("игра остановлена" in line and "партия " in line for line in lines), lines
    assert any("письмо «просрочка подтверждена», кому: " in line for line in lines), lines
    # No stored field names, codes or English summaries are left, except the older entry.
    new_lines = [line for line in lines if "legacy" not in line]
    for line in new_lines:
        assert "=" not in line and "_" not in line, line
        for english in ("decided", "confirmed", "game ", "letter", "white", "black"):
            assert english not in line, (english, line)
    assert sum("overstep_claim legacy: decided, confirmed (002 §4.3.7)" in line
               for line in lines) == 1


def test_the_case_pages_time_chart_is_named_in_russian_for_a_screen_reader(
    cup: Cup, set_today
) -> None:
    case_id = confirmed_claim(cup, set_today)
    page = _russian_page(cup, "referee", f"/cases/{case_id}")
    svg = page[page.index('<figure class="chart-plot">'):]
    svg = svg[:svg.index("</svg>")]
    assert 'aria-label="график времени"' in svg and "<title>график времени</title>" in svg
    assert "time chart" not in svg.lower()


def test_a_round_refused_on_a_russian_page_is_worded_in_russian(cup: Cup) -> None:
    client = cup.client("organizer")
    with client.session_transaction() as session:
        session["locale"] = "ru"
    # A round robin is paired from the Berger table, not round by round (000 §3.18).
    answer = client.post(f"/tournaments/{cup.code}/rounds/pair", data={"seed": "1"},
                         follow_redirects=True)
    text = _visible(answer.data.decode())
    assert 'lang="ru"' in answer.data.decode()
    assert ("по турам разводится только швейцарская система (в том числе командная); круговой "
            "турнир разводится по таблицам Бергера (000 §3.18)") in text, text
    assert "round robin" not in text and "Berger table" not in text


def test_closing_refused_on_a_russian_page_names_games_and_cases_in_russian(
    cup: Cup, set_today
) -> None:
    case_id = confirmed_claim(cup, set_today)
    client = cup.client("organizer")
    with client.session_transaction() as session:
        session["locale"] = "ru"
    refused = client.post(f"/tournaments/{cup.code}/close", data={})
    assert refused.status_code == 409
    page = refused.data.decode()
    blockers = page[page.index('<ul class="blockers">'):]
    blockers = _visible(blockers[:blockers.index("</ul>")])
    assert "не окончена партия " in blockers and "): идёт игра" in blockers, blockers
    assert f"дело {case_id} (заявление о просрочке) решено" in blockers, blockers
    for code in ("in_play", "overstep_claim", "decided", "GameState", "CaseType", "CaseState"):
        assert code not in blockers, (code, blockers)


def test_a_sanctions_audit_entry_names_the_player_and_the_sanction_in_russian(cup: Cup) -> None:
    from sqlalchemy import select

    from corrmail.models import Participant

    with cup.database.session() as session:
        entry = session.scalars(select(Participant).where(
            Participant.tournament_id == cup.tournament_id, Participant.start_number == 2)).one()
        player, name = entry.id, entry.player.name
    location = cup.post("steward", f"/cases/new/{cup.code}/sanction",
                        **{"sanction-participant": player, "sanction-sanction": "warning",
                           "sanction-game": 0,
                           "sanction-rules_violated": "002 §4.2.6",
                           "sanction-reasons": "комментарий к партии"})
    lines = _audit_lines(_russian_page(cup, "referee", location))
    # 002 §4.1.9-4.1.10: which sanction, for which rules, on whom.
    assert any(f"участник {name}: замечание за нарушение 002 §4.2.6" in line
               for line in lines), lines
    assert not any("warning" in line or f"player {player}" in line for line in lines), lines


def test_teams_and_redraw_refusals_read_in_russian(cup: Cup) -> None:
    client = cup.client("organizer")
    with client.session_transaction() as session:
        session["locale"] = "ru"
    teams = client.post(f"/tournaments/{cup.code}/teams", data={"teams": "без двоеточия"})
    text = _visible(teams.data.decode())
    assert "строка 1: запишите команду так: «Название: 3, 7, 12»" in text, text
    assert "write the team as" not in text
    # A round robin's draw is not redrawn once published (004).
    redraw = client.get(f"/tournaments/{cup.code}/rounds/1/redraw")
    assert redraw.status_code == 409
    text = _visible(redraw.data.decode())
    assert ("заново разводится только опубликованный тур личной швейцарской системы; прочие "
            "жеребьёвки после опубликования не изменяются (004)") in text, text
    assert "only a published round" not in text


def test_an_overstep_claims_dates_in_the_wrong_order_are_refused_in_russian(
    cup: Cup, set_today
) -> None:
    import datetime as dt

    from tests.cases.test_overstep_claims import LATE

    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    page = _russian_page(cup, "referee", f"/cases/new/{cup.code}/overstep", {
        "overstep-game": str(cup.games[(1, 6)]), "overstep-claimant": "white",
        "overstep-held_move": "d4-c5", "overstep-notice_received_on": "2026-11-20",
        "overstep-letter": "Заявляю о просрочке."})
    text = unescape(re.sub(r"<[^>]+>", " ", page))
    assert ("уведомление получено раньше заявления о просрочке: 20.11.2026 раньше, чем "
            "25.11.2026 (002 §4.3.6)") in text
    assert "before the claim" not in text and "is before" not in text


def test_a_cases_audit_log_is_dated_on_the_tournaments_calendar(cup: Cup, set_today) -> None:
    """The log is stored in UTC; a referee reads it beside the case's dates, which are the
    tournament's (Europe/Moscow): an entry made at 21:30 UTC is the next day's there."""
    import datetime as dt
    from zoneinfo import ZoneInfo

    case_id = confirmed_claim(cup, set_today)
    with cup.database.transaction() as session:
        row = cup.case_row(session, case_id)
        zone = row.tournament.time_zone
        late = dt.datetime(2026, 12, 1, 21, 30, tzinfo=dt.UTC)
        session.add(AuditEntry(action="case.decided", entity="case", entity_id=row.id,
                               tournament_id=row.tournament_id, rule="002 §4.3.7", at=late,
                               summary="overstep_claim legacy: decided, confirmed (002 §4.3.7)",
                               detail={}))
    local = late.astimezone(ZoneInfo(zone))
    lines = _audit_lines(_russian_page(cup, "referee", f"/cases/{case_id}"))
    legacy = [line for line in lines if "legacy" in line]
    assert legacy and legacy[0].startswith(f"{local:%d.%m.%Y %H:%M} · "), (zone, legacy)
    assert all(re.match(r"\d\d\.\d\d\.\d{4} \d\d:\d\d · ", line) for line in lines), lines


def test_a_case_is_named_by_its_number_not_its_stored_key(cup: Cup, set_today) -> None:
    """The case page and the final report both call a case «заявление о просрочке #N»; the
    stored key (``…/overstep/…``) is no name for a Russian reader."""
    from tests.cases.test_russian_pages import _visible

    case_id = confirmed_claim(cup, set_today)
    page = _visible(_russian_page(cup, "referee", f"/cases/{case_id}"))
    assert f"заявление о просрочке #{case_id}" in page
    report = cup.client("referee").get(
        f"/bulletins/{cup.code}/preview?as_of=2027-01-15&kind=final_report")
    assert report.status_code == 200
    text = _visible(report.data.decode())
    assert f"заявление о просрочке #{case_id}" in text
    for shown in (page, text):
        assert "overstep" not in shown and "/adjudication/" not in shown
