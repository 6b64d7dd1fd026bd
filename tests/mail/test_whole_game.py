"""A whole e-mail game played through ``corrmail ingest`` with simulated arrival dates.

Nine letters: a variant proposed and applied automatically, a draw offered and declined, then a
resignation. Checked: the letters each player receives (repetition, moves, variants, the three
dates, the time fraction) and the final standings computed by ``scoring``.
"""

from __future__ import annotations

import datetime as dt

from click.testing import CliRunner

from corrmail.mail.cli import ingest
from corrmail.models import Tournament
from corrmail.referee.tournament_view import scoring_tournament
from scoring.standings import standings

# (sender, arrival day in March 2026 at 10:00 Moscow, text, expected outcome, fraction after)
LETTERS = [
    ("white", 3, "Здравствуйте! Начинаю: 1. c3-b4", "move_relayed", "2/0"),
    ("black", 6, "Добрый день. 1. c3-b4 f6-e5", "move_relayed", "2/3"),
    ("white", 8, "1... f6-e5 2. b4-c5", "move_relayed", "4/3"),
    ("black", 12, "2. b4-c5 d6:b4", "move_relayed", "4/7"),
    ("white", 13, "2... d6:b4 3. a3:c5\nЕсли 3... b6:d4, то 4. e3:c5", "move_relayed", "5/7"),
    ("black", 20, "3. a3:c5 b6:d4", "move_relayed", "5/14"),
    ("black", 22, "4. e3:c5 e5-d4\nПредлагаю ничью.", "move_relayed", "5/16"),
    ("white", 25, "4... e5-d4 5. c5:e3\nОт ничьей отказываюсь.", "move_relayed", "8/16"),
    ("black", 26, "Сдаюсь. Спасибо за игру.", "resigned", None),
]


def test_a_whole_game_by_email(email_game, db_url: str) -> None:  # type: ignore[no-untyped-def]
    settings = email_game.writer.settings
    env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_MAIL_SECRET": settings.secret.decode(),
           "CORRMAIL_MAIL_DOMAIN": settings.domain, "CORRMAIL_SMTP_HOST": ""}
    runner = CliRunner()
    for side, day, text, outcome, fraction in LETTERS:
        when = dt.datetime(2026, 3, day, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=3)))
        raw = email_game.raw(side, text, when=when)
        result = runner.invoke(ingest, ["--received-at", when.isoformat()], input=raw, env=env)
        assert result.exit_code == 0, result.output
        assert outcome in result.output, (text, result.output)
        if fraction:
            partner = email_game.black_email if side == "white" else email_game.white_email
            latest = email_game.outbox(to=partner, kind="move")[-1]
            assert f"белые/чёрные: {fraction}" in latest.body_text, (text, latest.body_text)

    to_white = email_game.outbox(to=email_game.white_email, kind="move")
    to_black = email_game.outbox(to=email_game.black_email, kind="move")
    assert len(to_black) == 4 and len(to_white) == 4

    # Black's reply 3... b6:d4 met White's variant: White's prepared 4. e3:c5 went out at once.
    variant_letter = to_white[2]
    assert "Ваш ход (повторение): 3. a3:c5" in variant_letter.body_text
    assert "Ответ партнёра: 3... b6:d4" in variant_letter.body_text
    assert "По вашему варианту сделан ваш заготовленный ответ: 4. e3:c5" in variant_letter.body_text
    assert "13.03.2026 / 13.03.2026 / 20.03.2026" in variant_letter.body_text
    [told_black] = email_game.outbox(to=email_game.black_email, kind="move_receipt")
    assert "4. e3:c5" in told_black.body_text and "Ваш ход." in told_black.body_text

    proposal = to_black[2]
    assert "Предлагаемый вариант: Если 3... b6:d4, то 4. e3:c5" in proposal.body_text
    draw = to_white[3]
    assert "предлагает ничью" in draw.body_text
    assert "Предложение ничьей отклонено." in to_black[3].body_text
    assert "22.03.2026 / 22.03.2026 / 25.03.2026" in to_black[3].body_text

    game = email_game.game()
    assert str(game.result) == "white_win" and game.result_on == dt.date(2026, 3, 26)
    over = email_game.outbox(kind="game_over")
    assert {letter.recipient for letter in over} == {email_game.white_email, email_game.black_email}
    assert "1. c3-b4 f6-e5 2. b4-c5 d6:b4 3. a3:c5 b6:d4 4. e3:c5 e5-d4 5. c5:e3" in over[0].body_text
    # Black resigned: both letters name him and the manner, not only the score.
    assert all("Чёрные (Седов Сергей) сдали партию." in letter.body_text for letter in over)

    with email_game.database.session() as session:
        tournament = session.get(Tournament, game.tournament_id)
        assert tournament is not None
        table = standings(scoring_tournament(tournament))
    assert [(row.start_no, row.points) for row in table] == [(1, 1.0), (2, 0.0)]
