"""Postal entry: a postcard judged per rule, stored with what follows or refused
whole."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from sqlalchemy import func, select

from corrmail.db import Database
from corrmail.games.ledger import effective_letters
from corrmail.games.view import GameView
from corrmail.models import AuditEntry, Game, GameResult, GameState, Letter, Penalty
from corrmail.play.postcards import Declaration, PostcardCheck, PostcardRejected

D = dt.date
Card = Callable[..., PostcardCheck]


def _letters(database: Database, game_id: int) -> list[Letter]:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return list(game.letters)


def _opening(card: Card, game_id: int) -> None:
    card(game_id, "white", D(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26",
         postmark="01.09.26", declared_white_days=0, declared_black_days=0)


def test_a_correct_card_is_stored_and_moves_the_game(card: Card, game_id: int,
                                                     database: Database) -> None:
    _opening(card, game_id)
    check = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09.2026",
                 declared_white_days=0, declared_black_days=3)
    assert check.findings == []
    assert check.own_moves == "f6-g5"
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert game.state is GameState.IN_PLAY
        view = GameView(game)
        assert view.plies == ["c3-d4", "f6-g5"]
        assert view.chart().totals.black == 3
        letter = game.letters[-1]
        assert (letter.partner_sent, letter.received, letter.sent) == (
            D(2026, 9, 1), D(2026, 9, 5), D(2026, 9, 8))
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "letter.postal")
                                .order_by(AuditEntry.id.desc())).first()
        assert entry is not None and entry.detail["stops_play"] is False


def test_short_notation_stops_play_with_six_days(card: Card, game_id: int,
                                                 database: Database) -> None:
    """002 §4.2.2: a move in short notation is impossible; §4.2.10/4.2.11 follow."""
    _opening(card, game_id)
    check = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 fg5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09")
    assert check.stops_play and check.penalty_days == 6
    assert check.stop is not None and check.stop.rule == "002 §4.2.2"
    assert "short notation" in check.stop.problem
    assert "6 penalty days" in check.stop.consequence and "3 days" in check.stop.consequence
    assert check.notice_due == D(2026, 9, 15)
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        penalty = session.scalars(select(Penalty).where(Penalty.game_id == game_id)).one()
        assert (penalty.days, penalty.rule) == (6, "002 §4.2.11")
        # Nothing of the card reached the board: Black is still to move.
        assert GameView(game).plies == ["c3-d4"]
        assert GameView(game).chart().totals.black == 6


def test_single_move_substitution_is_played_without_penalty(card: Card, game_id: int) -> None:
    """002 §4.2.10: the piece on a3 has one move, b4: the recipient names it and answers."""
    check = card(game_id, "white", D(2026, 9, 3), moves_text="1. a3-c5", sent="01.09.26",
                 postmark="01.09.26")
    assert check.own_moves == "a3-b4"
    assert not check.stops_play and check.penalty_days == 0
    assert [f.rule for f in check.findings] == ["002 §4.2.10"]
    assert "no penalty" in check.findings[0].consequence


def test_impossible_move_the_sender_must_replace(card: Card, game_id: int,
                                                 database: Database) -> None:
    check = card(game_id, "white", D(2026, 9, 3), moves_text="1. c3-e5", sent="01.09.26",
                 postmark="01.09.26")
    assert check.stop is not None and check.stop.rule == "002 §4.2.10"
    assert "the sender replaces the move" in check.stop.consequence
    # The corrected card replaces the faulty one in the archive (002 §4.2.5).
    faulty = _letters(database, game_id)[-1]
    card(game_id, "white", D(2026, 9, 6), moves_text="1. c3-d4", sent="04.09.26",
         postmark="04.09.26", corrects_letter_id=faulty.id)
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert [letter.moves_text for letter in effective_letters(game.letters)] == ["c3-d4"]
        assert len(game.letters) == 2


def test_wrong_repetition_of_the_partner_move(card: Card, game_id: int) -> None:
    """002 §4.2.9: the partner's c3-d4 repeated as c3-b4."""
    _opening(card, game_id)
    check = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-b4 f6-g5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09")
    assert check.stop is not None and check.stop.rule == "002 §4.2.9"
    assert "repeated wrongly" in check.stop.problem
    missing = card(game_id, "black", D(2026, 9, 20), moves_text="1... f6-g5",
                   partner_sent="01.09", received="05.09", sent="16.09", postmark="16.09")
    assert missing.stop is not None and "not repeated" in missing.stop.problem


