"""The Swiss engine's notes and its programs read in the page's language: a Russian page of a
Swiss round shows neither the engine's English nor internal codes (``buchholz``)."""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import RoundRules, TeamPairing, Tournament, TournamentSystem
from corrmail.web.pairing_notes import pairing_note
from scoring.pairing.model import PairingSystem

#: One note of every form `scoring.pairing` writes (engine.py, redraw.py), with its wording.
NOTES = {
    "player 3 is absent: not paired, scores 0 (000 §3.18.2, 004)":
        "игрок 3 отсутствует: не участвует в жеребьёвке, получает 0 (000 §3.18.2, 004)",
    "player 5 receives the bye (+): odd number, last classified (000 §3.18.2)":
        "игрок 5 получает свободный тур (+): нечётное число участников, последний в "
        "классификации (000 §3.18.2)",
    "player 4 receives the bye (+): lowest classified who has had no point without play "
    "(000 §3.18.2, 002 note a)": None,
    "lot: the first pair's top player has black (000 §3.18.7)": None,
    "player 2 has white for the third game running: no legal pairing spares him "
    "(002: exceptional case; never a fourth, 000 §3.18.2)": None,
    "player 1 (2) meets 4 (1.5): float down and up, forced: not counted (002)": None,
    "player 1 (2) meets 4 (1.5): float down and up (000 §3.18.5)": None,
    "score group 1.5 cannot be paired inside with at most one player going down without "
    "stranding players below; paired against the whole field, [3, 6] going down "
    "(000 §3.18.5.4-3.18.5.5)":
        "группу с результатом 1½ нельзя разбить на пары внутри неё, опустив не более одного "
        "игрока и "
        "не оставив без пары игроков ниже; пары составлены по всему полю, вниз опускаются "
        "3, 6 (000 §3.18.5.4-3.18.5.5)",
    "score group 2 cannot be paired inside with at most one player going down without "
    "stranding players below; paired against the whole field, nobody going down "
    "(000 §3.18.5.4-3.18.5.5)":
        "группу с результатом 2 нельзя разбить на пары внутри неё, опустив не более одного "
        "игрока и "
        "не оставив без пары игроков ниже; пары составлены по всему полю, вниз не опускается "
        "никто (000 §3.18.5.4-3.18.5.5)",
    "pair 1-4: colours swapped to keep the limits (000 §3.18.2)": None,
    "pair 1-4 breaks an absolute criterion: redrawn (004)": None,
    "redraw touches players [1, 4]; every other pair stands (002, 004)": None,
}
#: A word of the engine's English or a program's code (the rules cited keep their Latin «§»).
ENGLISH = re.compile(r"\b(?:[a-z]{2,}|" + "|".join(s.value for s in PairingSystem) + r")\b")


@pytest.mark.parametrize("note", list(NOTES))
def test_every_engine_note_reads_in_russian(app: Flask, note: str) -> None:
    with app.test_request_context(), force_locale("ru"):
        russian = pairing_note(note)
    assert not ENGLISH.search(russian), russian
    if NOTES[note] is not None:
        assert russian == NOTES[note]
    with app.test_request_context(), force_locale("en"):
        # The same English, the players listed without the brackets of a Python list and the
        # scores as every page reads points (1½, not the engine's 1.5; reader_points).
        assert pairing_note(note) == note.replace("[", "").replace("]", "").replace("1.5", "1½")


def _notes_and_programs(page: str) -> list[str]:
    found = re.findall(r'<ul class="notes">(.*?)</ul>', page, re.S)
    found += re.findall(r"<p>Программа: (.*?)</p>", page)
    found += re.findall(r'<select id="team_pairing_system"[^>]*>(.*?)</select>', page, re.S)
    return found


def test_a_swiss_round_in_russian_shows_no_english_and_no_codes(
    make_tournament: Callable[..., Tournament], organizer_client: FlaskClient,
) -> None:
    tournament = make_tournament(players=6, system=TournamentSystem.SWISS,
                                 pairing_system="coefficients")
    page = f"/tournaments/{tournament.code}/rounds"
    # One known absent leaves five: an absence note, a bye note and the lot's note.
    assert organizer_client.post(f"{page}/pair", data={"seed": "8", "absent": "3"}).status_code == 302
    russian = organizer_client.get(page).get_data(as_text=True)
    assert NOTES["player 3 is absent: not paired, scores 0 (000 §3.18.2, 004)"] in russian
    assert "получает свободный тур (+)" in russian
    shown = _notes_and_programs(russian)
    assert shown
    for text in shown:
        assert not ENGLISH.search(re.sub(r"<[^>]+>", " ", text)), text


