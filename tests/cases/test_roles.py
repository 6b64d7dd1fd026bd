"""Who may do what, checked on the server (002 §4.1.5–4.1.12): the referee decides, the organizer
hears protests against the referee, the steward imposes his sanctions and decides disputes,
players act for their own games only; officials of other tournaments act nowhere."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import select

from corrmail.models import Break, BreakKind, Case, Game, GameResult, ResultKind

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

END = dt.date(2027, 8, 31)


@pytest.fixture
def db_url(tmp_path: Path, sqlite_template: Path) -> str:
    """SQLite only: who may act is decided in Python; the same queries run on both backends in the end-to-end,
    overstep, withdrawal and conflict tests of this folder."""
    path = tmp_path / "cases.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def adjudication_case(cup: Cup, set_today) -> int:
    for pair in sorted(cup.games)[1:]:
        cup.finish(*pair, GameResult.DRAW)
    set_today(END)
    location = cup.post("referee", f"/cases/new/{cup.code}/adjudications")
    assert location.endswith("/cases/")
    set_today(END + dt.timedelta(days=11))
    with cup.database.session() as session:
        return session.scalars(select(Case.id)).one()


@pytest.mark.parametrize("who", ["steward", "organizer", "player1", "outsider"])
def test_only_the_referee_adjudicates(cup: Cup, adjudication_case: int, who: str) -> None:
    cup.act(who, adjudication_case, "decide", 403, ruling="draw", reasons="equal material")
    cup.act("referee", adjudication_case, "decide", ruling="draw", reasons="equal material")


@pytest.mark.parametrize("who", ["player2", "outsider"])
def test_case_pages_are_for_officials_and_the_players_of_the_game(
    cup: Cup, adjudication_case: int, who: str
) -> None:
    white, black = sorted(cup.games)[0]
    assert cup.client(f"player{white}").get(f"/cases/{adjudication_case}").status_code == 200
    assert cup.client("steward").get(f"/cases/{adjudication_case}").status_code == 200
    outsider = who if who == "outsider" else next(
        f"player{n}" for n in range(1, 7) if n not in (white, black))
    assert cup.client(outsider).get(f"/cases/{adjudication_case}").status_code == 403


def test_steward_warns_and_asks_the_referee_for_a_forfeit(cup: Cup) -> None:
    player = cup.participant_id(2)
    game = cup.game_between(2, 3)
    sanction = {"sanction-participant": player, "sanction-rules_violated": "002 §4.2.6",
                "sanction-game": 0, "sanction-reasons": "no repetition, third time"}
    cup.post("player3", f"/cases/new/{cup.code}/sanction", 403,
             **{**sanction, "sanction-sanction": "warning"})
    warned = cup.post("steward", f"/cases/new/{cup.code}/sanction",
                      **{**sanction, "sanction-sanction": "warning"})
    warning_id = int(warned.rsplit("/", 1)[1])
    with cup.database.session() as session:
        row = cup.case_row(session, warning_id)
        assert row.payload["decisions"][0]["instance"] == "steward"
        assert "002 §4.2.6" in row.payload["decisions"][0]["rules"]
    # Without rule points no sanction (002 §4.1.10).
    text = cup.post("steward", f"/cases/new/{cup.code}/sanction", 422,
                    **{**sanction, "sanction-sanction": "warning",
                       "sanction-rules_violated": "bad manners"})
    assert "002 §4.1.10" in text
    asked = cup.post("steward", f"/cases/new/{cup.code}/sanction",
                     **{**sanction, "sanction-sanction": "forfeit", "sanction-game": game})
    request_id = int(asked.rsplit("/", 1)[1])
    cup.act("steward", request_id, "decide", 403, ruling="imposed")
    cup.act("referee", request_id, "decide", ruling="imposed")
    with cup.database.session() as session:
        forfeited = session.get(Game, game)
        assert forfeited is not None and forfeited.result_kind is ResultKind.FORFEIT
        loser_is_white = forfeited.white_id == player
        assert forfeited.result is (GameResult.BLACK_WIN if loser_is_white
                                    else GameResult.WHITE_WIN)


def test_disputes_are_the_stewards_and_players_file_their_own(cup: Cup) -> None:
    white, black = sorted(cup.games)[0]
    game = cup.games[(white, black)]
    stranger = next(n for n in range(1, 7) if n not in (white, black))
    cup.post(f"player{stranger}", f"/cases/new/{cup.code}/dispute", 403,
             **{"dispute-game": game, "dispute-complainant": "white", "dispute-subject": "x"})
    filed = cup.post(f"player{white}", f"/cases/new/{cup.code}/dispute",
                     **{"dispute-game": game, "dispute-complainant": "white",
                        "dispute-subject": "the partner's move number is wrong"})
    case_id = int(filed.rsplit("/", 1)[1])
    cup.act("referee", case_id, "decide", 403, ruling="upheld")
    cup.act("steward", case_id, "decide", ruling="dismissed")
    # The complainant protests to the referee (002 §4.1.12), who decides.
    cup.act(f"player{white}", case_id, "protest", party="white", grounds="it is wrong")
    cup.act("steward", case_id, "decide", 403, ruling="upheld")
    cup.act("referee", case_id, "decide", ruling="upheld")
    with cup.database.session() as session:
        row = cup.case_row(session, case_id)
        assert [d["instance"] for d in row.payload["decisions"]] == ["steward", "referee"]


def test_special_break_requested_by_the_player_granted_by_the_referee(cup: Cup, set_today) -> None:
    set_today(dt.date(2026, 11, 20))
    request = {"break-participant": cup.participant_id(4), "break-break_kind": "retroactive",
               "break-start": "2026-11-10", "break-end": "2026-11-19",
               "break-reason": "in hospital"}
    cup.post("player5", f"/cases/new/{cup.code}/break", 403, **request)
    filed = cup.post("player4", f"/cases/new/{cup.code}/break", **request)
    case_id = int(filed.rsplit("/", 1)[1])
    cup.act("player4", case_id, "decide", 403, ruling="granted")
    cup.act("referee", case_id, "decide", ruling="granted", start="2026-11-12",
            end="2026-11-19")
    with cup.database.session() as session:
        granted = session.scalars(select(Break).where(Break.kind == BreakKind.SPECIAL)).one()
        assert (granted.start_date, granted.end_date) == (dt.date(2026, 11, 12),
                                                          dt.date(2026, 11, 19))
        assert len(cup.outbox(session, "case.special_break.granted")) == 1 + 5 + 1


def test_the_referees_grant_reaches_the_time_chart_as_late_notice_or_extra(cup: Cup, set_today) -> None:
    # 002 §4.4.5: a late-announced break counted stays the player's break of the year (§4.4.1);
    # an extra break does not. The break row says which, and the game's ledger reads it.
    from corrmail.games.view import GameView
    from timekeeping import RefereeGrant

    set_today(dt.date(2026, 11, 20))
    for kind, start, end in (("retroactive", "2026-11-10", "2026-11-19"),
                             ("extra", "2026-12-01", "2026-12-05")):
        filed = cup.post("player4", f"/cases/new/{cup.code}/break", **{
            "break-participant": cup.participant_id(4), "break-break_kind": kind,
            "break-start": start, "break-end": end, "break-reason": "in hospital"})
        cup.act("referee", int(filed.rsplit("/", 1)[1]), "decide", ruling="granted")
    with cup.database.session() as session:
        rows = session.scalars(select(Break).where(Break.kind == BreakKind.SPECIAL)
                               .order_by(Break.start_date)).all()
        assert [row.referee_grant for row in rows] == ["late_notice", "extra"]
        game = session.scalars(select(Game).where(
            (Game.white_id == rows[0].participant_id) | (Game.black_id == rows[0].participant_id))).first()
        assert game is not None
        grants = sorted((b.first_day, b.referee_grant) for b in GameView(game).ledger().breaks)
        assert grants == [(dt.date(2026, 11, 10), RefereeGrant.LATE_NOTICE),
                          (dt.date(2026, 12, 1), RefereeGrant.EXTRA)]


def test_a_player_files_a_dispute_for_himself_without_choosing_a_colour(cup: Cup) -> None:
    """002 §4.1.12: a player's dispute form has no colour choice (he is the complainant, on his
    own side); a forged post naming his partner's colour is refused with that reason, and nothing
    is stored. Officials choose the side."""
    white, black = sorted(cup.games)[0]
    game = cup.games[(white, black)]
    form = cup.client(f"player{black}").get(f"/cases/new/{cup.code}").data.decode()
    assert 'name="dispute-complainant"' not in form
    assert 'name="dispute-complainant"' in cup.client("steward").get(
        f"/cases/new/{cup.code}").data.decode()
    forged = cup.post(f"player{black}", f"/cases/new/{cup.code}/dispute", 403,
                      **{"dispute-game": game, "dispute-complainant": "white",
                         "dispute-subject": "x"})
    assert "игрок подаёт жалобу только от своего имени" in forged and "002 §4.1.12" in forged
    assert "игрок этой партии" not in forged
    with cup.database.session() as session:
        assert session.scalars(select(Case)).all() == []
    filed = cup.post(f"player{black}", f"/cases/new/{cup.code}/dispute",
                     **{"dispute-game": game, "dispute-subject": "my move was misread"})
    with cup.database.session() as session:
        row = cup.case_row(session, int(filed.rsplit("/", 1)[1]))
        assert row.payload["complainant"] == "black"
        assert row.participant_id == cup.game(session, white, black).black_id
    # An official names the side; without one he is asked for it.
    text = cup.post("steward", f"/cases/new/{cup.code}/dispute", 422,
                    **{"dispute-game": game, "dispute-subject": "x"})
    assert "002 §4.1.12" in text