def test_missing_dates_are_pointed_out(card: Card, game_id: int) -> None:
    """002 §4.3.3: dates and times omitted are findings, the card still counts."""
    _opening(card, game_id)
    check = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5", sent="08.09",
                 postmark="08.09")
    rules = [f.rule for f in check.findings]
    assert set(rules) == {"002 §4.3.3"}
    # Ours (dates, time not written) and the chart's (the estimated receipt, a first omission).
    assert any(f.consequence == "noted in the time chart" for f in check.findings)
    assert any("receipt" in f.problem for f in check.findings)
    assert not check.stops_play


def test_postmark_stands_in_for_a_missing_dispatch_date(card: Card, game_id: int) -> None:
    check = card(game_id, "white", D(2026, 9, 3), moves_text="c3-d4", postmark="02.09.26")
    assert check.sent == D(2026, 9, 2)
    assert any("no dispatch date" in f.problem for f in check.findings)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"moves_text": "c3-d4", "sent": "31.02.26"}, "dispatch date"),
        ({"moves_text": "c3-d4", "sent": "yesterday"}, "day first"),
        ({"moves_text": "c3-d4"}, "neither a dispatch date nor a postmark"),
        ({"moves_text": "c3-d4", "sent": "01.10.26"}, "after today"),
        ({"moves_text": "", "sent": "01.09.26"}, "no move"),
    ],
)
def test_entry_errors_store_nothing(card: Card, game_id: int, database: Database,
                                    fields: dict[str, str], message: str) -> None:
    with database.transaction() as session:
        audited = session.scalar(select(func.count()).select_from(AuditEntry))
    with pytest.raises(PostcardRejected) as raised:
        card(game_id, "white", D(2026, 9, 3), **fields)
    assert message in str(raised.value)
    assert _letters(database, game_id) == []
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(AuditEntry)) == audited


def test_card_from_the_player_not_to_move_is_refused(card: Card, game_id: int,
                                                     database: Database) -> None:
    with pytest.raises(PostcardRejected, match="002 §4.2.8"):
        card(game_id, "black", D(2026, 9, 3), moves_text="f6-g5", sent="01.09.26")
    assert _letters(database, game_id) == []


def test_reply_sent_before_receipt_is_refused(card: Card, game_id: int,
                                              database: Database) -> None:
    _opening(card, game_id)
    with pytest.raises(PostcardRejected, match="002 §4.3.1"):
        card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5",
             partner_sent="01.09", received="09.09", sent="08.09", postmark="08.09")
    assert len(_letters(database, game_id)) == 1


def test_resignation_and_draw_by_agreement(card: Card, game_id: int, database: Database) -> None:
    _opening(card, game_id)
    with pytest.raises(PostcardRejected, match="no draw"):
        card(game_id, "black", D(2026, 9, 12), sent="08.09", declaration=Declaration.ACCEPTS_DRAW)
    card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
         received="05.09", sent="08.09", raw_text="f6-g5. Предлагаю ничью.")
    check = card(game_id, "white", D(2026, 9, 20), sent="15.09", partner_sent="08.09",
                 received="12.09", declaration=Declaration.ACCEPTS_DRAW)
    assert check.result is GameResult.DRAW
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert (game.state, game.result) == (GameState.FINISHED, GameResult.DRAW)
    with pytest.raises(PostcardRejected, match="002 §4.5"):
        card(game_id, "black", D(2026, 9, 25), sent="22.09", declaration=Declaration.RESIGNS)


def test_moves_are_read_as_players_write_them(card: Card, game_id: int) -> None:
    """Cyrillic look-alikes, spaces around the dash and «x» for a capture (002 §4.2.2)."""
    check = card(game_id, "white", D(2026, 9, 3), moves_text="1. С3 - D4", sent="01.09.26")
    assert check.own_moves == "c3-d4" and check.findings == []


