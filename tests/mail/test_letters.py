"""Every letter template renders in Russian and English, and says what the rules require."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import SimpleNamespace

import pytest

from corrmail.letters.write import LANGUAGES, LetterWriter, TemplateFormatError, letters_env
from corrmail.mail.correspondence import RuleNotice
from corrmail.mail.settings import MailSettings
from corrmail.paths import templates_dir

WRITER = LetterWriter(MailSettings("turnir.example", "turnir@turnir.example", b"s"))
# The mail layer's own letters (other areas keep theirs in the same directory, e.g. bulletins).
TEMPLATES = sorted({
    "move", "move_receipt", "variant_applied", "error_notice", "not_to_move", "not_understood",
    "game_closed", "game_suspended", "game_over", "break_notice",
    "overstep_claim_received", "protest_forwarded", "protest_received",
    "refusal", "repeat", "first_move_query", "digest", "start_sheet", "end_of_play",
    "break_refused", "break_confirmed",
})
PERSON = SimpleNamespace(name="Иванов Пётр", display_name="Судья")
CONTEXT = {
    "tournament": SimpleNamespace(code="ЗЧ-2026/3", title="Заочный чемпионат",
                                  start_date=dt.date(2026, 3, 1), end_date=dt.date(2027, 2, 28),
                                  time_control_days=50, time_control_moves=10),
    "game": SimpleNamespace(id=12, round=3),
    "recipient": PERSON, "white": PERSON, "black": PERSON, "sender": PERSON,
    "official": PERSON, "claimant": PERSON, "offender": PERSON,
    "repeated": "7... h6-g5", "moves": "8. c3-d4", "accepted_variant": "g5-f4",
    "variant_reply": "9... h4:f6", "variants": ["если 8... g5-f4, то 9. e3:g5"],
    "dates": (dt.date(2026, 3, 10), dt.date(2026, 3, 10), dt.date(2026, 3, 12)),
    "fraction": "14/11", "notes": [RuleNotice("002 §4.2.10", "substituted", "a3-c5 → a3-b4")],
    "by_post": False, "relayed_on": dt.date(2026, 3, 12),
    "draw_offer": True, "draw_decline": False, "state": "finished",
    "issues": [{"rule": "002 §4.2.7", "code": "empty_variant", "written": "вариант А:"}],
    "notices": [RuleNotice("002 §4.2.9", "repetition_missing", "7... h6-g5")],
    "penalty_days": 6, "result": "draw", "record": "1. c3-d4 f6-g5",
    "first_day": dt.date(2026, 10, 10), "last_day": dt.date(2026, 10, 25), "days": 16,
    "late": True, "announced": dt.date(2026, 10, 1), "server_found": True,
    "objection_due": dt.date(2026, 10, 11), "protest": "Протестую", "received": dt.date(2026, 10, 1),
    "reason": "sender_mismatch", "subject": "Re: ход",
    "due": dt.date(2026, 3, 31), "start": dt.date(2026, 3, 1), "repeat_date": dt.date(2026, 4, 2),
    "week": "2026-W14", "today": dt.date(2026, 3, 30),
    "rows": [{"game": SimpleNamespace(round=1), "partner": PERSON, "days_left": 21}],
    "games": [{"game": SimpleNamespace(round=1), "colour": "white",
               "partner": SimpleNamespace(name="Седов", email="s@e.org", postal_address=None)}],
    "start_sheet_rule": "002 §4.3.2", "deadline": dt.date(2026, 4, 30), "end": dt.date(2027, 2, 28),
    "reasons": [{"rule": "002 §4.4.1", "code": "second_break_in_year"}], "stands": None,
    "announced_first": dt.date(2026, 10, 10), "announced_last": dt.date(2026, 10, 25),
    "announced_days": 16, "most": 30, "cut": False, "counts_from": dt.date(2026, 10, 10),
    "counted_days": 16,
    "partners_told": ["Седов Сергей"], "partners_by_post": [],
    "ending": "resigned", "ended_by": "black",
}


def test_both_languages_have_the_same_templates() -> None:
    root = templates_dir() / "letters"
    assert sorted(p.name for p in (root / "ru").glob("*.txt")) == sorted(
        p.name for p in (root / "en").glob("*.txt")
    )
    present = {p.stem for p in (root / "ru").glob("*.txt")}
    assert set(TEMPLATES) <= present


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", TEMPLATES)
def test_template_renders(name: str, language: str) -> None:
    letter = WRITER.render(name, language, **CONTEXT)
    assert letter.subject and "\n" not in letter.subject
    assert letter.text.strip()
    assert "{{" not in letter.text and "{%" not in letter.text


def test_move_letter_has_everything_002_4_2_3_lists() -> None:
    text = WRITER.render("move", "ru", **CONTEXT).text
    for part in ("Здравствуйте, Иванов Пётр", "ЗЧ-2026/3", "7... h6-g5", "8. c3-d4",
                 "если 8... g5-f4", "10.03.2026 / 10.03.2026 / 12.03.2026", "14/11",
                 "Иванов Пётр\n", "Ответ пишите ответом на это письмо"):
        assert part in text, part


@pytest.mark.parametrize(("language", "reply", "opening"), [
    ("ru", "Ответ партнёра: 8. c3-d4", "Ход партнёра: 8. c3-d4"),
    ("en", "Your partner's reply: 8. c3-d4", "Your partner's move: 8. c3-d4"),
])
def test_the_opening_move_is_the_partners_move_not_a_reply(language: str, reply: str,
                                                           opening: str) -> None:
    """White's first move answers nothing: the letter calls it a move; later ones, which repeat
    the recipient's move, a reply."""
    answered = WRITER.render("move", language, **CONTEXT).text
    first = WRITER.render("move", language, **{**CONTEXT, "repeated": ""}).text
    assert reply in answered and opening not in answered
    assert opening in first and reply not in first


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_relayed_postcard_says_whose_dates_it_gives_and_when_time_counts(language: str) -> None:
    """002 §4.3.1: a card's dates are its postmark and the player's; the e-mail partner's time
    counts from the day the server relayed the move, which the letter names."""
    by_server = WRITER.render("move", language, **CONTEXT).text
    by_post = WRITER.render("move", language, **{**CONTEXT, "by_post": True}).text
    words = {"ru": ("по штемпелю сервера", "по карточке партнёра и почтовому штемпелю"),
             "en": ("server postmarks", "as your partner's card and its postmark give them")}
    server_words, card_words = words[language]
    assert server_words in by_server and card_words not in by_server
    assert card_words in by_post and server_words not in by_post
    assert "12.03.2026" in by_post and "002 §4.3.1" in by_post


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_break_is_its_own_letter_not_an_error_that_stops_play(language: str) -> None:
    """002 §4.4.1: a refused break stops nothing and asks for no correction; the reason is worded
    in the reader's language, never the rule package's English."""
    refused = WRITER.render("break_refused", language, **CONTEXT)
    error = WRITER.render("error_notice", language, **CONTEXT)
    assert "002 §4.4.1" in refused.text and refused.subject != error.subject
    words = {"ru": ("второй перерыв в календарном году", "Игра не остановлена"),
             "en": ("a second break in the calendar year", "Play is not stopped")}[language]
    assert all(word in refused.text for word in words), refused.text
    for stop in ("остановлена до исправления", "Пришлите исправление", "play stops until",
                 "send the correction", "second break of"):
        assert stop not in refused.text and stop not in refused.subject
    # A break over 30 days is not refused: it stands for its first 30, and the player's
    # confirmation says so (the cut used to be worded by this template, on one broken line).
    shortened = WRITER.render("break_confirmed", language, **{
        **CONTEXT, "announced_first": dt.date(2026, 4, 1), "announced_last": dt.date(2026, 5, 15),
        "announced_days": 45, "first_day": dt.date(2026, 4, 1), "last_day": dt.date(2026, 4, 30),
        "days": 30, "cut": True, "late": False})
    assert "30.04.2026" in shortened.text


