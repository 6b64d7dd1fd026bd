"""The same letter has the same outcome whichever channel carried it (002 §4.2–§4.4).

Two games of one tournament between the same players: one played by e-mail through the server's
inbox, the other by postcards a steward enters (the web's postcard form calls the same
:func:`corrmail.play.postcards.enter_postcard`). Each letter goes through both with the same content and
the same dates; the stored letters, penalties, audit entries of the game core and the game's
state and result must agree after every letter. An overstep claimed by e-mail and one filed at
the referee's desk (as the web's claim form does) open the same case with the same letters. A
move sent through the API (or the game page) is stored and relayed as the same e-mail would be.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import select

from corrmail.models import (
    AuditEntry,
    Case,
    Game,
    GameState,
    Letter,
    OutboxMessage,
    Participant,
    Penalty,
    ProtestLetter,
)
from corrmail.play.postcards import Declaration, PostcardEntry, enter_postcard
from corrmail.play.web_moves import WebLetter, submit_web_letter
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import Actor, Desk

from .conftest import EmailGame

D = dt.date(2026, 3, 2)


def _second_game(email_game: EmailGame) -> int:
    with email_game.database.transaction() as session:
        first = session.get(Game, email_game.game_id)
        assert first is not None
        game = Game(tournament_id=first.tournament_id, round=2, white_id=email_game.white_id,
                    black_id=email_game.black_id, state=GameState.IN_PLAY)
        session.add(game)
        session.flush()
        return game.id


def _card(email_game: EmailGame, game_id: int, side: str, day: dt.date, moves: str = "",
          variants: str = "", answered: dt.date | None = None,
          declaration: Declaration = Declaration.NONE) -> None:
    """The postcard the e-mail would be: the server's dates written on it."""
    def text(day: dt.date | None) -> str:
        return f"{day:%d.%m.%y}" if day else ""

    entry = PostcardEntry(
        sender_id=email_game.participant(side), moves_text=moves, variants_text=variants,
        partner_sent=text(answered), received=text(answered), sent=text(day), postmark=text(day),
        declaration=declaration,
    )
    with email_game.database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        enter_postcard(session, game, entry, None, today=day)


def _state(email_game: EmailGame, game_id: int) -> dict[str, Any]:
    with email_game.database.session() as session:
        game = session.get(Game, game_id)
        assert game is not None
        side = {email_game.white_id: "white", email_game.black_id: "black"}
        letters = session.scalars(select(Letter).where(Letter.game_id == game_id)
                                  .order_by(Letter.sequence)).all()
        penalties = session.scalars(select(Penalty).where(Penalty.game_id == game_id)
                                    .order_by(Penalty.id)).all()
        core_audit = session.scalars(
            select(AuditEntry.action).where(
                AuditEntry.entity == "game", AuditEntry.entity_id == game_id,
                AuditEntry.action.in_(["penalty.charged", "game.finished"]))
            .order_by(AuditEntry.id)).all()
        return {
            "letters": [(side[row.sender_id], row.moves_text, row.variants_text, row.partner_sent,
                         row.received, row.sent, row.postmark_date, row.penalty_days)
                        for row in letters],
            "penalties": [(side[row.participant_id], row.days, row.rule, row.reason,
                           row.charged_on, row.letter_id is not None) for row in penalties],
            "audit": list(core_audit),
            "game": (game.state, game.result, game.result_kind, game.result_rule, game.result_on),
        }


