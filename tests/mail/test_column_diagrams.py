"""Column draughts (Bashni) letters and case evidence carry a board diagram drawn from the
tournament's rule options (002 §4.1.4; docs/rules/columns.md)."""

from __future__ import annotations

import datetime as dt
from email import policy
from email.parser import BytesParser

import pytest
from sqlalchemy import select

from corrmail.bulletins.asof import AsOfGameView
from corrmail.bulletins.build import short_record
from corrmail.games.view import GameView
from corrmail.models import Game, GameType, Tournament
from corrmail.referee.evidence import board_diagram, game_evidence
from notation.columns import ColumnPosition, ColumnRules, RuleOptionError
from notation.rules import GameType as BoardType

D = dt.date(2026, 3, 2)


def make_column_game(email_game, game_type: GameType, options: dict[str, str] | None) -> None:  # type: ignore[no-untyped-def]
    with email_game.database.transaction() as session:
        tournament = session.scalars(select(Tournament)).one()
        tournament.game_type = game_type
        tournament.rule_options = options


def svg_attachments(raw: bytes) -> list[str]:
    message = BytesParser(policy=policy.default).parsebytes(raw)
    return [part.get_content() if isinstance(part.get_content(), str)
            else part.get_content().decode()
            for part in message.walk() if part.get_content_type() == "image/svg+xml"]


def play_opening(email_game) -> None:  # type: ignore[no-untyped-def]
    """1. c3-d4 f6-e5 2. d4:f6: White's capture builds a column on f6 (black man under white)."""
    assert email_game.send("white", "1. c3-d4", D).outcome == "move_relayed"
    assert email_game.send("black", "1. c3-d4 f6-e5", D + dt.timedelta(days=2)).outcome == \
        "move_relayed"
    assert email_game.send("white", "1... f6-e5\n2. d4:f6", D + dt.timedelta(days=4)).outcome == \
        "move_relayed"


def test_a_bashni_letter_carries_the_columns_diagram(email_game) -> None:  # type: ignore[no-untyped-def]
    make_column_game(email_game, GameType.COLUMN_RUSSIAN, None)
    play_opening(email_game)
    last = email_game.outbox(to=email_game.black_email, kind="move")[-1]
    [svg] = svg_attachments(last.raw)
    assert 'data-square="f6" data-column="bw"' in svg
    assert "f6: bw (bottom to top)" in svg


def test_case_evidence_and_bulletin_record_draw_a_bashni_game(email_game) -> None:  # type: ignore[no-untyped-def]
    make_column_game(email_game, GameType.COLUMN_RUSSIAN, {"rejump": "allowed"})
    play_opening(email_game)
    with email_game.database.session() as session:
        game = session.scalars(select(Game)).one()
        svg = board_diagram(game)
        assert svg is not None and 'data-square="f6" data-column="bw"' in svg
        assert game_evidence(game).board_svg == svg
        record, moves, diagram = short_record(AsOfGameView(game))
        assert record.startswith("1.") and moves == 2 and diagram is not None and 'data-column="bw"' in diagram


def test_the_tournament_rule_options_reach_the_replay(email_game) -> None:  # type: ignore[no-untyped-def]
    make_column_game(email_game, GameType.COLUMN_RUSSIAN, {"rejump": "allowed"})
    with email_game.database.session() as session:
        start = GameView(session.scalars(select(Game)).one()).start
    assert isinstance(start, ColumnPosition)
    assert start.rules == ColumnRules.of(BoardType.COLUMN_RUSSIAN, {"rejump": "allowed"})


def test_an_option_notation_refuses_leaves_no_diagram(email_game) -> None:  # type: ignore[no-untyped-def]
    make_column_game(email_game, GameType.COLUMN_RUSSIAN, {"rejump": "sometimes"})
    with email_game.database.session() as session:
        game = session.scalars(select(Game)).one()
        with pytest.raises(RuleOptionError):
            GameView(game).start  # noqa: B018
        assert board_diagram(game) is None
