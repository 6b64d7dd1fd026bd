"""`corrmail round pair|publish` (docs/rounds.md)."""

from __future__ import annotations

import json
from collections.abc import Callable

from click.testing import CliRunner
from sqlalchemy import select

from corrmail.cli import main
from corrmail.db import Database
from corrmail.models import Game, OutboxMessage, Tournament, TournamentSystem


def test_pair_preview_then_publish(
    db_url: str, database: Database, make_tournament: Callable[..., Tournament]
) -> None:
    tournament = make_tournament(players=5, code="SW-1", system=TournamentSystem.SWISS,
                                 pairing_system="coefficients")
    env = {"CORRMAIL_DATABASE_URL": db_url, "CORRMAIL_SECRET_KEY": "x",
           "CORRMAIL_TODAY": "2026-09-01"}
    runner = CliRunner()
    preview = runner.invoke(main, ["round", "pair", "SW-1", "--seed", "4", "--format", "json"],
                            env=env)
    assert preview.exit_code == 0, preview.output
    draw = json.loads(preview.output)
    assert draw["round"] == 1 and len(draw["pairs"]) == 2 and draw["bye"] is not None
    text = runner.invoke(main, ["round", "pair", "SW-1", "--seed", "4"], env=env)
    assert "preview, not published" in text.output and f"bye (+): {draw['bye']}" in text.output
    published = runner.invoke(main, ["round", "publish", "SW-1"], env=env)
    assert published.exit_code == 0, published.output
    assert "round 1 published — 2 games, 1 without a game, 5 letters queued" in published.output
    with database.session() as session:
        games = session.scalars(select(Game).where(Game.tournament_id == tournament.id)).all()
        assert {(g.white.start_number, g.black.start_number) for g in games} == {
            (p["white"], p["black"]) for p in draw["pairs"]}
        assert len(session.scalars(select(OutboxMessage)).all()) == 5
    again = runner.invoke(main, ["round", "pair", "SW-1"], env=env)
    assert again.exit_code == 1 and "unfinished" in again.output
    bad = runner.invoke(main, ["round", "pair", "SW-1", "--absent", "2,x"], env=env)
    assert bad.exit_code == 2 and "start numbers separated by commas" in bad.output
    missing = runner.invoke(main, ["round", "publish", "NOPE"], env=env)
    assert missing.exit_code == 1 and "no tournament 'NOPE'" in missing.output
