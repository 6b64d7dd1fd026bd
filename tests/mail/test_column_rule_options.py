"""A column-draughts tournament is created with its rule options, which every replay of its
games then uses; options notation does not know, or options of a game without any, are refused."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest

from corrmail.db import Database
from corrmail.models import GameType, TournamentChannel, TournamentSystem
from corrmail.tournaments.registration import (
    RegistrationError,
    TournamentSpec,
    create_tournament,
    spec_of,
    update_tournament,
)

SPEC = TournamentSpec(
    code="БАШНИ-1", title="Башни", game_type=GameType.COLUMN_RUSSIAN,
    system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.EMAIL,
    start_date=dt.date(2027, 1, 1), end_date=dt.date(2028, 1, 1),
    rule_options=("rejump=allowed",),
)


def test_options_are_stored_shown_and_kept_by_a_form_without_them(db_url: str) -> None:
    database = Database(db_url)
    try:
        with database.transaction() as session:
            tournament = create_tournament(session, SPEC, None)
            assert tournament.rule_options == {"rejump": "allowed"}
            assert spec_of(tournament).rule_options == ("rejump=allowed",)
            # A form that posts no options (disabled once play began) leaves them as they are.
            update_tournament(session, tournament,
                              dataclasses.replace(SPEC, title="Башни-2027", rule_options=None),
                              None)
            assert tournament.rule_options == {"rejump": "allowed"}
            update_tournament(session, tournament, dataclasses.replace(SPEC, rule_options=()),
                              None)
            assert tournament.rule_options is None
    finally:
        database.dispose()


@pytest.mark.parametrize(("game_type", "options", "wording"), [
    (GameType.COLUMN_RUSSIAN, ("rejump=sometimes",), "rejump"),
    (GameType.COLUMN_RUSSIAN, ("rejump",), "NAME=VALUE"),
    (GameType.RUSSIAN, ("rejump=allowed",), "no rule options"),
])
def test_bad_options_are_refused(db_url: str, game_type: GameType, options: tuple[str, ...],
                                 wording: str) -> None:
    database = Database(db_url)
    try:
        with database.transaction() as session, pytest.raises(RegistrationError) as refused:
            create_tournament(session, dataclasses.replace(SPEC, game_type=game_type,
                                                           rule_options=options), None)
        [error] = refused.value.errors
        assert error.field == "rule_options" and wording in error.message  # type: ignore[union-attr]
    finally:
        database.dispose()
