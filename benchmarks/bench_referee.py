"""The referee's queue under load: reading and ordering a federation's open cases, and deciding
adjudication cases through the desk with their letters and audit entries.

1. Queue: 20,000 open cases stored as JSON (adjudications, overstep claims, special breaks) read
   back with `case_from_dict` and ordered by `referee_queue`, as `/cases/` does, against the
   peer: the same payloads merely parsed by `json.loads` (the floor any queue must pay).
2. Desk: 300 end-of-play adjudications opened and decided on SQLite through `Desk` (revision
   check, result, letters to both players and the steward, audit entries), each decision in its
   own transaction as the web app commits them.

Run: .venv/bin/python benchmarks/bench_referee.py
"""

from __future__ import annotations

import datetime as dt
import json
import tempfile
import time
from pathlib import Path

from adjudication import (
    Adjudication,
    Assessment,
    BreakKind,
    Channel,
    Instance,
    OverstepClaim,
    Side,
    SpecialBreakRequest,
    case_from_dict,
    referee_queue,
)
from corrmail.db import Database
from corrmail.mail.settings import MailSettings
from corrmail.migrate import upgrade
from corrmail.models import (
    Case,
    Game,
    GameState,
    GameType,
    Participant,
    Player,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
)
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import Actor, Desk

END = dt.date(2027, 8, 31)
QUEUE_CASES = 20_000
DESK_GAMES = 300


def stored_payloads(count: int) -> list[str]:
    payloads = []
    for number in range(count):
        kind = number % 3
        if kind == 0:
            case = Adjudication.open(f"adj-{number}", game=str(number),
                                     end_date=END - dt.timedelta(days=number % 90)).case
            if number % 2:
                case = case.submit(Side.WHITE, Assessment.DRAW, "…",
                                   sent_on=case.end_date + dt.timedelta(days=3),
                                   revision=case.revision).case
        elif kind == 1:
            case = OverstepClaim.open(
                f"ovs-{number}", game=str(number), claimant=Side.BLACK,
                claimed_on=END - dt.timedelta(days=number % 60), channel=Channel.EMAIL,
                held_move="c3-d4", chart_shows_overstep=bool(number % 2)).case
        else:
            start = END - dt.timedelta(days=number % 40 + 5)
            case = SpecialBreakRequest.request(
                f"brk-{number}", player=str(number), break_kind=BreakKind.EXTRA,
                start=start, end=start + dt.timedelta(days=7), reason="…",
                filed_on=start - dt.timedelta(days=1)).case
        payloads.append(json.dumps(case.to_dict()))
    return payloads


def bench_queue() -> None:
    payloads = stored_payloads(QUEUE_CASES)
    today = END + dt.timedelta(days=20)
    started = time.perf_counter()
    parsed = [json.loads(text) for text in payloads]
    floor = time.perf_counter() - started
    started = time.perf_counter()
    cases = [case_from_dict(json.loads(text)) for text in payloads]
    entries = referee_queue(cases, today)
    queue = time.perf_counter() - started
    assert len(parsed) == len(entries) == QUEUE_CASES
    print(f"queue of {QUEUE_CASES:,} stored cases: {queue:.2f} s "
          f"({QUEUE_CASES / queue:,.0f} cases/s); json.loads alone {floor:.2f} s; "
          f"ratio {queue / floor:.1f}x")


def bench_desk() -> None:
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{Path(directory) / 'bench.sqlite'}"
        upgrade(url)
        database = Database(url)
        with database.transaction() as session:
            tournament = Tournament(
                code="BENCH", title="bench", game_type=GameType.RUSSIAN,
                system=TournamentSystem.SWISS, channel=TournamentChannel.EMAIL,
                start_date=END - dt.timedelta(days=365), end_date=END,
                status=TournamentStatus.RUNNING)
            session.add(tournament)
            session.flush()
            entries = []
            for number in range(1, 2 * DESK_GAMES + 1):
                player = Player(name=f"Player {number}", email=f"p{number}@example.org")
                session.add(player)
                session.flush()
                entry = Participant(tournament_id=tournament.id, player_id=player.id,
                                    start_number=number)
                session.add(entry)
                entries.append(entry)
            session.flush()
            for board in range(DESK_GAMES):
                session.add(Game(tournament_id=tournament.id, round=1,
                                 white_id=entries[2 * board].id,
                                 black_id=entries[2 * board + 1].id, state=GameState.IN_PLAY))
            tournament_id = tournament.id
        writer = case_letter_writer(MailSettings.from_env({}, secret_fallback="bench"))
        referee = Actor(None, frozenset({Instance.REFEREE}), frozenset())
        started = time.perf_counter()
        with database.transaction() as session:
            tournament = session.get(Tournament, tournament_id)
            assert tournament is not None
            Desk(session, writer, on=END).open_adjudications(tournament, referee)
        opened = time.perf_counter() - started
        with database.session() as session:
            case_ids = list(session.scalars(Case.__table__.select().with_only_columns(Case.id)))
        started = time.perf_counter()
        for case_id in case_ids:
            with database.transaction() as session:
                revision = session.get(Case, case_id).revision  # type: ignore[union-attr]
                Desk(session, writer, on=END + dt.timedelta(days=11)).decide(
                    referee, case_id, revision=revision, ruling="draw")
        decided = time.perf_counter() - started
        database.dispose()
    print(f"desk on SQLite: opened {DESK_GAMES} adjudications (600 letters) in {opened:.2f} s; "
          f"decided them one transaction each in {decided:.2f} s "
          f"({DESK_GAMES / decided:,.0f} decisions/s)")


if __name__ == "__main__":
    bench_queue()
    bench_desk()
