"""100-square (international) draughts and Lasca played by e-mail (002 §4.1.4): letters in
numeric notation (``32-28``, ``19:28``; Lasca ``9-13``, ``17:9``) are read in the notation of the
tournament's game type, a variant is applied, and a resignation ends the game. Dates, clock
times and time fractions in the same letters are not taken for moves."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from corrmail.models import GameType, Tournament

D = dt.date(2026, 3, 2)


def set_game_type(email_game, game_type: GameType) -> None:  # type: ignore[no-untyped-def]
    with email_game.database.transaction() as session:
        session.scalars(select(Tournament)).one().game_type = game_type


def day(offset: int) -> dt.date:
    return D + dt.timedelta(days=offset)


def test_an_international_game_by_email(email_game) -> None:  # type: ignore[no-untyped-def]
    set_game_type(email_game, GameType.INTERNATIONAL)
    letters = [
        ("white", 0, "Здравствуйте! Старт получил 01.03.2026.\n1. 32-28"),
        ("black", 2, "Получил 04.03.26 в 18:30, время 0/2.\n1. 32-28 19-23"),
        ("white", 4, "1... 19-23 2. 28:19\nЕсли 2... 14:23, то 3. 37-32"),
        ("black", 6, "2. 28:19 14:23\nС уважением, Сидоров. Индекс 630090, д. 12-4."),
    ]
    for side, offset, text in letters:
        receipt = email_game.send(side, text, day(offset))
        assert receipt.outcome == "move_relayed", (text, receipt.detail)

    to_white = email_game.outbox(to=email_game.white_email, kind="move")
    to_black = email_game.outbox(to=email_game.black_email, kind="move")
    assert "1. 32-28" in to_black[0].body_text
    assert "Если 2... 14:23, то 3. 37-32" in to_black[1].body_text
    # Black's 2... 14:23 met White's variant: White's prepared 3. 37-32 went out at once.
    variant_letter = to_white[-1]
    assert "Ответ партнёра: 2... 14:23" in variant_letter.body_text
    assert "По вашему варианту сделан ваш заготовленный ответ: 3. 37-32" in variant_letter.body_text

    game = email_game.game()
    plies = [ply for letter in game.letters for ply in letter.moves_text.split()]
    assert plies == ["32-28", "19-23", "28:19", "14:23", "37-32"]

    receipt = email_game.send("black", "Сдаюсь. Спасибо за партию, 10.03.2026.", day(8))
    assert receipt.outcome == "resigned"
    game = email_game.game()
    assert str(game.result) == "white_win"


def test_an_international_move_in_algebraic_squares(email_game) -> None:  # type: ignore[no-untyped-def]
    """On 10×10 the a–j names are read as well: d4 is 32, c5 is 27 (002 §4.2.2)."""
    set_game_type(email_game, GameType.INTERNATIONAL)
    receipt = email_game.send("white", "1. d4-c5", day(0))
    assert receipt.outcome == "move_relayed"
    assert [letter.moves_text for letter in email_game.game().letters] == ["32-27"]


def test_dates_and_times_alone_are_no_move(email_game) -> None:  # type: ignore[no-untyped-def]
    set_game_type(email_game, GameType.INTERNATIONAL)
    receipt = email_game.send(
        "white", "Ваше письмо от 10.10.97 получил в 18:30, время 12/7. Беру паузу с 7-12 марта.",
        day(0),
    )
    assert receipt.outcome != "move_relayed"
    assert all(not letter.moves_text for letter in email_game.game().letters)


def test_a_lasca_game_by_email(email_game) -> None:  # type: ignore[no-untyped-def]
    set_game_type(email_game, GameType.COLUMN_INTERNATIONAL)
    letters = [
        ("white", 0, "1. 9-13"),
        ("black", 2, "1. 9-13 17:9\nВремя 0/2, получено 04.03.2026."),
        ("white", 4, "1... 17:9 2. 5:13\nНа 2... 16-12 предлагаю 3. 8:16"),
        ("black", 6, "2. 5:13 16-12"),
    ]
    for side, offset, text in letters:
        receipt = email_game.send(side, text, day(offset))
        assert receipt.outcome == "move_relayed", (text, receipt.detail)

    to_white = email_game.outbox(to=email_game.white_email, kind="move")
    assert "По вашему варианту сделан ваш заготовленный ответ: 3. 8:16" in to_white[-1].body_text
    game = email_game.game()
    plies = [ply for letter in game.letters for ply in letter.moves_text.split()]
    assert plies == ["9-13", "17:9", "5:13", "16-12", "8:16"]

    assert email_game.send("black", "Партию сдаю.", day(8)).outcome == "resigned"
    assert str(email_game.game().result) == "white_win"


def test_a_numbered_impossible_move_is_judged_not_ignored(email_game) -> None:  # type: ignore[no-untyped-def]
    """«1. 32-29» goes nowhere a piece can go: it is read as the move meant and refused as
    impossible with the rule (002 §4.2.10), never taken for a date and ignored."""
    set_game_type(email_game, GameType.INTERNATIONAL)
    receipt = email_game.send("white", "1. 32-29", day(0))
    assert receipt.outcome.startswith("impossible"), receipt.outcome
    [notice] = email_game.outbox(to=email_game.white_email, kind="error_notice")
    assert "32-29" in notice.body_text and "4.2.10" in notice.body_text


def test_an_international_draw_offer_accepted(email_game) -> None:  # type: ignore[no-untyped-def]
    set_game_type(email_game, GameType.INTERNATIONAL)
    assert email_game.send("white", "1. 32-28\nПредлагаю ничью.", day(0)).outcome == \
        "move_relayed"
    assert email_game.send("black", "Согласен на ничью. 04.03.2026", day(2)).outcome == \
        "draw_agreed"
    assert str(email_game.game().result) == "draw"
