"""Forms of tournament set-up: regulations, a player by hand, a CSV list of players."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from flask import request
from flask_babel import LazyString, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, DateField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import (
    DataRequired,
    InputRequired,
    Length,
    NumberRange,
    Optional,
    ValidationError,
)

from corrmail.clock import FEDERATION_TIME_ZONE
from corrmail.letters.write import DEFAULT_LANGUAGE, LANGUAGES
from corrmail.models import GameType, Participant, TournamentChannel, TournamentSystem
from corrmail.standings.tiebreak_labels import tiebreak_label
from corrmail.tournaments.registration import TournamentSpec
from corrmail.tournaments.rule_options import QUIET_LIMITS, canonical_options, is_column
from corrmail.web.forms import LANGUAGE_CHOICES
from scoring.pairing.model import PairingSystem
from scoring.standings import PRESETS
from scoring.tiebreaks import TIEBREAKS


def _choices(pairs: list[tuple[str, Any]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


GAME_TYPES = _choices(
    [
        (GameType.RUSSIAN.value, _l("Russian draughts")),
        (GameType.INTERNATIONAL.value, _l("International (100-square) draughts")),
        (GameType.GIVEAWAY.value, _l("Giveaway")),
        (GameType.COLUMN_RUSSIAN.value, _l("Russian column draughts")),
        (GameType.COLUMN_RUSSIAN_GIVEAWAY.value, _l("Russian column draughts, reverse")),
        (GameType.COLUMN_INTERNATIONAL.value, _l("International column draughts")),
        (
            GameType.COLUMN_INTERNATIONAL_GIVEAWAY.value,
            _l("International column draughts, reverse"),
        ),
    ]
)
SYSTEMS = _choices(
    [
        (TournamentSystem.ROUND_ROBIN_SINGLE.value, _l("Round robin, one cycle")),
        (TournamentSystem.ROUND_ROBIN_DOUBLE.value, _l("Round robin, two cycles")),
        (TournamentSystem.SWISS.value, _l("Swiss")),
        (TournamentSystem.TEAM.value, _l("Team event")),
    ]
)
#: The pairing programs in the rulebook's words (000 §3.18.4–3.18.7); the codes stay the values.
PAIRING_NAMES = {
    PairingSystem.RANDOM: _l("«blind lot» (random numbers)"),
    PairingSystem.COEFFICIENTS: _l("by the players' individual coefficients"),
    PairingSystem.SOLKOFF: _l("by the cut Solkoff coefficient"),
    PairingSystem.BUCHHOLZ: _l("by the current Buchholz coefficient"),
}
PAIRING_SYSTEMS = _choices(
    [("", "—")] + [(system.value, LazyString(
        lambda system=system: f"{PAIRING_NAMES[system]} ({system.rule})"))
        for system in PairingSystem]
)
CHANNELS = _choices(
    [
        (TournamentChannel.POST.value, _l("post")),
        (TournamentChannel.EMAIL.value, _l("e-mail")),
        (TournamentChannel.PHONE.value, _l("phone")),
        (TournamentChannel.MIXED.value, _l("mixed: post, e-mail, phone, web")),
    ]
)
# The rulebook's recommended orders, as `scoring` holds them: "003-14.1" is 003 §14.1, etc.
def tiebreak_names(order: Iterable[str]) -> str:
    """The tiebreaks of ``order`` by their labels in the reader's language, not their codes."""
    return ", ".join(gettext(tiebreak_label(name).short) for name in order)


def tiebreak_codes_hint() -> str:
    """What may be typed in the tiebreak order: every tiebreak by its label."""
    return ", ".join(gettext(tiebreak_label(name).short) for name in TIEBREAKS)


def tiebreak_code(typed: str) -> str:
    """The code of a tiebreak typed by its label (in the reader's language or English) or by its
    code; anything else is returned as typed, for registration to refuse with the known names."""
    wanted = " ".join(typed.split()).casefold()
    for name in TIEBREAKS:
        short = tiebreak_label(name).short
        if wanted in (name.casefold(), short.casefold(), gettext(short).casefold()):
            return name
    return typed