def test_declared_time_that_differs_from_the_chart(card: Card, game_id: int) -> None:
    """002 §4.3.1: the fraction written is checked against the chart; the chart's count stands."""
    _opening(card, game_id)
    check = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09",
                 declared_white_days=0, declared_black_days=2)
    (finding,) = check.findings
    assert finding.rule == "002 §4.3.1" and "0/2" in finding.problem and "0/3" in finding.problem


def test_only_the_last_card_can_be_replaced(card: Card, game_id: int, database: Database) -> None:
    """002 §4.2.5: a replacement stands in for the card play waits for, not an older one."""
    _opening(card, game_id)
    opening = _letters(database, game_id)[0]
    card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
         received="05.09", sent="08.09")
    with pytest.raises(PostcardRejected, match="not the last letter"):
        card(game_id, "white", D(2026, 9, 14), moves_text="1. c3-b4", sent="01.09.26",
             corrects_letter_id=opening.id)
    with pytest.raises(PostcardRejected, match="not the last letter"):
        card(game_id, "white", D(2026, 9, 14), moves_text="1... f6-g5 2. g3-h4", sent="12.09",
             partner_sent="08.09", received="11.09", corrects_letter_id=999_999)
    assert len(_letters(database, game_id)) == 2


@pytest.mark.parametrize(
    ("opening_reply", "variant", "reply", "uncounted", "forced", "counted"),
    [
        # After 2. g3-h4 black's c5:a3 is the only move: it counts (002 §4.2.4, §4.3.5).
        ("b6-c5", "если 2. g3-h4, то c5:a3", "c5:a3", 0, 1, 2),
        # After 2. g3-h4 black had a choice: his variant's move goes uncounted (002 §4.3.5).
        ("b6-a5", "если 2. g3-h4, то f6-g5", "f6-g5", 1, 0, 1),
    ],
)
def test_a_forced_move_of_an_accepted_variant_is_recorded_as_forced_in_the_ledger(
        card: Card, game_id: int, database: Database, opening_reply: str, variant: str,
        reply: str, uncounted: int, forced: int, counted: int) -> None:
    """002 §4.2.4 with §4.3.5: the variant's reply the game core plays for its proposer is
    counted as the ledger's letter of that reply; a forced one counts for the overstep."""
    card(game_id, "white", D(2026, 9, 3), moves_text="1. a3-b4", sent="01.09.26",
         postmark="01.09.26", declared_white_days=0, declared_black_days=0)
    card(game_id, "black", D(2026, 9, 12), moves_text=f"1. a3-b4 {opening_reply}",
         variants_text=variant, partner_sent="01.09", received="05.09", sent="08.09",
         postmark="08.09", declared_white_days=0, declared_black_days=3)
    check = card(game_id, "white", D(2026, 9, 20), moves_text=f"1... {opening_reply} 2. g3-h4",
                 partner_sent="08.09", received="12.09", sent="15.09", postmark="15.09",
                 declared_white_days=3, declared_black_days=3)
    assert check.variant_reply == reply and check.errors == []
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        view = GameView(game)
        ledger = view.ledger()
        black = [entry for entry in ledger.letters if entry.sender.value == "black"]
        assert [(e.move, e.uncounted_moves, e.forced_moves) for e in black] == [
            (1, 0, 0), (2, uncounted, forced)]
        chart = view.chart()
        assert list(chart.errors) == []
        assert chart.rows[-1].counted_moves == counted


def test_each_element_the_card_lacks_is_named_and_the_card_is_entered(
        card: Card, game_id: int, database: Database) -> None:
    """002 §4.2.3: a card without its greeting and signature is entered — the rule attaches no
    penalty to a missing element — and each missing one is named, in the rule's order."""
    _opening(card, game_id)
    check = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09",
                 declared_white_days=0, declared_black_days=3, lacks=("signature", "greeting"))
    (finding,) = check.findings
    assert finding.rule == "002 §4.2.3" and finding.code == "letter_elements_missing"
    assert finding.problem == "the letter lacks: greeting, signature"
    assert "no penalty" in finding.consequence and not check.stops_play
    assert check.penalty_days == 0 and len(_letters(database, game_id)) == 2
    with database.transaction() as session:
        entry = session.scalars(select(AuditEntry).where(AuditEntry.action == "letter.postal")
                                .order_by(AuditEntry.id.desc())).first()
        assert entry is not None
        assert [f["rule"] for f in entry.detail["findings"]] == ["002 §4.2.3"]
        assert session.scalar(select(func.count()).select_from(Penalty)) == 0


