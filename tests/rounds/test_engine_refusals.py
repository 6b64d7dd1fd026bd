"""The pairing program's refusals, as a director meets them on the Rounds, redraw and Teams pages:
worded in his language from the program's codes and values (its start numbers with the players'
names, in a team Swiss the teams' names), with the rules it cites; nothing stored changes.

The histories are written straight into the database, as a Swiss stands after its rounds were
published (some are histories only hand entry or an import can leave); the refusal itself comes
through the web routes and the rounds service, as a director's click does.
"""

from __future__ import annotations

import datetime as dt
import html
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import force_locale
from sqlalchemy import select

from corrmail.db import Database
from corrmail.models import (
    AuditEntry,
    Game,
    GameResult,
    OutboxMessage,
    PairedRound,
    Participant,
    ResultKind,
    RoundRules,
    Team,
    TeamBoard,
    TeamPairing,
    TeamSchedule,
    Tournament,
    TournamentSystem,
    UnpairedEntry,
    UnpairedKind,
)
from corrmail.rounds.refusals import PAIRING_REASONS, EngineReason
from corrmail.rounds.swiss import RoundRefused
from corrmail.web.pairing_notes import pairing_reason
from corrmail.web.refusals import refusal_text
from scoring.errors import ScoringError
from scoring.pairing import Draw, Pair, PairingSystem, check_round
from tests.rounds.test_pairing_notes_words import ENGLISH
from tests.rounds.test_redraw_web import _withdraw
from tests.scoring.pairing.conftest import build_event
from tests.scoring.pairing.test_error_codes import CASES

_RESULTS = {"1-0": GameResult.WHITE_WIN, "0-1": GameResult.BLACK_WIN, "=": GameResult.DRAW,
            "*": None}


def _locale(client: FlaskClient, locale: str) -> FlaskClient:
    assert client.post("/locale", data={"locale": locale}).status_code == 302
    return client


def _flashed(page: str) -> list[str]:
    return [html.unescape(text) for text in
            re.findall(r'<p class="flash error" role="alert">(.*?)</p>', page, re.S)]


def _stored(database: Database, tournament_id: int) -> dict[str, Any]:
    """Everything pairing, publishing or a redraw would write for the tournament."""
    with database.session() as session:
        def rows(model: Any, *columns: Any) -> list[tuple[Any, ...]]:
            query = select(*columns).where(model.tournament_id == tournament_id)
            return [tuple(row) for row in session.execute(query.order_by(*columns))]

        return {
            "rounds": rows(PairedRound, PairedRound.number, PairedRound.seed,
                           PairedRound.published_at, PairedRound.system),
            "draws": [r.draw for r in session.scalars(
                select(PairedRound).where(PairedRound.tournament_id == tournament_id)
                .order_by(PairedRound.number))],
            "games": rows(Game, Game.round, Game.white_id, Game.black_id, Game.result),
            "unpaired": rows(UnpairedEntry, UnpairedEntry.round, UnpairedEntry.participant_id,
                             UnpairedEntry.kind),
            "letters": rows(OutboxMessage, OutboxMessage.id),
            "audit": rows(AuditEntry, AuditEntry.id),
        }


def _history(database: Database, tournament: Tournament, *rounds: str,
             system: str = "coefficients") -> None:
    """Published rounds as a referee writes them: ``"1-2 1-0; 3-4 =; 5 bye"`` (``*``: no result
    yet; a team event's games take their boards in order)."""
    with database.transaction() as session:
        by_number = {p.start_number: p for p in session.scalars(
            select(Participant).where(Participant.tournament_id == tournament.id))}
        for number, text in enumerate(rounds, start=1):
            pairs: list[Pair] = []
            bye: int | None = None
            for item in filter(None, (part.strip() for part in text.split(";"))):
                first, second = item.split()
                if second in ("bye", "absent"):
                    kind = UnpairedKind.BYE if second == "bye" else UnpairedKind.ABSENT
                    bye = int(first) if kind is UnpairedKind.BYE else bye
                    session.add(UnpairedEntry(tournament_id=tournament.id, round=number,
                                              participant_id=by_number[int(first)].id, kind=kind))
                    continue
                white, black = (int(n) for n in first.split("-"))
                pairs.append(Pair(white, black))
                result = _RESULTS[second]
                session.add(Game(
                    tournament_id=tournament.id, round=number, board=None,
                    white_id=by_number[white].id, black_id=by_number[black].id, result=result,
                    result_kind=ResultKind.PLAYED if result is not None else None))
            draw = Draw(number, PairingSystem(system), tuple(pairs), bye).as_dict()
            session.add(PairedRound(
                tournament_id=tournament.id, number=number, system=system, seed=1, absent=[],
                draw=draw, published_at=dt.datetime(2026, 9, number, tzinfo=dt.UTC),
                starts_on=dt.date(2026, 9, number)))


