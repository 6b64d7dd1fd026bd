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


#: Pieces of the letters the direct writer is compared on: headers that fold, encode (RFC 2047)
#: or are empty; bodies with long, non-ASCII, soft-break, trailing-space, ``=``, dot and
#: ``From`` lines and every line end; attachments of each kind, inline or not, empty, one line,
#: many lines, with names the stdlib quotes or encodes (those go through build_message).
DIRECT_SUBJECTS = [*SUBJECTS, "-", "x" * 200, "Re: ход 8… «c3-d4» = ничья?", "tab\there",
                   "=?utf-8?q?encoded?= word", " leading and trailing ", "ё" * 90]
DIRECT_TEXTS = [
    "", "\n", "one line without end", "Здравствуйте!\n8. c3-d4 f6-g5\nС уважением.\n",
    "a" * 77 + "\n" + "b" * 76 + "\n" + "ж" * 40 + "\n", "trailing space \nand tab\t\n",
    "equals = sign and =3D\n", ".\n..\nFrom the start\n>From\n", "crlf\r\nlines\r\nhere\r\n",
    "bare\rreturns\r", "mixed\n\r\n\rends", "x" * 1000, " " * 80 + "\n", "=\n" * 30,
    "строка " * 40 + "\n" * 3, "\u2028line separator\x0bvertical tab\x0cform feed\n",
]
DIRECT_ATTACHMENTS = [
    Attachment("game-12-move-8.svg", b"<svg>" + b"x" * 4000 + b"</svg>", "image/svg+xml"),
    Attachment("deadline.ics", b"BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", "text/calendar"),
    Attachment("board.svg", b"<svg/>", "image/svg+xml", inline=True),
    Attachment("empty.bin", b""),
    Attachment("exactly-57.bin", bytes(range(57))),
    Attachment("all-bytes.dat", bytes(range(256)) * 3, "application/octet-stream"),
    Attachment("notes.txt", "заметки\n".encode(), "text/plain"),
    Attachment("guessed.pdf", b"%PDF-1.4"),
    Attachment("no-extension", b"data"),
    # Names and types the stdlib encodes or parses specially: built by build_message.
    Attachment("партия.svg", b"<svg/>", "image/svg+xml"),
    Attachment("with space.txt", b"x", "text/plain"),
    Attachment('quote".txt', b"x", "text/plain"),
    Attachment("x" * 120 + ".txt", b"x", "text/plain"),
    Attachment("typed.ics", b"x", "text/calendar; method=REQUEST"),
    Attachment("upper.TXT", b"x", "Text/Plain"),
    Attachment("letter.eml", b"Subject: x\r\n\r\nbody\r\n", "message/rfc822"),
]


def direct_letters(count: int) -> list[OutgoingLetter]:
    rng = random.Random(20261203)
    made = []
    for index in range(count):
        attachments = tuple(rng.sample(DIRECT_ATTACHMENTS, rng.choice([0, 0, 1, 2, 2, 3])))
        made.append(OutgoingLetter(
            message_id=compose.new_message_id(rng.choice(["turnir.example", "t.example"])),
            from_address=rng.choice(ADDRESSES),
            to=rng.sample(ADDRESSES, rng.choice([1, 1, 2, 3])),
            subject=rng.choice(DIRECT_SUBJECTS),
            text="".join(rng.sample(DIRECT_TEXTS, rng.choice([1, 1, 2, 4]))),
            date=datetime(2026, 1, 1, tzinfo=rng.choice([UTC, timezone(timedelta(hours=3))]))
            + timedelta(seconds=rng.randrange(10 ** 8)),
            html="<p>x</p>" if index % 17 == 0 else None,
            reply_to=rng.choice([None, "", f"turnir+g{index}.tok@turnir.example"]),
            references=rng.choice([(), ("<a@b>",), tuple(f"<r{n}.{'x' * 30}@m.example>"
                                                            for n in range(rng.randrange(1, 6)))]),
            in_reply_to=rng.choice([None, "", "<r1@mail.example>"]),
            attachments=attachments,
            language=rng.choice(["ru", "en"]),
        ))
    return made


def test_the_direct_writer_writes_the_bytes_build_message_writes() -> None:
    """The outbox's writer of letters (:func:`compose.compose_letter`, no EmailMessage built
    for the common shapes) gives the bytes and the filed headers of building the message and
    writing it, letter for letter, with the same MIME boundary drawn; the same error where
    building fails."""
    letters_compared = direct_letters(1500) + letters()
    direct = 0
    for letter in letters_compared:
        random.seed(letter.message_id)
        try:
            expected: object = compose.composed_from_message(build_message(letter))
        except ValueError as error:
            expected = (type(error), str(error))
        random.seed(letter.message_id)
        try:
            written: object = compose.compose_letter(letter)
        except ValueError as error:
            written = (type(error), str(error))
        assert written == expected, letter
        direct += letter.html is None
    assert direct > 1000  # most letters took the direct path