@pytest.mark.parametrize(("locale", "buchholz"), [
    ("ru", "по текущему коэффициенту Бухгольца (000 §3.18.7)"),
    ("en", "by the current Buchholz coefficient (000 §3.18.7)"),
])
def test_the_team_swiss_program_is_chosen_by_its_name(
    make_tournament: Callable[..., Tournament], organizer_client: FlaskClient,
    locale: str, buchholz: str,
) -> None:
    tournament = make_tournament(players=4, system=TournamentSystem.TEAM)
    assert organizer_client.post("/locale", data={"locale": locale}).status_code == 302
    page = organizer_client.get(f"/tournaments/{tournament.code}/rounds").get_data(as_text=True)
    selector = re.search(r'<select id="team_pairing_system"[^>]*>(.*?)</select>', page, re.S)
    assert selector is not None
    assert f'<option value="buchholz">{buchholz}</option>' in selector[1]
    labels = re.findall(r"<option[^>]*>(.*?)</option>", selector[1])
    assert not {system.value for system in PairingSystem} & set(labels)
    if locale == "ru":
        for label in labels:
            assert not ENGLISH.search(label), label


@pytest.mark.parametrize(("locale", "refusal"), [
    ("ru", "командной швейцарской системе нужна программа жеребьёвки: выберите одну из программ "
           "правил (000 §3.18.3)"),
    ("en", "a team Swiss needs its pairing program: choose one of the rulebook's programs "
           "(000 §3.18.3)"),
])
def test_a_team_swiss_without_its_program_is_refused_in_words(
    make_tournament: Callable[..., Tournament], organizer_client: FlaskClient,
    database: Database, locale: str, refusal: str,
) -> None:
    tournament = make_tournament(players=4, system=TournamentSystem.TEAM)
    assert organizer_client.post("/locale", data={"locale": locale}).status_code == 302
    page = organizer_client.post(f"/tournaments/{tournament.code}/rounds/rules", data={
        "team_pairing": "swiss", "team_pairing_system": "", "team_schedule": "boards",
    }, follow_redirects=True).get_data(as_text=True)
    flashed = [html.unescape(text) for text in
               re.findall(r"<p class=\"flash error\" role=\"alert\">(.*?)</p>", page, re.S)]
    assert flashed == [f"{tournament.code}: {refusal}"], flashed
    with database.session() as session:
        stored = session.scalar(select(RoundRules.team_pairing)
                                .where(RoundRules.tournament_id == tournament.id))
        assert stored in (None, TeamPairing.ROUND_ROBIN)


#: One refusal of every form the engine writes when no legal pairing exists (engine.py,
#: redraw.py), as `corrmail.rounds` passes it on.
NO_PAIRING = [
    "round 3: no legal pairing: odd number of players and every one has already had a point "
    "without play (000 §3.18.2)",
    "round 2: no legal pairing: player(s) [1, 2] cannot meet anyone: every other player already "
    "met (000 §3.18.2) or no colour within the limits (000 §3.18.2, 002)",
    "round 2: no legal pairing: players [1, 2] have no legal opponent left (000 §3.18.2, 002)",
    "round 4: no legal pairing: players [1, 2, 3] may meet only one another (in blocks of odd "
    "size) or the 1 player(s) [5], too few for them, so one is left over (never the same pair "
    "twice, colour limits: 000 §3.18.2, 002) whoever of [4, 6] takes the bye (000 §3.18.2: "
    "never a second point without play)",
    "round 2: no legal pairing: the players [3, 4] cannot be paired again without breaking "
    "000 §3.18.2",
]


@pytest.mark.parametrize("detail", NO_PAIRING)
def test_every_no_legal_pairing_reads_in_russian(app: Flask, detail: str) -> None:
    from corrmail.rounds.refusals import ENGINE
    from corrmail.rounds.swiss import RoundRefused
    from corrmail.web.refusals import refusal_text

    refused = RoundRefused("ШВ-1", ENGINE, "000 §3.18.3", detail=detail)
    with app.test_request_context(), force_locale("ru"):
        russian = refusal_text(refused)
    assert russian.startswith("ШВ-1: программа жеребьёвки отказывает: тур ")
    assert not ENGLISH.search(russian), russian
    with app.test_request_context(), force_locale("en"):
        english = refusal_text(refused)
    assert english == str(refused).replace("[", "").replace("]", "")

