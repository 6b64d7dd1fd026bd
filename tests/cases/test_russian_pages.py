"""The officials' main pages read in Russian end to end: no stored code (tiebreaks, pairing
programs, outbox statuses, evidence, audit actions, an impossible move's cause) and no English
text of the catalogs is left on them. The scenario: a tournament with an overstep claim, a
postcard checked with an impossible move, the outbox and the bulletins."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from typing import TYPE_CHECKING

from babel.messages.pofile import read_po

from corrmail.paths import TRANSLATIONS_DIR
from tests.cases.test_case_timing import confirmed_claim

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

#: Codes that must never reach a Russian reader as they are stored.
CODES = ("sonneborn_berger", "solkoff", "buchholz_cut", "pending", "captured", "game_record",
         "offender_letters", "case.suspend_game", "case.send_letter", "case.decided",
         "impossible:", "capture omitted", "capture_omitted", "white_win", "awaiting_parties")


def _english_texts() -> set[str]:
    """The catalogs' English texts a page could show untranslated: whole phrases (a space,
    ten letters or more) whose Russian differs."""
    texts: set[str] = set()
    for directory in (TRANSLATIONS_DIR,):
        with (directory / "ru" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
            for message in read_po(handle):
                if not isinstance(message.id, str) or not message.string or message.fuzzy:
                    continue
                if message.id == message.string or "%" in message.id or "{" in message.id:
                    continue
                if " " in message.id and len(re.sub(r"[^A-Za-z]", "", message.id)) >= 10:
                    texts.add(message.id)
    return texts


def _visible(page: str) -> str:
    """What a reader sees: the text between tags, scripts and styles left out."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", page))


def _russian_page(cup: Cup, who: str, url: str, data: dict[str, str] | None = None) -> str:
    client = cup.client(who)
    with client.session_transaction() as session:
        session["locale"] = "ru"
    response = client.post(url, data=data) if data is not None else client.get(url)
    assert response.status_code in (200, 422), (url, response.status_code)
    assert 'lang="ru"' in response.data.decode()
    return response.data.decode()


def test_the_main_pages_leave_no_english_on_a_russian_reader(cup: Cup, set_today) -> None:
    case_id = confirmed_claim(cup, set_today)
    game_id = cup.games[(1, 6)]
    other = cup.games[(2, 3)]
    with cup.database.session() as session:
        black = cup.game(session, 2, 3).black_id
        white = cup.game(session, 2, 3).white_id
    cup.play(2, 3, [("c3-d4", dt.date(2026, 11, 20), None)])

    pages = {
        "tournament": _russian_page(cup, "organizer", f"/tournaments/{cup.code}"),
        "tournament form": _russian_page(cup, "organizer", f"/tournaments/{cup.code}/edit"),
        "game": _russian_page(cup, "steward", f"/games/{game_id}"),
        "postcard form": _russian_page(cup, "steward", f"/games/{other}/postcards/new"),
        # An impossible move (h6-d2 contradicts the rules): the finding with its cause.
        "postcard check": _russian_page(cup, "steward", f"/games/{other}/postcards/new", {
            "sender": str(black), "corrects": "0", "declaration": "none", "channel": "post",
            "moves_text": "1. c3-d4 h6-d2", "partner_sent": "20.11.26", "received": "22.11.26",
            "sent": "23.11.26", "postmark": "23.11.26", "action": "check"}),
        "white's check": _russian_page(cup, "steward", f"/games/{other}/postcards/new", {
            "sender": str(white), "corrects": "0", "declaration": "none", "channel": "post",
            "moves_text": "c3-d4", "sent": "23.11.26", "action": "check"}),
        "case": _russian_page(cup, "referee", f"/cases/{case_id}"),
        "queue": _russian_page(cup, "referee", "/cases/"),
        "outbox": _russian_page(cup, "organizer", "/admin/outbox"),
        "bulletins": _russian_page(cup, "referee", f"/bulletins/{cup.code}"),
    }
    assert "002 §4.2.10" in _visible(pages["postcard check"])
    english = _english_texts()
    # The net holds the pages' English: a Russian page showing any of these would fail.
    assert {"What will be stored", "Nothing to point out.", "Not entered"} <= english
    found = {}
    for name, page in pages.items():
        text = _visible(page)
        left = [code for code in CODES if code in text]
        left += sorted(phrase for phrase in english if phrase in text)
        if left:
            found[name] = left
    if found:
        import pathlib
        for name, page in pages.items():
            pathlib.Path("/tmp/t18/" + name.replace(" ", "_") + ".html").write_text(page)
    assert not found, found
