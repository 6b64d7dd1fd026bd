"""A published tournament before its start date reads «опубликован, начинается …», not «идёт»."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from flask.testing import FlaskClient

from corrmail.models import Tournament, TournamentStatus


def test_a_tournament_before_its_start_is_published_not_running(
    organizer_client: FlaskClient, make_tournament: Callable[..., Tournament]
) -> None:
    today = dt.date.today()
    later = today + dt.timedelta(days=40)
    make_tournament(code="СКОРО-1", start_date=later, end_date=later + dt.timedelta(days=400))
    make_tournament(code="ИДЁТ-1", start_date=today - dt.timedelta(days=40),
                    end_date=today + dt.timedelta(days=400))
    make_tournament(code="ЧЕРН-1", start_date=later, end_date=later + dt.timedelta(days=400),
                    status=TournamentStatus.DRAFT)
    starts = f"опубликован, начинается {later:%d.%m.%Y}"
    listing = organizer_client.get("/tournaments/").get_data(as_text=True)
    rows = {code: listing[listing.index(f">{code}</a>"):].split("</tr>")[0]
            for code in ("СКОРО-1", "ИДЁТ-1", "ЧЕРН-1")}
    assert starts in rows["СКОРО-1"] and "идёт" not in rows["СКОРО-1"]
    assert "<td>идёт</td>" in rows["ИДЁТ-1"]
    assert "<td>подготовка</td>" in rows["ЧЕРН-1"]
    page = organizer_client.get("/tournaments/СКОРО-1").get_data(as_text=True)
    assert f"<dd>{starts}</dd>" in page
    running = organizer_client.get("/tournaments/ИДЁТ-1").get_data(as_text=True)
    assert "<dd>идёт</dd>" in running
