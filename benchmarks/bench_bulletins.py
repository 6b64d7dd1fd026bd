"""A bulletin of a large correspondence round robin, built from the database as of a date.

Twenty players, 190 games, every game with its letters (the demo's legal Russian-draughts games,
one ply per letter, postal dates), a third of them finished. Measured, best of three:

1. `build_bulletin` as of the last date (standings, crosstable, every finished game's record and
   diagram, every clock and deadline, cases) against the peer: the engines alone on the same
   games — `scoring` standings and crosstable plus one `timekeeping` chart and clock per game
   in play, with no as-of filtering, records or diagrams (the floor any bulletin must pay);
2. `build_final_report` and `render_printable` of the bulletin.

Run: .venv/bin/python benchmarks/bench_bulletins.py
"""

from __future__ import annotations

import datetime as dt
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from corrmail.bulletins import (
    build_bulletin,
    build_final_report,
    load_tournament,
    render_printable,
    to_json,
)
from corrmail.db import Database
from corrmail.demo.moves import DEMO_MOVES
from corrmail.games.ledger import LetterInput, append_letter
from corrmail.games.view import GameView
from corrmail.migrate import upgrade
from corrmail.models import (
    Channel,
    Game,
    GameResult,
    GameState,
    GameType,
    Participant,
    Player,
    ResultKind,
    Tournament,
    TournamentChannel,
    TournamentStatus,
    TournamentSystem,
)
from corrmail.referee.tournament_view import scoring_tournament
from scoring.crosstable import crosstable
from scoring.roundrobin import round_robin_games
from scoring.standings import standings
from timekeeping import NotToMoveError, reply_clock

PLAYERS = 20
START = dt.date(2026, 9, 1)
AS_OF = dt.date(2027, 3, 1)


def populate(database: Database) -> None:
    with database.transaction() as session:
        tournament = Tournament(
            code="BENCH", title="Бенчмарк", game_type=GameType.RUSSIAN,
            system=TournamentSystem.ROUND_ROBIN_SINGLE, channel=TournamentChannel.POST,
            start_date=START, end_date=dt.date(2028, 8, 31), status=TournamentStatus.RUNNING,
            tiebreak_order=["sonneborn_berger", "koya"],
        )
        session.add(tournament)
        session.flush()
        entries = {}
        for number in range(1, PLAYERS + 1):
            player = Player(name=f"Игрок {number}", email=f"p{number}@example.org")
            session.add(player)
            session.flush()
            entry = Participant(tournament_id=tournament.id, player_id=player.id,
                                start_number=number)
            session.add(entry)
            entries[number] = entry
        session.flush()
        for index, pairing in enumerate(round_robin_games(list(range(1, PLAYERS + 1)))):
            game = Game(tournament_id=tournament.id, round=pairing.round,
                        white_id=entries[pairing.white].id, black_id=entries[pairing.black].id,
                        state=GameState.IN_PLAY)
            session.add(game)
            session.flush()
            moves = DEMO_MOVES[index % len(DEMO_MOVES)]
            previous: dt.date | None = None
            for ply, text in enumerate(moves):
                sent = START + dt.timedelta(days=index % 7 + 8 * ply)
                append_letter(session, game, LetterInput(
                    sender_id=game.white_id if ply % 2 == 0 else game.black_id,
                    channel=Channel.POST, moves_text=text, partner_sent=previous,
                    received=previous + dt.timedelta(days=2) if previous else None,
                    sent=sent, postmark_date=sent), None)
                previous = sent
            if index % 3 == 0 and previous is not None:
                game.result, game.result_kind = GameResult.WHITE_WIN, ResultKind.PLAYED
                game.state, game.result_on = GameState.FINISHED, previous


def engines_alone(database: Database) -> None:
    with database.session() as session:
        tournament = load_tournament(session, "BENCH")
        scoring = scoring_tournament(tournament)
        rows = standings(scoring, tiebreaks=tournament.tiebreak_order)
        crosstable(scoring, order=[row.start_no for row in rows])
        for game in tournament.games:
            if game.result is not None:
                continue
            view = GameView(game)
            chart = view.chart()
            try:
                reply_clock(view.ledger(), view.side_to_move, chart=chart).days_left(AS_OF)
            except NotToMoveError:
                pass


def best_of_three(run: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return min(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        url = f"sqlite:///{Path(directory) / 'bench.sqlite'}"
        upgrade(url)
        database = Database(url)
        populate(database)
        content: dict[str, object] = {}

        def bulletin() -> None:
            with database.session() as session:
                built = build_bulletin(session, load_tournament(session, "BENCH"), AS_OF)
                content.update(to_json(built))

        def report() -> None:
            with database.session() as session:
                build_final_report(session, load_tournament(session, "BENCH"), AS_OF)

        peer = best_of_three(lambda: engines_alone(database))
        ours = best_of_three(bulletin)
        reported = best_of_three(report)
        rendered = best_of_three(lambda: render_printable(content))
        database.dispose()
    games = PLAYERS * (PLAYERS - 1) // 2
    print(f"{PLAYERS} players, {games} games, as of {AS_OF}")
    print(f"engines alone (peer):  {peer * 1000:8.1f} ms")
    print(f"build_bulletin:        {ours * 1000:8.1f} ms   ratio {ours / peer:.2f}x the peer")
    print(f"build_final_report:    {reported * 1000:8.1f} ms")
    print(f"render_printable:      {rendered * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
