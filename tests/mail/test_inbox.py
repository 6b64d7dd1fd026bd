"""The inbound entry point: store, deduplicate, authenticate, apply — on SQLite and PostgreSQL."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select

from corrmail.models import InboundMessage, InboundStatus, Letter, OutboxStatus, Penalty

D = dt.date(2026, 3, 2)


def test_a_move_is_relayed_to_the_partner_with_the_three_dates(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "Здравствуйте!\n1. c3-d4\nИван", D)
    assert receipt.outcome == "move_relayed", receipt
    [letter] = email_game.outbox(to=email_game.black_email)
    assert letter.kind == "move"
    assert "1. c3-d4" in letter.body_text
    # 002 §4.3.2: the first move counts from the start date (01.03), so one day for White.
    assert "Затраченное время, белые/чёрные: 1/0" in letter.body_text
    assert "Даты: — / — / 02.03.2026" in letter.body_text
    assert email_game.writer.signer.reply_address(email_game.game_id, email_game.black_id) in (
        letter.raw.decode()
    )
    assert "image/svg+xml" in letter.raw.decode()
    # Black may use 50 days for his first ten moves (002 §4.3.1, §4.3.5), counted from receipt.
    assert "без просрочки времени можно до 21.04.2026 включительно" in letter.body_text
    assert 'filename="deadline.ics"' in letter.raw.decode()
    game = email_game.game()
    [stored] = game.letters
    assert (stored.moves_text, stored.sent, stored.postmark_date) == ("c3-d4", D, D)


def test_the_same_message_twice_is_processed_once(email_game) -> None:  # type: ignore[no-untyped-def]
    when = dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.UTC)
    raw = email_game.raw("white", "1. c3-d4", when=when)
    first = email_game.inbox.receive(raw, source="pipe", received_at=when)
    again = email_game.inbox.receive(raw, source="pipe", received_at=when)
    assert not first.duplicate and again.duplicate
    assert again.outcome == first.outcome == "move_relayed"
    assert len(email_game.outbox(to=email_game.black_email)) == 1
    assert len(email_game.game().letters) == 1


def test_partner_must_repeat_the_move_or_gets_6_penalty_days(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    receipt = email_game.send("black", "1... f6-g5", D + dt.timedelta(days=3))
    assert receipt.outcome == "repetition_missing" and receipt.status is InboundStatus.REFUSED
    [notice] = email_game.outbox(to=email_game.black_email, kind="error_notice")
    assert "002 §4.2.9" in notice.body_text and "6 штрафных дней" in notice.body_text
    with email_game.database.session() as session:
        [penalty] = session.scalars(select(Penalty)).all()
        assert (penalty.days, penalty.rule, penalty.participant_id) == (6, "002 §4.2.11", email_game.black_id)
    fixed = email_game.send("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=4))
    assert fixed.outcome == "move_relayed"
    [relayed] = email_game.outbox(to=email_game.white_email, kind="move")
    assert "Ваш ход (повторение): 1. c3-d4" in relayed.body_text
    assert "1... f6-g5" in relayed.body_text
    assert "02.03.2026 / 02.03.2026 / 06.03.2026" in relayed.body_text
    assert "белые/чёрные: 1/10" in relayed.body_text  # Black: 4 think days + 6 penalty days


def test_an_impossible_move_stops_the_game_with_penalty(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "1. c3-e5", D)
    assert receipt.outcome.startswith("impossible")
    [notice] = email_game.outbox(to=email_game.white_email)
    assert "002 §4.2.10" in notice.body_text
    assert not email_game.outbox(to=email_game.black_email)


def test_short_notation_is_impossible(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "1. cd4", D)
    assert receipt.outcome == "impossible:short_notation"
    [notice] = email_game.outbox(to=email_game.white_email)
    assert "002 §4.2.2" in notice.body_text


def test_a_forged_sender_gets_a_polite_refusal_and_changes_nothing(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "1. c3-d4", D, sender="mallory@evil.example")
    assert receipt.outcome == "sender_mismatch" and receipt.status is InboundStatus.REFUSED
    [refusal] = email_game.outbox(to="mallory@evil.example")
    assert refusal.kind == "refusal" and "не может его принять" in refusal.body_text
    assert email_game.game().letters == []


def test_a_letter_without_token_is_refused(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "1. c3-d4", D, to="turnir@turnir.example")
    assert receipt.outcome == "no_token"
    assert email_game.game().letters == []


def test_not_to_move(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("black", "1... f6-g5", D)
    assert receipt.outcome == "not_to_move"


def test_oversize_is_refused_but_kept_as_evidence(email_game) -> None:  # type: ignore[no-untyped-def]
    big = "1. c3-d4\n" + "x" * (email_game.writer.settings.max_message_bytes + 10)
    receipt = email_game.send("white", big, D)
    assert receipt.outcome == "oversize" and receipt.status is InboundStatus.REFUSED
    assert not receipt.duplicate
    [refusal] = email_game.outbox(to=email_game.white_email, kind="refusal")
    assert "слишком велико (больше 10 МиБ)" in refusal.body_text
    with email_game.database.session() as session:
        row = session.scalars(select(InboundMessage)).one()
        assert len(row.raw) == 64 * 1024


def test_a_bounce_marks_its_letter_failed(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    [letter] = email_game.outbox(to=email_game.black_email)
    bounce = (
        "From: MAILER-DAEMON@mx.example\r\nTo: " + letter.envelope_sender + "\r\n"
        "Subject: Undelivered Mail Returned to Sender\r\nMessage-ID: <b1@mx.example>\r\n"
        "Auto-Submitted: auto-replied\r\n\r\n550 5.1.1 user unknown\r\n"
    ).encode()
    receipt = email_game.inbox.receive(bounce, source="pipe", envelope_sender="")
    assert receipt.outcome == "bounce"
    [failed] = email_game.outbox(to=email_game.black_email)
    assert failed.status is OutboxStatus.FAILED and "bounced" in (failed.last_error or "")


def test_draw_offer_and_acceptance_end_the_game(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4\nПредлагаю ничью.", D)
    [move] = email_game.outbox(to=email_game.black_email)
    assert "предлагает ничью" in move.body_text
    receipt = email_game.send("black", "Согласен на ничью.", D + dt.timedelta(days=1))
    assert receipt.outcome == "draw_agreed"
    game = email_game.game()
    assert str(game.state) == "finished" and str(game.result) == "draw"
    assert len(email_game.outbox(kind="game_over")) == 2
    for letter in email_game.outbox(kind="game_over"):  # who accepted, by colour and name
        assert "Чёрные (Седов Сергей) приняли предложение ничьей." in letter.body_text


def test_resignation(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    receipt = email_game.send("black", "Сдаюсь.", D + dt.timedelta(days=1))
    assert receipt.outcome == "resigned"
    assert str(email_game.game().result) == "white_win"
    over = email_game.outbox(kind="game_over")
    assert {letter.recipient for letter in over} == {email_game.white_email, email_game.black_email}
    for letter in over:  # both are told who resigned, not only the result
        assert ("Партия окончена: победа белых (1:0). "
                "Чёрные (Седов Сергей) сдали партию.") in letter.body_text
    after = email_game.send("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=2))
    assert after.outcome == "game_closed"


def test_a_conditional_variant_is_applied_when_it_matches(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    email_game.send("black", "1. c3-d4 f6-g5\nЕсли 2. g3-f4, то 2... g5-h4", D + dt.timedelta(days=1))
    receipt = email_game.send("white", "1... f6-g5 2. g3-f4", D + dt.timedelta(days=2))
    assert receipt.outcome == "move_relayed", receipt
    game = email_game.game()
    assert [letter.moves_text for letter in game.letters] == ["c3-d4", "f6-g5", "g3-f4", "g5-h4"]
    [told_white] = email_game.outbox(to=email_game.white_email, kind="move_receipt")
    assert "2... g5-h4" in told_white.body_text
    [to_black] = email_game.outbox(to=email_game.black_email, kind="move")[-1:]
    assert "По вашему варианту" in to_black.body_text


def test_break_announcement_is_recorded_and_announced(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "Беру перерыв с 10.04.26 по 25.04.26.", D)
    assert receipt.outcome == "break_recorded"
    notices = email_game.outbox(kind="break_notice")
    assert {n.recipient for n in notices} == {email_game.black_email, email_game.steward_email}
    assert "16 дней" in notices[0].body_text
    # The steward's notice: his reply goes to the player who announced the break.
    [steward] = email_game.outbox(to=email_game.steward_email, kind="break_notice")
    assert f"Reply-To: {email_game.white_email}" in steward.raw.decode()
    assert email_game.white_email in steward.body_text


def test_break_in_other_words_is_refused(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "Ухожу в отпуск с 10.04.26 до 25.04.26.", D)
    assert receipt.outcome == "break_refused"
    [notice] = email_game.outbox(to=email_game.white_email)
    assert "002 §4.4.3" in notice.body_text
    assert notice.kind == "break_refused" and "беру перерыв с ДД.ММ.ГГ" in notice.body_text


def test_overstep_claim_suspends_the_game(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    receipt = email_game.send("white", "Объявляю просрочку времени.", D + dt.timedelta(days=70))
    assert receipt.outcome == "overstep_claimed"
    assert str(email_game.game().state) == "suspended"
    # The desk's case letter is the registered notice's equivalent (002 §4.3.6), as on the web.
    assert email_game.outbox(to=email_game.black_email, kind="case.overstep.claim_opened")
    assert email_game.outbox(to=email_game.referee_email)
    later = email_game.send("black", "1. c3-d4 f6-g5", D + dt.timedelta(days=71))
    assert later.outcome == "game_suspended"


def test_automated_mail_is_recorded_not_read(email_game) -> None:  # type: ignore[no-untyped-def]
    raw = email_game.raw("white", "1. c3-d4", when=dt.datetime(2026, 3, 2, tzinfo=dt.UTC))
    raw = raw.replace(b"Subject: Re:", b"Auto-Submitted: auto-replied\r\nSubject: Re:")
    receipt = email_game.inbox.receive(raw, source="imap")
    assert receipt.outcome == "auto_reply" and receipt.status is InboundStatus.IGNORED
    assert email_game.game().letters == []
    with email_game.database.session() as session:
        assert session.scalars(select(Letter)).all() == []


def test_a_single_legal_move_is_substituted_without_penalty(email_game) -> None:  # type: ignore[no-untyped-def]
    # The piece on a3 has one move, a3-b4: 002 §4.2.10 lets the recipient name it and answer it.
    receipt = email_game.send("white", "1. a3-c5", D)
    assert receipt.outcome == "move_relayed"
    [stored] = email_game.game().letters
    assert stored.moves_text == "a3-b4"
    [relayed] = email_game.outbox(to=email_game.black_email, kind="move")
    assert "002 §4.2.10: a3-c5 → a3-b4: у названной шашки единственный ход" in relayed.body_text
    with email_game.database.session() as session:
        assert session.scalars(select(Penalty)).all() == []


def test_a_forced_partner_move_may_be_written_and_answered(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    # After 1... f6-e5 White's only legal move is the capture d4:f6 (002 §4.2.4).
    receipt = email_game.send("black", "1. c3-d4 f6-e5 2. d4:f6 g7:e5", D + dt.timedelta(days=1))
    assert receipt.outcome == "move_relayed"
    assert [letter.moves_text for letter in email_game.game().letters] == ["c3-d4", "f6-e5 d4:f6 g7:e5"]
    # White must now repeat all three plies.
    short = email_game.send("white", "2... g7:e5 3. g3-h4", D + dt.timedelta(days=2))
    assert short.outcome == "repetition_wrong"  # incomplete: 002 §4.2.9 all the same
    full = email_game.send("white", "1... f6-e5 2. d4:f6 g7:e5 3. g3-h4", D + dt.timedelta(days=3))
    assert full.outcome == "move_relayed"


def test_a_partner_move_that_is_not_forced_is_refused(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    receipt = email_game.send("black", "1. c3-d4 f6-g5 2. g3-h4", D + dt.timedelta(days=1))
    assert receipt.outcome == "move_relayed_with_error"
    assert [letter.moves_text for letter in email_game.game().letters] == ["c3-d4", "f6-g5"]
    [notice] = email_game.outbox(to=email_game.black_email, kind="error_notice")
    assert "002 §4.2.4" in notice.body_text and "6 штрафных" not in notice.body_text


def test_a_faulty_variant_is_cut_without_penalty_and_both_are_told(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "1. c3-d4\nЕсли 1... f6-g5, то 2. d4-h8", D)
    assert receipt.outcome == "move_relayed"
    [relayed] = email_game.outbox(to=email_game.black_email, kind="move")
    assert "002 §4.2.12" in relayed.body_text and "d4-h8" in relayed.body_text
    [receipt_letter] = email_game.outbox(to=email_game.white_email, kind="move_receipt")
    assert "штрафа нет" in receipt_letter.body_text
    with email_game.database.session() as session:
        assert session.scalars(select(Penalty)).all() == []


def test_accepting_a_draw_nobody_offered_is_refused(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    receipt = email_game.send("black", "Согласен на ничью.", D + dt.timedelta(days=1))
    assert receipt.outcome == "no_draw_to_accept"
    assert str(email_game.game().state) == "in_play"


def test_a_letter_with_nothing_to_relay_is_answered(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "Добрый день! Как ваши дела?", D)
    assert receipt.outcome == "not_understood"
    [notice] = email_game.outbox(to=email_game.white_email)
    assert "002 §4.2.2" in notice.body_text


def test_a_second_break_in_the_year_is_refused(email_game) -> None:  # type: ignore[no-untyped-def]
    assert email_game.send("white", "Беру перерыв с 01.04.26 по 10.04.26", D).outcome == "break_recorded"
    second = email_game.send("white", "Беру перерыв с 01.06.26 по 10.06.26", D + dt.timedelta(days=1))
    assert second.outcome == "break_refused"
    # Its own letter, in the player's language: no "play stopped", no correction asked for.
    [notice] = email_game.outbox(to=email_game.white_email, kind="break_refused")
    assert "002 §4.4.1" in notice.body_text and "второй перерыв в календарном году" in notice.body_text
    assert "остановлена до исправления" not in notice.subject + notice.body_text
    assert "second break of" not in notice.body_text
    assert email_game.outbox(to=email_game.white_email, kind="error_notice") == []


def test_a_break_over_30_days_stands_for_30(email_game) -> None:  # type: ignore[no-untyped-def]
    receipt = email_game.send("white", "Беру перерыв с 01.04.26 по 15.05.26", D)
    assert receipt.outcome == "break_recorded"
    [notice] = email_game.outbox(to=email_game.black_email, kind="break_notice")
    assert "по 30.04.2026" in notice.subject
    [told] = email_game.outbox(to=email_game.white_email, kind="break_shortened")
    assert "002 §4.4.1" in told.body_text and "по 30.04.2026" in told.body_text


def test_a_wrong_move_number_is_pointed_out_and_play_goes_on(email_game) -> None:  # type: ignore[no-untyped-def]
    email_game.send("white", "1. c3-d4", D)
    receipt = email_game.send("black", "1. c3-d4 5... f6-g5", D + dt.timedelta(days=1))
    assert receipt.outcome == "move_relayed"
    [relayed] = email_game.outbox(to=email_game.white_email, kind="move")
    assert "002 §4.2.14: ошибка в нумерации ходов (5 → 1 (f6-g5))" in relayed.body_text
    assert [letter.moves_text for letter in email_game.game().letters] == ["c3-d4", "f6-g5"]


def test_a_connection_lost_under_the_session_is_a_retry_not_a_failure(email_game, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A connection that dies mid-processing can surface as ``PendingRollbackError`` rather than
    ``OperationalError``: the message must stay stored for the MTA's retry, never be marked
    'failed' (a PostgreSQL restart under load)."""
    import pytest
    from sqlalchemy.exc import PendingRollbackError

    from corrmail.mail.inbox import TemporaryFailure

    def lost(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise PendingRollbackError("Can't reconnect until invalid transaction is rolled back")

    when = dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.UTC)
    raw = email_game.raw("white", "1. c3-d4", when=when)
    monkeypatch.setattr(email_game.inbox.correspondence, "handle", lost)
    with pytest.raises(TemporaryFailure):
        email_game.inbox.receive(raw, source="pipe", received_at=when)
    with email_game.database.session() as session:
        [row] = session.scalars(select(InboundMessage)).all()
        assert row.status is InboundStatus.STORED
    monkeypatch.undo()
    retried = email_game.inbox.receive(raw, source="pipe", received_at=when)
    assert retried.duplicate and retried.outcome == "move_relayed"
    assert len(email_game.game().letters) == 1


