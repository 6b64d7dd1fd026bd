"""0022: every existing player keeps the language his letters came in so far — his login's
language where he has a login, else Russian."""

from __future__ import annotations

from sqlalchemy import text

from corrmail.db import make_engine
from corrmail.migrate import downgrade, upgrade


def test_existing_players_keep_the_language_of_their_letters(empty_db_url: str) -> None:
    upgrade(empty_db_url, "0021_entry_errors")
    engine = make_engine(empty_db_url)
    try:
        with engine.begin() as connection:
            for number, name in enumerate(("reads English", "reads Russian", "no login"), start=1):
                connection.execute(text("INSERT INTO players (id, name, created_at) "
                                        "VALUES (:id, :name, CURRENT_TIMESTAMP)"),
                                   {"id": number, "name": name})
            for number, locale in ((1, "en"), (2, "ru")):
                connection.execute(text(
                    "INSERT INTO users (id, login, display_name, password_hash, locale, active, "
                    "session_version, player_id, created_at) VALUES (:id, :login, :login, 'x', "
                    ":locale, :active, 0, :player, CURRENT_TIMESTAMP)"),
                    {"id": number, "login": f"user{number}", "locale": locale, "active": True,
                     "player": number})
        upgrade(empty_db_url)
        with engine.connect() as connection:
            languages = dict(connection.execute(text("SELECT name, language FROM players")).all())
        assert languages == {"reads English": "en", "reads Russian": "ru", "no login": "ru"}
        downgrade(empty_db_url, "0021_entry_errors")
        with engine.connect() as connection:
            assert connection.execute(text("SELECT count(*) FROM players")).scalar() == 3
    finally:
        engine.dispose()
