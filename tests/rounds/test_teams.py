"""Team events: teams with board order, team round robin, Scheveningen, team Swiss, standings."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import (
    Game,
    GameResult,
    ResultKind,
    Team,
    TeamPairing,
    TeamSchedule,
    Tournament,
    TournamentSystem,
    UnpairedEntry,
    UnpairedKind,
)
from corrmail.rounds.swiss import (
    RoundRefused,
    pair_next_round,
    publish_round,
    scoring_view,
    set_round_rules,
)
from corrmail.rounds.teams import (
    TeamEntry,
    TeamsRefused,
    pair_team_round_robin,
    parse_team_lines,
    set_teams,
    team_table,
)

TODAY = dt.date(2026, 9, 1)
FOUR_TEAMS = [TeamEntry("Odessa", (1, 2)), TeamEntry("Kyiv", (3, 4)),
              TeamEntry("Lviv", (5, 6)), TeamEntry("Kharkiv", (7, 8))]


@pytest.fixture
def team_event(make_tournament: Callable[..., Tournament]) -> Callable[..., Tournament]:
    def make(players: int = 8) -> Tournament:
        return make_tournament(players=players, system=TournamentSystem.TEAM)

    return make


def _teams(database: Database, tournament_id: int, entries: list[TeamEntry]) -> None:
    with database.transaction() as session:
        set_teams(session, session.get_one(Tournament, tournament_id), entries, None)


def test_team_lines_are_read_leniently() -> None:
    entries, errors = parse_team_lines("Odessa: 1, 2\n\nKyiv 3 4\nLviv: 5, x\nKharkiv:\n")
    assert entries == [TeamEntry("Odessa", (1, 2))]
    assert [(e.line, e.reason) for e in errors] == [
        (3, "write the team as «Name: 3, 7, 12»"),
        (4, "not start numbers: x"),
        (5, "team 'Kharkiv' has no players (000 §3.17.2)"),
    ]


def test_bad_teams_are_refused_whole(database: Database, team_event: Callable[..., Tournament],
                                     make_tournament: Callable[..., Tournament]) -> None:
    tournament = team_event()
    with database.session() as session:
        t = session.get_one(Tournament, tournament.id)
        with pytest.raises(TeamsRefused) as refused:
            set_teams(session, t, [TeamEntry("A", (1, 2, 9)), TeamEntry("a", (2, 3))], None)
        reasons = [error.reason for error in refused.value.errors]
        assert reasons == ["A: no player no. 9", "two teams are called 'a'",
                           "no. 2 is in 'A' and in 'a'"]
        with pytest.raises(TeamsRefused, match="at least two teams"):
            set_teams(session, t, [TeamEntry("A", (1, 2))], None)
        assert session.scalars(select(Team)).all() == []
        swiss = make_tournament(players=4, system=TournamentSystem.SWISS, pairing_system="random")
        with pytest.raises(RoundRefused, match="only a team tournament has teams"):
            set_teams(session, session.get_one(Tournament, swiss.id), FOUR_TEAMS[:2], None)


def test_team_round_robin_colours_by_board_one(
    database: Database, team_event: Callable[..., Tournament]
) -> None:
    tournament = team_event()
    _teams(database, tournament.id, FOUR_TEAMS)
    with database.transaction() as session:
        games = pair_team_round_robin(session, session.get_one(Tournament, tournament.id), None)
        assert len(games) == 3 * 2 * 2  # three rounds, two matches, two boards
    with database.session() as session:
        games = session.scalars(select(Game).order_by(Game.round, Game.id)).all()
        for number in (1, 2, 3):
            boards = [g for g in games if g.round == number]
            for first, second in zip(boards[::2], boards[1::2], strict=True):
                assert (first.board, second.board) == (1, 2)
                # The team with white on board one has black on board two (000 §3.17.3).
                assert first.white.team == second.black.team
        met = {frozenset((g.white.team, g.black.team)) for g in games}
        assert len(met) == 6  # every team meets every other once
        with pytest.raises(RoundRefused, match="already has games"):
            pair_team_round_robin(session, session.get_one(Tournament, tournament.id), None)
        with pytest.raises(RoundRefused, match="fixed once games are paired"):
            set_teams(session, session.get_one(Tournament, tournament.id), FOUR_TEAMS, None)


def test_scheveningen_match_every_player_meets_every_opponent(
    database: Database, team_event: Callable[..., Tournament]
) -> None:
    tournament = team_event(players=8)
    _teams(database, tournament.id, [TeamEntry("A", (1, 2, 3, 4)), TeamEntry("B", (5, 6, 7, 8))])
    with database.transaction() as session:
        t = session.get_one(Tournament, tournament.id)
        set_round_rules(session, t, None, pair_before_finished=False,
                        team_schedule=TeamSchedule.SCHEVENINGEN)
        pair_team_round_robin(session, t, None)
    with database.session() as session:
        games = session.scalars(select(Game)).all()
        pairs = {frozenset((g.white.start_number, g.black.start_number)) for g in games}
        assert len(games) == 16 and pairs == {frozenset((a, b)) for a in range(1, 5)
                                              for b in range(5, 9)}
        assert {g.round for g in games} == {1, 2, 3, 4}


def test_scheveningen_needs_two_teams(database: Database,
                                      team_event: Callable[..., Tournament]) -> None:
    tournament = team_event()
    _teams(database, tournament.id, FOUR_TEAMS[:3])
    with database.session() as session:
        t = session.get_one(Tournament, tournament.id)
        set_round_rules(session, t, None, pair_before_finished=False,
                        team_schedule=TeamSchedule.SEMI_SCHEVENINGEN)
        with pytest.raises(RoundRefused, match="between two teams, not 3") as refused:
            pair_team_round_robin(session, t, None)
        assert refused.value.rule == "004"
        with pytest.raises(RoundRefused, match="played as a match, not a Swiss"):
            set_round_rules(session, t, None, pair_before_finished=False,
                            team_pairing=TeamPairing.SWISS, team_pairing_system="random",
                            team_schedule=TeamSchedule.SCHEVENINGEN)
        with pytest.raises(RoundRefused, match="000 §3.18.3"):
            set_round_rules(session, t, None, pair_before_finished=False,
                            team_pairing=TeamPairing.SWISS, team_pairing_system="dutch")


def test_team_swiss_rounds_and_standings(
    database: Database, team_event: Callable[..., Tournament]
) -> None:
    tournament = team_event(players=10)
    _teams(database, tournament.id, [*FOUR_TEAMS, TeamEntry("Dnipro", (9, 10))])
    with database.transaction() as session:
        t = session.get_one(Tournament, tournament.id)
        set_round_rules(session, t, None, pair_before_finished=False,
                        team_pairing=TeamPairing.SWISS, team_pairing_system="coefficients")
        with pytest.raises(RoundRefused, match="paired round by round"):
            pair_team_round_robin(session, t, None)
        paired = pair_next_round(session, t, None, seed=3)
        assert len(paired.draw["pairs"]) == 2 and paired.draw["bye"] is not None
        published = publish_round(session, t, None, writer=None, today=TODAY)
        assert len(published.games) == 4 and {g.board for g in published.games} == {1, 2}
        assert [e.kind for e in published.unpaired] == [UnpairedKind.BYE, UnpairedKind.BYE]
    with database.transaction() as session:
        for game in session.scalars(select(Game)):
            game.result = GameResult.WHITE_WIN
            game.result_kind = ResultKind.PLAYED
    with database.session() as session:
        t = session.get_one(Tournament, tournament.id)
        rows = team_table(session, t)
        assert len(rows) == 5
        bye_team = session.scalars(select(UnpairedEntry)).first()
        assert bye_team is not None
        view = scoring_view(session, t)
        assert view.system.value == "swiss" and len(view.teams) == 5
        winners = {r.team: r.game_points for r in rows}
        # Board one white wins, board two black wins: every played match is drawn 1–1.
        assert sorted(winners.values()) == [1.0, 1.0, 1.0, 1.0, 2.0]
        assert winners[bye_team.participant.team or ""] == 2.0


def test_team_swiss_never_pairs_two_teams_twice(
    database: Database, team_event: Callable[..., Tournament]
) -> None:
    tournament = team_event(players=8)
    _teams(database, tournament.id, FOUR_TEAMS)
    with database.transaction() as session:
        t = session.get_one(Tournament, tournament.id)
        set_round_rules(session, t, None, pair_before_finished=False,
                        team_pairing=TeamPairing.SWISS, team_pairing_system="random")
    for number in (1, 2, 3):
        with database.transaction() as session:
            t = session.get_one(Tournament, tournament.id)
            pair_next_round(session, t, None, seed=number)
            publish_round(session, t, None, writer=None, today=TODAY)
        with database.transaction() as session:
            for game in session.scalars(select(Game).where(Game.round == number)):
                game.result = GameResult.DRAW if game.board == 1 else GameResult.WHITE_WIN
                game.result_kind = ResultKind.PLAYED
    with database.session() as session:
        matches = {(g.round, frozenset((g.white.team, g.black.team)))
                   for g in session.scalars(select(Game))}
        assert len(matches) == 6 and len({teams for _, teams in matches}) == 6
        with pytest.raises(RoundRefused, match="004"):
            pair_next_round(session, session.get_one(Tournament, tournament.id), None, number=3)


def test_a_team_events_table_exports_and_report_lead_with_the_teams(
    database: Database, team_event: Callable[..., Tournament]
) -> None:
    """000 §3.17.6 gives the places to teams: `corrmail standings` (text, CSV, JSON), the export
    and the final report put the team table first, the players' board results after it."""
    from corrmail.bulletins import build_final_report
    from corrmail.bulletins.content import to_json
    from corrmail.bulletins.render import render_printable
    from corrmail.standings.exports import standings_csv, standings_json, standings_text
    from corrmail.standings.results import load_tournament, tournament_table

    tournament = team_event()
    _teams(database, tournament.id, FOUR_TEAMS)
    with database.transaction() as session:
        pair_team_round_robin(session, session.get_one(Tournament, tournament.id), None)
    with database.transaction() as session:
        for game in session.scalars(select(Game)):
            # Odessa (1, 2) wins every game it plays; the rest are drawn.
            odessa = {game.white.start_number, game.black.start_number} & {1, 2}
            if odessa:
                white_is_odessa = game.white.start_number in (1, 2)
                game.result = GameResult.WHITE_WIN if white_is_odessa else GameResult.BLACK_WIN
            else:
                game.result = GameResult.DRAW
            game.result_kind = ResultKind.PLAYED
            game.result_on = TODAY
    with database.session() as session:
        row = load_tournament(session, tournament.code, with_letters=True)
        table = tournament_table(row)
        assert [t.team for t in table.teams][0] == "Odessa"
        assert len(table.teams) == 4 and table.team_tiebreaks
        text = standings_text(table)
        assert text.index("Odessa") < text.index("boards:")
        csv_lines = standings_csv(table).decode("utf-8-sig").splitlines()
        assert csv_lines[0].split(";")[:4] == ["place", "team", "match_points", "game_points"]
        assert csv_lines[1].split(";")[1] == "Odessa"
        assert "" in csv_lines and csv_lines[csv_lines.index("") + 1].startswith("place;start_no")
        document = standings_json(table)
        assert document.index('"teams"') < document.index('"standings"')
        report = build_final_report(session, row, TODAY)
        assert report.teams[0].team == "Odessa" and report.team_tiebreak_order
        page = render_printable(to_json(report), language="ru")
        assert page.index("Итоговое положение команд") < page.index("По доскам")
