"""Overstep claims by e-mail as a player writes them, and the letters that answer them
(002 §4.3.2, §4.3.5–4.3.6): a claim against a partner who never made his first move, a claim
against a silent partner counted as every page counts him, and refusals that stop nothing.
On SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update

from corrmail import games
from corrmail.models import Case, CaseType, Game, GameState
from corrmail.referee.store import load_case
from tests.mail.conftest import EmailGame

START = dt.date(2026, 3, 1)


def _claim(email_game: EmailGame) -> Case:
    with email_game.database.session() as session:
        case = session.scalars(select(Case).where(Case.case_type == CaseType.OVERSTEP_CLAIM)).one()
        session.expunge(case)
        return case


def _shown(email_game: EmailGame) -> bool | None:
    with email_game.database.session() as session:
        case = session.scalars(select(Case).where(Case.case_type == CaseType.OVERSTEP_CLAIM)).one()
        return load_case(session, case.id).case.chart_shows_overstep  # type: ignore[attr-defined, no-any-return]


def test_a_first_move_never_sent_can_be_claimed(email_game: EmailGame) -> None:
    """White's clock runs from the start (002 §4.3.2): 55 days without a first move are an
    overstep (002 §4.3.5) that Black may claim (002 §4.3.6), and the letters say so."""
    with email_game.database.transaction() as session:
        session.execute(update(Game).where(Game.id == email_game.game_id)
                        .values(state=GameState.NOT_STARTED))
    receipt = email_game.send("black", "Объявляю просрочку: первого хода нет с начала игры.",
                              START + dt.timedelta(days=55))
    assert receipt.outcome == "overstep_claimed", receipt
    assert email_game.game().state is GameState.SUSPENDED
    assert _shown(email_game) is True
    [ack] = email_game.outbox(to=email_game.black_email, kind="notice")
    assert "передано судье" in ack.subject
    assert "не сохранён" not in ack.body_text and "the claimant" not in ack.body_text
    [accused] = email_game.outbox(to=email_game.white_email, kind="case.overstep.claim_opened")
    assert ("Время партии по письмам и по дням, прошедшим до заявления, показывает просрочку "
            "(002 §4.3.5).") in accused.body_text
    assert "заявитель ждёт хода партнёра, своего ответного хода у него нет" in accused.body_text
    assert not email_game.outbox(kind="letter_refused")


def test_a_claim_against_a_silent_partner_reads_the_clock_the_pages_read(
    email_game: EmailGame,
) -> None:
    """Black received 1. c3-d4 and is silent for 60 days: over 50 (002 §4.3.5). The claimant
    cites his own move; it is not mistaken for a reply to hold (he holds none), and the case
    shows the overstep the game page shows."""
    email_game.send("white", "1. c3-d4", START + dt.timedelta(days=1))
    receipt = email_game.send(
        "white", "Объявляю просрочку: партнёр не ответил на ход 1. c3-d4 от 02.03.2026.",
        START + dt.timedelta(days=61))
    assert receipt.outcome == "overstep_claimed", receipt
    assert "reply not held" not in receipt.detail and "server chart agrees: True" in receipt.detail
    assert _shown(email_game) is True
    [ack] = email_game.outbox(to=email_game.white_email, kind="notice")
    assert "не сохранён" not in ack.body_text
    assert "продолжится с вашего хода" not in ack.body_text
    assert "c3-d4" not in _claim(email_game).payload.get("held_move", "")


def test_a_claim_before_the_limit_is_filed_and_says_the_time_shows_none(
    email_game: EmailGame,
) -> None:
    """Twenty silent days are no overstep: the claim still goes to the referee (he decides,
    002 §4.3.7), and the accused reads that the game's time shows none."""
    email_game.send("white", "1. c3-d4", START + dt.timedelta(days=1))
    receipt = email_game.send("white", "Объявляю просрочку.", START + dt.timedelta(days=21))
    assert receipt.outcome == "overstep_claimed"
    assert _shown(email_game) is False
    [accused] = email_game.outbox(to=email_game.black_email, kind="case.overstep.claim_opened")
    assert "не показывает просрочку (002 §4.3.5)" in accused.body_text


def test_a_claimed_game_never_begun_resumes_not_begun(email_game: EmailGame) -> None:
    """If the referee finds no overstep, play goes on where it stood: a game with no move is
    not begun again, not «in play»."""
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        games.suspend_play(game)
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        games.resume_play(game)
    assert email_game.game().state is GameState.NOT_STARTED
    email_game.send("white", "1. c3-d4", START + dt.timedelta(days=2))
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        games.suspend_play(game)
        games.resume_play(game)
    assert email_game.game().state is GameState.IN_PLAY


def test_accepting_a_lapsed_draw_offer_is_refused_without_stopping_play(
    email_game: EmailGame,
) -> None:
    """White offered a draw with his first move; Black answered with a move, so the offer
    lapsed (docs/rules/mail.md 7). Black's later «принимаю ничью» is not taken: the letter says
    the offer lapsed and when it was made, that nothing changed and play goes on."""
    email_game.send("white", "1. c3-d4\nПредлагаю ничью.", START + dt.timedelta(days=1))
    email_game.send("black", "1. c3-d4 f6-g5", START + dt.timedelta(days=3))
    email_game.send("white", "1... f6-g5 2. g3-h4", START + dt.timedelta(days=5))
    receipt = email_game.send("black", "Принимаю ничью.", START + dt.timedelta(days=7))
    assert receipt.outcome == "no_draw_to_accept"
    [notice] = email_game.outbox(to=email_game.black_email, kind="notice")
    assert notice.subject == "ЗЧ-2026/3: ваше письмо не принято — в партии ничего не изменилось"
    assert ("002 §4.2.3: предложение ничьей из письма партнёра от 02.03.2026 больше не действует: "
            "вы ответили на него ходом, не приняв его") in notice.body_text
    assert "остановлена до исправления" not in notice.subject + notice.body_text
    assert "Пришлите исправление" not in notice.body_text
    assert "Игра не остановлена, штрафа нет" in notice.body_text
    game = email_game.game()
    assert game.state is GameState.IN_PLAY and len(game.letters) == 3


def test_accepting_a_draw_never_offered_says_so_and_stops_nothing(email_game: EmailGame) -> None:
    email_game.send("white", "1. c3-d4", START + dt.timedelta(days=1))
    receipt = email_game.send("black", "Принимаю ничью.", START + dt.timedelta(days=3))
    assert receipt.outcome == "no_draw_to_accept"
    [notice] = email_game.outbox(to=email_game.black_email, kind="notice")
    assert "ваше письмо не принято" in notice.subject
    assert "002 §4.2.3: партнёр не предлагал ничью" in notice.body_text
    assert not email_game.outbox(kind="error_notice")
    assert email_game.game().state is GameState.IN_PLAY
