"""The referee's desk refuses what the file does not bear, shows the figures, and words every
refusal in the reader's language (002 §4.3.5–4.3.8, §4.5.4–4.5.6)."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import Case, GameResult, GameState, OutboxMessage
from tests.cases.conftest import delivered
from tests.cases.test_overstep_claims import IN_TIME, LATE, claim
from tests.cases.test_russian_pages import _visible

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)
#: An English sentence of the package's or the desk's own messages, as a refusal used to show it.
RAW_ENGLISH = re.compile(r"\b(cannot|only the|may do this|give the reasons|is out of time|"
                         r"claim the recomputed|CUP-1/)\b")


def _post(cup: Cup, who: str, url: str, locale: str, **data: object) -> tuple[int, str]:
    client = cup.client(who)
    with client.session_transaction() as session:
        session["locale"] = locale
    response = client.post(url, data=data)
    return response.status_code, _visible(response.data.decode())


def _state(cup: Cup, case_id: int) -> tuple[int, str]:
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        return row.revision, row.state


# -- an overstep the chart does not show (002 §4.3.7) ----------------------------------------


def test_confirming_an_overstep_the_chart_does_not_show_is_refused_with_the_figures(
        cup: Cup, set_today) -> None:
    cup.play(1, 6, IN_TIME)  # Black replied in 15 days: no overstep
    set_today(dt.date(2026, 9, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    set_today(dt.date(2026, 10, 6))  # the accused's ten days have passed
    # The case page shows the figures the referee decides against.
    referee = cup.client("referee")
    with referee.session_transaction() as session:
        session["locale"] = "ru"
    page = _visible(referee.get(f"/cases/{case_id}").data.decode())
    assert "чёрные на 25.09.2026: затрачено 15 из 50 дней, осталось 35" in page, page
    assert "Чтобы засчитать просрочку вопреки этим цифрам, укажите обоснование" in page
    status, text = _post(cup, "referee", f"/cases/{case_id}/decide", "ru",
                         revision=0, ruling="confirmed")
    assert status == 422
    assert ("график времени на 25.09.2026 не показывает просрочки у стороны «чёрные»: "
            "затрачено 15 из 50 дней, осталось 35 (002 §4.3.5)") in text, text
    assert not RAW_ENGLISH.search(text)
    status, english = _post(cup, "referee", f"/cases/{case_id}/decide", "en",
                            revision=0, ruling="confirmed")
    assert status == 422
    assert "the time chart shows no overstep by black on 25.09.2026: 15 of 50 days" in english
    with cup.database.session() as session:
        assert cup.game(session, 1, 6).result is None
    assert _state(cup, case_id) == (0, "awaiting_decision")
    # The explicit override: with the referee's reasons the decision is taken.
    status, _text = _post(cup, "referee", f"/cases/{case_id}/decide", "ru", revision=0,
                          ruling="confirmed",
                          reasons="открытка с ходом f6-g5 отправлена 20.11, штемпель приложен")
    assert status == 303
    with cup.database.session() as session:
        game = cup.game(session, 1, 6)
        assert game.result is GameResult.WHITE_WIN and game.state is GameState.FINISHED


def test_the_desk_reads_the_chart_again_instead_of_the_claims_stale_reading(
        cup: Cup, set_today) -> None:
    cup.play(1, 6, IN_TIME)
    set_today(dt.date(2026, 9, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    with cup.database.transaction() as session:
        row = cup.case_row(session, case_id)
        # A stored reading that says "overstep" where the letters show none.
        row.payload = {**row.payload, "chart_shows_overstep": True}
    set_today(dt.date(2026, 10, 6))
    status, text = _post(cup, "referee", f"/cases/{case_id}/decide", "en",
                         revision=0, ruling="confirmed")
    assert status == 422
    assert "shows no overstep by black" in text
    assert _state(cup, case_id) == (0, "awaiting_decision")


def test_rejecting_an_overstep_the_chart_shows_needs_reasons_too(cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)  # Black's reply took 76 days
    set_today(dt.date(2026, 11, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    status, text = _post(cup, "referee", f"/cases/{case_id}/decide", "ru",
                         revision=0, ruling="rejected")
    assert status == 422
    assert "показывает просрочку у стороны «чёрные»: затрачено 76 из 50 дней, осталось -26" \
        in text, text
    assert _state(cup, case_id) == (0, "awaiting_decision")


# -- the accused is told of a claim filed on the web (002 §4.3.6) --------------------------


def test_the_accused_is_told_of_a_web_claim_in_a_postal_tournament(cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white", held="d4-c5")
    with cup.database.session() as session:
        # The accused plays by post: the steward posts him the notice (002 §4.1.1).
        told = [m for m in session.scalars(select(OutboxMessage).where(
            OutboxMessage.case_id == case_id)) if delivered([m]) == [
                "steward@example.org → Player 1.6"]]
        assert [m.kind for m in told] == ["case.overstep.claim_opened"]
        # The same letter an e-mail game's claim sends, and the held reply stays hidden.
        assert "d4-c5" not in told[0].body_text
        # His ten days to protest, to the day (002 §4.3.8).
        assert "опротестовать заявление до 05.12.2026 включительно (002 §4.3.8)" in \
            told[0].body_text, told[0].body_text


def test_an_official_entering_a_postal_file_sends_the_accused_nothing(
        cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    # The claimant posted his registered notice himself (002 §4.3.6); the steward enters it.
    case_id = claim(cup, "steward", cup.games[(1, 6)], "white", held="d4-c5")
    with cup.database.session() as session:
        assert not list(session.scalars(select(OutboxMessage).where(
            OutboxMessage.case_id == case_id, OutboxMessage.recipient == "p1-6@example.org")))


# -- adjudications give reasons (002 §4.5.5) -------------------------------------------------


def _adjudication(cup: Cup, set_today, white_says: str = "win") -> int:
    for pair in sorted(cup.games)[1:]:
        cup.finish(*pair, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        found = session.scalars(select(Case.id)).one()
    white, black = sorted(cup.games)[0]
    set_today(END + dt.timedelta(days=2))
    cup.act(f"player{white}", found, "analysis", side="white", assessment=white_says,
            analysis="+")
    cup.act(f"player{black}", found, "analysis", side="black", assessment="draw", analysis="=")
    set_today(END + dt.timedelta(days=11))
    return found


def test_an_adjudication_without_reasons_is_refused_in_the_readers_language(
        cup: Cup, set_today) -> None:
    case_id = _adjudication(cup, set_today)
    before = _state(cup, case_id)
    for locale, wording in (("ru", "присуждение должно быть обосновано"),
                            ("en", "an adjudication gives the referee's reasons")):
        status, text = _post(cup, "referee", f"/cases/{case_id}/decide", locale,
                             revision=before[0], ruling="white_wins", reasons="   ")
        assert status == 422
        assert wording in text and "002 §4.5.5" in text, text
        assert not RAW_ENGLISH.search(text)
    assert _state(cup, case_id) == before  # nothing recorded
    status, _text = _post(cup, "referee", f"/cases/{case_id}/decide", "ru",
                          revision=before[0], ruling="white_wins", reasons="лишняя шашка белых проходит в дамки")
    assert status == 303
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert row.payload["decisions"][0]["reasons"] == "лишняя шашка белых проходит в дамки"


def test_the_players_agreed_result_is_its_own_reason(cup: Cup, set_today) -> None:
    case_id = _adjudication(cup, set_today, white_says="draw")
    status, _text = _post(cup, "referee", f"/cases/{case_id}/decide", "ru",
                          revision=cup.revision(case_id), ruling="draw")
    assert status == 303  # 002 §4.5.4: both said draw


# -- wrong inputs: a forged case, a closed case, a second decision ---------------------------


def test_forged_closed_and_repeated_decisions_are_refused_in_russian(
        cup: Cup, set_today) -> None:
    case_id = _adjudication(cup, set_today)
    status, _text = _post(cup, "referee", "/cases/999999/decide", "ru",
                          revision=0, ruling="draw")
    assert status == 404
    cup.act("referee", case_id, "decide", ruling="draw", reasons="равная позиция")
    status, text = _post(cup, "referee", f"/cases/{case_id}/decide", "ru",
                         revision=cup.revision(case_id), ruling="white_wins", reasons="x")
    assert status == 422
    assert "дело в состоянии «решено»: нельзя" in text, text
    assert not RAW_ENGLISH.search(text)
    set_today(END + dt.timedelta(days=30))
    cup.act("referee", case_id, "close")
    status, text = _post(cup, "referee", f"/cases/{case_id}/decide", "ru",
                         revision=cup.revision(case_id), ruling="white_wins", reasons="x")
    assert status == 422
    assert "дело закрыто: его окончательное решение в силе" in text, text
    assert not RAW_ENGLISH.search(text)
    # Someone who may not decide is told so in Russian, not in the desk's English.
    status, text = _post(cup, "steward", f"/cases/{case_id}/close", "ru",
                         revision=cup.revision(case_id))
    assert status == 403
    assert "это может только судья" in text, text


# -- the protest window after an adjudication (002 §4.5.6) -----------------------------------


def test_the_adjudications_protest_window_is_shown_kept_and_enforced(
        cup: Cup, set_today) -> None:
    case_id = _adjudication(cup, set_today)  # decided 11.09.2027: black's window to 21.09
    cup.act("referee", case_id, "decide", ruling="white_wins", reasons="лишняя шашка")
    white, black = sorted(cup.games)[0]
    client = cup.client(f"player{black}")
    with client.session_transaction() as session:
        session["locale"] = "ru"
    page = client.get(f"/cases/{case_id}").data.decode()
    assert 'data-party="black" data-due="2027-09-21" data-open="true"' in page
    assert "может подать протест до 21.09.2027 включительно" in _visible(page)
    assert f'action="/cases/{case_id}/protest"' in page
    with cup.database.session() as session:
        steward = [m for m in session.scalars(select(OutboxMessage).where(
            OutboxMessage.case_id == case_id, OutboxMessage.recipient == "steward@example.org"))
            if m.kind == "case.adjudication.result" and "перешлите его ему" not in m.body_text]
        # The steward, who forwards decisions to postal players, has each window in his copy.
        assert "Протест (чёрные): до 21.09.2027 включительно (002 §4.5.6)" in steward[0].body_text
        assert "Протест (белые): до 21.09.2027 включительно (002 §4.5.6)" in steward[0].body_text
        assert "Решение (судья, 11.09.2027)" in steward[0].body_text  # no raw "referee"
    # The day after the window: the page says so, offers no form, and a forged post is refused.
    set_today(END + dt.timedelta(days=22))
    page = client.get(f"/cases/{case_id}").data.decode()
    assert "срок протеста истёк 21.09.2027" in _visible(page)
    assert f'action="/cases/{case_id}/protest"' not in page
    revision = cup.revision(case_id)
    status, text = _post(cup, f"player{black}", f"/cases/{case_id}/protest", "ru",
                         revision=revision, party="black", grounds="это ничья")
    assert status == 422
    assert ("протест, отправленный 22.09.2027, опоздал: срок подачи истёк 21.09.2027 "
            "(002 §4.5.6)") in text, text
    assert cup.revision(case_id) == revision


# -- the Close page agrees with itself (002 §4.1.7) ------------------------------------------


def test_the_close_page_names_a_decided_case_decided_and_the_close_reads_the_same_list(
        cup: Cup, set_today) -> None:
    case_id = _adjudication(cup, set_today)
    cup.act("referee", case_id, "decide", ruling="white_wins", reasons="лишняя шашка")
    client = cup.client("organizer")
    with client.session_transaction() as session:
        session["locale"] = "ru"
    page = _visible(client.get(f"/tournaments/{cup.code}/close").data.decode())
    assert f"дело {case_id} (присуждение) решено, протест возможен до 21.09.2027" in page, page
    assert f"не решено дело {case_id}" not in page
    set_today(END + dt.timedelta(days=22))
    page = _visible(client.get(f"/tournaments/{cup.code}/close").data.decode())
    assert f"дело {case_id} (присуждение) решено окончательно: закройте его в делах судьи" \
        in page, page


# -- a claim from the game page, previewed before it is sent (002 §4.3.6) -------------------


def test_a_player_previews_his_claim_from_the_game_page_then_sends_it(
        cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    game_id = cup.games[(1, 6)]
    client = cup.client("player1")
    with client.session_transaction() as session:
        session["locale"] = "ru"
    game_page = client.get(f"/games/{game_id}").data.decode()
    preview_url = f"/cases/new/{cup.code}/overstep/preview?game={game_id}"
    assert preview_url.replace("&", "&amp;") in game_page or preview_url in game_page
    page = client.get(preview_url)
    assert page.status_code == 200
    text = _visible(page.data.decode())
    assert "чёрные на 25.11.2026: затрачено 76 из 50 дней, осталось -26 (002 §4.3.5)" in text
    assert "может опротестовать его до 05.12.2026" in text
    assert 'name="overstep-held_move"' in page.data.decode()  # White is to move: he holds it
    with cup.database.session() as session:
        assert session.scalars(select(Case)).all() == []  # the preview writes nothing
    sent = client.post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": game_id, "overstep-claimant": "white",
        "overstep-held_move": "d4-c5", "overstep-letter": "Заявляю о просрочке."})
    assert sent.status_code == 303, sent.data.decode()
    with cup.database.session() as session:
        row = session.scalars(select(Case)).one()
        assert row.payload["chart_shows_overstep"] is True
        assert row.payload["held_move"] == "d4-c5"
    # A second preview: the claim waits; the page says so and offers no form.
    again = client.get(preview_url)
    assert again.status_code == 409
    assert "уже ждёт решения судьи" in _visible(again.data.decode())
    assert 'id="claim-send"' not in again.data.decode()
    assert 'id="claim-overstep"' not in client.get(f"/games/{game_id}").data.decode()


def test_the_preview_warns_of_the_six_days_and_refuses_strangers_and_forged_games(
        cup: Cup, set_today) -> None:
    cup.play(1, 6, IN_TIME)
    set_today(dt.date(2026, 9, 25))
    game_id = cup.games[(1, 6)]
    status = cup.client("player6").get(
        f"/cases/new/{cup.code}/overstep/preview?game={game_id}")
    assert status.status_code == 200
    text = _visible(status.data.decode())
    # Black is not to move: he holds no reply; the chart shows no overstep by White.
    assert "6 штрафных дней" in text or "6 penalty days" in text
    assert 'name="overstep-held_move"' not in status.data.decode()
    # and so the warning does not speak of a held reply he never wrote.
    assert "задержанный ход" not in text and "held reply" not in text
    assert cup.client("player2").get(
        f"/cases/new/{cup.code}/overstep/preview?game={game_id}").status_code == 403
    assert cup.client("player1").get(
        f"/cases/new/{cup.code}/overstep/preview?game=999999").status_code == 404
    assert cup.client("player1").get(
        f"/cases/new/{cup.code}/overstep/preview").status_code == 404
