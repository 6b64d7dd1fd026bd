"""The composing policy (parsed headers and their folding kept between letters) writes the same
bytes as ``email.policy.SMTP``: every letter is built twice, with the same MIME boundaries, and
compared byte for byte — letters after letters, so the kept headers are reused. The reading
policy reads received messages as ``email.policy.default`` does."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta, timezone
from email.policy import SMTP

import pytest

from corrmail.mail import compose
from corrmail.mail.compose import Attachment, OutgoingLetter, build_message
from corrmail.mail.errors import MailError

SUBJECTS = [
    "ЗЧ-2026/3, партия 12: ход 8. c3-d4",
    "ЗЧ-2026/3: последний день ответа без просрочки, партия 12, ход 8. c3-d4 — очень длинная тема "
    "письма, которую придётся переносить на несколько строк при отправке",
    "plain ASCII subject",
    "",
]
ADDRESSES = [
    "ivan.petrov@mail.example",
    "Турнир ЗЧ-2026/3 <turnir@turnir.example>",
    '"Petrov, Ivan" <ivan@mail.example>',
]


def letters() -> list[OutgoingLetter]:
    made = []
    for index, subject in enumerate(SUBJECTS * 2):
        address = ADDRESSES[index % len(ADDRESSES)]
        made.append(OutgoingLetter(
            message_id=f"<l{index}@turnir.example>",
            from_address=ADDRESSES[1],
            to=[address] if index % 2 else [address, ADDRESSES[0]],
            subject=subject or "-",
            text="Здравствуйте!\n" + "8. c3-d4 f6-g5 " * (index * 7) + "\nС уважением.\n",
            date=datetime(2026, 3, 12, 9, index, tzinfo=UTC),
            reply_to=f"turnir+g{index}.token@turnir.example",
            references=[f"<r{index}@mail.example>", "<t.g12p34@turnir.example>"],
            in_reply_to=f"<r{index}@mail.example>" if index % 3 else None,
            html="<p>Здравствуйте!</p>" if index == 3 else None,
            attachments=(
                Attachment(f"game-{index}-move-8.svg", b"<svg>" + b"x" * 100 * index + b"</svg>",
                           "image/svg+xml"),
                Attachment("deadline.ics", b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n",
                           "text/calendar"),
            )[: index % 3],
            language="ru" if index % 2 else "en",
        ))
    return made


@pytest.mark.parametrize("rounds", [1, 3])
def test_composing_policy_writes_the_bytes_of_the_smtp_policy(
    monkeypatch: pytest.MonkeyPatch, rounds: int
) -> None:
    for _ in range(rounds):
        for letter in letters():
            random.seed(letter.message_id)
            message = build_message(letter)
            kept = message.as_bytes()
            # The outbox's writer (one write a block of lines) gives the generator's bytes.
            assert compose.message_bytes(message) == kept
            with monkeypatch.context() as patch:
                patch.setattr(compose, "SMTP_POLICY", SMTP)
                random.seed(letter.message_id)
                plain = build_message(letter).as_bytes()
            assert kept == plain


def test_reading_policy_reads_every_corpus_message_as_the_default_policy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The reading policy (each received header parsed once) gives the same reading of every
    message of the inbound corpus as ``email.policy.default``, read twice so the kept header
    objects are reused."""
    from email import policy
    from pathlib import Path

    from corrmail.mail import inbound

    messages = sorted((Path(__file__).parent / "corpus").glob("*.eml"))
    assert messages

    def reading(raw: bytes) -> object:
        try:
            return inbound.parse_inbound(raw)
        except MailError as error:  # a malformed message of the corpus: the same refusal
            return type(error), str(error)

    for _ in range(2):
        for path in messages:
            raw = path.read_bytes()
            kept = reading(raw)
            with monkeypatch.context() as patch:
                patch.setattr(inbound, "READING_POLICY", policy.default)
                plain = reading(raw)
            assert kept == plain, path.name


@pytest.mark.parametrize("stamp", [
    datetime(2026, 3, 1, 9, 30, 5, 123456, tzinfo=UTC),
    datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC),
    datetime(2026, 6, 1, 12, 0, tzinfo=timezone(timedelta(hours=3))),
])
def test_kept_calendars_are_the_calendars_icalendar_writes(stamp: datetime) -> None:
    """A calendar kept from an earlier letter, restamped, is byte for byte the one
    :mod:`icalendar` writes for the same dates and stamp."""
    from corrmail.mail import calendar as ics

    dates = [
        ics.CalendarDate("game-12-reply-deadline", "ЗЧ-2026/3: последний день ответа без "
                         "просрочки (002 §4.3.5), длинная тема; с запятой, и \\ чертой",
                         date(2026, 3, 20), description="строка\nвторая"),
        ics.CalendarDate("break-4", "break", date(2026, 4, 1), date(2026, 4, 10)),
    ]
    for chosen in ([dates[0]], dates, [dates[1]], dates):
        made = ics.calendar_attachment(chosen, domain="turnir.example", stamp=stamp)
        assert made.content == ics._calendar(chosen, "turnir.example", stamp)
        assert made.content_type == "text/calendar"
    # Every length around the fold, with escapes, carets and two-octet letters at the fold.
    for length in range(60, 160):
        for filler in ("x", "ж", "\\", ";", "^", "a,", "\r\nб", "\\N"):
            summary = ("ЗЧ-2026/3: " + filler * length)[:length]
            item = ics.CalendarDate(f"game-{length}-reply-deadline-" + "u" * (length // 2), summary,
                                    date(2026, 3, 20), description=summary[::-1])
            made = ics.calendar_attachment([item], domain="turnir.example", stamp=stamp)
            assert made.content == ics._calendar([item], "turnir.example", stamp), summary


def test_boundary_check_finds_the_lines_the_stdlib_pattern_finds() -> None:
    """The outbox's generator checks a drawn boundary against the parts without a regular
    expression; it must find exactly the delimiter lines the stdlib's pattern finds."""
    import itertools
    import re

    pieces = [b"--", b"-", b"ab", b"\n", b"\r\n", b"x", b"--ab--", b"--ab", b"ab--"]
    pattern = re.compile(b"^--" + re.escape(b"ab") + b"(--)?$", re.MULTILINE)
    for length in range(5):
        for parts in itertools.product(pieces, repeat=length):
            text = b"".join(parts)
            assert compose._is_delimiter_line(text, b"ab") == bool(pattern.search(text)), text
