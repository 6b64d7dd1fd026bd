"""The organizer's users page: create accounts (with a password or an invitation), invite
again, change roles, deactivate. Thin views over :mod:`corrmail.people.accounts`, which the
``corrmail user`` commands call too."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from werkzeug.wrappers.response import Response
from wtforms import PasswordField, SelectField, SelectMultipleField, StringField, TextAreaField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from corrmail.models import Role
from corrmail.ops.password_reset import INVITATION_DAYS, MIN_PASSWORD_LENGTH
from corrmail.people.accounts import (
    AccountRefused,
    Invitation,
    NewAccount,
    add_user,
    deactivate,
    invite,
    letter_language,
    list_users,
    parse_roles,
    reactivate,
    set_contact,
    set_roles,
    user_by_login,
)
from corrmail.web.auth import roles_required
from corrmail.web.database import db_session, letter_writer
from corrmail.web.forms import LANGUAGE_CHOICES
from corrmail.web.registration_forms import LetterLanguageField

blueprint = Blueprint("users", __name__, url_prefix="/admin/users")

ROLE_LABELS = {Role.ORGANIZER: _l("organizer"), Role.REFEREE: _l("referee"),
               Role.STEWARD: _l("steward"), Role.PLAYER: _l("player")}


class RoleBoxes(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def _role_choices() -> list[SelectChoice]:
    return [SelectChoice(role.value, ROLE_LABELS[role]) for role in Role]


class NewUserForm(FlaskForm):
    login = StringField(_l("Login"), validators=[DataRequired(), Length(max=80)])
    name = StringField(_l("Name"), validators=[DataRequired(), Length(max=200)])
    email = StringField(_l("E-mail"), validators=[Optional(), Length(max=320)])
    roles = RoleBoxes(_l("Roles"), validators=[DataRequired()])
    locale = SelectField(_l("Language of letters"), choices=LANGUAGE_CHOICES)
    postal_address = TextAreaField(_l("Postal address (a steward's is printed on his postal "
                                      "players' start sheets)"),
                                   validators=[Optional(), Length(max=1000)])
    password = PasswordField(_l("Password (empty: send an invitation)"),
                             validators=[Optional(), Length(max=200)])


class RolesForm(FlaskForm):
    roles = RoleBoxes(_l("Roles"))


class ActionForm(FlaskForm):
    pass


class ContactForm(FlaskForm):
    postal_address = TextAreaField(_l("Postal address"), validators=[Length(max=1000)])
    locale = LetterLanguageField(_l("Language of letters"))



def _refusal(error: AccountRefused) -> str:
    """The refusal in the reader's language."""
    messages = {
        "duplicate_login": _("The login %(login)s is taken; nothing was changed."),
        "duplicate_email": _("The e-mail %(email)s belongs to another account; nothing was changed."),
        "unknown_role": _("There is no role %(role)s; roles are: %(known)s."),
        "no_role": _("Choose at least one role."),
        "bad_login": _("A login has 1 to 80 characters and no spaces."),
        "bad_email": _("%(email)s is not an e-mail address."),
        "no_name": _("A name is required."),
        "short_password": _("A password has at least %(length)s characters."),
        "no_email_to_invite": _("Without a password the account needs an e-mail for its invitation."),
        "self_deactivation": _("You cannot deactivate your own account."),
        "last_organizer": _("%(login)s is the last active organizer."),
        "unknown_login": _("There is no account %(login)s."),
        "bad_language": _("Letters are written in Russian (ru) or English (en), not «%(language)s»."),
    }
    template = messages.get(error.code)
    return template % error.values if template else str(error)


@blueprint.route("/", methods=["GET", "POST"])
@roles_required(Role.ORGANIZER)
def index() -> str | Response:
    session = db_session()
    form = NewUserForm()
    form.roles.choices = _role_choices()
    status = 200
    if form.validate_on_submit():
        password = form.password.data or None
        writer = letter_writer()
        try:
            created = add_user(
                session,
                NewAccount(login=form.login.data, name=form.name.data, email=form.email.data,
                           roles=parse_roles(form.roles.data), password=password,
                           locale=form.locale.data, postal_address=form.postal_address.data),
                by=current_user, writer=writer, base_url=request.url_root,
                secret_key=current_app.config["SECRET_KEY"],
                min_password_length=MIN_PASSWORD_LENGTH)
        except AccountRefused as error:
            session.rollback()
            flash(_refusal(error), "error")
            status = 422
        else:
            session.commit()
            created_note = _("Account %(login)s created.", login=created.user.login)
            if created.invitation is None:
                flash(created_note, "info")
                return redirect(url_for("users.index"))
            if writer.settings.captured:
                flash(created_note, "info")
                return _page(NewUserForm(formdata=None), 200,
                             handover=_handover(created.user.display_name, created.user.login,
                                                created.invitation))
            flash(created_note + " " + _invited_note(created.user.email), "info")
            return redirect(url_for("users.index"))
    elif request.method == "POST":
        status = 422
    return _page(form, status)


