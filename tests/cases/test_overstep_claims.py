"""Overstep claims through the web (002 §4.3.6–4.3.8): confirmed, rejected with the penalty."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from sqlalchemy import select

from corrmail.models import Case, GameResult, GameState, Letter, Penalty, ResultKind
from tests.cases.conftest import delivered

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

LATE = [("c3-d4", dt.date(2026, 9, 1), None),
        ("f6-g5", dt.date(2026, 11, 20), dt.date(2026, 9, 5))]
IN_TIME = [("c3-d4", dt.date(2026, 9, 1), None),
           ("f6-g5", dt.date(2026, 9, 20), dt.date(2026, 9, 5))]


def claim(cup: Cup, who: str, game_id: int, claimant: str, held: str = "d4-c5") -> int:
    response = cup.client(who).post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": game_id, "overstep-claimant": claimant, "overstep-held_move": held,
        "overstep-evidence": ["offender_letters", "registered_receipts", "game_record",
                              "time_chart", "overstep_notice"],
        "overstep-letter": "Заявляю о просрочке.",
    })
    assert response.status_code == 303, response.data.decode()
    return int(response.headers["Location"].rsplit("/", 1)[1])


def test_player_claims_and_the_referee_confirms_after_the_ten_days(cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)  # round 1: 1 (white) — 6; black's reply took 76 days
    game_id = cup.games[(1, 6)]
    set_today(dt.date(2026, 11, 25))
    case_id = claim(cup, "player1", game_id, "white")
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert row.payload["chart_shows_overstep"] is True
        assert row.payload["held_move"] == "d4-c5"
        assert row.letter_text == "Заявляю о просрочке."
        assert row.game.state is GameState.SUSPENDED
        assert row.deadline == dt.date(2026, 12, 5)  # the accused's ten days (002 §4.3.8)
        # The accused plays by post: the steward posts him his notice (002 §4.1.1).
        assert delivered(cup.outbox(session, "case.overstep.claim_opened")) == [
            "referee2@example.org", "referee@example.org", "steward@example.org",
            "steward@example.org → Player 1.6"]
    referee = cup.client("referee")
    with referee.session_transaction() as stored:
        # The plot's name is the reader's: English here, Russian in test_russian_refusals.py.
        stored["locale"] = "en"
    page = referee.get(f"/cases/{case_id}")
    assert page.status_code == 200
    assert b"76 &gt; 50" in page.data  # the recomputed chart, shown as a table
    assert b"<svg" in page.data and b"time chart" in page.data
    with referee.session_transaction() as stored:
        stored["locale"] = "ru"

    # Day 10 of the accused's window: the referee may not confirm yet.
    set_today(dt.date(2026, 12, 5))
    early = cup.client("referee").post(f"/cases/{case_id}/decide",
                                       data={"revision": 0, "ruling": "confirmed"})
    assert early.status_code == 422
    assert "002 §4.3.8" in early.data.decode()

    set_today(dt.date(2026, 12, 6))
    done = cup.client("referee").post(f"/cases/{case_id}/decide",
                                      data={"revision": 0, "ruling": "confirmed"})
    assert done.status_code == 303
    with cup.database.session() as session:
        game = cup.game(session, 1, 6)
        assert (game.result, game.result_kind, game.result_rule) == (
            GameResult.WHITE_WIN, ResultKind.OVERSTEP, "002 §4.3.7")
        assert game.state is GameState.FINISHED
        letters = cup.outbox(session, "case.overstep.confirmed")
        assert delivered(letters) == [
            "steward@example.org", "steward@example.org → Player 1.1",
            "steward@example.org → Player 1.6"]
        decided = cup.audit(session, "case.decided")
        assert decided[-1].rule == "002 §4.3.7"
        assert cup.audit(session, "case.record_result")[-1].rule == "002 §4.3.7"
        # Each letter effect's audit entry names the outbox rows it wrote.
        told = [e.detail["outbox"] for e in cup.audit(session, "case.send_letter")
                if e.detail["effect"]["template"] == "overstep.confirmed"]
        assert sorted(i for ids in told for i in ids) == sorted(m.id for m in letters)


def test_rejected_claim_forwards_the_held_move_and_charges_six_days(cup: Cup, set_today) -> None:
    cup.play(1, 6, IN_TIME)
    game_id = cup.games[(1, 6)]
    set_today(dt.date(2026, 9, 25))
    case_id = claim(cup, "player1", game_id, "white")
    with cup.database.session() as session:
        assert cup.case_row(session, case_id).payload["chart_shows_overstep"] is False
    # Rejecting is open at once: the accused's window protects only against confirmation.
    response = cup.client("referee").post(f"/cases/{case_id}/decide", data={
        "revision": 0, "ruling": "rejected", "reasons": "the chart shows 15/19 days"})
    assert response.status_code == 303
    with cup.database.session() as session:
        game = cup.game(session, 1, 6)
        assert game.state is GameState.IN_PLAY and game.result is None
        penalty = session.scalar(select(Penalty).where(Penalty.case_id == case_id))
        assert penalty is not None
        assert (penalty.days, penalty.rule, penalty.participant_id) == (6, "002 §4.3.7",
                                                                        game.white_id)
        held = session.scalars(select(Letter).where(Letter.game_id == game.id)
                               .order_by(Letter.sequence)).all()[-1]
        assert (held.moves_text, held.sender_id, held.sent) == ("d4-c5", game.white_id,
                                                               dt.date(2026, 9, 25))
        held_letter = cup.outbox(session, "case.overstep.held_move")
        assert delivered(held_letter) == ["steward@example.org → Player 1.6"]
        assert "d4-c5" in held_letter[0].body_text
        rejected = cup.outbox(session, "case.overstep.rejected")
        assert any("6 штрафных дней" in m.body_text for m in rejected)
        assert cup.audit(session, "case.impose_penalty")[-1].rule == "002 §4.3.7"


def test_confirming_against_the_chart_needs_reasons(cup: Cup, set_today) -> None:
    cup.play(1, 6, IN_TIME)
    set_today(dt.date(2026, 9, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    set_today(dt.date(2026, 10, 6))
    refused = cup.client("referee").post(f"/cases/{case_id}/decide",
                                         data={"revision": 0, "ruling": "confirmed"})
    assert refused.status_code == 422
    assert "002 §4.3.7" in refused.data.decode()
    with cup.database.session() as session:
        assert cup.game(session, 1, 6).result is None
        assert cup.case_row(session, case_id).revision == 0


def test_accused_protests_the_claim_within_ten_days_only(cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    # The claimant is not the accused; the accused protests the claim (002 §4.3.8).
    wrong = cup.client("player1").post(f"/cases/{case_id}/protest",
                                       data={"revision": 0, "party": "white"})
    assert wrong.status_code == 403
    set_today(dt.date(2026, 12, 6))
    late = cup.client("player6").post(f"/cases/{case_id}/protest",
                                      data={"revision": 0, "party": "black", "grounds": "x"})
    assert late.status_code == 422
    assert "05.12.2026" in late.data.decode()


def test_claims_are_refused_for_games_of_others_and_bad_held_moves(cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    game_id = cup.games[(1, 6)]
    stranger = cup.client("player2").post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": game_id, "overstep-claimant": "white"})
    assert stranger.status_code == 403
    illegal = cup.client("player1").post(f"/cases/new/{cup.code}/overstep", data={
        "overstep-game": game_id, "overstep-claimant": "white", "overstep-held_move": "a1-b2"})
    assert illegal.status_code == 422
    assert "002 §4.2.10" in illegal.data.decode()
    with cup.database.session() as session:
        assert session.scalars(select(Case)).all() == []


def test_a_complete_file_is_confirmed_or_rejected_never_left_unapproved(cup: Cup, set_today) -> None:
    # 002 §4.3.7: "не утверждать" only when the materials are incomplete; the claim of this test
    # carries the whole file, so the claimant who claimed wrongly cannot escape his 6 days.
    cup.play(1, 6, IN_TIME)
    set_today(dt.date(2026, 9, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    referee = cup.client("referee")
    with referee.session_transaction() as session:
        session["locale"] = "en"
    refused = referee.post(f"/cases/{case_id}/decide", data={"revision": 0, "ruling": "not_approved"})
    assert refused.status_code == 422
    text = refused.data.decode()
    assert "002 §4.3.7" in text and "reject it and the claimant is charged 6 days" in text
    assert "chart of think time" in text  # the materials named in the reader's words
    with referee.session_transaction() as session:
        session["locale"] = "ru"
    russian = referee.post(f"/cases/{case_id}/decide",
                           data={"revision": 0, "ruling": "not_approved"}).data.decode()
    assert "не утверждать просрочку можно, только если материалы неполны" in russian
    assert "график времени на обдумывание" in russian  # the materials named in Russian
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert row.revision == 0 and row.state == "awaiting_decision"
        assert row.game.state is GameState.SUSPENDED


def test_the_accused_protest_needs_grounds_and_the_materials_of_4_3_6(cup: Cup, set_today) -> None:
    cup.play(1, 6, LATE)
    set_today(dt.date(2026, 11, 25))
    case_id = claim(cup, "player1", cup.games[(1, 6)], "white")
    accused = cup.client("player6")
    bare = accused.post(f"/cases/{case_id}/protest",
                        data={"revision": 0, "party": "black", "grounds": "my break"})
    assert bare.status_code == 422
    assert "002 §4.3.8" in bare.data.decode()
    with cup.database.session() as session:
        assert cup.case_row(session, case_id).revision == 0  # nothing recorded
    done = accused.post(f"/cases/{case_id}/protest", data={
        "revision": 0, "party": "black", "grounds": "my break of September is not counted",
        "materials": ["offender_letters", "registered_receipts", "game_record", "time_chart"]})
    assert done.status_code == 303, done.data.decode()
    with cup.database.session() as session:
        protests = cup.case_row(session, case_id).payload["protests"]
        assert [p["grounds"] for p in protests] == ["my break of September is not counted"]
