"""The case letters: one text per template key and language, and each player in his language."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from adjudication import LetterTemplate
from corrmail.models import Channel, GameResult, Participant, User
from corrmail.paths import templates_dir

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only: letters are rendered in Python."""
    path = tmp_path / "cases.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_letter_template_is_written(language: str) -> None:
    folder = templates_dir() / "cases" / "letters" / language
    for template in LetterTemplate:
        text = (folder / f"{template.value}.txt").read_text(encoding="utf-8")
        assert text.startswith("Subject: "), template


def test_each_player_gets_the_letter_in_his_language(cup: Cup, set_today) -> None:
    for pair in sorted(cup.games)[1:]:
        cup.finish(*pair, GameResult.DRAW)
    white, black = sorted(cup.games)[0]
    with cup.database.transaction() as session:
        user = session.scalar(select(User).where(User.login == f"player{white}"))
        assert user is not None and user.player is not None
        user.player.language = "en"
        # Both read their own mail (002 §4.1.1): the letters go to them, not to the steward.
        for participant in session.scalars(select(Participant).where(
                Participant.id.in_(cup.participants))):
            participant.channel = Channel.EMAIL
    set_today(END)
    cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    with cup.database.session() as session:
        by_recipient = {m.recipient: m for m in cup.outbox(session, "case.adjudication.request")}
    english = by_recipient[f"p1-{white}@example.org"]
    russian = by_recipient[f"p1-{black}@example.org"]
    assert "adjudication of the unfinished game" in english.subject
    assert "by 10.09.2027 inclusive" in english.body_text
    assert "присуждение неоконченной партии" in russian.subject
    assert "до 10.09.2027 включительно" in russian.body_text
