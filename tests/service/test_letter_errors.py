"""Errors in letters entered by officials through the game core: a partner's error reported
within 3 days (002 §4.2.9), the partner's 6 days charged with their reason in the very next reply
(002 §4.2.11, §4.3.3), and a receipt date supplied in the next letter (002 §4.3.3). Each refusal
cites its rule and changes nothing stored."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from html import unescape

import pytest
from flask.testing import FlaskClient
from sqlalchemy import func, select

from corrmail import games
from corrmail.config import Settings
from corrmail.db import Database
from corrmail.games import LetterErrorRefused
from corrmail.games.view import GameView
from corrmail.models import AuditEntry, Channel, Game, Letter, Penalty, Role
from corrmail.play.postcards import PostcardCheck, PostcardRejected
from timekeeping import Side

from .postcard_steps import appoint_steward, store_card

D = dt.date
Card = Callable[..., PostcardCheck]
TODAY = D(2026, 10, 10)


@pytest.fixture
def settings(db_url: str) -> Settings:
    return Settings(database_url=db_url, secret_key="test-secret", csrf_enabled=False,
                    testing=True, today=TODAY, default_locale="en")


def _play(card: Card, game_id: int, *, black_receipts: tuple[str, str] = ("05.09", "18.09"),
          letters: int = 5, **black_second: str) -> None:
    """Up to five cards: 1. c3-d4 f6-g5 2. g3-h4 g5-f4 3. e3:g5, black's receipts as given."""
    card(game_id, "white", D(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26",
         postmark="01.09.26", declared_white_days=0, declared_black_days=0)
    if letters > 1:
        card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
             received=black_receipts[0], sent="08.09", postmark="08.09")
    if letters > 2:
        card(game_id, "white", D(2026, 9, 20), moves_text="1... f6-g5 2. g3-h4",
             partner_sent="08.09", received="12.09", sent="15.09", postmark="15.09")
    if letters > 3:
        card(game_id, "black", D(2026, 9, 25), moves_text="2. g3-h4 g5-f4", partner_sent="15.09",
             received=black_receipts[1], sent="22.09", postmark="22.09", **black_second)
    if letters > 4:
        card(game_id, "white", D(2026, 9, 28), moves_text="2... g5-f4 3. e3:g5",
             partner_sent="22.09", received="25.09", sent="27.09", postmark="27.09")


def _ids(database: Database, game_id: int) -> list[int]:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return [letter.id for letter in game.letters]


def _counts(database: Database) -> tuple[int, int, int]:
    with database.transaction() as session:
        return tuple(session.scalar(select(func.count()).select_from(model)) or 0  # type: ignore[return-value]
                     for model in (Letter, Penalty, AuditEntry))


@contextmanager
def _in_game(database: Database, game_id: int) -> Iterator[tuple[object, Game]]:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        yield session, game


def _charge(database: Database, game_id: int, letter: int, charged_in: int, *,
            rule: str = "002 §4.2.11", reason: str = "move 1... f6-g5 not repeated") -> None:
    with _in_game(database, game_id) as (session, game):
        games.charge_letter_penalty(session, game, letter_id=letter,  # type: ignore[arg-type]
                                    charged_in_id=charged_in, rule=rule, reason=reason,
                                    on=TODAY, user=None)


def _refused(database: Database, action: Callable[[], object], rule: str, words: str) -> None:
    before = _counts(database)
    with pytest.raises(LetterErrorRefused) as raised:
        action()
    assert raised.value.rule == rule and words in raised.value.message, raised.value
    assert str(raised.value).startswith(f"{rule}: ")
    assert _counts(database) == before


# 002 §4.2.11 -------------------------------------------------------------------------------------


def test_a_partner_charge_with_its_reason_in_the_very_next_reply_is_charged(
        card: Card, game_id: int, database: Database) -> None:
    _play(card, game_id, letters=3)
    ids = _ids(database, game_id)
    _charge(database, game_id, ids[1], ids[2])
    with _in_game(database, game_id) as (_, game):
        (row,) = GameView(game).game_penalties()
        assert (row.participant_id, row.days, row.rule, row.reason, row.letter_id) == (
            game.black_id, 6, "002 §4.2.11", "move 1... f6-g5 not repeated", ids[1])
        chart = GameView(game).chart()
        assert [(c.player, c.days, c.rule) for c in chart.charges] == [(Side.BLACK, 6, "002 §4.2.11")]
        assert chart.totals.black == 3 + 6


def test_a_charge_without_its_reason_is_refused_and_nothing_changes(
        card: Card, game_id: int, database: Database) -> None:
    _play(card, game_id, letters=3)
    ids = _ids(database, game_id)
    _refused(database, lambda: _charge(database, game_id, ids[1], ids[2], reason="  "),
             "002 §4.2.11", "the reason is required")


