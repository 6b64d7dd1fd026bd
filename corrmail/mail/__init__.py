"""Play by e-mail: composing, sending, receiving and reading the letters of a game.

Modules, one concept each (see ``docs/mail.md``):

* :mod:`~corrmail.mail.errors` — the exception tree (transient vs permanent delivery failures);
* :mod:`~corrmail.mail.settings` — ``CORRMAIL_SMTP_*`` / ``CORRMAIL_MAIL_*`` settings;
* :mod:`~corrmail.mail.tokens` — HMAC-signed reply tokens and VERP bounce addresses;
* :mod:`~corrmail.mail.compose`, :mod:`~corrmail.mail.transport`, :mod:`~corrmail.mail.mailer` —
  outgoing messages, SMTP delivery over aiosmtplib, the outbox worker;
* :mod:`~corrmail.mail.inbound`, :mod:`~corrmail.mail.body`, :mod:`~corrmail.mail.automated` —
  raw bytes → typed message, new text, machine-mail classification;
* :mod:`~corrmail.mail.content` — what a player's letter says (moves, variants, offers …);
* :mod:`~corrmail.games.view`, :mod:`~corrmail.mail.correspondence` — a letter applied to its
  game through ``notation``, ``timekeeping`` and ``adjudication``;
* :mod:`~corrmail.mail.inbox` — the idempotent entry point (store raw, then process);
* :mod:`~corrmail.letters.write`, :mod:`~corrmail.mail.calendar`, :mod:`~corrmail.letters.scheduled` —
  Jinja2 letters, ``.ics`` attachments, letters the calendar sends;
* :mod:`~corrmail.mail.listener`, :mod:`~corrmail.mail.imap`, :mod:`~corrmail.mail.service`,
  :mod:`~corrmail.mail.cli` — the SMTP/LMTP listener, IMAP polling, wiring, commands.
"""
