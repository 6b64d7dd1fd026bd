"""Forms of tournament set-up: regulations, a player by hand, a CSV list of players."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import DateField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError

from corrmail.models import GameType, TournamentChannel, TournamentStatus, TournamentSystem
from corrmail.registration import TournamentSpec
from scoring.pairing.model import PairingSystem
from scoring.standings import PRESETS


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
PAIRING_SYSTEMS = _choices(
    [("", "—")] + [(system.value, f"{system.value} ({system.rule})") for system in PairingSystem]
)
CHANNELS = _choices(
    [
        (TournamentChannel.POST.value, _l("post")),
        (TournamentChannel.EMAIL.value, _l("e-mail")),
        (TournamentChannel.MIXED.value, _l("post and e-mail")),
    ]
)
# The rulebook's recommended orders, as `scoring` holds them: "003-14.1" is 003 §14.1, etc.
TIEBREAK_PRESETS = _choices(
    [("", "—")]
    + [(key, f"{key.replace('-', ' §', 1)}: {', '.join(order)}") for key, order in PRESETS.items()]
)
POINTS = _choices([("classical", "1 / ½ / 0"), ("fmjd", "2 / 1 / 0 (FMJD)")])
STATUSES = _choices(
    [
        (TournamentStatus.DRAFT.value, _l("draft")),
        (TournamentStatus.RUNNING.value, _l("running")),
        (TournamentStatus.ADJUDICATION.value, _l("in adjudication")),
        (TournamentStatus.FINISHED.value, _l("finished")),
    ]
)


class TournamentForm(FlaskForm):
    code = StringField(_l("Code"), validators=[DataRequired(), Length(max=40)])
    title = StringField(_l("Title"), validators=[DataRequired(), Length(max=300)])
    game_type = SelectField(_l("Game type"), choices=GAME_TYPES)
    system = SelectField(_l("System"), choices=SYSTEMS)
    pairing_system = SelectField(_l("Swiss pairing system"), choices=PAIRING_SYSTEMS, default="")
    channel = SelectField(_l("Channel"), choices=CHANNELS)
    start_date = DateField(_l("Start"), validators=[DataRequired()])
    end_date = DateField(_l("End of play"), validators=[DataRequired()])
    time_control_days = IntegerField(
        _l("Days"), default=50, validators=[DataRequired(), NumberRange(1, 1000)]
    )
    time_control_moves = IntegerField(
        _l("per moves"), default=10, validators=[DataRequired(), NumberRange(1, 100)]
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
        _l("Time zone"), default="Europe/Moscow", validators=[DataRequired(), Length(max=64)]
    )
    status = SelectField(_l("Status"), choices=STATUSES)

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
            status=TournamentStatus(self.status.data),
        )

    def _tiebreaks(self) -> tuple[str, ...]:
        if self.tiebreak_preset.data:
            return PRESETS[self.tiebreak_preset.data]
        return tuple(
            name.strip() for name in (self.tiebreak_order.data or "").split(",") if name.strip()
        )

    def validate_tiebreak_preset(self, field: SelectField) -> None:
        if field.data and (self.tiebreak_order.data or "").strip():
            raise ValidationError(_l("choose a preset or list the tiebreaks, not both"))

    def fill(self, spec: TournamentSpec) -> None:
        for name in ("code", "title", "start_date", "end_date", "time_control_days", "time_control_moves",
                     "point_system", "breaks_per_year", "break_max_days", "time_zone"):  # fmt: skip
            getattr(self, name).data = getattr(spec, name)
        for name in ("game_type", "system", "channel", "status"):
            getattr(self, name).data = getattr(spec, name).value
        self.pairing_system.data = spec.pairing_system or ""
        self.tiebreak_order.data = ", ".join(spec.tiebreak_order)


class PlayerForm(FlaskForm):
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=200)])
    email = StringField(_l("E-mail"), validators=[Optional(), Length(max=320)])
    postal_address = TextAreaField(_l("Postal address"), validators=[Optional(), Length(max=1000)])
    rating = IntegerField(_l("Rating"), validators=[Optional(), NumberRange(0, 4000)])
    club = StringField(_l("Club"), validators=[Optional(), Length(max=200)])


class ImportForm(FlaskForm):
    file = FileField(_l("CSV file (UTF-8 or Windows-1251)"), validators=[FileRequired()])


class PairForm(FlaskForm):
    """Pairing the whole round robin is one POST with a CSRF token."""