def test_a_bug_whose_failure_cannot_be_recorded_is_a_retry(email_game, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A bug is recorded as 'failed' so the MTA stops retrying; if the database is gone when
    recording it, the message stays stored and the MTA is told to retry."""
    import pytest
    from sqlalchemy.exc import OperationalError

    from corrmail.mail.inbox import TemporaryFailure

    def bug(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise KeyError("a bug")

    def gone(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OperationalError("UPDATE inbound_messages", {}, Exception("server closed the connection"))

    when = dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.UTC)
    raw = email_game.raw("white", "1. c3-d4", when=when)
    monkeypatch.setattr(email_game.inbox.correspondence, "handle", bug)
    monkeypatch.setattr(email_game.inbox, "_mark_failed", gone)
    with pytest.raises(TemporaryFailure):
        email_game.inbox.receive(raw, source="pipe", received_at=when)
    with email_game.database.session() as session:
        [row] = session.scalars(select(InboundMessage)).all()
        assert row.status is InboundStatus.STORED
    monkeypatch.setattr(email_game.inbox, "_mark_failed", type(email_game.inbox)._mark_failed.__get__(email_game.inbox))
    failed = email_game.inbox.receive(raw, source="pipe", received_at=when)
    assert failed.status is InboundStatus.FAILED and "a bug" in failed.detail


def test_each_element_an_e_mail_lacks_is_named_on_record_and_the_move_relayed(email_game) -> None:  # type: ignore[no-untyped-def]
    """002 §4.2.3: by e-mail the player owes the greeting, the tournament code, the repetition,
    his move and the time; each one missing is named in the letter's audit entry, and the move
    is relayed all the same (the server's letter to the partner carries every element)."""
    from corrmail.models import AuditEntry

    receipt = email_game.send("white", "1. c3-d4", D)
    assert receipt.outcome == "move_relayed", receipt
    assert [letter.kind for letter in email_game.outbox(to=email_game.black_email)] == ["move"]
    complete = email_game.send("black", "Здравствуйте! ЗЧ-2026/3\n1. c3-d4 f6-g5\n1/0", D)
    assert complete.outcome == "move_relayed", complete
    with email_game.database.session() as session:
        entries = session.scalars(select(AuditEntry).where(AuditEntry.action == "mail.move_relayed")
                                  .order_by(AuditEntry.id)).all()
        assert [entry.detail.get("letter_elements_missing") for entry in entries] == [
            ["greeting", "tournament_code", "time_totals"], None]
        assert entries[0].detail["letter_elements_rule"] == "002 §4.2.3"