def test_the_direct_writer_fails_as_build_message_does() -> None:
    bad = [
        OutgoingLetter("<x@y>", "a@b", [], "s", "t", datetime.now(UTC)),
        OutgoingLetter("<x@y>", "a@b", ["c@d"], "two\nlines", "t", datetime.now(UTC)),
        OutgoingLetter("<x@y>", "a@b", ["c@d"], "s", "t", datetime.now(UTC), reply_to="r\r\nX: y"),
    ]
    for letter in bad:
        with pytest.raises(ValueError) as built:
            build_message(letter)
        with pytest.raises(ValueError) as written:
            compose.compose_letter(letter)
        assert (type(written.value), str(written.value)) == (type(built.value), str(built.value))


def test_the_outbox_files_a_letter_without_a_subject_as_incomplete() -> None:
    """An empty required header is refused by both ways into the outbox, naming the header."""
    from corrmail.letters.outbox import IncompleteMessage, enqueue, enqueue_composed

    letter = OutgoingLetter("<x@y>", "a@b", ["c@d"], "", "t", datetime.now(UTC))
    with pytest.raises(IncompleteMessage) as built:
        enqueue(None, build_message(letter), kind="test")  # type: ignore[arg-type]
    with pytest.raises(IncompleteMessage) as written:
        enqueue_composed(None, compose.compose_letter(letter), kind="test")  # type: ignore[arg-type]
    assert built.value.header == written.value.header == "Subject"