def _refused_both_ways(
    database: Database, client: FlaskClient, tournament: Tournament,
    act: Callable[[FlaskClient], str], russian: str, english: str,
) -> None:
    """The refusal ``act`` meets, on a Russian page and then on an English one; nothing stored
    changes either time."""
    before = _stored(database, tournament.id)
    for locale, wording in (("ru", russian), ("en", english)):
        assert act(_locale(client, locale)) == f"{tournament.code}: {wording}"
        assert _stored(database, tournament.id) == before


def _flash_of(path: str) -> Callable[[FlaskClient], str]:
    def act(client: FlaskClient) -> str:
        flashed = _flashed(client.post(path, data={"seed": "3"}, follow_redirects=True)
                           .get_data(as_text=True))
        assert len(flashed) == 1, flashed
        return flashed[0]

    return act


def _player(number: int) -> str:
    return f"№{number} Player 1.{number}"


# -- pairing the next round ------------------------------------------------------------------

#: (players, the tournament's program, published rounds, the refusal in Russian, in English) of
#: pairing the next round; ``zero``: the first player's start number is 0.
NO_PAIRING = {
    "unknown_system": (
        4, "dutch", [],
        "программа жеребьёвки отказывает: неизвестная программа жеребьёвки «dutch»; известны: "
        "«слепой жребий» («случайные числа»); по индивидуальным коэффициентам участников; по "
        "усечённому коэффициенту Солкофа; по текущему коэффициенту Бухгольца "
        "(000 §3.18.3-3.18.7) (000 §3.18.3)",
        "the pairing program refuses: unknown pairing system «dutch»; known: «blind lot» "
        "(random numbers); by the players' individual coefficients; by the cut Solkoff "
        "coefficient; by the current Buchholz coefficient (000 §3.18.3-3.18.7) (000 §3.18.3)"),
    "start_number_below_one, zero": (
        4, "coefficients", [],
        "программа жеребьёвки отказывает: игрок №0 Player 1.1: стартовые номера начинаются с 1 "
        "(000 §3.18.5.1) (000 §3.18.2)",
        "the pairing program refuses: player №0 Player 1.1: start numbers begin at 1 "
        "(000 §3.18.5.1) (000 §3.18.2)"),
    "met_twice": (
        4, "coefficients", ["1-2 1-0; 3-4 1-0", "2-1 =; 4-3 ="],
        f"программа жеребьёвки отказывает: игрок {_player(1)}: дважды встретился с одним и тем же "
        "соперником (000 §3.18.2) (000 §3.18.2)",
        f"the pairing program refuses: player {_player(1)}: met the same opponent twice "
        "(000 §3.18.2) (000 §3.18.2)"),
    "every_bye_taken": (
        3, "coefficients", ["1-3 =; 2 bye", "2-3 =; 1 bye", "1-2 =; 3 bye"],
        "программа жеребьёвки отказывает: тур 4: нет допустимой жеребьёвки: нечётное число "
        "участников, и каждый уже получал очко без игры (000 §3.18.2) (000 §3.18.2)",
        "the pairing program refuses: round 4: no legal pairing: odd number of players and every "
        "one has already had a point without play (000 §3.18.2) (000 §3.18.2)"),
    "cannot_meet_anyone": (
        4, "coefficients", ["2-1 =; 4-3 =", "4-1 =; 2-3 ="],
        "программа жеребьёвки отказывает: тур 3: нет допустимой жеребьёвки: игрокам "
        f"{_player(1)}, {_player(2)}, {_player(3)}, {_player(4)} не с кем встретиться: с каждым "
        "из остальных они уже играли (000 §3.18.2) или нет цвета в пределах ограничений "
        "(000 §3.18.2, 002) (000 §3.18.2)",
        "the pairing program refuses: round 3: no legal pairing: player(s) "
        f"{_player(1)}, {_player(2)}, {_player(3)}, {_player(4)} cannot meet anyone: every other "
        "player already met (000 §3.18.2) or no colour within the limits (000 §3.18.2, 002) "
        "(000 §3.18.2)"),
    "no_legal_opponent": (
        6, "coefficients", ["1-5 =; 4-2 =; 6-3 =", "6-5 =; 3-2 =; 4-1 =", "4-6 =; 5-2 =; 3-1 ="],
        "программа жеребьёвки отказывает: тур 4: нет допустимой жеребьёвки: у игроков "
        f"{_player(5)}, {_player(6)} не осталось допустимых партнёров (000 §3.18.2, 002) "
        "(000 §3.18.2)",
        "the pairing program refuses: round 4: no legal pairing: players "
        f"{_player(5)}, {_player(6)} have no legal opponent left (000 §3.18.2, 002) "
        "(000 §3.18.2)"),
    "odd_blocks": (
        6, "coefficients", ["4-5 =; 6-1 =; 2-3 =", "4-1 =; 2-6 =; 5-3 =", "6-5 =; 2-1 =; 4-3 ="],
        "программа жеребьёвки отказывает: тур 4: нет допустимой жеребьёвки: игроки "
        f"{_player(1)}, {_player(2)} могут встретиться только друг с другом (группами нечётного "
        f"размера) или с игроками {_player(5)} (их 1 — слишком мало), поэтому один остаётся без "
        "пары (пары не повторяются, ограничения по цвету: 000 §3.18.2, 002) (000 §3.18.2)",
        "the pairing program refuses: round 4: no legal pairing: players "
        f"{_player(1)}, {_player(2)} may meet only one another (in blocks of odd size) or the 1 "
        f"player(s) {_player(5)}, too few for them, so one is left over (never the same pair "
        "twice, colour limits: 000 §3.18.2, 002) (000 §3.18.2)"),
    "no_legal_opponent, bye": (
        5, "coefficients", ["2-5 =; 4-3 =; 1 bye", "1-5 =; 3-2 =; 4 bye", "3-1 =; 4-5 =; 2 bye"],
        "программа жеребьёвки отказывает: тур 4: нет допустимой жеребьёвки: у игроков "
        f"{_player(3)}, {_player(4)} не осталось допустимых партнёров (000 §3.18.2, 002) — кто "
        f"бы из {_player(3)}, {_player(5)} ни получил свободный тур (000 §3.18.2: второе очко без "
        "игры не даётся) (000 §3.18.2)",
        "the pairing program refuses: round 4: no legal pairing: players "
        f"{_player(3)}, {_player(4)} have no legal opponent left (000 §3.18.2, 002) whoever of "
        f"{_player(3)}, {_player(5)} takes the bye (000 §3.18.2: never a second point without "
        "play) (000 §3.18.2)"),
}


