"""Play by e-mail: composing, sending, receiving and reading the letters of a game.

Modules, one concept each:

* :mod:`~corrmail.mail.errors` — the exception tree (transient vs permanent delivery failures);
* :mod:`~corrmail.mail.settings` — SMTP and mail settings from ``CORRMAIL_SMTP_*``/``CORRMAIL_MAIL_*``;
* :mod:`~corrmail.mail.tokens` — HMAC-signed reply tokens and VERP bounce addresses;
* :mod:`~corrmail.mail.compose` — outgoing RFC 5322 messages;
* :mod:`~corrmail.mail.transport` — SMTP delivery over aiosmtplib;
* :mod:`~corrmail.mail.inbound`, :mod:`~corrmail.mail.body`, :mod:`~corrmail.mail.automated` —
  raw bytes → typed message, new text, machine-mail classification;
* :mod:`~corrmail.mail.content` — what a player's letter says (moves, variants, offers …).
"""
