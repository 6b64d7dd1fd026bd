"""One definition of an open case (corrmail.referee.open_cases): the dashboard's "open cases: N"
is the length of the referee's queue, whatever state the tournament's cases are in — awaiting
the parties, awaiting a decision, decided with a protest window open, under protest; a decided
case no party may protest any more (002 §4.1.12) and a closed one count in neither; a case of no
game (a special break, a sanction) counts in both."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from sqlalchemy import select

from adjudication import case_from_dict
from corrmail.models import Case, CaseType, Game, GameResult
from corrmail.referee.timing import decided_and_final
from tests.cases.test_game_records import open_records
from tests.cases.test_overstep_claims import LATE, claim

if TYPE_CHECKING:
    from tests.cases.conftest import Cup

EARLY = dt.date(2026, 11, 1)
CLAIM_DAY = dt.date(2026, 11, 25)
WINDOWS_PAST = dt.date(2026, 12, 6)


def dashboard_count(cup: Cup) -> int:
    page = cup.client("referee").get(f"/dashboard/{cup.code}").data.decode()
    found = re.search(r'id="attention-cases" data-count="(\d+)" href="([^"]*)"', page)
    assert found is not None, page
    # The count leads to the queue that lists those cases.
    assert found.group(2) == f"/cases/#tournament-{cup.code}"
    return int(found.group(1))


def queue_rows(cup: Cup) -> list[int]:
    page = cup.client("referee").get("/cases/").data.decode()
    section = page.split(f'id="tournament-{cup.code}"')[1].split("</section>")[0]
    table = section.split('<table class="queue">')[1].split("</table>")[0] \
        if '<table class="queue">' in section else ""
    return [int(n) for n in re.findall(r'<tr[^>]*data-case="(\d+)"', table)]


def my_cases(cup: Cup, number: int) -> list[int]:
    page = cup.client(f"player{number}").get("/me").data.decode()
    listed = page.split('<ul class="cases">')[1].split("</ul>")[0] \
        if '<ul class="cases">' in page else ""
    return sorted(int(n) for n in re.findall(r'href="/cases/(\d+)"', listed))


def states(cup: Cup, on: dt.date) -> dict[int, str]:
    """Each case's state, a decided case no one may protest any more called «final»."""
    with cup.database.session() as session:
        found = {}
        for row in session.scalars(select(Case)):
            case = case_from_dict(row.payload)
            final = case.state.value == "decided" and decided_and_final(case, on)
            found[row.id] = "final" if final else case.state.value
        return found


def dispute(cup: Cup, player: int, partner: int) -> int:
    filed = cup.post(f"player{player}", f"/cases/new/{cup.code}/dispute", **{
        "dispute-game": cup.game_between(player, partner), "dispute-subject": "wrong move number"})
    return int(filed.rsplit("/", 1)[1])


def test_the_dashboard_counts_the_cases_the_queue_lists_in_every_state(
        cup: Cup, set_today, monkeypatch) -> None:
    assert dashboard_count(cup) == len(queue_rows(cup)) == 0
    set_today(EARLY)
    final = dispute(cup, 2, 5)
    closed = dispute(cup, 3, 4)
    for case_id in (final, closed):
        cup.act("steward", case_id, "decide", ruling="dismissed")
    assert dashboard_count(cup) == len(queue_rows(cup)) == 2  # decided, may be protested

    cup.play(1, 6, LATE)
    set_today(CLAIM_DAY)
    cup.act("referee", closed, "close")
    overstep = claim(cup, "player1", cup.games[(1, 6)], "white")
    awaiting = dispute(cup, 2, 4)
    protested = dispute(cup, 3, 5)
    decided = dispute(cup, 4, 5)
    for case_id in (protested, decided):
        cup.act("steward", case_id, "decide", ruling="dismissed")
    cup.act("player3", protested, "protest", party="white" if cup.games.get((3, 5)) else "black",
            grounds="it is wrong")
    asked = cup.post("player5", f"/cases/new/{cup.code}/break", **{
        "break-participant": cup.participant_id(5), "break-break_kind": "extra",
        "break-start": "2026-12-10", "break-end": "2026-12-20", "break-reason": "family"})
    break_case = int(asked.rsplit("/", 1)[1])
    warned = cup.post("steward", f"/cases/new/{cup.code}/sanction", **{
        "sanction-participant": cup.participant_id(6), "sanction-sanction": "reprimand",
        "sanction-rules_violated": "002 §4.2.6", "sanction-game": 0,
        "sanction-reasons": "late again"})
    sanction = int(warned.rsplit("/", 1)[1])
    # A finished postal game whose record the players owe within 15 days (002 §4.5.1).
    cup.finish(*((2, 6) if (2, 6) in cup.games else (6, 2)), GameResult.DRAW)
    with cup.database.transaction() as session:
        game = session.get(Game, cup.game_between(2, 6))
        assert game is not None
        game.result_on = CLAIM_DAY - dt.timedelta(days=3)
    open_records(cup, monkeypatch, CLAIM_DAY.isoformat())
    with cup.database.session() as session:
        record = session.scalars(select(Case.id).where(Case.case_type == CaseType.GAME_RECORD)).one()

    assert states(cup, CLAIM_DAY) == {
        final: "final", closed: "closed", overstep: "awaiting_decision", record: "awaiting_parties",
        awaiting: "awaiting_decision", protested: "under_protest", decided: "decided",
        break_case: "awaiting_decision", sanction: "decided"}
    open_now = [overstep, awaiting, protested, decided, break_case, sanction, record]
    assert sorted(queue_rows(cup)) == open_now
    assert dashboard_count(cup) == len(open_now)
    # A player's own page lists his open cases by the same definition: player 2's dispute
    # still waiting and the record he owes, not the dispute decided past its protest window.
    assert my_cases(cup, 2) == sorted([awaiting, record])

    # Ten days on, the protest windows of the day's decisions are past: they leave both.
    set_today(WINDOWS_PAST)
    assert states(cup, WINDOWS_PAST)[decided] == states(cup, WINDOWS_PAST)[sanction] == "final"
    assert sorted(queue_rows(cup)) == [overstep, awaiting, protested, break_case, record]
    assert dashboard_count(cup) == 5