TIEBREAK_PRESETS = _choices(
    [("", "—")]
    + [(key, LazyString(lambda key=key, order=order:
                        f"{key.replace('-', ' §', 1)}: {tiebreak_names(order)}"))
       for key, order in PRESETS.items()]
)
POINTS = _choices([("classical", "1 / ½ / 0"), ("fmjd", "2 / 1 / 0 (FMJD)")])


def _rule_option(
    name: str, label: Any, values: list[tuple[str, Any]], help_text: Any
) -> SelectField:
    return SelectField(
        label,
        choices=_choices([("", _l("recommended reading (default)")), *values]),
        default="",
        validate_choice=False,
        description=help_text,
        render_kw={"data-rule-option": name},
    )


#: (form field, option name) of every column-draughts rule option on the tournament form.
RULE_OPTION_FIELDS = (
    ("rule_moves", "moves"),
    ("rule_rejump", "rejump"),
    ("rule_placement", "placement"),
    ("rule_king_landing", "king-landing"),
    ("rule_numbering", "numbering"),
    ("rule_quiet_limit", "quiet-limit"),
)


class _Errors:
    """Errors of the rule options as a whole (registration names them ``rule_options``)."""

    def __init__(self) -> None:
        self.errors: list[str] = []


class TournamentForm(FlaskForm):
    code = StringField(_l("Code"), validators=[DataRequired(), Length(max=40)])
    title = StringField(_l("Title"), validators=[DataRequired(), Length(max=300)])
    game_type = SelectField(_l("Game type"), choices=GAME_TYPES)
    system = SelectField(_l("System"), choices=SYSTEMS)
    pairing_system = SelectField(_l("Swiss pairing system"), choices=PAIRING_SYSTEMS, default="")
    channel = SelectField(_l("Channel"), choices=CHANNELS)
    start_date = DateField(_l("Start"), validators=[DataRequired()])
    end_date = DateField(_l("End of play"), validators=[DataRequired()])
    # InputRequired, not DataRequired: 0 is typed, not missing, and gets the range's message
    # like −5 does.
    time_control_days = IntegerField(
        _l("Days"), default=50, validators=[InputRequired(), NumberRange(1, 1000)]
    )
    time_control_moves = IntegerField(
        _l("per moves"), default=10, validators=[InputRequired(), NumberRange(1, 100)]
    )
    point_system = SelectField(_l("Points"), choices=POINTS)
    tiebreak_preset = SelectField(
        _l("Tiebreak order from the rulebook"), choices=TIEBREAK_PRESETS, default=""
    )
    tiebreak_order = StringField(
        _l("Tiebreaks, in order (comma-separated)"), validators=[Length(max=500)]
    )
    breaks_per_year = IntegerField(
        _l("Breaks per year"), default=1, validators=[NumberRange(0, 12)]
    )
    break_max_days = IntegerField(
        _l("Longest break, days"), default=30, validators=[NumberRange(0, 366)]
    )
    time_zone = StringField(
        _l("Time zone"), default=FEDERATION_TIME_ZONE, validators=[DataRequired(), Length(max=64)]
    )
    # Column draughts' rule options (002 §4.1.4, docs/rules/columns.md): "" keeps the digest's
    # recommended reading. Choices are not checked by WTForms: a forged value gets
    # `corrmail.tournaments.rule_options`' message citing the rule instead of "Not a valid choice".
    rule_moves = _rule_option("moves", _l("Movement"), [
        ("bashni", _l("bashni: men capture backwards, flying kings")),
        ("lasker", _l("lasker: forward only, kings step one square")),
    ], _l("Default: bashni for Bashni, lasker for Lasca (digest §4, §9 Q3)."))
    rule_rejump = _rule_option("rejump", _l("Jumping a column again in one move"), [
        ("forbidden", _l("forbidden (Turkish strike)")),
        ("allowed", _l("allowed")),
    ], _l("Default: forbidden (digest §2, §9 Q1)."))
    rule_placement = _rule_option("placement", _l("When jumped columns give up their top"), [
        ("deferred", _l("deferred: when the move ends")),
        ("immediate", _l("immediate: as each is jumped")),
    ], _l("Default: deferred (digest §2, §9 Q2)."))
    rule_king_landing = _rule_option("king-landing", _l("Where a flying king lands"), [
        ("continue", _l("continue: where the capture goes on (Russian rule)")),
        ("free", _l("free: any square beyond")),
    ], _l("Default: continue (digest §2)."))
    rule_numbering = _rule_option("numbering", _l("Lasca square 1"), [
        ("a1", "a1"),
        ("g1", "g1"),
    ], _l("Lasca only. Default: a1, rows numbered left to right (digest §4, §9 Q4)."))
    rule_quiet_limit = _rule_option("quiet-limit", _l("Draw after N quiet king moves each"), [
        ("off", _l("off")),
        *((str(n), str(n)) for n in QUIET_LIMITS),
    ], _l("Default: off (digest §2 Result, §9 Q5); 15 is Russian draughts' limit."))

    def spec(self) -> TournamentSpec:
        return TournamentSpec(
            code=self.code.data.strip(),
            title=self.title.data.strip(),
            game_type=GameType(self.game_type.data),
            system=TournamentSystem(self.system.data),
            channel=TournamentChannel(self.channel.data),
            start_date=self.start_date.data,
            end_date=self.end_date.data,
            pairing_system=self.pairing_system.data or None,
            time_control_days=self.time_control_days.data,
            time_control_moves=self.time_control_moves.data,
            point_system=self.point_system.data,
            tiebreak_order=self._tiebreaks(),
            breaks_per_year=self.breaks_per_year.data,
            break_max_days=self.break_max_days.data,
            time_zone=self.time_zone.data.strip(),
            rule_options=self._rule_options(),
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rule_options = _Errors()

    def partial_spec(self) -> TournamentSpec:
        """The regulations as far as the form reads, for registration's checks when the form's
        own validation failed: each field it could not read takes a value registration accepts
        (its default; for a missing date, the other date a day away), so only the fields the
        reader did fill get registration's messages, alongside the form's own — every error of
        the form at once, not one pass after another."""
        def chosen(field: SelectField, kind: type[Any], fallback: Any) -> Any:
            try:
                return kind(field.data)
            except ValueError:
                return fallback

        start, end = self.start_date.data, self.end_date.data
        if start is None or end is None:
            start = start or (end - dt.timedelta(days=1) if end else dt.date(2000, 1, 1))
            end = end or start + dt.timedelta(days=1)
        def number(field: IntegerField, fallback: int) -> int:
            return field.data if isinstance(field.data, int) and not field.errors else fallback

        return TournamentSpec(
            code=(self.code.data or "").strip() or "-",
            title=(self.title.data or "").strip() or "-",
            game_type=chosen(self.game_type, GameType, GameType.RUSSIAN),
            system=chosen(self.system, TournamentSystem, TournamentSystem.ROUND_ROBIN_SINGLE),
            channel=chosen(self.channel, TournamentChannel, TournamentChannel.POST),
            start_date=start,
            end_date=end,
            pairing_system=self.pairing_system.data or None,
            time_control_days=number(self.time_control_days, 50),
            time_control_moves=number(self.time_control_moves, 10),
            point_system=self.point_system.data or "classical",
            tiebreak_order=() if self.tiebreak_preset.errors else self._tiebreaks(),
            breaks_per_year=number(self.breaks_per_year, 1),
            break_max_days=number(self.break_max_days, 30),
            time_zone=(self.time_zone.data or "").strip() or "UTC",
            rule_options=self._rule_options(),
        )

    def rule_option_fields(self) -> list[SelectField]:
        return [getattr(self, field) for field, _name in RULE_OPTION_FIELDS]

    def _rule_options(self) -> tuple[str, ...] | None:
        """``NAME=VALUE`` of every option chosen; None when the form carried none of them (the
        fields are disabled once play has begun), which keeps the stored options; a game type
        without options has none to keep."""
        known = {field for field, _name in RULE_OPTION_FIELDS}
        # A posted rule_* the form does not know is an option notation does not know either:
        # pass it on, so that it is refused with the rule instead of silently dropped.
        unknown = tuple(f"{key.removeprefix('rule_')}={value}"
                        for key, value in request.form.items(multi=True)
                        if key.startswith("rule_") and key not in known)
        posted = any(field.raw_data for field in self.rule_option_fields())
        if not posted and not unknown:
            return None if is_column(GameType(self.game_type.data)) else ()
        return tuple(
            f"{name}={value}"
            for field, name in RULE_OPTION_FIELDS
            if (value := (getattr(self, field).data or "").strip())
        ) + unknown

    def _tiebreaks(self) -> tuple[str, ...]:
        if self.tiebreak_preset.data:
            return PRESETS[self.tiebreak_preset.data]
        return tuple(
            tiebreak_code(name.strip())
            for name in (self.tiebreak_order.data or "").split(",") if name.strip()
        )

    def validate_tiebreak_preset(self, field: SelectField) -> None:
        if field.data and (self.tiebreak_order.data or "").strip():
            raise ValidationError(_l("choose a preset or list the tiebreaks, not both"))

    def fill(self, spec: TournamentSpec) -> None:
        for name in ("code", "title", "start_date", "end_date", "time_control_days", "time_control_moves",
                     "point_system", "breaks_per_year", "break_max_days", "time_zone"):  # fmt: skip
            getattr(self, name).data = getattr(spec, name)
        for name in ("game_type", "system", "channel"):
            getattr(self, name).data = getattr(spec, name).value
        self.pairing_system.data = spec.pairing_system or ""
        # Shown by their labels; typed back by label or code (:func:`tiebreak_code`).
        self.tiebreak_order.data = tiebreak_names(spec.tiebreak_order)
        chosen = canonical_options(spec.rule_options or ())
        for field_name, name in RULE_OPTION_FIELDS:
            field = getattr(self, field_name)
            field.data = chosen.get(name, "")
            if field.data and field.data not in {choice.value for choice in field.choices}:
                # A value set from the CLI the form does not list (quiet-limit=32): keep it.
                field.choices = [*field.choices, SelectChoice(field.data, field.data)]


class LetterLanguageField(SelectField):
    """The language every letter to the person is worded in; a value the list does not offer
    (a forged form) is refused in words, not with WTForms' generic message."""

    def __init__(self, label: LazyString, **kwargs: Any) -> None:
        super().__init__(label, default=DEFAULT_LANGUAGE, validate_choice=False,
                         choices=LANGUAGE_CHOICES,
                         **kwargs)

    def pre_validate(self, form: Any) -> None:
        if self.data not in LANGUAGES:
            raise ValidationError(gettext(
                "Letters are written in Russian (ru) or English (en), not «%(value)s».",
                value=self.data))


class PlayerDetailsForm(FlaskForm):
    """A player's details, as entered and as corrected later."""

    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=200)])
    email = StringField(_l("E-mail"), validators=[Optional(), Length(max=320)])
    postal_address = TextAreaField(_l("Postal address"), validators=[Optional(), Length(max=1000)])
    rating = IntegerField(_l("Rating"), validators=[Optional(), NumberRange(0, 4000)])
    club = StringField(_l("Club"), validators=[Optional(), Length(max=200)])
    # How this player plays (002 §4.1.1); "" follows the tournament's channel.
    channel = SelectField(_l("Plays by"), default="", choices=_choices([
        ("", _l("the tournament's channel")), ("post", _l("post")), ("email", _l("e-mail")),
        ("phone", _l("phone")), ("web", _l("web"))]))
    language = LetterLanguageField(_l("Language of letters"))

    def fill(self, participant: Participant) -> None:
        player = participant.player
        self.name.data, self.email.data = player.name, player.email or ""
        self.postal_address.data, self.club.data = player.postal_address or "", player.club or ""
        self.rating.data = participant.rating
        self.channel.data = participant.channel.value if participant.channel else ""
        self.language.data = player.language


class PlayerForm(PlayerDetailsForm):
    invite = BooleanField(_l("Invite him to log in (a letter with a link to set his password)"))


class ImportForm(FlaskForm):
    file = FileField(_l("CSV file (UTF-8 or Windows-1251)"), validators=[FileRequired()])
    invite = BooleanField(_l("Invite those with an e-mail address to log in"))


class PairForm(FlaskForm):
    """Pairing the whole round robin is one POST with a CSRF token."""
