"""``python -m corrmail.mail ingest|mailer|receive|poll`` — the mail commands on their own,
for a mail-server pipe that should not load the web app."""

from __future__ import annotations

import logging

import click

from corrmail.mail.cli import register


@click.group()
def main() -> None:
    """corrmail mail commands."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")


register(main)

if __name__ == "__main__":
    main()
