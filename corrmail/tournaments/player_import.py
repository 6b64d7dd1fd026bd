"""Reading a list of players from a CSV file, as federations keep them in Excel.

Lenient like a referee reading a list: UTF-8 (with or without BOM) or Windows-1251, comma or
semicolon, Russian or English column names. Strict about what a start sheet needs: every problem
is collected with its line number, and a file with any problem imports nothing.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import re
from dataclasses import dataclass, field

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from corrmail.letters.write import language_named
from corrmail.models import Channel, TournamentChannel

MAX_BYTES = 2 * 1024 * 1024
#: Players one file may enter: a federation's largest start list with room to spare. A larger
#: file is refused whole before anything is written (it would hold the database for minutes).
MAX_ROWS = 5000

# Column names as they appear in federation spreadsheets, normalised (lower case, no punctuation).
COLUMNS: dict[str, tuple[str, ...]] = {
    "name": ("name", "player", "фио", "фамилия имя", "фамилия имя отчество", "игрок", "участник"),
    "email": (
        "email",
        "e-mail",
        "mail",
        "эл почта",
        "электронная почта",
        "почта",
        "адрес эл почты",
    ),
    "postal_address": ("address", "postal address", "адрес", "почтовый адрес"),
    "rating": ("rating", "рейтинг"),
    "club": ("club", "клуб", "город клуб", "команда"),
    # How the player plays (002 §4.1.1); a blank cell follows the tournament's channel.
    "channel": ("channel", "plays by", "канал", "способ игры", "играет", "как играет"),
    "language": ("language", "letter language", "language of letters", "язык", "язык писем"),
}

#: The words a channel cell may hold, normalised as headings are (``_normalise``): Russian and
#: English, the way a referee writes them. «почта» alone is the post, as in «по почте».
CHANNEL_WORDS: dict[str, Channel] = {
    **dict.fromkeys(("почта", "по почте", "почтой", "post", "mail post", "postal"), Channel.POST),
    **dict.fromkeys(("e-mail", "email", "эл почта", "электронная почта", "по эл почте",
                     "по электронной почте", "e-mail почта"), Channel.EMAIL),
    **dict.fromkeys(("web", "сайт", "через сайт", "на сайте", "website"), Channel.WEB),
    **dict.fromkeys(("телефон", "по телефону", "phone", "telephone"), Channel.PHONE),
}
#: The words named when a cell holds none of them.
CHANNEL_HINT = "почта / post, e-mail / эл. почта, сайт / web, телефон / phone"

#: Each column by the name the player form gives its field, for messages about a column the
#: file lacks; every one is also a heading recognised above, so a message may ask for it.
COLUMN_LABELS = {"name": _l("Name"), "email": _l("E-mail"), "postal_address": _l("Postal address"),
                 "rating": _l("Rating"), "club": _l("Club"), "channel": _l("Plays by"),
                 "language": _l("Language of letters")}


_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")


class PlayerImportError(ValueError):
    """The file as a whole cannot be read (encoding, size, header)."""


@dataclass(frozen=True)
class PlayerRow:
    """One player as entered by hand or read from a file."""

    name: str
    email: str | None = None
    postal_address: str | None = None
    rating: int | None = None
    club: str | None = None
    #: How he plays (002 §4.1.1); None follows the tournament's channel.
    channel: Channel | None = None
    #: The language of his letters ("ru" / "en"); None: as on record (Russian for a new player).
    language: str | None = None


def read_channel(text: str) -> Channel | None:
    """The channel a cell names (``CHANNEL_WORDS``); None for a blank cell; raises ValueError
    for a word that names none."""
    word = _normalise(text)
    if not word:
        return None
    try:
        return CHANNEL_WORDS[word]
    except KeyError:
        raise ValueError(text) from None


@dataclass(frozen=True)
class RowError:
    line: int  # 1-based line of the file; 0 for the file as a whole
    column: str | None  # the key of COLUMNS (a form's field), or a heading the file has
    message: str
    # The column's heading as the user's file has it; None: the file has no such column.
    heading: str | None = None

    def __str__(self) -> str:
        """Where, as the user knows it: the file's line and the file's own heading, or the
        column's name in his language when his file lacks it; then what is wrong."""
        column = self.heading or (str(COLUMN_LABELS.get(self.column, self.column))
                                  if self.column else None)
        if self.line and column:
            where = _("line %(line)s, column “%(column)s”", line=self.line, column=column)
        elif self.line:
            where = _("line %(line)s", line=self.line)
        elif column:
            where = _("column “%(column)s”", column=column)
        else:
            where = _("file")
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class PlayerImport:
    rows: tuple[tuple[int, PlayerRow], ...] = ()  # (line, row)
    errors: tuple[RowError, ...] = field(default=())
    encoding: str = "utf-8"
    # The file's own heading of each column it has, by key: {"email": "Эл. почта"}.
    headings: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors

    def headed(self, error: RowError) -> RowError:
        """``error`` naming its column by this file's heading, when the file has the column."""
        heading = self.headings.get(error.column or "")
        if error.heading is not None or heading is None:
            return error
        return dataclasses.replace(error, heading=heading)


