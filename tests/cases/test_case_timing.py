"""The case page offers only what the case allows today and says, in the reader's language,
what waits and until when; a decided case no party may protest leaves the open queue."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from typing import TYPE_CHECKING

from tests.cases.test_overstep_claims import LATE, claim

if TYPE_CHECKING:
    from tests.cases.conftest import Cup


def _russian(cup: Cup, who: str) -> None:
    with cup.client(who).session_transaction() as session:
        session["locale"] = "ru"


def _ruling_options(page: str) -> list[str]:
    select = re.search(r'<select id="ruling" name="ruling">(.*?)</select>', page, re.S)
    return re.findall(r'<option value="([a-z_]+)">', select[1]) if select else []


def test_confirming_waits_for_the_accused_and_says_until_when_in_russian(
        cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)
    game_id = cup.games[(1, 6)]
    set_today(dt.date(2026, 11, 25))
    case_id = claim(cup, "player1", game_id, "white")
    _russian(cup, "referee")
    set_today(dt.date(2026, 12, 5))  # day 10 of the accused's window (002 §4.3.8)
    page = unescape(cup.client("referee").get(f"/cases/{case_id}").data.decode())
    assert "confirmed" not in _ruling_options(page)
    assert "rejected" in _ruling_options(page)  # a rejection does not wait
    waits = page[page.index('id="decision-waits"'):][:1200]
    assert "05.12.2026" in waits and "002 §4.3.8" in waits and "ждёт" in waits
    assert "cannot decide yet" not in page
    # Forced through anyway, the refusal is in Russian, with the rule and the day.
    early = cup.client("referee").post(f"/cases/{case_id}/decide",
                                       data={"revision": 0, "ruling": "confirmed"})
    refusal = unescape(early.data.decode())
    assert early.status_code == 422 and "cannot decide yet" not in refusal
    assert "05.12.2026" in refusal and "002 §4.3.8" in refusal

    set_today(dt.date(2026, 12, 6))
    page = unescape(cup.client("referee").get(f"/cases/{case_id}").data.decode())
    assert "confirmed" in _ruling_options(page) and 'id="decision-waits"' not in page


def confirmed_claim(cup: Cup, set_today) -> int:  # type: ignore[no-untyped-def]
    """An overstep claim of 1 against 6, confirmed on 06.12.2026 (002 §4.3.7): its case id."""
    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    set_today(dt.date(2026, 12, 6))
    cup.act("referee", case_id, "decide", ruling="confirmed")
    return case_id


def test_a_decided_case_past_its_protest_window_leaves_the_queue(cup: Cup, set_today) -> None:
    case_id = confirmed_claim(cup, set_today)
    page = cup.client("referee").get(f"/cases/{case_id}").data.decode()
    assert 'id="close-waits"' in page and f'action="/cases/{case_id}/close"' not in page
    queue = cup.client("referee").get("/cases/").data.decode()
    assert f'<tr class="" data-case="{case_id}">' in queue  # open to protest: still waiting

    set_today(dt.date(2027, 12, 20))
    queue = unescape(cup.client("referee").get("/cases/").data.decode())
    assert f'data-case="{case_id}"' in queue
    assert f'<tr class="overdue" data-case="{case_id}">' not in queue
    assert "overdue by" not in queue and "просрочено на" not in queue
    final = queue[queue.index('class="decided-final"'):]
    assert f'data-case="{case_id}"' in final
    page = cup.client("referee").get(f"/cases/{case_id}").data.decode()
    assert f'action="/cases/{case_id}/close"' in page and 'id="close-waits"' not in page


def test_evidence_is_ticked_with_the_rulebooks_names(cup: Cup, set_today) -> None:
    page = unescape(cup.client("referee").get(f"/cases/new/{cup.code}").data.decode())
    assert 'type="checkbox"' in page and 'name="overstep-evidence"' in page
    assert "запись партии со своим ответным ходом" in page  # 002 §4.3.6, the rulebook's words
    assert "<select multiple" not in page
