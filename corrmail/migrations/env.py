"""Alembic environment: online migrations only, batch mode so SQLite can alter tables."""

from __future__ import annotations

from alembic import context

from corrmail.db import make_engine
from corrmail.models import Base

config = context.config
engine = make_engine(config.attributes["database_url"])
try:
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=Base.metadata,
            render_as_batch=True,
            compare_type=True,
        )
        with context.begin_transaction():
            context.run_migrations()
finally:
    engine.dispose()
