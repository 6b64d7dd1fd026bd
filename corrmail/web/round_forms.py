"""Forms of the Rounds and Teams pages: pair, publish, round rules, teams."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, NumberRange, Optional

from corrmail.models import TeamPairing, TeamSchedule
from corrmail.web.registration_forms import PAIRING_SYSTEMS

TEAM_PAIRINGS = [
    SelectChoice(TeamPairing.ROUND_ROBIN.value, _l("Team round robin (Berger table)")),
    SelectChoice(TeamPairing.SWISS.value, _l("Team Swiss")),
]
TEAM_SCHEDULES = [
    SelectChoice(TeamSchedule.BOARDS.value, _l("Board against board")),
    SelectChoice(TeamSchedule.SCHEVENINGEN.value, _l("Scheveningen (two teams)")),
    SelectChoice(TeamSchedule.SEMI_SCHEVENINGEN.value, _l("Semi-Scheveningen (two teams)")),
]
#: The team Swiss programs by their rulebook names, as the tournament form offers them.
PROGRAMS = PAIRING_SYSTEMS


class PairRoundForm(FlaskForm):
    seed = IntegerField(_l("Lot seed"), validators=[Optional(), NumberRange(min=0, max=2**31 - 1)])
    absent = StringField(_l("Known absent (start numbers)"), validators=[Optional()])


class PublishRoundForm(FlaskForm):
    pass


class RoundRulesForm(FlaskForm):
    pair_before_finished = BooleanField(_l("Pair before every game of the round is finished"))
    team_pairing = SelectField(_l("Teams are paired by"), choices=TEAM_PAIRINGS,
                               default=TeamPairing.ROUND_ROBIN.value)
    team_pairing_system = SelectField(_l("Team Swiss program"), choices=PROGRAMS, default="")
    team_schedule = SelectField(_l("Match schedule"), choices=TEAM_SCHEDULES,
                                default=TeamSchedule.BOARDS.value)


class TeamsForm(FlaskForm):
    teams = TextAreaField(_l("Teams, one a line: Name: 3, 7, 12 (board one first)"))


class PairTeamsForm(FlaskForm):
    pass


class RedrawForm(FlaskForm):
    """Applying a redraw: the fingerprint of the plan the director was shown (hidden)."""

    fingerprint = HiddenField(validators=[DataRequired()])
