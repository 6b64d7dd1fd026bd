"""The time ledger a game object keeps between the intake's relayed letter and the stored state's
replay at commit (:meth:`corrmail.games.view.GameView.ledger`): the same ledger while nothing it
reads changed, a new one as soon as something did — flushed or not."""

from __future__ import annotations

import datetime as dt

from corrmail import audit
from corrmail.games.view import GameView, load_mail_game
from corrmail.models import Break, InboundStatus


def test_the_kept_ledger_stands_until_something_it_reads_changes(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "1. c3-d4", dt.date(2026, 3, 2))
    assert receipt.status is InboundStatus.PROCESSED, receipt
    with email_game.database.transaction() as session:
        game = load_mail_game(session, email_game.game_id)
        assert game is not None
        first = GameView(game).ledger()
        assert GameView(game).ledger() is first
        chart = GameView(game).chart_of(first)
        assert GameView(game).chart() is chart

        # The audit log is no input of a ledger: written and flushed, the ledger stands.
        audit.record(session, user=None, action="test.note", entity="game", entity_id=game.id)
        assert GameView(game).ledger() is first
        session.flush()
        assert GameView(game).ledger() is first

        # A change not yet flushed is read at once...
        end = dt.date(2026, 12, 31)
        game.tournament.end_date = end
        pending = GameView(game).ledger()
        assert pending is not first and pending.end_date == end
        # ...and after its flush too.
        session.flush()
        flushed = GameView(game).ledger()
        assert flushed is not first and flushed.end_date == end

        # A break added (its own row, flushed) is in the next ledger.
        session.add(Break(participant_id=game.white_id, start_date=dt.date(2026, 4, 1),
                          end_date=dt.date(2026, 4, 10), announced_on=dt.date(2026, 3, 5)))
        session.flush()
        session.refresh(game.white, ["breaks"])
        with_break = GameView(game).ledger()
        assert with_break is not flushed
        assert len(with_break.breaks) == len(flushed.breaks) + 1

        # Raw SQL through the session may write anything: nothing kept survives it.
        kept = GameView(game).ledger()
        assert GameView(game).ledger() is kept
        from sqlalchemy import text

        session.execute(text("UPDATE tournaments SET title = title"))
        assert GameView(game).ledger() is not kept

        # Penalties voided by a view are part of what a kept ledger is for.
        assert GameView(game, void_penalties_of=frozenset({-1})).ledger() is not GameView(
            game).ledger()
        session.rollback()


def test_a_view_reading_the_game_its_own_way_keeps_nothing(email_game) -> None:  # type: ignore[no-untyped-def]
    """A subclass (the bulletin's view as of a date) overrides what the ledger reads: it never
    takes or leaves a kept ledger."""
    from corrmail.bulletins.asof import AsOfGameView

    email_game.send("white", "1. c3-d4", dt.date(2026, 3, 2))
    with email_game.database.transaction() as session:
        game = load_mail_game(session, email_game.game_id)
        assert game is not None
        plain = GameView(game).ledger()
        assert len(plain.letters) == 1
        # Before the letter was sent: a ledger without it, not the one the game object keeps.
        assert AsOfGameView(game, as_of=dt.date(2026, 3, 1)).ledger().letters == ()
        assert GameView(game).ledger() is plain
        session.rollback()