def test_a_call_needs_no_return_address_nor_signature(card: Card, game_id: int) -> None:
    """002 §4.2.3 with §4.1.3: a move given by telephone has no envelope and no signature."""
    from corrmail.models import Channel

    check = card(game_id, "white", D(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26",
                 declared_white_days=0, declared_black_days=0, channel=Channel.PHONE,
                 postmark="01.09.26", lacks=("return_address", "signature"))
    assert check.findings == []


@pytest.mark.parametrize("lacks", [("own_move",), ("three_dates",), ("handshake",)])
def test_an_element_the_steward_cannot_see_on_the_card_is_refused(
        card: Card, game_id: int, database: Database, lacks: tuple[str, ...]) -> None:
    """The moves, dates and time are judged from what the steward typed (002 §4.2.3 via
    §4.2.9 and §4.3.3); ticking them, or an unknown element, is refused and nothing is stored."""
    with pytest.raises(PostcardRejected, match="002 §4.2.3") as raised:
        card(game_id, "white", D(2026, 9, 3), moves_text="1. c3-d4", sent="01.09.26",
             postmark="01.09.26", lacks=lacks)
    assert "not an element the steward reads off the card" in str(raised.value)
    assert _letters(database, game_id) == []


def _chart_totals(database: Database, game_id: int) -> tuple[int, int]:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        totals = GameView(game).chart().totals
        return totals.white, totals.black


def test_a_date_the_steward_mistyped_is_corrected_by_entering_the_card_again(
        card: Card, game_id: int, database: Database) -> None:
    """The card says sent 08.09; the steward typed 18.09 and Black was charged 10 days more. The
    same card entered again as written, correcting that letter (002 §4.2.5), is judged against
    the game as it stood before it — not as a second letter of Black after his own — and Black's
    time is his card's again: a slip of the steward's costs the player nothing."""
    _opening(card, game_id)
    card(game_id, "black", D(2026, 9, 20), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
         received="05.09", sent="18.09", postmark="08.09")
    assert _chart_totals(database, game_id)[1] == 13
    slip = _letters(database, game_id)[-1]
    check = card(game_id, "black", D(2026, 9, 21), moves_text="1. c3-d4 f6-g5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09",
                 corrects_letter_id=slip.id, entry_error=True)
    assert check.errors == [] and check.own_moves == "f6-g5"
    assert check.time_after is not None and check.time_after.black == 3
    assert _chart_totals(database, game_id)[1] == 3
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert [letter.sent for letter in effective_letters(game.letters)] == [
            D(2026, 9, 1), D(2026, 9, 8)]


def test_a_move_the_steward_mistyped_costs_the_player_no_penalty_once_re_entered(
        card: Card, game_id: int, database: Database) -> None:
    """The card says 1... f6-g5; the steward typed f6-f5 (impossible): play stopped and Black was
    charged 6 days (002 §4.2.11). Entered again as written (an entry error), the card carries no
    fault: the 6 days stand no more, in the chart and the stored state alike."""
    _opening(card, game_id)
    stopped = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-f5",
                   partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09")
    assert stopped.stops_play and stopped.penalty_days == 6
    # The check showed the figures the stored letter gives: the sender's 6 days (002 §4.2.11).
    assert stopped.time_before is not None and stopped.time_after is not None
    assert (stopped.time_after.black - stopped.time_before.black) == 6
    assert _chart_totals(database, game_id) == (0, 6)
    wrong = _letters(database, game_id)[-1]
    check = card(game_id, "black", D(2026, 9, 13), moves_text="1. c3-d4 f6-g5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="08.09",
                 corrects_letter_id=wrong.id, entry_error=True)
    assert check.errors == [] and not check.stops_play
    assert check.time_after is not None and check.time_after.black == 3
    assert _chart_totals(database, game_id) == (0, 3)
    with database.transaction() as session:
        [penalty] = session.scalars(select(Penalty).where(Penalty.game_id == game_id)).all()
        assert penalty.letter_id == wrong.id  # kept on record, append-only, but void


def test_the_senders_new_card_after_a_fault_keeps_the_penalty(
        card: Card, game_id: int, database: Database) -> None:
    """The card itself was faulty (002 §4.2.10): the sender's new card replaces it, and the 6
    days of 002 §4.2.11 stand — only an entry error undoes a penalty."""
    _opening(card, game_id)
    card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-f5", partner_sent="01.09",
         received="05.09", sent="08.09", postmark="08.09")
    faulty = _letters(database, game_id)[-1]
    card(game_id, "black", D(2026, 9, 20), moves_text="1. c3-d4 f6-g5", partner_sent="01.09",
         received="05.09", sent="16.09", postmark="16.09", corrects_letter_id=faulty.id)
    assert _chart_totals(database, game_id) == (0, 17)  # 11 days of thinking and correcting + 6