def test_a_postcard_and_an_email_with_the_same_content_have_the_same_outcome(
    email_game: EmailGame,
) -> None:
    postal_id = _second_game(email_game)
    steps: list[tuple[str, dt.date, str, str, str, dt.date | None, Declaration]] = [
        # side, day, e-mail text, card's moves, card's variants, the day answered, declaration
        ("white", D, "1. c3-d4", "1. c3-d4", "", None, Declaration.NONE),
        ("black", D + dt.timedelta(days=1), "1. c3-d4 f6-g5\nЕсли 2. g3-f4, то 2... g5-h4",
         "1. c3-d4 f6-g5", "Если 2. g3-f4, то 2... g5-h4", D, Declaration.NONE),
        # The variant is accepted: Black's prepared reply is played at once (002 §4.2.13).
        ("white", D + dt.timedelta(days=2), "1... f6-g5 2. g3-f4", "1... f6-g5 2. g3-f4", "",
         D + dt.timedelta(days=1), Declaration.NONE),
        # Black's reply is not repeated: play stops, 6 penalty days (002 §4.2.9, §4.2.11).
        ("white", D + dt.timedelta(days=3), "3. b2-c3", "3. b2-c3", "",
         D + dt.timedelta(days=2), Declaration.NONE),
        ("white", D + dt.timedelta(days=4), "2... g5-h4 3. b2-c3", "2... g5-h4 3. b2-c3", "",
         D + dt.timedelta(days=2), Declaration.NONE),
        ("black", D + dt.timedelta(days=5), "3. b2-c3 h6-g5", "3. b2-c3 h6-g5", "",
         D + dt.timedelta(days=4), Declaration.NONE),
        ("white", D + dt.timedelta(days=6), "Сдаюсь.", "", "", D + dt.timedelta(days=5),
         Declaration.RESIGNS),
    ]
    for side, day, text, moves, variants, answered, declaration in steps:
        email_game.send(side, text, day)
        _card(email_game, postal_id, side, day, moves, variants, answered, declaration)
        by_mail, by_post = _state(email_game, email_game.game_id), _state(email_game, postal_id)
        assert by_mail == by_post, (text, by_mail, by_post)
    final = _state(email_game, postal_id)
    assert [letter[1] for letter in final["letters"]] == [
        "c3-d4", "f6-g5", "g3-f4", "g5-h4", "", "b2-c3", "h6-g5", ""]
    [(who, days, rule, reason, charged_on, with_letter)] = final["penalties"]
    assert (who, days, rule, charged_on, with_letter) == (
        "white", 6, "002 §4.2.11", D + dt.timedelta(days=3), True)
    assert reason.startswith("002 §4.2.9: repetition_missing") and "g5-h4" in reason
    assert final["audit"] == ["penalty.charged", "game.finished"]
    assert final["game"][0] is GameState.FINISHED and str(final["game"][1]) == "black_win"


def _case_view(session: Any, row: Case, offender_email: str) -> dict[str, Any]:
    payload = {k: v for k, v in row.payload.items() if k not in ("case_id", "game")}
    letters = session.scalars(select(OutboxMessage).where(OutboxMessage.case_id == row.id)
                              .order_by(OutboxMessage.id)).all()
    audit = session.scalars(select(AuditEntry.action).where(
        AuditEntry.entity == "case", AuditEntry.entity_id == row.id)
        .order_by(AuditEntry.id)).all()
    return {
        "type": row.case_type, "state": row.state, "deadline": row.deadline,
        "revision": row.revision, "payload": payload,
        "game": row.game.state if row.game is not None else None,
        "letters": sorted((m.kind, "offender" if m.recipient == offender_email else m.recipient)
                          for m in letters),
        "audit": list(audit),
        "case_id": row.payload["case_id"].replace(f"/{row.game_id}/", "/<game>/"),
    }


