"""Writing the server's letters: Jinja2 templates → outbox rows, in the caller's transaction.

Templates live in ``templates/letters/<language>/<name>.txt`` (Russian by default, English
available). The first line of a rendered template is ``Subject: …``, then a blank line, then
the body — one file holds everything a translator must see. Undefined variables are errors:
a letter that silently lost its dates would be worse than no letter.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from sqlalchemy.orm import Session

from corrmail.letters.outbox import enqueue_composed
from corrmail.mail.compose import Attachment, OutgoingLetter, compose_letter, new_message_id
from corrmail.mail.settings import MailSettings
from corrmail.mail.tokens import TokenSigner
from corrmail.models import OutboxMessage, utcnow
from corrmail.paths import templates_dir
from corrmail.standings.exports import install_points_filter

__all__ = ["LANGUAGES", "RenderedLetter", "LetterWriter", "TemplateFormatError", "letters_env",
           "language_named"]

LANGUAGES = ("ru", "en")
DEFAULT_LANGUAGE = "ru"

#: How a director's spreadsheet may name a letter language: its code, or the language's name in
#: either language (folded to lower case).
_LANGUAGE_NAMES = {"ru": "ru", "русский": "ru", "russian": "ru", "рус": "ru",
                   "en": "en", "english": "en", "английский": "en", "англ": "en", "eng": "en"}


def language_named(text: str) -> str | None:
    """The letter language ``text`` names («ru», «русский», «en», «English»…); None: none."""
    return _LANGUAGE_NAMES.get(text.strip().casefold())


class TemplateFormatError(ValueError):
    def __init__(self, template: str, first_line: str) -> None:
        super().__init__(f"{template}: the first line must be 'Subject: …', not {first_line!r}")
        self.template = template


@dataclass(frozen=True, slots=True)
class RenderedLetter:
    subject: str
    text: str


def _date(value: dt.date | str | None) -> str:
    """A date as the rulebook writes it; an archived paper's dates are ISO text."""
    if isinstance(value, str):
        value = dt.date.fromisoformat(value) if value else None
    return value.strftime("%d.%m.%Y") if value is not None else "—"


def _plural_ru(number: int, one: str, few: str, many: str) -> str:
    """Russian plural forms: 1 день, 3 дня, 5 дней (the Babel rule for 'ru')."""
    tail = number % 100
    if 11 <= tail <= 14:
        return many
    last = number % 10
    if last == 1:
        return one
    if 2 <= last <= 4:
        return few
    return many


def letters_env(directory: Path | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(directory or templates_dir() / "letters")),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # plain-text letters; nothing here is rendered as HTML
    )
    env.filters["date"] = _date
    env.filters["plural_ru"] = _plural_ru
    # One environment writes both languages' letters: a decimal value (an average rating,
    # 003 §9.1) takes the mark of the language folder the letter is written from.
    install_points_filter(env.filters, lambda template: (template or "").partition("/")[0])
    return env


class LetterWriter:
    """Renders letters and puts them in the outbox with the headers the mail layer promises."""

    def __init__(
        self,
        settings: MailSettings,
        *,
        env: jinja2.Environment | None = None,
        clock: Callable[[], dt.datetime] = utcnow,
    ) -> None:
        self.settings = settings
        self.signer = TokenSigner(settings.secret, settings.domain)
        self.env = env or letters_env()
        self.clock = clock

    def render(self, name: str, language: str, **context: Any) -> RenderedLetter:
        language = language if language in LANGUAGES else DEFAULT_LANGUAGE
        template = f"{language}/{name}.txt"
        rendered = self.env.get_template(template).render(**context)
        first, _, body = rendered.partition("\n")
        if not first.startswith("Subject:"):
            raise TemplateFormatError(template, first)
        return RenderedLetter(first.removeprefix("Subject:").strip(), body.lstrip("\n"))

    def post(
        self,
        session: Session,
        *,
        kind: str,
        to: str,
        template: str,
        language: str = DEFAULT_LANGUAGE,
        context: dict[str, Any] | None = None,
        reply_for: tuple[int, int] | None = None,
        in_reply_to: str | None = None,
        attachments: Sequence[Attachment] = (),
        reply_to: str | None = None,
        tournament_id: int | None = None,
        game_id: int | None = None,
        case_id: int | None = None,
    ) -> OutboxMessage:
        """Render ``template`` and enqueue it to ``to`` in ``session``'s transaction.

        ``reply_for`` = (game id, participant id) gives the letter a signed reply address, so
        the answer is attributed to that player in that game; else ``reply_to`` (a person's
        address) is where an answer goes.
        """
        rendered = self.render(template, language, **(context or {}))
        references: list[str] = [in_reply_to] if in_reply_to else []
        if reply_for is not None:
            reply_to = self.signer.reply_address(*reply_for)
            references.append(self.signer.reply_reference(*reply_for))
        letter = OutgoingLetter(
            message_id=new_message_id(self.settings.domain),
            from_address=self.settings.from_address,
            to=[to],
            subject=rendered.subject,
            text=rendered.text,
            date=self.clock(),
            reply_to=reply_to,
            references=references,
            in_reply_to=in_reply_to,
            attachments=attachments,
            language=language,
        )
        return enqueue_composed(
            session,
            compose_letter(letter),
            kind=kind,
            bounce_address=self.signer.bounce_address,
            tournament_id=tournament_id,
            game_id=game_id,
            case_id=case_id,
        )

    def post_many(
        self, session: Session, recipients: Iterable[str], **kwargs: Any
    ) -> list[OutboxMessage]:
        return [self.post(session, to=address, **kwargs) for address in recipients]