def test_a_charge_later_than_the_very_next_reply_is_refused(
        card: Card, game_id: int, database: Database) -> None:
    """002 §4.2.11: the right is white's in letter 3 only; in letter 5 it is lost."""
    _play(card, game_id)
    ids = _ids(database, game_id)
    _refused(database, lambda: _charge(database, game_id, ids[1], ids[4]),
             "002 §4.2.11", "the right to charge for letter 2 was lost")
    _charge(database, game_id, ids[3], ids[4])  # letter 5 answers letter 4: that charge stands


@pytest.mark.parametrize(("letter", "charged_in", "rule", "words"), [
    (1, 1, "002 §4.2.11", "only the partner of the sender of letter 2"),   # black charges himself
    (0, 1, "002 §4.2.11", "the right to charge for letter 1 was lost"),    # not the answer to it
    (1, 2, "002 §4.3.7", "not 002 §4.3.7"),                                # not a partner's rule
])
def test_a_charge_by_the_wrong_player_or_under_another_rule_is_refused(
        card: Card, game_id: int, database: Database, letter: int, charged_in: int, rule: str,
        words: str) -> None:
    _play(card, game_id, letters=3)
    ids = _ids(database, game_id)
    expected = "002 §4.2.11"
    if letter == 0:
        # White's opening is answered by black's letter 2: black may charge there, not in 3.
        _refused(database, lambda: _charge(database, game_id, ids[0], ids[2]), expected,
                 "only the partner of the sender of letter 1")
        return
    _refused(database, lambda: _charge(database, game_id, ids[letter], ids[charged_in], rule=rule),
             expected, words)


def test_one_letter_is_charged_once(card: Card, game_id: int, database: Database) -> None:
    """002 §4.2.11: 6 days "независимо от количества нарушений в одном письме"."""
    _play(card, game_id, letters=3)
    ids = _ids(database, game_id)
    _charge(database, game_id, ids[1], ids[2])
    _refused(database, lambda: _charge(database, game_id, ids[1], ids[2], reason="illegible"),
             "002 §4.2.11", "already charged")


# 002 §4.3.3 --------------------------------------------------------------------------------------


def test_six_days_for_a_repeated_omission_only(card: Card, game_id: int, database: Database) -> None:
    """002 §4.3.3: a first omitted date earns a notice; the repeated one may be charged in the
    reply; a letter that omitted nothing cannot be charged for it."""
    _play(card, game_id, black_receipts=("", ""))
    ids = _ids(database, game_id)
    _refused(database, lambda: _charge(database, game_id, ids[1], ids[2], rule="002 §4.3.3",
                                       reason="receipt date not written"),
             "002 §4.3.3", "a first omission of a date earns a notice only")
    _refused(database, lambda: _charge(database, game_id, ids[2], ids[3], rule="002 §4.3.3",
                                       reason="receipt date not written"),
             "002 §4.3.3", "letter 3 omitted no date")
    _charge(database, game_id, ids[3], ids[4], rule="002 §4.3.3",
            reason="receipt date not written again")
    with _in_game(database, game_id) as (_, game):
        chart = GameView(game).chart()
        assert [(c.player, c.days, c.rule) for c in chart.charges] == [(Side.BLACK, 6, "002 §4.3.3")]


# 002 §4.3.3: a missing date supplied in the next letter ------------------------------------------


def test_a_receipt_date_supplied_in_the_next_card_is_recorded_and_the_omission_stays(
        card: Card, game_id: int, database: Database) -> None:
    _play(card, game_id, black_receipts=("", "18.09"), letters=4, supplied_receipt="05.09")
    with _in_game(database, game_id) as (_, game):
        view = GameView(game)
        assert [letter.supplied_receipt for letter in view.letters] == [None, None, None, D(2026, 9, 5)]
        assert view.letters[1].received is None  # the omission is not erased
        chart = view.chart()
        assert chart.rows[1].received == D(2026, 9, 5) and not chart.rows[1].received_estimated
        assert [(n.letter, n.code) for n in chart.notes if n.letter == 2] == [
            (2, "first_omission"), (2, "receipt_supplied_later")]


@pytest.mark.parametrize(("receipts", "supplied", "rule", "words"), [
    (("05.09", "18.09"), "05.09", "002 §4.3.3", "omitted no receipt date"),
    (("", "18.09"), "31.08", "002 §4.3.1", "must fall between the partner's dispatch"),
    (("", "18.09"), "09.09", "002 §4.3.1", "must fall between the partner's dispatch"),
])
def test_a_supplied_receipt_date_nothing_was_omitted_for_or_out_of_order_is_refused(
        card: Card, game_id: int, database: Database, receipts: tuple[str, str], supplied: str,
        rule: str, words: str) -> None:
    _play(card, game_id, black_receipts=receipts, letters=3)
    before = _counts(database)
    with pytest.raises(PostcardRejected) as raised:
        card(game_id, "black", D(2026, 9, 25), moves_text="2. g3-h4 g5-f4", partner_sent="15.09",
             received="18.09", sent="22.09", postmark="22.09", supplied_receipt=supplied)
    assert [(error.rule, error.code) for error in raised.value.errors] == [(rule, "supplied_receipt")]
    assert words in str(raised.value)
    assert _counts(database) == before