@pytest.mark.parametrize("case", list(NO_PAIRING))
def test_a_round_the_program_cannot_pair_is_refused_in_words(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient, case: str,
) -> None:
    players, program, rounds, russian, english = NO_PAIRING[case]
    tournament = make_tournament(players=players, system=TournamentSystem.SWISS,
                                 pairing_system=program)
    _history(database, tournament, *rounds)
    if case.endswith(", zero"):
        with database.transaction() as session:
            session.scalars(select(Participant).where(
                Participant.tournament_id == tournament.id, Participant.start_number == 1)
            ).one().start_number = 0
    _refused_both_ways(database, organizer_client, tournament,
                       _flash_of(f"/tournaments/{tournament.code}/rounds/pair"), russian, english)


def test_a_team_swiss_names_the_teams_it_cannot_pair(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient,
) -> None:
    """The program numbers the teams in their order; the page names them."""
    tournament = make_tournament(players=4, system=TournamentSystem.TEAM)
    with database.transaction() as session:
        by_number = {p.start_number: p for p in session.scalars(
            select(Participant).where(Participant.tournament_id == tournament.id))}
        for number, (name, members) in enumerate((("Odessa", (1, 2)), ("Kyiv", (3, 4))),
                                                 start=1):
            session.add(Team(tournament_id=tournament.id, number=number, name=name, boards=[
                TeamBoard(board=board, participant_id=by_number[member].id)
                for board, member in enumerate(members, start=1)]))
        session.add(RoundRules(tournament_id=tournament.id, pair_before_finished=False,
                               team_pairing=TeamPairing.SWISS,
                               team_pairing_system="coefficients",
                               team_schedule=TeamSchedule.BOARDS))
    _history(database, tournament, "1-3 1-0; 4-2 =")
    _refused_both_ways(
        database, organizer_client, tournament,
        _flash_of(f"/tournaments/{tournament.code}/rounds/pair"),
        "программа жеребьёвки отказывает: тур 2: нет допустимой жеребьёвки: игрокам Odessa, "
        "Kyiv не с кем встретиться: с каждым из остальных они уже играли (000 §3.18.2) или нет "
        "цвета в пределах ограничений (000 §3.18.2, 002) (000 §3.18.2)",
        "the pairing program refuses: round 2: no legal pairing: player(s) Odessa, Kyiv cannot "
        "meet anyone: every other player already met (000 §3.18.2) or no colour within the "
        "limits (000 §3.18.2, 002) (000 §3.18.2)")