def decode(data: bytes) -> tuple[str, str]:
    """The text and the encoding that read it: UTF-8 first (strict), else Windows-1251."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1251"), "cp1251"


def _normalise(header: str) -> str:
    return " ".join(re.sub(r"[^\w\s-]", " ", header.lower().replace("ё", "е")).split())


def _column_map(header: list[str]) -> tuple[dict[str, int], list[RowError]]:
    known = {alias: key for key, aliases in COLUMNS.items() for alias in aliases}
    mapping: dict[str, int] = {}
    errors: list[RowError] = []
    for index, title in enumerate(header):
        key = known.get(_normalise(title))
        if key is None:
            if title.strip():
                names = "; ".join(str(label) for label in COLUMN_LABELS.values())
                errors.append(RowError(1, title, _("unknown column; expected %(names)s",
                                                   names=names), heading=title.strip()))
        elif key in mapping:
            errors.append(RowError(1, title, _("column %(name)s appears twice",
                                               name=COLUMN_LABELS[key]), heading=title.strip()))
        else:
            mapping[key] = index
    if "name" not in mapping:
        errors.append(RowError(1, None, _("no name column (name / ФИО)")))
    return mapping, errors


def check_row(row: PlayerRow, channel: TournamentChannel, line: int = 0) -> list[RowError]:
    """What a start sheet needs of a player (002 §4.3.2: partners' addresses) for this channel."""
    errors = []
    if not row.name:
        errors.append(RowError(line, "name", _("name is empty")))
    if row.email and not _EMAIL.match(row.email):
        errors.append(
            RowError(line, "email", _("%(value)s is not an e-mail address", value=row.email))
        )
    if channel is TournamentChannel.POST and not row.postal_address:
        errors.append(
            RowError(
                line, "postal_address", _("a postal tournament needs the address (002 §4.3.2)")
            )
        )
    if channel is TournamentChannel.EMAIL and not row.email:
        errors.append(RowError(line, "email", _("an e-mail tournament needs the e-mail address")))
    if channel is TournamentChannel.MIXED and not (row.email or row.postal_address):
        errors.append(RowError(line, None, _("neither an e-mail nor a postal address (002 §4.3.2)")))
    # The player's own channel needs its address too, whatever the tournament's (002 §4.1.1).
    if row.channel is Channel.EMAIL and not row.email and channel is not TournamentChannel.EMAIL:
        errors.append(RowError(line, "email", _("a player who plays by e-mail needs an e-mail "
                                                "address (002 §4.1.1 б)")))
    if row.channel is Channel.WEB and not row.email and channel is not TournamentChannel.EMAIL:
        errors.append(RowError(line, "email", _(
            "a player who plays on the site needs an e-mail address for his login and his "
            "partners' moves (002 §4.1.1)")))
    if row.channel is Channel.POST and not row.postal_address \
            and channel is not TournamentChannel.POST:
        errors.append(RowError(line, "postal_address", _(
            "a player who plays by post needs the postal address (002 §4.3.2)")))
    if row.rating is not None and not 0 <= row.rating <= 4000:
        errors.append(
            RowError(line, "rating", _("rating %(value)s is out of range 0–4000", value=row.rating))
        )
    return errors


def read_player_csv(data: bytes, channel: TournamentChannel) -> PlayerImport:
    """Every valid row and every problem; callers import only when `ok`."""
    if len(data) > MAX_BYTES:
        raise PlayerImportError(
            _(
                "the file has %(size)s bytes; at most %(limit)s are read",
                size=len(data),
                limit=MAX_BYTES,
            )
        )
    text, encoding = decode(data)
    if not text.strip():
        raise PlayerImportError(_("the file is empty"))
    try:
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=";,\t")
    except csv.Error:
        dialect = csv.excel
    lines = list(csv.reader(io.StringIO(text), dialect))
    if len(lines) - 1 > MAX_ROWS:
        raise PlayerImportError(
            _("the file has %(rows)s rows; at most %(limit)s players are imported at once",
              rows=len(lines) - 1, limit=MAX_ROWS)
        )
    mapping, errors = _column_map(lines[0])
    headings = {key: lines[0][index].strip() for key, index in mapping.items()}
    if "name" not in mapping:
        return PlayerImport(errors=tuple(errors), encoding=encoding, headings=headings)

    def cell(values: list[str], key: str) -> str:
        index = mapping.get(key)
        return values[index].strip() if index is not None and index < len(values) else ""

    rows: list[tuple[int, PlayerRow]] = []
    seen_emails: dict[str, int] = {}
    for line, values in enumerate(lines[1:], start=2):
        if not any(value.strip() for value in values):
            continue
        if len(values) > len(lines[0]):
            errors.append(
                RowError(
                    line,
                    None,
                    _(
                        "%(cells)s cells, the header has %(columns)s",
                        cells=len(values),
                        columns=len(lines[0]),
                    ),
                )
            )
            continue
        raw_rating = cell(values, "rating")
        rating: int | None = None
        if raw_rating:
            try:
                rating = int(raw_rating)
            except ValueError:
                errors.append(
                    RowError(line, "rating", _("%(value)s is not a whole number", value=raw_rating))
                )
        raw_channel = cell(values, "channel")
        player_channel: Channel | None = None
        try:
            player_channel = read_channel(raw_channel)
        except ValueError:
            errors.append(RowError(line, "channel", _(
                "«%(value)s» is no way of playing; write one of: %(known)s",
                value=raw_channel, known=CHANNEL_HINT)))
        raw_language = cell(values, "language")
        language = language_named(raw_language) if raw_language else None
        if raw_language and language is None:
            errors.append(RowError(line, "language", _(
                "«%(value)s» is not a language of letters: write ru (русский) or en (English)",
                value=raw_language)))
        row = PlayerRow(
            name=" ".join(cell(values, "name").split()),
            email=cell(values, "email").lower() or None,
            postal_address=cell(values, "postal_address") or None,
            rating=rating,
            club=cell(values, "club") or None,
            channel=player_channel,
            language=language,
        )
        errors += check_row(row, channel, line)
        if row.email:
            if row.email in seen_emails:
                errors.append(
                    RowError(
                        line,
                        "email",
                        _(
                            "%(email)s is also on line %(line)s",
                            email=row.email,
                            line=seen_emails[row.email],
                        ),
                    )
                )
            seen_emails.setdefault(row.email, line)
        rows.append((line, row))
    if not rows and not errors:
        errors.append(RowError(0, None, _("no players in the file")))
    parsed = PlayerImport(rows=tuple(rows), encoding=encoding, headings=headings)
    return dataclasses.replace(parsed, errors=tuple(parsed.headed(error) for error in errors))
