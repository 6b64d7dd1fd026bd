"""The forms of the referee's queue; each carries the case revision it was rendered with."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    HiddenField,
    IntegerField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, Optional
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget

from adjudication import Assessment, BreakKind, Evidence, SanctionKind, Side
from corrmail.web.choice_labels import choices


class RevisionForm(FlaskForm):
    """Every action on an existing case: the revision the user saw (002 §4.1.12, no decision
    twice)."""

    revision = IntegerField(validators=[InputRequired()], widget=HiddenInput())


class DecisionForm(RevisionForm):
    # The package names an unknown ruling (UnknownRuling, 422); a game record has none.
    ruling = SelectField(_l("Decision"), choices=[], validators=[Optional()], validate_choice=False)
    reasons = TextAreaField(_l("Reasons"), validators=[Length(max=10_000)])
    sharply_contradicting = BooleanField(
        _l("The agreed result sharply contradicts the position (002 §4.5.4)")
    )
    start = DateField(_l("From"), validators=[Optional()])
    end = DateField(_l("To"), validators=[Optional()])


class AnalysisForm(RevisionForm):
    side = SelectField(_l("Side"), choices=choices(Side))
    assessment = SelectField(_l("Assessment"), choices=choices(Assessment))
    analysis = TextAreaField(_l("Analysis"), validators=[DataRequired(), Length(max=50_000)])
    sent_on = DateField(_l("Sent (postmark)"), validators=[Optional()])
    received_on = DateField(_l("Received"), validators=[Optional()])


class EvidenceBoxes(SelectMultipleField):
    """The materials of 002 §4.3.6 as checkboxes, each with the rulebook's name: ticking is
    plain, a multi-select's Ctrl-click is not."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class ProtestForm(RevisionForm):
    party = SelectField(_l("Party"), choices=[])
    grounds = TextAreaField(_l("Grounds"), validators=[Length(max=10_000)])
    # 002 §4.3.8: the accused's protest against an overstep carries the materials of §4.3.6.
    materials = EvidenceBoxes(_l("Materials enclosed"), choices=choices(Evidence))
    filed_on = DateField(_l("Sent (postmark)"), validators=[Optional()])
    received_on = DateField(_l("Decision received"), validators=[Optional()])


class EvidenceForm(RevisionForm):
    items = EvidenceBoxes(_l("Materials received"), choices=choices(Evidence))


class GameRecordForm(RevisionForm):
    side = SelectField(_l("Side"), choices=choices(Side))
    received_on = DateField(_l("Received"), validators=[DataRequired()])


class ReceiptForm(RevisionForm):
    party = SelectField(_l("Party"), choices=[])
    received_on = DateField(_l("Decision received"), validators=[DataRequired()])


class BanForm(RevisionForm):
    until = DateField(_l("Banned until"), validators=[DataRequired()])


class FileProtestForm(RevisionForm):
    case_id = IntegerField(validators=[InputRequired()], widget=HiddenInput())
    party = SelectField(_l("Party"), choices=choices(Side))


class OverstepClaimForm(FlaskForm):
    game = SelectField(_l("Game"), choices=[], coerce=int)
    # Only an official chooses the side; a player's form has no such field: he claims for
    # himself against his partner (002 §4.3.6), and the desk refuses any other side he posts.
    claimant = SelectField(_l("Claimant"), choices=choices(Side), validate_choice=False)
    held_move = StringField(_l("Held reply move"), validators=[Length(max=200)])
    evidence = EvidenceBoxes(_l("Materials received"), choices=choices(Evidence))
    notice_received_on = DateField(_l("Notice received"), validators=[Optional()])
    letter = TextAreaField(_l("Letter"), validators=[Length(max=50_000)])


class WithdrawalForm(FlaskForm):
    participant = SelectField(_l("Player"), choices=[], coerce=int)
    withdrew_on = DateField(_l("Withdrew on"), validators=[DataRequired()])
    without_good_reason = BooleanField(_l("Without a good reason (002 §4.1.14)"))
    reason = TextAreaField(_l("Reason"), validators=[Length(max=10_000)])


class SanctionForm(FlaskForm):
    participant = SelectField(_l("Player"), choices=[], coerce=int)
    sanction = SelectField(_l("Sanction"), choices=choices(SanctionKind))
    rules_violated = StringField(_l("Rule points violated"), validators=[DataRequired()])
    game = SelectField(_l("Game"), choices=[], coerce=int)
    reasons = TextAreaField(_l("Reasons"), validators=[Length(max=10_000)])


class SpecialBreakForm(FlaskForm):
    participant = SelectField(_l("Player"), choices=[], coerce=int)
    break_kind = SelectField(_l("Break"), choices=choices(BreakKind))
    start = DateField(_l("From"), validators=[DataRequired()])
    end = DateField(_l("To"), validators=[DataRequired()])
    reason = TextAreaField(_l("Reason"), validators=[DataRequired(), Length(max=10_000)])


class DisputeForm(FlaskForm):
    game = SelectField(_l("Game"), choices=[], coerce=int)
    # Only an official chooses the side; a player's form has no such field: he is the
    # complainant (002 §4.1.12), and the desk refuses any other side he posts.
    complainant = SelectField(_l("Complainant"), choices=choices(Side), validate_choice=False)
    subject = TextAreaField(_l("Subject"), validators=[DataRequired(), Length(max=10_000)])


class OpenAdjudicationsForm(FlaskForm):
    tournament = HiddenField()