def test_error_notice_names_the_rule_and_the_penalty() -> None:
    ru = WRITER.render("error_notice", "ru", **CONTEXT).text
    assert "002 §4.2.9" in ru and "6 штрафных дней" in ru and "7... h6-g5" in ru
    en = WRITER.render("error_notice", "en", **CONTEXT).text
    assert "002 §4.2.11" in en and "6 penalty days" in en


def test_unknown_language_falls_back_to_russian() -> None:
    assert WRITER.render("move", "de", **CONTEXT).subject.startswith("ЗЧ-2026/3")


def test_a_template_without_subject_is_refused(tmp_path: Path) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "ru" / "bad.txt").write_text("Hello\n")
    writer = LetterWriter(WRITER.settings, env=letters_env(tmp_path))
    with pytest.raises(TemplateFormatError, match="Subject"):
        writer.render("bad", "ru")


def test_missing_context_is_an_error_not_a_blank() -> None:
    import jinja2

    with pytest.raises(jinja2.UndefinedError):
        WRITER.render("move", "ru", tournament=CONTEXT["tournament"])


def test_message_ids_stay_unique_when_the_global_random_generator_is_reseeded() -> None:
    """Regression: ``make_msgid`` drew from :mod:`random`; after ``random.seed`` (Hypothesis does
    it per example) two letters in the same hundredth of a second shared a Message-ID and the
    outbox's unique key refused the second (a fuzzed letter ended 'failed')."""
    import random

    from corrmail.mail.compose import new_message_id

    ids = set()
    for _ in range(50):
        random.seed(7)
        ids.add(new_message_id("turnir.example"))
    assert len(ids) == 50
    assert all(i.startswith("<corrmail.") and i.endswith("@turnir.example>") for i in ids)


@pytest.mark.parametrize(("language", "ending", "ended_by", "says"), [
    ("ru", "resigned", "black", "Партия окончена: победа белых (1:0). Чёрные (Седов Сергей) сдали "
                                "партию."),
    ("ru", "draw_agreed", "white", "Белые (Иванов Пётр) приняли предложение ничьей."),
    ("ru", "board", "white", "Партия закончилась на доске ходом белых (Иванов Пётр)."),
    ("en", "resigned", "black", "The game is over: White wins (1-0). Black (Седов Сергей) "
                                "resigned."),
    ("en", "draw_agreed", "white", "White (Иванов Пётр) accepted the draw offer."),
    ("en", "board", "black", "The game is over: Black wins (0-1). The game ended on the board "
                             "with Black's move (Седов Сергей)."),
])
def test_the_game_over_letter_says_who_ended_the_game_and_how(
        language: str, ending: str, ended_by: str, says: str) -> None:
    white, black = SimpleNamespace(name="Иванов Пётр"), SimpleNamespace(name="Седов Сергей")
    winner = ended_by if ending == "board" else {"white": "black", "black": "white"}[ended_by]
    result = "draw" if ending == "draw_agreed" else f"{winner}_win"
    letter = WRITER.render("game_over", language, **{**CONTEXT, "white": white, "black": black,
                                                     "result": result, "ending": ending,
                                                     "ended_by": ended_by})
    assert says in letter.text
