"""The form a steward fills in from a received postcard (002 §4.2.3, §4.3.1).

Dates are typed as they are written on the card (``10.10.26``, ``10.10``) and read by
:func:`timekeeping.parse_player_date`, so what the player wrote is what gets judged.
"""

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
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError

from corrmail.games.ledger import to_move
from corrmail.models import Channel, Game, Letter
from corrmail.play.phone import telephone_entry
from corrmail.play.postcards import CARD_ELEMENTS, Declaration, PostcardEntry
from corrmail.web.letter_forms import offer_senders_and_corrections


class PostcardForm(FlaskForm):
    sender = SelectField(_l("From"), coerce=int, validators=[DataRequired()])
    channel = SelectField(_l("Received by"), default=Channel.POST.value, choices=[
        SelectChoice(Channel.POST.value, _l("post")),
        SelectChoice(Channel.PHONE.value, _l("telephone: the call's date as Sent")),
    ])
    corrects = SelectField(_l("Corrects letter"), coerce=int, default=0)
    #: Why the letter is replaced (002 §4.2.5): the same card entered wrongly, or the sender's
    #: new card replacing a faulty move (002 §4.2.10). Asked whenever a letter is corrected.
    correction = SelectField(_l("Why the letter is replaced"), default="", choices=[
        SelectChoice("", "—"),
        SelectChoice("entry_error", _l("I entered this card wrongly: it is the same card, now "
                                       "entered as written (what the wrong entry caused is undone)")),
        SelectChoice("new_card", _l("the sender's new card, replacing his faulty move "
                                    "(002 §4.2.10; the penalty days stand)")),
    ])
    moves_text = StringField(_l("Moves, as written"), validators=[Length(max=500)])
    variants_text = TextAreaField(_l("Variants, as written"), validators=[Length(max=2000)])
    partner_sent = StringField(_l("Partner sent"), validators=[Length(max=20)])
    received = StringField(_l("Received"), validators=[Length(max=20)])
    sent = StringField(_l("Sent"), validators=[Length(max=20)])
    postmark = StringField(_l("Postmark"), validators=[Length(max=20)])
    supplied_receipt = StringField(_l("Receipt date omitted from the previous card, supplied now"),
                                   validators=[Length(max=20)])
    registered = BooleanField(_l("Registered"))
    declared_white_days = IntegerField(
        _l("Time declared, White"), validators=[Optional(), NumberRange(0, 10_000)]
    )
    declared_black_days = IntegerField(
        _l("Time declared, Black"), validators=[Optional(), NumberRange(0, 10_000)]
    )
    declaration = SelectField(_l("Declares"), choices=[
        SelectChoice(Declaration.NONE.value, "—"),
        SelectChoice(Declaration.RESIGNS.value, _l("resigns")),
        SelectChoice(Declaration.ACCEPTS_DRAW.value, _l("accepts the draw offered")),
    ])
    raw_text = TextAreaField(_l("Text of the letter"), validators=[Length(max=20_000)])
    #: The elements of 002 §4.2.3 the steward sees missing on the card itself.
    lacks_greeting = BooleanField(_l("no greeting"))
    lacks_tournament_code = BooleanField(_l("no tournament code"))
    lacks_return_address = BooleanField(_l("no return address"))
    lacks_signature = BooleanField(_l("not signed"))
    #: The check's fingerprint of the card shown to the steward: the store step stores exactly it.
    fingerprint = HiddenField()
    #: The steward's confirmation that the card stops play with penalty days (002 §4.2.11).
    confirm_stop = BooleanField(_l("I confirm: play stops and the sender is charged the penalty days"))

    def validate_correction(self, field: SelectField) -> None:
        if self.corrects.data and not field.data:
            raise ValidationError(_l("Say why the letter is replaced: your wrong entry of the "
                                     "same card, or the sender's new card (002 §4.2.5)."))

    def offer(self, game: Game, letters: list[Letter]) -> None:
        offer_senders_and_corrections(self.sender, self.corrects, game, letters)
        # A correction comes from the corrected letter's sender (002 §4.2.5): the card's
        # sender is his, whatever the form had chosen (the player to move, by default).
        corrected = next((letter for letter in letters if letter.id == self.corrects.data), None)
        if self.is_submitted() and corrected is not None and corrected.sender_id is not None:
            self.sender.data = corrected.sender_id
        if not self.is_submitted():
            # The card usually comes from the player whose move it is.
            mover = to_move(game)
            if mover is not None:
                self.sender.data = mover.id

    def entry(self) -> PostcardEntry:
        entry = self._written()
        return telephone_entry(entry) if self.channel.data == Channel.PHONE.value else entry

    def _written(self) -> PostcardEntry:
        return PostcardEntry(
            sender_id=self.sender.data,
            moves_text=(self.moves_text.data or "").strip(),
            variants_text=(self.variants_text.data or "").strip(),
            partner_sent=self.partner_sent.data or "",
            received=self.received.data or "",
            sent=self.sent.data or "",
            postmark=self.postmark.data or "",
            supplied_receipt=self.supplied_receipt.data or "",
            registered=bool(self.registered.data),
            declared_white_days=self.declared_white_days.data,
            declared_black_days=self.declared_black_days.data,
            raw_text=(self.raw_text.data or "").strip(),
            declaration=Declaration(self.declaration.data),
            corrects_letter_id=self.corrects.data or None,
            entry_error=bool(self.corrects.data) and self.correction.data == "entry_error",
            lacks=tuple(element.value for element in CARD_ELEMENTS
                        if getattr(self, f"lacks_{element.value}").data),
        )
