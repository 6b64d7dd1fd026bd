"""The forms a steward fills in from a letter: a letter as written or a correction of one
(002 §4.2.3, §4.2.5), a partner's error reported (002 §4.2.9), a partner's charge of penalty
days (002 §4.2.11, §4.3.3) and the day he forwarded an e-mail move by post or telephone
(002 §4.1.1)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, IntegerField, SelectField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, NumberRange, Optional
from wtforms.widgets import HiddenInput

from corrmail.games import PARTNER_CHARGE_RULES, LetterInput
from corrmail.models import Channel, Game, Letter

CHANNELS = [
    SelectChoice(Channel.POST.value, _l("post")),
    SelectChoice(Channel.EMAIL.value, _l("e-mail")),
    SelectChoice(Channel.PHONE.value, _l("phone")),
]


def offer_senders_and_corrections(
    sender: SelectField, corrects: SelectField, game: Game, letters: list[Letter]
) -> None:
    """A letter form's choices for this game: its two players, and the letters a correction may
    refer to (002 §4.2.5). The postcard form and the official's letter form offer the same."""
    sender.choices = _players(game)
    corrects.choices = [SelectChoice("0", "—"), *_letters(letters)]


def _players(game: Game) -> list[SelectChoice]:
    """The game's two players, by colour and name, for a choice of who wrote or reported."""
    return [
        SelectChoice(str(game.white_id), f"{_l('White')}: {game.white.player.name}"),
        SelectChoice(str(game.black_id), f"{_l('Black')}: {game.black.player.name}"),
    ]


def _letters(letters: list[Letter]) -> list[SelectChoice]:
    """Every letter by its number and moves (``…`` for one without a move)."""
    return [SelectChoice(str(letter.id), f"{letter.sequence}: {letter.moves_text or '…'}")
            for letter in letters]


class LetterForm(FlaskForm):
    sender = SelectField(_l("From"), coerce=int, validators=[DataRequired()])
    channel = SelectField(_l("Channel"), choices=CHANNELS)
    corrects = SelectField(_l("Corrects letter"), coerce=int, default=0)
    moves_text = StringField(_l("Moves, as written"), validators=[Length(max=500)])
    variants_text = TextAreaField(_l("Variants, as written"), validators=[Length(max=2000)])
    partner_sent = DateField(_l("Partner sent"), validators=[Optional()])
    received = DateField(_l("Received"), validators=[Optional()])
    sent = DateField(_l("Sent"), validators=[Optional()])
    postmark_date = DateField(_l("Postmark"), validators=[Optional()])
    registered = BooleanField(_l("Registered"))
    declared_white_days = IntegerField(
        _l("Time declared, White"), validators=[Optional(), NumberRange(0, 10_000)]
    )
    declared_black_days = IntegerField(
        _l("Time declared, Black"), validators=[Optional(), NumberRange(0, 10_000)]
    )
    penalty_days = IntegerField(
        _l("Penalty days charged"), default=0, validators=[Optional(), NumberRange(0, 1000)]
    )
    raw_text = TextAreaField(_l("Text of the letter"), validators=[Length(max=20_000)])

    def offer(self, game: Game, letters: list[Letter]) -> None:
        offer_senders_and_corrections(self.sender, self.corrects, game, letters)

    def letter(self) -> LetterInput:
        return LetterInput(
            sender_id=self.sender.data,
            channel=Channel(self.channel.data),
            raw_text=(self.raw_text.data or "").strip(),
            moves_text=(self.moves_text.data or "").strip(),
            variants_text=(self.variants_text.data or "").strip(),
            partner_sent=self.partner_sent.data,
            received=self.received.data,
            sent=self.sent.data,
            postmark_date=self.postmark_date.data,
            registered=bool(self.registered.data),
            declared_white_days=self.declared_white_days.data,
            declared_black_days=self.declared_black_days.data,
            penalty_days=self.penalty_days.data or 0,
            corrects_letter_id=self.corrects.data or None,
        )


def _move_letters(letters: list[Letter]) -> list[SelectChoice]:
    return [SelectChoice(str(letter.id), f"{letter.sequence}: {letter.moves_text}")
            for letter in letters if letter.moves_text.strip()]


class ErrorReportForm(FlaskForm):
    """A player's report that the partner's letter did not repeat the moves, or repeated them
    wrongly or illegibly (002 §4.2.9)."""

    reporter = SelectField(_l("Reported by"), coerce=int, validators=[DataRequired()])
    letter = SelectField(_l("Letter reported"), coerce=int, validators=[DataRequired()])
    channel = SelectField(_l("Channel"), choices=CHANNELS)
    received = DateField(_l("The letter came on"), validators=[DataRequired()])
    reported = DateField(_l("Reported on"), validators=[DataRequired()])

    def offer(self, game: Game, letters: list[Letter]) -> None:
        self.reporter.choices = _players(game)
        # A card play stopped at keeps no move until it is corrected: every letter is offered.
        self.letter.choices = _letters(letters)


class PenaltyChargeForm(FlaskForm):
    """The partner's 6 penalty days, with what they are for, charged in his reply to the faulty
    letter (002 §4.2.11, §4.3.3)."""

    letter = SelectField(_l("Letter charged for"), coerce=int, validators=[DataRequired()])
    charged_in = SelectField(_l("Charged in the partner's letter"), coerce=int,
                             validators=[DataRequired()])
    rule = SelectField(_l("Rule"), choices=[
        SelectChoice(PARTNER_CHARGE_RULES[0], _l("002 §4.2.11: play stopped to correct an error")),
        SelectChoice(PARTNER_CHARGE_RULES[1], _l("002 §4.3.3: a date or the time omitted again")),
    ])
    reason = TextAreaField(_l("What the penalty is for, as the partner wrote it"),
                           validators=[Length(max=2000)])

    def offer(self, letters: list[Letter]) -> None:
        self.letter.choices = _move_letters(letters)
        self.charged_in.choices = _move_letters(letters)


class ForwardingForm(FlaskForm):
    """The day the steward posted (the postmark) or telephoned the move waiting for him to a
    partner who plays by post or telephone (002 §4.1.1); a second one corrects the first."""

    letter = IntegerField(widget=HiddenInput(), validators=[DataRequired()])
    channel = SelectField(_l("Forwarded by"), choices=[
        SelectChoice(Channel.POST.value, _l("post")),
        SelectChoice(Channel.PHONE.value, _l("phone")),
    ])
    forwarded_on = DateField(_l("Day posted (postmark) or telephoned"),
                             validators=[DataRequired()])