# -- publishing: the program's draw checked once more (000 §3.18.2, 004) ----------------------

#: (players, published rounds, withdrawn, the draw the program is made to give, the refusal in
#: Russian, in English). The program never gives such a draw: it is replaced for the test.
BAD_DRAWS = {
    "met_before": (
        4, ["1-2 1-0; 3-4 1-0"], [], ((2, 1), (3, 4)), None,
        "программа жеребьёвки отказывает: тур 2: №2 Player 1.2 и №1 Player 1.1 уже встречались "
        "(000 §3.18.2); тур 2: №3 Player 1.3 и №4 Player 1.4 уже встречались (000 §3.18.2) (004)",
        "the pairing program refuses: round 2: №2 Player 1.2 and №1 Player 1.1 have met before "
        "(000 §3.18.2); round 2: №3 Player 1.3 and №4 Player 1.4 have met before (000 §3.18.2) "
        "(004)"),
    "colour_limits": (
        4, ["1-2 1-0; 3-4 1-0", "1-3 1-0; 2-4 1-0"], [], ((1, 4), (3, 2)), None,
        f"программа жеребьёвки отказывает: тур 3: игрок {_player(1)} получает цвет «белые» "
        "сверх ограничений (никогда четыре партии подряд одним цветом, белых и чёрных — с "
        "разницей не более двух) (000 §3.18.2, 002); тур 3: игрок "
        f"{_player(4)} получает цвет «чёрные» сверх ограничений (никогда четыре партии подряд "
        "одним цветом, белых и чёрных — с разницей не более двух) (000 §3.18.2, 002) (004)",
        f"the pairing program refuses: round 3: player {_player(1)} gets white beyond the colour "
        "limits (never four in a row, whites and blacks at most two apart) (000 §3.18.2, 002); "
        f"round 3: player {_player(4)} gets black beyond the colour limits (never four in a row, "
        "whites and blacks at most two apart) (000 §3.18.2, 002) (004)"),
    "second_point_without_play": (
        5, ["1-2 1-0; 3-4 1-0; 5 bye"], [], ((1, 3), (4, 2)), 5,
        f"программа жеребьёвки отказывает: тур 2: игрок {_player(5)} получает второе очко без "
        "игры (000 §3.18.2) (004)",
        f"the pairing program refuses: round 2: player {_player(5)} gets a second point without "
        "play (000 §3.18.2) (004)"),
    "withdrawn_paired": (
        6, [], [6], ((1, 2), (3, 4), (5, 6)), None,
        f"программа жеребьёвки отказывает: тур 1: игрок {_player(6)} выбыл, но включён в "
        "жеребьёвку (000 §3.18.2) (004)",
        f"the pairing program refuses: round 1: player {_player(6)} has withdrawn but is paired "
        "(000 §3.18.2) (004)"),
    "incomplete": (
        4, [], [], ((1, 2),), 3,
        "программа жеребьёвки отказывает: тур 1: свободный тур (+) при чётном числе участников "
        f"(000 §3.18.2); тур 1: игроки {_player(4)} не разведены и не отмечены отсутствующими: "
        "жеребьёвка неполна (002) (004)",
        "the pairing program refuses: round 1: a bye with an even number of players "
        f"(000 §3.18.2); round 1: players {_player(4)} are neither paired nor absent: the draw "
        "is incomplete (002) (004)"),
}