def test_an_overstep_claimed_by_email_opens_the_case_the_desk_opens(
    email_game: EmailGame,
) -> None:
    desk_game = _second_game(email_game)
    claimed = D + dt.timedelta(days=70)
    email_game.send("white", "1. c3-d4", D)
    _card(email_game, desk_game, "white", D, "1. c3-d4")
    assert email_game.send("white", "Объявляю просрочку времени.", claimed).outcome \
        == "overstep_claimed"
    writer = case_letter_writer(email_game.writer.settings)
    with email_game.database.transaction() as session:
        game = session.get(Game, desk_game)
        assert game is not None
        from adjudication import Side as CaseSide

        Desk(session, writer, on=claimed).open_overstep_claim(
            Actor(None, frozenset(), frozenset({email_game.white_id})), game,
            claimant=CaseSide.WHITE, letter_text="Объявляю просрочку времени.")
    with email_game.database.session() as session:
        by_mail, at_desk = (
            _case_view(session, session.scalars(select(Case).where(Case.game_id == gid)).one(),
                       email_game.black_email)
            for gid in (email_game.game_id, desk_game))
        assert by_mail == at_desk
        assert by_mail["game"] is GameState.SUSPENDED
        assert by_mail["audit"][-1] == "overstep_claim.opened"
        assert ("case.overstep.claim_opened", "offender") in by_mail["letters"]
        # No private notice of the mail layer beside the case's letters.
        assert not session.scalars(select(OutboxMessage).where(
            OutboxMessage.kind.in_(["overstep_notice", "overstep_referee"]))).all()

    # The accused protests the claim (002 §4.3.8): by e-mail and at the desk, the same.
    protested = claimed + dt.timedelta(days=3)
    email_game.send("black", "Протестую: я ответил вовремя.", protested)
    with email_game.database.transaction() as session:
        row = session.scalars(select(Case).where(Case.game_id == desk_game)).one()
        Desk(session, writer, on=protested).protest(
            Actor(None, frozenset(), frozenset({email_game.black_id})), row.id,
            revision=row.revision, party="black", grounds="Протестую: я ответил вовремя.")
    with email_game.database.session() as session:
        by_mail, at_desk = (
            _case_view(session, session.scalars(select(Case).where(Case.game_id == gid)).one(),
                       email_game.black_email)
            for gid in (email_game.game_id, desk_game))
        assert by_mail == at_desk
        assert by_mail["audit"][-1] == "case.protested"
        assert by_mail["payload"]["protests"][0]["filed_on"] == protested.isoformat()



def test_a_protest_that_contests_no_case_is_kept_for_the_referee(email_game: EmailGame) -> None:
    """Nothing of the game is open at the desk: the protest is kept for the referee to file into
    the case he finds it contests (002 §4.1.12), and he is told."""
    email_game.send("white", "1. c3-d4", D)
    receipt = email_game.send("black", "Протестую: партнёр затягивает игру.", D + dt.timedelta(days=1))
    assert receipt.outcome == "protest_forwarded"
    with email_game.database.session() as session:
        # A letter for the referee to file, not a case: the case table stays empty.
        assert session.scalars(select(Case)).all() == []
        [row] = session.scalars(select(ProtestLetter)).all()
        assert (row.protest, row.received, row.filed_at, row.participant_id) == (
            "Протестую: партнёр затягивает игру.", D + dt.timedelta(days=1), None,
            email_game.black_id)
    assert email_game.outbox(to=email_game.referee_email, kind="protest")
    assert email_game.outbox(to=email_game.black_email, kind="notice")


def _web(email_game: EmailGame, game_id: int, side: str, day: dt.date, letter: WebLetter) -> None:
    """What ``POST /api/v1/games/<id>/moves`` and the game page's form call, on ``day``."""
    with email_game.database.transaction() as session:
        game = session.get(Game, game_id)
        participant = session.get(Participant, email_game.participant(side))
        assert game is not None and participant is not None
        submit_web_letter(session, game, participant, letter, today=day, writer=email_game.writer)


