"""Games in adjudication in the bulletin, and the adjudication with its protest in the final
report (002 §4.5.2–4.5.6, §4.1.7)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import select

from adjudication import Assessment, Side
from corrmail.bulletins import build_bulletin, build_final_report, load_tournament
from corrmail.bulletins.build import records_decision
from corrmail.models import AuditEntry, Case, CaseType
from corrmail.referee.desk import Desk
from corrmail.referee.store import load_case

END = dt.date(2027, 8, 31)


def test_adjudication_and_protest_reach_the_papers(league: Any) -> None:
    for ply in range(4):
        league.send_move(0, dt.date(2026, 9, 1) + dt.timedelta(days=9 * ply))

    def open_all(desk: Desk, actor: Any, session: Any) -> None:
        desk.open_adjudications(load_tournament(session, league.code), actor)

    league.desk("referee", END, open_all)
    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        bulletin = build_bulletin(session, tournament, END + dt.timedelta(days=1))
        # Only the begun game: the five in which no move was made are not adjudicated from the
        # starting position (002 §4.5.2, §4.3.2; docs/rules/referee.md).
        assert [a.game_id for a in bulletin.in_adjudication] == [league.games[0]]
        first = next(a for a in bulletin.in_adjudication if a.game_id == league.games[0])
        assert first.analyses_due == END + dt.timedelta(days=10)  # 002 §4.5.2
        # Play has stopped in the adjudicated game; the games never begun still show White's
        # clock, over its limit: the overstep for the referee to decide.
        assert {c.game_id for c in bulletin.clocks} == set(league.games[1:])
        assert all(c.moves == 0 and c.days_left is not None and c.days_left < 0
                   for c in bulletin.clocks)
        case_id = session.scalar(select(Case.id).where(
            Case.game_id == league.games[0], Case.case_type == CaseType.ADJUDICATION))
        assert case_id is not None
        before = build_bulletin(session, tournament, END - dt.timedelta(days=1))
        assert before.in_adjudication == () and len(before.clocks) == 6  # white to move too

    def analyse(desk: Desk, actor: Any, session: Any) -> None:
        stored = load_case(session, case_id)
        desk.submit_analysis(actor, case_id, revision=stored.case.revision, side=Side.WHITE,
                             assessment=Assessment.WIN, analysis="у белых лишняя шашка",
                             sent_on=END + dt.timedelta(days=5),
                             received_on=END + dt.timedelta(days=8))

    def decide(desk: Desk, actor: Any, session: Any) -> None:
        stored = load_case(session, case_id)
        desk.decide(actor, case_id, revision=stored.case.revision, ruling="draw",
                    reasons="позиция равна")

    def protest(desk: Desk, actor: Any, session: Any) -> None:
        stored = load_case(session, case_id)
        desk.protest(actor, case_id, revision=stored.case.revision, party="white",
                     grounds="не согласен", filed_on=END + dt.timedelta(days=14))

    league.desk("steward", END + dt.timedelta(days=8), analyse)
    league.desk("referee", END + dt.timedelta(days=12), decide)
    league.desk("referee", END + dt.timedelta(days=14), protest)

    with league.database.session() as session:
        tournament = load_tournament(session, league.code)
        report = build_final_report(session, tournament, END + dt.timedelta(days=20))
        [line] = [d for d in report.decisions if d.case_type == "adjudication"]
        assert (line.ruling, line.instance, line.decided_on) == (
            "draw", "referee", END + dt.timedelta(days=12))
        assert "002 §4.5.5" in line.rules
        assert line.protests == ("white 14.09.2027 → organizer",)
        assert report.statistics.adjudicated == 1 and report.statistics.draws == 1
        entries = session.scalars(select(AuditEntry).where(
            AuditEntry.tournament_id == tournament.id, AuditEntry.entity == "case")).all()
        decided = {e.id for e in entries if records_decision(e)}
        protested = [e for e in entries if e.action == "case.protested"]
        assert protested and "ruling" in protested[0].detail  # carries the ruling, decides nothing
        assert {d.audit_id for d in report.decisions} == decided
        # As of the day before the decision, the report has none and the game is unfinished.
        earlier = build_final_report(session, tournament, END + dt.timedelta(days=11))
        assert earlier.decisions == () and earlier.statistics.finished == 0
        bulletin = build_bulletin(session, tournament, END + dt.timedelta(days=20),
                                  since=END + dt.timedelta(days=1))
        assert [g.game_id for g in bulletin.finished] == [league.games[0]]
        assert bulletin.finished[0].how == "adjudicated"
        # The games never begun were not adjudicated (002 §4.5.2): none is left in adjudication.
        assert bulletin.in_adjudication == ()


def test_the_final_reports_protests_are_worded_not_coded(league: Any) -> None:
    """The printable final report names the protesting side and the instance in the reader's
    language, not by their stored codes (002 §4.1.7, §4.5.6)."""
    import re

    from corrmail.bulletins.content import to_json
    from corrmail.bulletins.render import render_printable

    league.send_move(0, dt.date(2026, 9, 1))
    league.desk("referee", END, lambda desk, actor, session: desk.open_adjudications(
        load_tournament(session, league.code), actor))
    with league.database.session() as session:
        case_id = session.scalar(select(Case.id).where(
            Case.game_id == league.games[0], Case.case_type == CaseType.ADJUDICATION))
    assert case_id is not None

    def act(name: str, **values: Any) -> Any:
        def run(desk: Desk, actor: Any, session: Any) -> None:
            getattr(desk, name)(actor, case_id, revision=load_case(session, case_id).case.revision,
                                **values)
        return run

    league.desk("steward", END + dt.timedelta(days=8), act(
        "submit_analysis", side=Side.WHITE, assessment=Assessment.WIN, analysis="+",
        sent_on=END + dt.timedelta(days=5), received_on=END + dt.timedelta(days=8)))
    league.desk("referee", END + dt.timedelta(days=12), act(
        "decide", ruling="draw", reasons="позиция равна"))
    league.desk("referee", END + dt.timedelta(days=14), act(
        "protest", party="white", grounds="не согласен", filed_on=END + dt.timedelta(days=14)))
    with league.database.session() as session:
        report = build_final_report(session, load_tournament(session, league.code),
                                    END + dt.timedelta(days=20))
    [line] = [d for d in report.decisions if d.case_type == "adjudication"]
    assert [(m.party, m.filed_on, m.to) for m in line.protest_marks] == [
        ("white", END + dt.timedelta(days=14), "organizer")]
    for language, worded, raw in (("ru", "белые", "→ organizer"), ("en", "white", "→ organizer")):
        page = render_printable(to_json(report), language=language)
        cell = re.search(r'<tr data-audit="\d*">.*?</tr>', page, re.S)
        assert cell is not None
        text = re.sub(r"<[^>]+>", " ", cell.group(0))
        assert "14.09.2027" in text or "2027-09-14" in text
        assert worded in text
        if language == "ru":
            assert "организатор" in text and raw not in text and "white" not in text, text
