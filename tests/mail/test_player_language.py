"""Each player's own letter language (002 §4.3.2 start sheet, §4.2.3 moves, refusals): every
letter to him is worded in it, whoever's action wrote it, and a refusal names no internal code."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from sqlalchemy import select

from corrmail.letters.scheduled import Schedule
from corrmail.models import Game, Participant, Player, Tournament, User
from corrmail.people.accounts import AccountRefused, set_letter_language

D = dt.date(2026, 3, 2)

#: What an internal code looks like when it leaks into a letter: «one_move», «impossible:illegal».
RAW_CODE = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+:[a-z_]+\b|\[[a-z_]+\]")


def _speaks(email_game, side: str, language: str) -> None:  # type: ignore[no-untyped-def]
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        participant = game.white if side == "white" else game.black
        participant.player.language = language


def test_a_player_without_a_login_gets_his_start_sheet_in_his_language(email_game) -> None:  # type: ignore[no-untyped-def]
    _speaks(email_game, "black", "en")
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        assert session.scalar(select(User).where(User.player_id == game.black.player_id)) is None
        tournament = session.get(Tournament, game.tournament_id)
        Schedule(email_game.writer).send_start_sheets(session, tournament)
    [english] = email_game.outbox(to=email_game.black_email, kind="start_sheet")
    [russian] = email_game.outbox(to=email_game.white_email, kind="start_sheet")
    assert "start sheet" in english.subject and "Your games:" in english.body_text
    assert "стартовый лист" in russian.subject.lower()


def test_the_partners_move_reaches_each_player_in_his_own_language(email_game) -> None:  # type: ignore[no-untyped-def]
    _speaks(email_game, "black", "en")
    email_game.send("white", "1. c3-d4", D)
    [relay] = email_game.outbox(to=email_game.black_email, kind="move")
    assert "c3-d4" in relay.body_text
    assert "Dear" in relay.body_text and "Здравствуйте" not in relay.body_text
    email_game.send("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=3))
    [back] = email_game.outbox(to=email_game.white_email, kind="move")
    assert "Здравствуйте" in back.body_text


BAD_LETTERS = [
    "добрый день",  # no move of his own (002 §4.2.3)
    "1. cd4",  # short notation (002 §4.2.2)
    "1. c3-e5",  # an impossible move (002 §4.2.10)
    "1. c3-d4 ничью принимаю",  # no draw was offered (002 §4.2.3)
    "Беру перерыв с 40.03.26 по 14.03.26",  # a break in the wrong words (002 §4.4.3)
]


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("text", BAD_LETTERS)
def test_a_refusal_is_worded_in_his_language_with_its_rule_and_no_code(
    email_game, language: str, text: str,  # type: ignore[no-untyped-def]
) -> None:
    _speaks(email_game, "white", language)
    email_game.send("white", text, D)
    answers = [m for m in email_game.outbox(to=email_game.white_email)]
    assert answers, text
    for answer in answers:
        body = answer.subject + "\n" + answer.body_text
        assert "002 §4." in body, body
        assert not RAW_CODE.findall(body.replace(email_game.white_email, "")), body
        if language == "en":
            assert "Dear" in body, body
        else:
            assert "Здравствуйте" in body, body


def test_letter_language_is_refused_outside_russian_and_english(email_game) -> None:  # type: ignore[no-untyped-def]
    with email_game.database.transaction() as session:
        player = session.scalars(select(Player).order_by(Player.id)).first()
        assert player is not None
        with pytest.raises(AccountRefused) as refused:
            set_letter_language(session, player, "de", by=None)
        assert refused.value.code == "bad_language" and refused.value.values == {"language": "de"}
        set_letter_language(session, player, "en", by=None)
    with email_game.database.session() as session:
        stored = session.scalars(select(Player).order_by(Player.id)).first()
        assert stored is not None and stored.language == "en"


def test_a_new_player_reads_russian_until_told_otherwise(email_game) -> None:  # type: ignore[no-untyped-def]
    with email_game.database.session() as session:
        assert {p.language for p in session.scalars(select(Player))} == {"ru"}
        assert session.scalars(select(Participant)).first() is not None



@pytest.mark.parametrize(("language", "words"), [
    ("en", "002 §4.2.7: a variant is announced but has no moves"),
    ("ru", "002 §4.2.7: вариант объявлен, но в нём нет ходов"),
])
def test_a_letter_not_understood_is_explained_in_his_language(
    email_game, language: str, words: str,  # type: ignore[no-untyped-def]
) -> None:
    _speaks(email_game, "white", language)
    email_game.send("white", "Вариант А:\n", D)
    [notice] = email_game.outbox(to=email_game.white_email)
    assert words in notice.body_text, notice.body_text
    if language == "ru":
        assert "announced" not in notice.body_text, "no English inside a Russian letter"
    assert not RAW_CODE.findall(notice.body_text.replace(email_game.white_email, ""))


@pytest.mark.parametrize(("language", "words"), [
    ("en", "On the tournament's website you log in as sedov:"),
    ("ru", "На сайте турнира вы входите под логином sedov:"),
])
def test_the_start_sheet_names_the_login_of_a_player_who_has_one(
    email_game, language: str, words: str,  # type: ignore[no-untyped-def]
) -> None:
    _speaks(email_game, "black", language)
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        account = User(login="sedov", display_name="Седов", player_id=game.black.player_id)
        account.set_password("x" * 12)
        session.add(account)
        Schedule(email_game.writer).send_start_sheets(session, game.tournament)
    [with_login] = email_game.outbox(to=email_game.black_email, kind="start_sheet")
    [without] = email_game.outbox(to=email_game.white_email, kind="start_sheet")
    assert words in with_login.body_text
    assert "логином" not in without.body_text and "log in as" not in without.body_text