def test_a_move_sent_through_the_api_has_the_outcome_of_the_same_e_mail(
    email_game: EmailGame,
) -> None:
    """The API and the game page write the letter an e-mail player would (the partner's moves
    repeated, 002 §4.2.9) and hand it to the same intake: the stored letters, the game and the
    letters relayed to the partner agree with the e-mail game's after every move."""
    web_id = _second_game(email_game)
    steps: list[tuple[str, dt.date, str, WebLetter]] = [
        ("white", D, "1. c3-d4", WebLetter(move="c3-d4")),
        ("black", D + dt.timedelta(days=1), "1. c3-d4 f6-g5", WebLetter(move="f6-g5")),
        ("white", D + dt.timedelta(days=2), "1... f6-g5 2. g3-f4", WebLetter(move="g3-f4")),
        ("black", D + dt.timedelta(days=3), "2. g3-f4 g5-h4\nПредлагаю ничью.",
         WebLetter(move="g5-h4", draw_offer=True)),
        ("white", D + dt.timedelta(days=4), "Сдаюсь.", WebLetter(resign=True)),
    ]
    for side, day, text, letter in steps:
        email_game.send(side, text, day)
        _web(email_game, web_id, side, day, letter)
        by_mail, by_web = _state(email_game, email_game.game_id), _state(email_game, web_id)
        assert by_mail == by_web, (text, by_mail, by_web)
    final = _state(email_game, web_id)
    assert [letter[1] for letter in final["letters"]] == ["c3-d4", "f6-g5", "g3-f4", "g5-h4", ""]
    assert final["game"][0] is GameState.FINISHED and str(final["game"][1]) == "black_win"
    with email_game.database.session() as session:
        relayed = {
            game_id: [message.kind for message in session.scalars(
                select(OutboxMessage).where(OutboxMessage.game_id == game_id)
                .order_by(OutboxMessage.id))]
            for game_id in (email_game.game_id, web_id)
        }
    assert relayed[email_game.game_id] == relayed[web_id] != []


@pytest.mark.parametrize("written", [
    "1... f6-e5 2. d4:f6", "1. ... f6-e5 2. d4:f6", "1. …f6-e5 2. d4:f6",
    # The move pair written whole: the sender's own last move, then the partner's reply.
    "1. c3-d4 f6-e5 2. d4:f6",
])
def test_the_ways_players_write_a_repetition_are_read_alike_and_cost_nothing(
    email_game: EmailGame, written: str,
) -> None:
    """002 §4.2.9: each of these repeats the partner's f6-e5 in full; none is a missing or wrong
    repetition, none costs the 6 days of 002 §4.2.11, by e-mail or on a card (docs/rules/
    notation.md)."""
    postal_id = _second_game(email_game)
    steps = [("white", D, "1. c3-d4", None), ("black", D + dt.timedelta(days=1), "1. c3-d4 f6-e5", D),
             ("white", D + dt.timedelta(days=2), written, D + dt.timedelta(days=1))]
    for side, day, text, answered in steps:
        email_game.send(side, text, day)
        _card(email_game, postal_id, side, day, text, "", answered)
    by_mail, by_post = _state(email_game, email_game.game_id), _state(email_game, postal_id)
    assert by_mail == by_post
    assert [letter[1] for letter in by_post["letters"]] == ["c3-d4", "f6-e5", "d4:f6"]
    assert by_post["penalties"] == [] and by_post["audit"] == []


def test_a_resignation_card_tells_the_e_mail_partner_who_resigned(email_game: EmailGame) -> None:
    """A resignation the steward enters from a card ends the game as the e-mail one does, and
    the e-mail partner's end-of-play letter names who resigned, not only the score."""
    email_game.send("white", "1. c3-d4", D)
    entry = PostcardEntry(sender_id=email_game.participant("black"), moves_text="",
                          partner_sent=f"{D:%d.%m.%y}", received=f"{D:%d.%m.%y}",
                          sent=f"{D + dt.timedelta(days=1):%d.%m.%y}",
                          postmark=f"{D + dt.timedelta(days=1):%d.%m.%y}",
                          declaration=Declaration.RESIGNS)
    with email_game.database.transaction() as session:
        game = session.get(Game, email_game.game_id)
        assert game is not None
        enter_postcard(session, game, entry, None, today=D + dt.timedelta(days=3),
                       writer=email_game.writer)
    [told] = email_game.outbox(to=email_game.white_email, kind="game_over")
    assert "Партия окончена: победа белых (1:0). Чёрные (Седов Сергей) сдали партию." \
        in told.body_text
