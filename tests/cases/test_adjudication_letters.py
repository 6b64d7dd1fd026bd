"""The letters of an adjudication in a mixed-channel game (002 §4.5.5–4.5.6): one protest right,
computed by the case, told identically to every recipient; every player told the result where
his game letters go (002 §4.1.1); "differs from your assessment" only to a player who sent one."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import Case, Channel, GameResult, OutboxMessage, Participant, User

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)
FORWARD = "Письмо для игрока {}, играющего по почте или по телефону"


def _channels(cup: Cup, channels: dict[int, Channel]) -> None:
    with cup.database.transaction() as session:
        for participant in session.scalars(select(Participant).where(
                Participant.tournament_id == cup.tournament_id)):
            participant.player.language = "ru"
            if participant.start_number in channels:
                participant.channel = channels[participant.start_number]
        for user in session.scalars(select(User)):
            user.locale = "ru"


def _letters(cup: Cup, case_id: int) -> list[OutboxMessage]:
    with cup.database.session() as session:
        rows = list(session.scalars(select(OutboxMessage).where(
            OutboxMessage.case_id == case_id,
            OutboxMessage.kind.like("case.adjudication.result%")).order_by(OutboxMessage.id)))
        session.expunge_all()
        return rows


def test_every_letter_of_a_mixed_channel_adjudication_tells_the_same_protest_right(
        cup: Cup, set_today) -> None:
    web_game, postal_game = (1, 2), (3, 4)
    for pair in set(cup.games) - {web_game, postal_game}:
        cup.finish(*pair, GameResult.DRAW)
    # Web game: White by e-mail sends nothing, Black on the web assesses a win.
    # Postal game: White by post assesses a win, Black by telephone a draw.
    _channels(cup, {web_game[0]: Channel.EMAIL, web_game[1]: Channel.WEB,
                    postal_game[0]: Channel.POST, postal_game[1]: Channel.PHONE})
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        cases = {pair: session.scalars(select(Case.id).where(
            Case.game_id == cup.games[pair])).one() for pair in (web_game, postal_game)}
    set_today(END + dt.timedelta(days=2))
    cup.act(f"player{web_game[1]}", cases[web_game], "analysis", side="black",
            assessment="win", analysis="the man crowns")
    cup.act(f"player{postal_game[0]}", cases[postal_game], "analysis", side="white",
            assessment="win", analysis="+")
    cup.act(f"player{postal_game[1]}", cases[postal_game], "analysis", side="black",
            assessment="draw", analysis="=")
    set_today(END + dt.timedelta(days=11))
    cup.act("referee", cases[web_game], "decide", ruling="black_wins", reasons="black crowns")
    cup.act("referee", cases[postal_game], "decide", ruling="draw", reasons="equal material")

    # -- the web game ------------------------------------------------------------------------
    letters = _letters(cup, cases[web_game])
    by_to = {m.recipient: m for m in letters}
    assert sorted(by_to) == sorted([f"p1-{web_game[0]}@example.org",
                                    f"p1-{web_game[1]}@example.org", "steward@example.org"])
    assert len(letters) == 3  # nothing forwarded: both players read their own mail
    silent = by_to[f"p1-{web_game[0]}@example.org"]
    assert silent.kind == "case.adjudication.result"
    assert "отличается от вашей оценки" not in silent.body_text
    assert "Ваша оценка позиции не поступила (002 §4.5.2)" in silent.body_text
    assert "Права на протест нет: анализ в срок не прислан (002 §4.5.6)" in silent.body_text
    assert "Протест можно подать" not in silent.body_text
    matched = by_to[f"p1-{web_game[1]}@example.org"]
    assert matched.kind == "case.adjudication.result"
    assert "Результат совпадает с вашей оценкой позиции." in matched.body_text
    assert "Протест можно подать до 21.09.2027 включительно (002 §4.5.6)" in matched.body_text
    steward = by_to["steward@example.org"]
    assert "Протест (чёрные): до 21.09.2027 включительно (002 §4.5.6)" in steward.body_text
    assert "Протест (белые)" not in steward.body_text
    assert "Права на протест нет ни у одного" not in steward.body_text

    # -- the postal game: both players' letters go to the steward to post -------------------
    letters = _letters(cup, cases[postal_game])
    assert {m.recipient for m in letters} == {"steward@example.org"}
    white_name, black_name = (f"Player 1.{n}" for n in postal_game)
    for_white = [m for m in letters if FORWARD.format(white_name) in m.body_text]
    for_black = [m for m in letters if FORWARD.format(black_name) in m.body_text]
    own = [m for m in letters if "Письмо для игрока" not in m.body_text]
    assert len(for_white) == len(for_black) == len(own) == 1
    assert for_white[0].kind == "case.adjudication.result_differs"
    assert "Результат отличается от вашей оценки позиции (002 §4.5.5)" in for_white[0].body_text
    assert for_black[0].kind == "case.adjudication.result"
    assert "Результат совпадает с вашей оценкой позиции." in for_black[0].body_text
    for letter in (for_white[0], for_black[0]):
        assert "Протест можно подать до 21.09.2027 включительно (002 §4.5.6)" in letter.body_text
    assert "Протест (белые): до 21.09.2027 включительно" in own[0].body_text
    assert "Протест (чёрные): до 21.09.2027 включительно" in own[0].body_text

    # The page shows the same right the letters told.
    page = cup.client("referee").get(f"/cases/{cases[web_game]}").data.decode()
    assert 'data-party="black" data-due="2027-09-21"' in page
    assert 'data-party="white"' not in page.split('id="protest-windows"')[1].split("</ul>")[0]


def test_the_game_page_names_a_decided_case_by_its_state(cup: Cup, set_today) -> None:
    """A decided case, still open for protests, is not called "open" (Открытое дело: … решено)."""
    pair = (1, 2)
    for other in set(cup.games) - {pair}:
        cup.finish(*other, GameResult.DRAW)
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        case_id = session.scalars(select(Case.id)).one()
    client = cup.client("referee")
    with client.session_transaction() as session:
        session["locale"] = "ru"
    page = client.get(f"/games/{cup.games[pair]}").data.decode()
    assert "Дело в производстве" in page and "Открытое дело" not in page
    set_today(END + dt.timedelta(days=11))
    cup.act("referee", case_id, "decide", ruling="draw", reasons="equal material")
    page = client.get(f"/games/{cup.games[pair]}").data.decode()
    assert "Решённое дело" in page
    assert "Открытое дело" not in page and "Дело в производстве" not in page