# 002 §4.2.9 --------------------------------------------------------------------------------------


def _report(database: Database, game_id: int, side: str, letter: int, received: dt.date,
            reported: dt.date) -> None:
    with _in_game(database, game_id) as (session, game):
        reporter = game.white_id if side == "white" else game.black_id
        games.record_error_report(session, game, reporter_id=reporter,  # type: ignore[arg-type]
                                  letter_id=letter, received=received, reported=reported,
                                  channel=Channel.POST, on=TODAY, user=None)


def test_an_error_reported_within_three_days_costs_nothing_and_moves_nothing(
        card: Card, game_id: int, database: Database) -> None:
    _play(card, game_id, letters=2)
    ids = _ids(database, game_id)
    _report(database, game_id, "white", ids[1], D(2026, 9, 12), D(2026, 9, 15))
    with _in_game(database, game_id) as (_, game):
        view = GameView(game)
        assert len(game.letters) == 3 and [letter.id for letter in view.letters] == ids
        report = game.letters[-1]
        assert (report.reports_error_of_id, report.moves_text, report.received, report.sent) == (
            ids[1], "", D(2026, 9, 12), D(2026, 9, 15))
        assert view.side_to_move is Side.WHITE
        ledger = view.ledger()
        assert [(r.player, r.letter) for r in ledger.error_reports] == [(Side.WHITE, 2)]
        chart = view.chart()
        assert list(chart.errors) == [] and chart.charges == ()


def test_an_error_reported_after_three_days_charges_the_late_days_to_the_reporter(
        card: Card, game_id: int, database: Database) -> None:
    _play(card, game_id, letters=2)
    ids = _ids(database, game_id)
    _report(database, game_id, "white", ids[1], D(2026, 9, 12), D(2026, 9, 18))
    with _in_game(database, game_id) as (session, game):
        chart = GameView(game).chart()
        assert [(c.player, c.days, c.rule) for c in chart.charges] == [(Side.WHITE, 3, "002 §4.2.9")]
        entry = session.scalars(select(AuditEntry).where(  # type: ignore[attr-defined]
            AuditEntry.action == "letter.error_reported")).one()
        assert entry.rule == "002 §4.2.9" and entry.detail == {"days_after_the_third": 3}


@pytest.mark.parametrize(("side", "letter", "received", "reported", "rule", "words"), [
    ("black", 1, D(2026, 9, 12), D(2026, 9, 13), "002 §4.2.9", "not his own"),
    ("white", 0, D(2026, 9, 12), D(2026, 9, 13), "002 §4.2.9", "not his own"),
    ("black", 0, D(2026, 9, 2), D(2026, 9, 3), "002 §4.2.9", "now being answered can be reported"),
    ("white", 1, D(2026, 9, 7), D(2026, 9, 9), "002 §4.3.1", "before it was sent"),
    ("white", 1, D(2026, 9, 12), D(2026, 9, 11), "002 §4.2.9", "between the letter's arrival"),
    ("white", 1, D(2026, 9, 12), D(2026, 10, 11), "002 §4.2.9", "and today"),
])
def test_a_report_the_rules_do_not_allow_is_refused_and_nothing_changes(
        card: Card, game_id: int, database: Database, side: str, letter: int,
        received: dt.date, reported: dt.date, rule: str, words: str) -> None:
    _play(card, game_id, letters=2)
    ids = _ids(database, game_id)
    _refused(database, lambda: _report(database, game_id, side, ids[letter], received, reported),
             rule, words)


def test_one_letter_is_reported_once(card: Card, game_id: int, database: Database) -> None:
    _play(card, game_id, letters=2)
    ids = _ids(database, game_id)
    _report(database, game_id, "white", ids[1], D(2026, 9, 12), D(2026, 9, 13))
    _refused(database, lambda: _report(database, game_id, "white", ids[1], D(2026, 9, 12),
                                       D(2026, 9, 14)), "002 §4.2.9", "already reported")