@pytest.mark.parametrize("case", list(BAD_DRAWS))
def test_a_draw_that_breaks_an_absolute_criterion_is_not_published(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient, monkeypatch: pytest.MonkeyPatch, case: str,
) -> None:
    players, rounds, withdrawn, pairs, bye, russian, english = BAD_DRAWS[case]
    tournament = make_tournament(players=players, system=TournamentSystem.SWISS,
                                 pairing_system="coefficients")
    _history(database, tournament, *rounds)
    for number in withdrawn:
        _withdraw(database, tournament, number)

    def bad_draw(entrants: Sequence[object], number: int, system: PairingSystem,
                 seed: int) -> Draw:
        return Draw(number, system, tuple(Pair(w, b) for w, b in pairs), bye)

    monkeypatch.setattr("corrmail.rounds.swiss.pair_round", bad_draw)
    page = f"/tournaments/{tournament.code}/rounds"
    assert organizer_client.post(f"{page}/pair", data={"seed": "3"}).status_code == 302
    _refused_both_ways(database, organizer_client, tournament, _flash_of(f"{page}/publish"),
                       russian, english)


# -- a redraw (002, 004) -----------------------------------------------------------------------


def test_a_redraw_the_program_cannot_make_is_refused_in_words(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient,
) -> None:
    """Round 2 is published (3-1, bye 2); player 3 withdraws before his game begins: 1 and 2 are
    left, and they met in round 1."""
    tournament = make_tournament(players=3, system=TournamentSystem.SWISS,
                                 pairing_system="coefficients")
    _history(database, tournament, "1-2 1-0; 3 bye", "3-1 *; 2 bye")
    _withdraw(database, tournament, 3)
    page = f"/tournaments/{tournament.code}/rounds/2/redraw"

    def shown(client: FlaskClient) -> str:
        answer = client.get(page)
        assert answer.status_code == 409
        found = re.search(r'<p class="error" role="alert">(.*?)</p>', answer.get_data(as_text=True),
                          re.S)
        assert found is not None
        return html.unescape(found[1])

    def applied(client: FlaskClient) -> str:
        flashed = _flashed(client.post(page, data={"fingerprint": "0" * 32},
                                       follow_redirects=True).get_data(as_text=True))
        assert len(flashed) == 1, flashed
        return flashed[0]

    russian = ("программа жеребьёвки отказывает: тур 2: нет допустимой жеребьёвки: игроков "
               f"{_player(1)}, {_player(2)} нельзя развести заново, не нарушив 000 §3.18.2 "
               "(000 §3.18.2)")
    english = ("the pairing program refuses: round 2: no legal pairing: the players "
               f"{_player(1)}, {_player(2)} cannot be paired again without breaking 000 §3.18.2 "
               "(000 §3.18.2)")
    _refused_both_ways(database, organizer_client, tournament, shown, russian, english)
    _refused_both_ways(database, organizer_client, tournament, applied, russian, english)


# -- a Scheveningen match (004) ----------------------------------------------------------------


def test_a_semi_scheveningen_of_odd_teams_is_refused_in_words(
    database: Database, make_tournament: Callable[..., Tournament],
    organizer_client: FlaskClient,
) -> None:
    tournament = make_tournament(players=6, system=TournamentSystem.TEAM)
    base = f"/tournaments/{tournament.code}"
    assert organizer_client.post(f"{base}/teams", data={
        "teams": "Odessa: 1, 2, 3\nKyiv: 4, 5, 6"}).status_code == 302
    assert organizer_client.post(f"{base}/rounds/rules", data={
        "team_pairing": "round_robin", "team_pairing_system": "",
        "team_schedule": "semi_scheveningen"}).status_code == 302
    _refused_both_ways(
        database, organizer_client, tournament, _flash_of(f"{base}/teams/pair"),
        "программа жеребьёвки отказывает: для матча по полусхевенингенской системе в каждой "
        "команде нужно чётное число игроков, а не 3 (004)",
        "the pairing program refuses: a semi-Scheveningen match needs an even number of "
        "player(s) a team, not 3 (004)")


# -- codes the service cannot meet through its own pages ---------------------------------------

