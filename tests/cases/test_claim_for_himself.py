"""A player claims an overstep for himself, against his partner (002 §4.3.6): his side comes from
who is logged in, never from the form. His form offers no side; a forged one is refused and
nothing is stored. An official filing a postal claim names the side."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import func, select

from corrmail.models import AuditEntry, Case, GameState, OutboxMessage
from tests.cases.test_overstep_claims import LATE
from tests.cases.test_russian_pages import _visible

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

CLAIM_DAY = dt.date(2026, 11, 25)


def _stored(cup: Cup) -> tuple[int, int, int, GameState]:
    """What a claim would store: cases, outbox rows, audit entries, the game's state."""
    with cup.database.session() as session:
        return (session.scalar(select(func.count()).select_from(Case)) or 0,
                session.scalar(select(func.count()).select_from(OutboxMessage)) or 0,
                session.scalar(select(func.count()).select_from(AuditEntry)) or 0,
                cup.game(session, 1, 6).state)


def _localized(cup: Cup, who: str, locale: str) -> None:
    with cup.client(who).session_transaction() as session:
        session["locale"] = locale


@pytest.fixture
def late_game(cup: Cup, set_today) -> int:
    """Game 1 (White) — 6 (Black), Black's reply 76 days late."""
    cup.play(1, 6, LATE)
    set_today(CLAIM_DAY)
    return cup.games[(1, 6)]


def test_the_players_forms_offer_no_side(cup: Cup, late_game: int) -> None:
    preview = cup.client("player1").get(
        f"/cases/new/{cup.code}/overstep/preview?game={late_game}").data.decode()
    assert 'name="overstep-game"' in preview
    assert "overstep-claimant" not in preview
    # The preview names him as the claimant: the side he plays.
    assert "Player 1.1 (" in _visible(preview)
    opening = cup.client("player1").get(f"/cases/new/{cup.code}").data.decode()
    assert 'name="overstep-game"' in opening and "overstep-claimant" not in opening
    # An official filing a postal claim chooses the side.
    assert 'name="overstep-claimant"' in cup.client("steward").get(
        f"/cases/new/{cup.code}").data.decode()


def test_the_claim_is_for_the_side_he_plays(cup: Cup, late_game: int) -> None:
    # Black posts no side (his form has none): the claim is Black's, not the form's default.
    location = cup.post("player6", f"/cases/new/{cup.code}/overstep", **{
        "overstep-game": late_game, "overstep-letter": "Заявляю о просрочке."})
    with cup.database.session() as session:
        row = session.scalars(select(Case)).one()
        assert row.payload["claimant"] == "black"  # player 6 plays Black in game 1 — 6
        assert location.endswith(f"/cases/{row.id}")


@pytest.mark.parametrize("locale, refusal", [
    ("en", "claim an overstep: only the claimant himself, on his own side: a player claims an "
           "overstep only for himself, against his partner may do this (002 §4.3.6)"),
    ("ru", "сам заявитель за свою сторону: игрок заявляет о просрочке только от своего имени, "
           "против своего партнёра"),
])
def test_a_forged_side_is_refused_and_nothing_is_stored(
        cup: Cup, late_game: int, locale: str, refusal: str) -> None:
    before = _stored(cup)
    _localized(cup, "player6", locale)
    # Black posts White's side: a claim "by" his partner against himself.
    forged = cup.client("player6").post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": late_game, "overstep-claimant": "white"})
    assert forged.status_code == 403
    assert refusal in _visible(forged.data.decode())
    assert "002 §4.3.6" in _visible(forged.data.decode())
    # A side that is neither colour is a forged form.
    nonsense = cup.client("player6").post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": late_game, "overstep-claimant": "purple"})
    assert nonsense.status_code == 400
    assert _stored(cup) == before
    assert before[0] == 0 and before[3] is GameState.IN_PLAY


@pytest.mark.parametrize("locale, refusal", [
    ("en", "choose the claimant's side (002 §4.3.6)"),
    ("ru", "выберите сторону заявителя (002 §4.3.6)"),
])
def test_an_official_names_the_side(cup: Cup, late_game: int, locale: str, refusal: str) -> None:
    before = _stored(cup)
    _localized(cup, "steward", locale)
    missing = cup.client("steward").post(f"/cases/new/{cup.code}/overstep",
                                         data={"overstep-game": late_game})
    assert missing.status_code == 422
    assert refusal in _visible(missing.data.decode())
    assert _stored(cup) == before
    cup.post("steward", f"/cases/new/{cup.code}/overstep", **{
        "overstep-game": late_game, "overstep-claimant": "white",
        "overstep-held_move": "d4-c5"})
    with cup.database.session() as session:
        assert session.scalars(select(Case)).one().payload["claimant"] == "white"
