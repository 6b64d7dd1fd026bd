"""The referee's selects and case pages name codes in the reader's language; forms still post
the codes (sides and assessments 002 §4.5.2, materials 002 §4.3.6, sanctions 002 §4.1.9,
breaks 002 §4.4.5)."""

from __future__ import annotations

import datetime as dt
import re
import warnings
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from corrmail.models import Case, CaseType, Participant

if TYPE_CHECKING:
    from collections.abc import Callable

    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)
NO_TUPLE_CHOICES = pytest.mark.filterwarnings(
    "error:Passing SelectField choices:DeprecationWarning"
)


def page(cup: Cup, who: str, url: str, locale: str) -> str:
    client = cup.client(who)
    with client.session_transaction() as session:
        session["locale"] = locale
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        response = client.get(url)
    assert response.status_code == 200, response.data
    deprecated = [str(w.message) for w in caught if "SelectField choices" in str(w.message)]
    assert deprecated == [], deprecated
    return response.data.decode()


def options(text: str, name: str) -> dict[str, str]:
    """value -> shown label of the options of the select (or the checkboxes) named ``name``."""
    boxes = re.findall(rf'<input[^>]*name="{re.escape(name)}"[^>]*type="checkbox"'
                       rf'[^>]*value="([^"]*)"[^>]*>\s*<label[^>]*>(.*?)</label>', text, re.S)
    if boxes:  # the materials of 002 §4.3.6 are ticked, each box with its label
        return {value: label.strip() for value, label in boxes}
    match = re.search(rf'<select[^>]*name="{re.escape(name)}"[^>]*>(.*?)</select>', text, re.S)
    assert match is not None, f"no select {name}"
    return {
        value: label.strip()
        for value, label in re.findall(r'<option[^>]*value="([^"]*)"[^>]*>(.*?)</option>',
                                       match.group(1), re.S)
    }


def adjudication_case(cup: Cup, set_today: Callable[[dt.date], None]) -> int:
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        case_id = session.scalar(select(Case.id).where(Case.case_type == CaseType.ADJUDICATION)
                                 .order_by(Case.id))
    assert case_id is not None
    return case_id


@NO_TUPLE_CHOICES
def test_opening_forms_name_codes_in_russian(cup: Cup) -> None:
    text = page(cup, "referee", f"/cases/new/{cup.code}", "ru")
    assert options(text, "overstep-claimant") == {"white": "белые", "black": "чёрные"}
    assert options(text, "dispute-complainant") == {"white": "белые", "black": "чёрные"}
    assert options(text, "overstep-evidence") == {
        "offender_letters": "письма и открытки, полученные от просрочившего время",
        "registered_receipts": "квитанции заказных писем",
        "game_record": "запись партии со своим ответным ходом",
        "time_chart": "график времени на обдумывание",
        "overstep_notice": "заказное письмо о просрочке",
    }
    assert options(text, "sanction-sanction") == {
        "warning": "замечание",
        "reprimand": "выговор",
        "bulletins_withheld": "лишение текущей информации",
        "forfeit": "засчитано поражение в партии (− / +)",
        "exclusion_request": "ходатайство об исключении игрока из турнира",
    }
    assert options(text, "break-break_kind") == {
        "retroactive": "перерыв, объявленный после его начала",
        "extra": "дополнительный перерыв сверх норм пункта 4.4.1",
    }
    # Dynamic choices keep posting ids and show names; "no game" is the value 0.
    assert options(text, "sanction-game")["0"] == "—"


@NO_TUPLE_CHOICES
def test_opening_forms_name_codes_in_english(cup: Cup) -> None:
    text = page(cup, "referee", f"/cases/new/{cup.code}", "en")
    assert options(text, "overstep-claimant") == {"white": "white", "black": "black"}
    assert options(text, "overstep-evidence")["time_chart"] == "chart of think time"
    assert options(text, "sanction-sanction")["bulletins_withheld"] == (
        "current information withheld")
    assert options(text, "break-break_kind")["extra"] == "additional break beyond the norm of §4.4.1"
    assert "белые" not in text


@NO_TUPLE_CHOICES
def test_adjudication_page_names_sides_assessments_and_rulings(
    cup: Cup, set_today: Callable[[dt.date], None]
) -> None:
    case_id = adjudication_case(cup, set_today)
    # The rulings are offered once the players' analyses can no longer come (002 §4.5.2).
    set_today(END + dt.timedelta(days=11))
    text = page(cup, "referee", f"/cases/{case_id}", "ru")
    assert options(text, "side") == {"white": "белые", "black": "чёрные"}
    assert options(text, "assessment") == {"win": "выигрыш", "draw": "ничья", "loss": "проигрыш"}
    assert options(text, "ruling")["white_wins"] == "победа белых"
    english = page(cup, "referee", f"/cases/{case_id}", "en")
    assert options(english, "assessment") == {"win": "win", "draw": "draw", "loss": "loss"}
    assert options(english, "ruling")["white_wins"] == "white wins"
    with cup.database.session() as session:
        white = cup.case_row(session, case_id).game.white.start_number
    set_today(END + dt.timedelta(days=2))
    # A player is offered his own side only, by its name.
    player_page = page(cup, f"player{white}", f"/cases/{case_id}", "ru")
    assert options(player_page, "side") == {"white": "белые"}
    # The codes are what a form posts: the analysis is stored under them.
    cup.act(f"player{white}", case_id, "analysis", side="white", assessment="draw",
            analysis="equal ending")
    with cup.database.session() as session:
        payload = cup.case_row(session, case_id).payload
    assert "'assessment': 'draw'" in str(payload)


@NO_TUPLE_CHOICES
def test_sanction_and_break_pages_name_their_kind(cup: Cup) -> None:
    with cup.database.session() as session:
        player = session.scalar(select(Participant.id).where(
            Participant.tournament_id == cup.tournament_id, Participant.start_number == 2))
    warned = cup.post("steward", f"/cases/new/{cup.code}/sanction", **{
        "sanction-participant": player, "sanction-sanction": "reprimand",
        "sanction-rules_violated": "002 §4.2.6", "sanction-game": 0,
        "sanction-reasons": "late again"})
    text = page(cup, "referee", warned, "ru")
    assert "выговор · 002 §4.2.6" in text
    assert "<p>reprimand" not in text  # the audit trail below keeps the stored codes
    asked = cup.post("player2", f"/cases/new/{cup.code}/break", **{
        "break-participant": player, "break-break_kind": "extra", "break-start": "2026-10-10",
        "break-end": "2026-10-20", "break-reason": "family"})
    text = page(cup, "referee", asked, "ru")
    assert "дополнительный перерыв сверх норм пункта 4.4.1:" in text
    assert page(cup, "referee", asked, "en").count("additional break beyond the norm") == 1
