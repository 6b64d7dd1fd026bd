"""The final report's sending log (002 §4.1.7) reads as a referee expects: one line per
addressee saying how he gets it — by e-mail to his address, by post to his postal address (the
steward posts it, 002 §4.1.8), or not at all and why — the steward's post said once per line,
not twice; above it, how many get it each way; no addressee lost."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from sqlalchemy import select

from corrmail.bulletins import issue, load_tournament, send_issue
from corrmail.models import Player
from corrmail.models.bulletins import BulletinKind

AS_OF = dt.date(2027, 9, 1)


def _rows(page: str) -> list[list[str]]:
    table = re.search(r'<table class="deliveries">(.*?)</table>', page, re.S)
    assert table is not None
    rows = re.findall(r"<tr class=\"(\w+)\">(.*?)</tr>", table.group(1), re.S)
    return [[status, *[re.sub(r"<[^>]+>", "", cell).strip()
                       for cell in re.findall(r"<td[^>]*>(.*?)</td>", cells, re.S)]]
            for status, cells in rows]


def _final_report_with_two_postal_players(league: Any) -> int:
    with league.database.transaction() as session:
        for name in ("Иванов Пётр", "Попова Мария"):
            session.scalars(select(Player).filter_by(name=name)).one().email = None
        tournament = load_tournament(session, league.code)
        row = issue(session, tournament, AS_OF, kind=BulletinKind.FINAL_REPORT)
        send_issue(session, league.writer(), row)
        return row.id


def _log(league: Any, issue_id: int, locale: str) -> str:
    client = league.client("referee")
    with client.session_transaction() as session:
        session["locale"] = locale
    response = client.get(f"/bulletins/issues/{issue_id}")
    assert response.status_code == 200, response.data
    return response.get_data(as_text=True)


def test_each_postal_addressee_has_one_line_saying_who_posts_it_where(league: Any) -> None:
    issue_id = _final_report_with_two_postal_players(league)
    russian = _log(league, issue_id, "ru")
    rows = _rows(russian)
    names = [row[1] for row in rows]
    # Every player and official, each once: the two postal players first (the steward's work).
    assert sorted(names) == sorted(["Иванов Пётр", "Смирнова Анна", "Кузнецов Олег",
                                    "Попова Мария", "Referee", "Steward", "Organizer"])
    assert len(set(names)) == len(names)
    postal = [row for row in rows if row[0] == "by_post"]
    assert [row[1:] for row in postal] == [
        ["Иванов Пётр", "почтой", "ул. Садовая, 1",
         "нет адреса электронной почты: староста отправит почтой", "002 §4.1.8"],
        ["Попова Мария", "почтой", "ул. Садовая, 4",
         "нет адреса электронной почты: староста отправит почтой", "002 §4.1.8"],
    ]
    assert rows[:2] == postal
    for row in rows:
        assert " ".join(row).count("староста отправит почтой") <= 1
    assert all(row[2] == "по электронной почте" and "@" in row[3]
               for row in rows if row[0] == "queued")
    summary = re.search(r'<p class="delivery-summary">(.*?)</p>', russian, re.S)
    assert summary is not None
    assert re.sub(r"\s+", " ", summary.group(1)).strip() == (
        "По электронной почте: 5 · почтой: 2 · не отправлено: 0")
    english = _rows(_log(league, issue_id, "en"))
    assert [row[1:4] for row in english if row[0] == "by_post"] == [
        ["Иванов Пётр", "by post", "ул. Садовая, 1"], ["Попова Мария", "by post", "ул. Садовая, 4"]]
    assert all(row[2] == "by e-mail" for row in english if row[0] == "queued")