def test_the_sender_corrects_the_reported_card_and_play_goes_on(
        card: Card, game_id: int, database: Database) -> None:
    """The report is in the archive; the corrected card replaces the faulty one as before
    (002 §4.2.5), and the reporter's receipt is the correction's arrival (reading 26)."""
    _play(card, game_id, letters=1)
    stopped = card(game_id, "black", D(2026, 9, 12), moves_text="1... f6-g5", partner_sent="01.09",
                   received="05.09", sent="08.09", postmark="08.09")
    assert stopped.stops_play and stopped.own_moves == ""  # 002 §4.2.9: nothing repeated
    ids = _ids(database, game_id)
    _report(database, game_id, "white", ids[1], D(2026, 9, 12), D(2026, 9, 14))
    card(game_id, "black", D(2026, 9, 20), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
         received="05.09", sent="17.09", postmark="17.09", corrects_letter_id=ids[1])
    check = card(game_id, "white", D(2026, 9, 25), moves_text="1... f6-g5 2. g3-h4",
                 partner_sent="17.09", received="19.09", sent="22.09", postmark="22.09")
    assert check.errors == [] and check.own_moves == "g3-h4"
    with _in_game(database, game_id) as (_, game):
        view = GameView(game)
        ledger = view.ledger()
        assert [(r.player, r.letter, r.reported) for r in ledger.error_reports] == [
            (Side.WHITE, 2, D(2026, 9, 14))]
        chart = view.chart()
        assert [(c.player, c.days, c.rule) for c in chart.charges] == [(Side.BLACK, 6, "002 §4.2.11")]


# the officials' forms ----------------------------------------------------------------------------


@pytest.fixture
def steward(login: Callable[..., FlaskClient], database: Database, game_id: int) -> FlaskClient:
    return appoint_steward(login(Role.STEWARD, login="steward1"), database, game_id)


def _web_game(steward: FlaskClient, database: Database, game_id: int) -> list[int]:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        white, black = str(game.white_id), str(game.black_id)
    for data in (
        {"sender": white, "moves_text": "1. c3-d4", "sent": "01.09.26", "postmark": "01.09.26"},
        {"sender": black, "moves_text": "1. c3-d4 f6-g5", "partner_sent": "01.09",
         "received": "05.09", "sent": "08.09", "postmark": "08.09"},
        {"sender": white, "moves_text": "1... f6-g5 2. g3-h4", "partner_sent": "08.09",
         "received": "12.09", "sent": "15.09", "postmark": "15.09"},
    ):
        assert store_card(steward, game_id, {"corrects": "0", "declaration": "none",
                                             **data}).status_code == 302
    return _ids(database, game_id)


def test_the_partner_penalty_form_refuses_in_russian_then_charges(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    ids = _web_game(steward, database, game_id)
    assert steward.get(f"/games/{game_id}").get_data(as_text=True).count(
        f"/games/{game_id}/penalties/new") == 1
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    before = _counts(database)
    data = {"letter": str(ids[1]), "charged_in": str(ids[2]), "rule": "002 §4.2.11", "reason": ""}
    page = steward.post(f"/games/{game_id}/penalties/new", data=data)
    assert page.status_code == 422
    text = unescape(page.get_data(as_text=True))
    assert "<strong>002 §4.2.11</strong>: штраф начисляется с указанием, за что именно" in text
    assert _counts(database) == before
    data["reason"] = "ход 1... f6-g5 не повторён"
    assert steward.post(f"/games/{game_id}/penalties/new", data=data).status_code == 302
    with database.transaction() as session:
        (row,) = session.scalars(select(Penalty)).all()
        assert (row.rule, row.reason, row.days, row.letter_id) == (
            "002 §4.2.11", "ход 1... f6-g5 не повторён", 6, ids[1])


def test_the_error_report_form_refuses_then_records(
        steward: FlaskClient, database: Database, game_id: int) -> None:
    ids = _web_game(steward, database, game_id)
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        black = str(game.black_id)
    assert steward.get(f"/games/{game_id}/error-reports/new").status_code == 200
    before = _counts(database)
    data = {"reporter": black, "letter": str(ids[2]), "channel": "post",
            "received": "2026-09-19", "reported": "2026-09-18"}
    page = steward.post(f"/games/{game_id}/error-reports/new", data=data)
    assert page.status_code == 422 and "002 §4.2.9" in page.get_data(as_text=True)
    assert _counts(database) == before
    data["reported"] = "2026-09-24"  # two days after the third
    assert steward.post(f"/games/{game_id}/error-reports/new", data=data).status_code == 302
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert game.letters[-1].reports_error_of_id == ids[2]
        chart = GameView(game).chart()
        assert [(c.player, c.days) for c in chart.charges] == [(Side.BLACK, 2)]
    with steward.session_transaction() as session:
        session["locale"] = "ru"
    page = steward.get(f"/games/{game_id}").get_data(as_text=True)
    assert "сообщает об ошибке в письме 3 (002 §4.2.9)" in page