def test_a_postmark_before_the_receipt_or_the_start_is_refused_and_stores_nothing(
        card: Card, game_id: int, database: Database) -> None:
    """002 §4.3.1 dates a dispatch by its postmark: a card stamped before its writer received
    the move it answers, or before play began (002 §4.3.2), has a mistyped date."""
    _opening(card, game_id)
    with pytest.raises(PostcardRejected) as early:
        card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5",
             partner_sent="01.09", received="05.09", sent="08.09", postmark="04.09")
    assert [(e.rule, e.code) for e in early.value.errors] == [("002 §4.3.1", "postmark_before_receipt")]
    assert ("the postmark 04.09.2026 comes before the receipt 05.09.2026 of the move the card "
            "answers") in early.value.errors[0].problem
    assert len(_letters(database, game_id)) == 1


def test_a_postmark_other_than_the_written_date_is_kept_and_pointed_out(
        card: Card, game_id: int, database: Database) -> None:
    _opening(card, game_id)
    check = card(game_id, "black", D(2026, 9, 12), moves_text="1. c3-d4 f6-g5",
                 partner_sent="01.09", received="05.09", sent="08.09", postmark="10.09")
    [finding] = [f for f in check.findings if f.code == "postmark_differs"]
    assert finding.problem == "the card is dated 08.09.2026 but its postmark is 10.09.2026"
    assert _letters(database, game_id)[-1].sent == D(2026, 9, 8)


def test_a_card_posted_before_the_start_date_is_taken_and_costs_no_time(
        card: Card, game_id: int, database: Database) -> None:
    """«Если игрок начал игру в день начала игры … или ранее, то время на первый ход не
    начисляется» (002 §4.3.2): White posts his first move on receiving his start sheet, before
    the start date; the card is stored as an e-mail sent then would be, and his time is 0."""
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        start = game.tournament.start_date
        game.white.start_sheet_sent_on = start - dt.timedelta(days=12)
    early = start - dt.timedelta(days=7)
    check = card(game_id, "white", start - dt.timedelta(days=5), moves_text="1. c3-d4",
                 sent=f"{early:%d.%m.%Y}", postmark=f"{early:%d.%m.%Y}")
    assert check.errors == []
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        assert [letter.moves_text for letter in game.letters] == ["c3-d4"]
        assert GameView(game).chart().totals.white == 0


def test_a_card_posted_before_its_writers_start_sheet_is_refused_and_nothing_is_stored(
        card: Card, game_id: int, database: Database) -> None:
    with database.transaction() as session:
        game = session.get(Game, game_id)
        assert game is not None
        start = game.tournament.start_date
        sheet = start - dt.timedelta(days=3)
        game.white.start_sheet_sent_on = sheet
    early = start - dt.timedelta(days=10)
    with pytest.raises(PostcardRejected) as refused:
        card(game_id, "white", start, moves_text="1. c3-d4", sent=f"{early:%d.%m.%Y}",
             postmark=f"{early:%d.%m.%Y}")
    [error] = refused.value.errors
    assert error.rule == "002 §4.3.2" and error.code == "postmark_before_start_sheet"
    assert f"{sheet:%d.%m.%Y}" in error.problem
    assert _letters(database, game_id) == []