#: What the rounds service cannot be made to meet: its histories come from stored games (each
#: game on both players' records, one player a start number: scoring.model checks), the round
#: it pairs is never below 1, a team Swiss has its teams first, a team has players and a draw
#: has one bye. Said as the service would say them, from the engine's own errors.
UNREACHABLE = {
    "start_number_twice": (
        "игрок 1: стартовый номер дан дважды (000 §3.18.5.1)",
        "player 1: start number used twice (000 §3.18.5.1)"),
    "colours_not_games": (
        "игрок 1: сыграно партий: 1, а цветов записано: 0",
        "player 1: 1 games played but 0 colours"),
    "meets_himself": (
        "игрок 1: записан как игравший сам с собой",
        "player 1: recorded as meeting himself"),
    "opponent_not_in_event": (
        "игрок 1: соперника 5 нет в турнире",
        "player 1: opponent 5 is not in the event"),
    "game_not_in_history": (
        "игрок 1: играл с 2, но у того эта партия не записана",
        "player 1: met 2, whose history does not list the game"),
    "no_teams": (
        "в турнире нет команд (000 §3.17.1)",
        "the tournament has no teams (000 §3.17.1)"),
    "round_below_one": (
        "тур 0: нет допустимой жеребьёвки: туры нумеруются с 1",
        "round 0: no legal pairing: rounds are numbered from 1"),
    "scheveningen_size": (
        "для матча по схевенингенской системе в каждой команде нужен хотя бы один игрок, а не 0",
        "a Scheveningen match needs at least one player(s) a team, not 0"),
}


@pytest.mark.parametrize("code", list(UNREACHABLE))
def test_the_other_refusals_of_the_program_read_in_both_languages(
    app: Flask, tmp_path: Path, code: str,
) -> None:
    provoke = CASES[code][0]
    with pytest.raises(ScoringError) as raised:
        provoke(tmp_path)()
    refused = RoundRefused.by_engine("ШВ-1", "000 §3.18.2", raised.value)
    russian, english = UNREACHABLE[code]
    with app.test_request_context(), force_locale("ru"):
        assert refusal_text(refused) == (
            f"ШВ-1: программа жеребьёвки отказывает: {russian} (000 §3.18.2)")
    with app.test_request_context(), force_locale("en"):
        assert refusal_text(refused) == f"ШВ-1: the pairing program refuses: {english} (000 §3.18.2)"
    assert str(refused) == f"ШВ-1: the pairing program refuses: {english} (000 §3.18.2)"


#: Breaches the service's publishing cannot be made to meet: a draw has one bye, and the bye
#: it records makes a player who withdraws afterwards one who took part in the round.
UNREACHABLE_BREACHES = {
    "byes": (
        build_event(5, "1-2 1-0; 3-4 1-0; 5 bye", "1-3 *; 2 bye; 4 bye"), 2,
        "тур 2: в одном туре свободный тур (+) получают несколько игроков (2); допускается не "
        "более одного (000 §3.18.2)",
        "round 2: 2 byes in one round; at most one (000 §3.18.2)"),
    "withdrawn_bye": (
        build_event(6, "1-2 *; 3-4 *; 5 absent; 6 bye", withdrawals=[(6, 0)]), 1,
        "тур 1: игрок 6 выбыл, но получает свободный тур (+) (000 §3.18.2)",
        "round 1: player 6 has withdrawn but gets the bye (000 §3.18.2)"),
}


@pytest.mark.parametrize("code", list(UNREACHABLE_BREACHES))
def test_the_other_breaches_of_a_published_round_read_in_both_languages(
    app: Flask, code: str,
) -> None:
    event, number, russian, english = UNREACHABLE_BREACHES[code]
    found = check_round(event, number)
    assert found[0].code == code and str(found[0]) == english
    reason = EngineReason.of_violation(found[0])
    with app.test_request_context(), force_locale("ru"):
        assert pairing_reason(reason) == russian
    with app.test_request_context(), force_locale("en"):
        assert pairing_reason(reason) == english


def test_every_reason_of_the_program_reads_in_russian(app: Flask) -> None:
    """Every code the program can give the service has words, and none of them is English; the
    command line's own (``--absent``, the next round of a file) stay the program's."""
    cli_only = {"absent_not_in_event", "absent_not_a_number", "results_missing",
                "all_rounds_paired"}
    violations = {"met_before", "withdrawn_paired", "colour_limits", "byes",
                  "second_point_without_play", "withdrawn_bye", "bye_even_number", "incomplete"}
    assert set(PAIRING_REASONS) == (set(CASES) - cli_only) | violations
    values = {"round": 2, "rule": "002", "player": 3, "players": (3, 4), "opponent": 5,
              "others": (6,), "white": 1, "black": 2, "count": 2, "games": 2, "colours": 1,
              "colour": "white", "name": "dutch", "known": ("random",), "size": 3,
              "bye_candidates": (7,)}
    with app.test_request_context(), force_locale("ru"):
        for code in PAIRING_REASONS:
            worded = pairing_reason(EngineReason(code, values))
            assert worded is not None
            assert not ENGLISH.search(worded.replace("dutch", "")), (code, worded)
