"""Letters out: writing the service's letters from templates into the outbox, in the caller's
transaction, and the letters a date sends (the mailer in ``corrmail.mail`` delivers them)."""