def _received_corpus() -> list[bytes]:
    """The inbound corpus and headers written to trip the readings up: an empty first line,
    folds, tabs, 8-bit bytes, several reports, none, a Message-ID broken or long."""
    from pathlib import Path

    made = [path.read_bytes() for path in sorted((Path(__file__).parent / "corpus").glob("*.eml"))]
    heads = [
        b"Authentication-Results: mx.turnir.example; spf=pass smtp.mailfrom=a@b.example\r\n",
        b"Authentication-Results:\r\n  mx.turnir.example;\r\n\tdkim=pass header.d=b.example\r\n",
        b"Authentication-Results:   \r\n \r\n  mx.turnir.example; spf=pass\r\n",
        b"Authentication-Results: mx.turnir.example; spf=pass (\xd0\xbf\xd1\x80\xd0\xb8\xd0\xbc)\r\n",
        b"authentication-results: mx.turnir.example; dkim=fail\r\n"
        b"Authentication-Results: other.example; dkim=pass\r\n",
        b"Authentication-Results: " + b"x" * 5000 + b"\r\n",
        b"Authentication-Results:\r\n",
        b"X-Other: y\r\n",
        b"Message-ID: <\r\n",
        b"Message-ID:\r\n <folded@id.example>\r\n",
        b"Message-ID: " + b"<" + b"m" * 1200 + b"@x>\r\n",
        b"Message-ID: <\xff\xfe@bad.example>\r\n",
    ]
    for head in heads:
        for body in (b"Subject: s\r\n\r\nbody\r\n",
                     b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n"):
            made.append(b"From: a@b.example\r\n" + head + body)
    return made


def test_one_parse_of_a_received_message_reads_as_the_three_did() -> None:
    """The intake parses a received message once: its Message-ID and its topmost
    authentication results read off that parse are the ones the headers-only parses gave."""
    from corrmail.mail import envelope, inbound, inbox

    for raw in _received_corpus():
        parsed = inbound.parse_received(raw)
        assert inbox._message_id_in(parsed) == inbox._message_id_of(raw), raw[:300]
        assert (envelope.authentication_results_of(parsed)
                == envelope.topmost_authentication_results(raw)), raw[:300]


def _by_policy(name: str, value: str) -> tuple[bytes, str]:
    _, header = SMTP.header_store_parse(name, value)
    return SMTP.fold_binary(name, header), str(header)


def _dot_atoms(rng: random.Random, count: int, separators: str) -> str:
    atoms = ["".join(rng.choice("aqZ09") for _ in range(rng.randint(1, 8))) for _ in range(count)]
    text = atoms[0]
    for atom in atoms[1:]:
        text += rng.choice(separators) + atom
    return text


def test_headers_written_without_the_registry_are_the_policys() -> None:
    """The headers the direct writer writes as ``name: value`` without parsing them (a plain
    Message-ID, the Date of an aware time, a plain attachment's disposition) are, for every
    such value that fits on a line, the bytes and the text ``email.policy.SMTP`` gives, up to
    the longest line; longer ones, and values outside those forms, are parsed as usual."""
    rng = random.Random(3)
    checked = {"Message-ID": 0, "Date": 0, "Content-Disposition": 0}
    for _ in range(20000):
        value = f"<{_dot_atoms(rng, rng.randint(1, 9), '._-')}@{_dot_atoms(rng, rng.randint(1, 5), '.-')}>"
        assert compose._PLAIN_MESSAGE_ID.match(value)
        written = compose._plain_header("Message-ID", value, True)
        if written is None:
            assert len(value) > 78 - len("Message-ID: ")
            continue
        assert (written[1].folded, str(written[1])) == _by_policy("Message-ID", value), value
        checked["Message-ID"] += 1
    for length in range(1, 70):
        name = "".join(rng.choice("aZ09._-") for _ in range(length))
        assert compose._PLAIN_FILENAME.match(name)
        for disposition in ("attachment", "inline"):
            value = f'{disposition}; filename="{name}"'
            written = compose._plain_header("Content-Disposition", value, True)
            if written is None:
                assert len(value) > 78 - len("Content-Disposition: ")
                continue
            assert (written[1].folded, str(written[1])) == _by_policy("Content-Disposition", value)
            checked["Content-Disposition"] += 1
    for _ in range(20000):
        offset = timedelta(minutes=rng.randint(-(23 * 60 + 59), 23 * 60 + 59))
        when = datetime(1900, 1, 1, tzinfo=timezone(offset)) + timedelta(
            seconds=rng.randrange(8000 * 365 * 86400), microseconds=rng.randrange(10 ** 6))
        assert compose._plain_date(when)
        value = compose.format_datetime(when)
        written = compose._plain_header("Date", value, True)
        assert written is not None
        assert (written[1].folded, str(written[1])) == _by_policy("Date", value), value
        checked["Date"] += 1
    assert min(checked.values()) > 50, checked
    # Times that do not read back as written are parsed: naive, a seconds offset, a short year.
    assert not compose._plain_date(datetime(2026, 1, 1))
    assert not compose._plain_date(datetime(2026, 1, 1, tzinfo=timezone(timedelta(seconds=30))))
    assert not compose._plain_date(datetime(50, 1, 1, tzinfo=UTC))
    assert not compose._PLAIN_MESSAGE_ID.match("<.a@b>")
    assert not compose._PLAIN_MESSAGE_ID.match("<a b@c>")


def test_kept_address_parses_are_getaddresses() -> None:
    """Addresses read from received headers (each header text parsed once) are the pairs
    ``getaddresses`` gives, read twice so the kept parses are reused; a value it fails on
    fails the same way every time."""
    from email.utils import getaddresses

    from corrmail.mail.addresses import addresses_in

    values = [
        [""], ["ivan@mail.example"], ['"Petrov, Ivan" <ivan@mail.example>'],
        ["Иван <ivan@mail.example>, b@c.example"], ["=?utf-8?b?0JjQstCw0L0=?= <i@m.example>"],
        ["a@b.example (comment)", "c@d.example"], ["undisclosed-recipients:;"], ["<>"],
        ["a@b@c"], ["\"unterminated <a@b.example>"], ["x" * 2000 + "@long.example"],
        ["turnir+g12.p34.abcdef@turnir.example"], ["a@b.example,,c@d.example"],
    ]
    for _ in range(2):
        for value in values:
            try:
                expected: object = getaddresses(value)
            except (ValueError, IndexError) as error:
                expected = type(error)
            try:
                kept: object = addresses_in(value)
            except (ValueError, IndexError) as error:
                kept = type(error)
            assert kept == expected, value


def test_base64_lines_are_the_content_managers() -> None:
    """Attachments are encoded at once and cut into lines: the text the stdlib's content
    manager writes a line at a time, for every length around the line's 57 bytes and beyond."""
    from email.contentmanager import _encode_base64  # type: ignore[attr-defined]

    rng = random.Random(57)
    for length in [*range(0, 400), 4000, 4001, 4002, 65536]:
        data = rng.randbytes(length)
        for line_length in (78, 76, 77, 4, 5, 998):
            assert compose._base64_lines(data, line_length) == _encode_base64(
                data, max_line_length=line_length), (length, line_length)
