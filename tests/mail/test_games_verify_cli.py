"""``corrmail games verify [CODE]`` and ``corrmail games rebuild``: a stored state that differs
from its ledger is named and exits 1; rebuild repairs it; an unknown tournament is refused."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from click.testing import CliRunner
from sqlalchemy import select, update

from corrmail.cli import main as cli
from corrmail.games.state import StoredGameState
from corrmail.models import Tournament

if TYPE_CHECKING:
    from tests.mail.conftest import EmailGame


def test_verify_names_a_differing_game_and_rebuild_repairs_it(email_game: EmailGame) -> None:
    receipt = email_game.send("white", "1. c3-d4", dt.date(2026, 3, 2))
    assert receipt.outcome == "move_relayed"
    runner = CliRunner(env={"CORRMAIL_DATABASE_URL": email_game.database.url})
    with email_game.database.session() as session:
        code = session.scalar(select(Tournament.code))
        stored = session.get(StoredGameState, email_game.game_id)
        assert stored is not None and stored.ply_count == 1 and stored.to_move == "black"
    good = runner.invoke(cli, ["games", "verify", code])
    assert good.exit_code == 0, good.output
    # A row written behind the service's back (raw SQL): the replay disagrees.
    with email_game.database.engine.begin() as connection:
        connection.execute(update(StoredGameState.__table__)
                           .where(StoredGameState.__table__.c.game_id == email_game.game_id)
                           .values(ply_count=7, fen="W:W1:B32"))
    bad = runner.invoke(cli, ["games", "verify"])
    assert bad.exit_code == 1
    assert f"game {email_game.game_id}: " in bad.output and "ply_count: stored 7, replay 1" in bad.output
    rebuilt = runner.invoke(cli, ["games", "rebuild"])
    assert rebuilt.exit_code == 0 and "recomputed" in rebuilt.output
    assert runner.invoke(cli, ["games", "verify", code]).exit_code == 0
    unknown = runner.invoke(cli, ["games", "verify", "NO-SUCH"])
    assert unknown.exit_code == 1 and "no tournament 'NO-SUCH'" in unknown.output
