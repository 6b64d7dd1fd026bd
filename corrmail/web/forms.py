"""WTForms forms; Flask-WTF adds the CSRF token to every one of them."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, PasswordField, SelectField, StringField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired, Length


class LoginForm(FlaskForm):
    login = StringField(_l("Login"), validators=[DataRequired(), Length(max=80)])
    password = PasswordField(_l("Password"), validators=[DataRequired(), Length(max=200)])
    remember = BooleanField(_l("Remember me"))


#: The service's two languages, each named in itself: for the pages and for letters alike.
LANGUAGE_CHOICES = [SelectChoice("ru", "Русский"), SelectChoice("en", "English")]


class LocaleForm(FlaskForm):
    locale = SelectField(choices=LANGUAGE_CHOICES)


class LogoutForm(FlaskForm):
    """Logging out changes state, so it is a POST with a CSRF token."""