def _page(form: NewUserForm, status: int, handover: dict[str, str] | None = None
          ) -> str | Response:
    session = db_session()
    form.roles.choices = _role_choices()
    roles_forms = {}
    address_forms = {}
    for user in list_users(session):
        address_forms[user.id] = ContactForm(prefix=f"a{user.id}", formdata=None,
                                             postal_address=user.postal_address or "",
                                             locale=letter_language(user))
        roles_form = RolesForm(prefix=f"u{user.id}", formdata=None)
        roles_form.roles.choices = _role_choices()
        roles_form.roles.data = [role.value for role in user.roles]
        roles_forms[user.id] = roles_form
    page = render_template("admin/users.html", form=form, users=list_users(session),
                           roles_forms=roles_forms, address_forms=address_forms,
                           action_form=ActionForm(),
                           role_labels=ROLE_LABELS, handover=handover)
    return page, status  # type: ignore[return-value]


def _handover(name: str, login: str, invitation: Invitation) -> dict[str, str]:
    """The set-password link to show the organizer once, when no mail server sends the
    invitation: he gives it to the person himself."""
    return {"name": name, "login": login, "link": invitation.link,
            "days": str(INVITATION_DAYS)}


def _invited_note(email: str | None) -> str:
    return str(_("An invitation to set the password is on its way to %(email)s.", email=email))


def _act(step: str, login: str) -> str | Response:
    session = db_session()
    handover = None
    try:
        if step == "deactivate":
            found = deactivate(session, login, by=current_user)
            message = _("%(login)s can no longer log in.", login=found.login)
        elif step == "reactivate":
            found = reactivate(session, login, by=current_user)
            message = _("%(login)s can log in again.", login=found.login)
        elif step == "invite":
            invited = user_by_login(session, login)
            if invited is None:
                raise AccountRefused("unknown_login", login, login=login)
            writer = letter_writer()
            invitation = invite(session, invited, writer=writer, base_url=request.url_root,
                                secret_key=current_app.config["SECRET_KEY"], by=current_user)
            if writer.settings.captured:
                message = _("A new set-password link for %(login)s is made.", login=invited.login)
                handover = _handover(invited.display_name, invited.login, invitation)
            else:
                message = _invited_note(invited.email)
        elif step == "address":
            form = ContactForm(prefix=f"a{(user_by_login(session, login) or current_user).id}")
            if not form.validate():
                problems = [*form.postal_address.errors, *form.locale.errors]
                flash(_("A postal address has at most 1000 characters; nothing was changed.")
                      if form.postal_address.errors
                      else f"{problems[0]} " + _("Nothing was changed.") if problems
                      else _("The form expired; try again."), "error")
                return redirect(url_for("users.index"))
            found = set_contact(session, login, form.postal_address.data or "",
                                form.locale.data, by=current_user)
            message = _("Postal address and letter language of %(login)s saved.",
                        login=found.login)
        else:
            form = RolesForm(prefix=f"u{(user_by_login(session, login) or current_user).id}")
            form.roles.choices = _role_choices()
            if not form.validate():
                flash(_("The form expired; try again."), "error")
                return redirect(url_for("users.index"))
            found = set_roles(session, login, parse_roles(form.roles.data or []), by=current_user)
            message = _("Roles of %(login)s saved.", login=found.login)
    except AccountRefused as error:
        session.rollback()
        flash(_refusal(error), "error")
    else:
        session.commit()
        flash(message, "info")
        if handover is not None:
            return _page(NewUserForm(formdata=None), 200, handover=handover)
    return redirect(url_for("users.index"))


@blueprint.post("/<login>/<any(deactivate, reactivate, invite, roles, address):step>")
@roles_required(Role.ORGANIZER)
def act(login: str, step: str) -> str | Response:
    if step not in ("roles", "address") and not ActionForm().validate_on_submit():
        flash(_("The form expired; try again."), "error")
        return redirect(url_for("users.index"))
    return _act(step, login)
