"""The steward's and referee's paperwork, generated from the database.

* :mod:`~corrmail.bulletins.build` — a bulletin (002 §4.1.8), the final report (002 §4.1.7), the
  steward's report to the referee (002 §4.1.8) and a player's sheet as data, as of any date (:mod:`~corrmail.bulletins.asof` reads the record as
  it stood that day);
* :mod:`~corrmail.bulletins.render` — the printable page, from the archived JSON;
* :mod:`~corrmail.bulletins.archive` — numbered, versioned issues;
* :mod:`~corrmail.bulletins.sending` — the letters and the log of who was skipped and why
  (002 §4.1.9);
* :mod:`~corrmail.bulletins.timetable` — the steward's schedule;
* :mod:`~corrmail.bulletins.sheet` — the one-word e-mail command for a player's own sheet.
"""

from corrmail.bulletins.archive import IssueNotFound, issue, latest_issues, rebuild, reissue
from corrmail.bulletins.asof import Snapshot, TournamentNotFound, load_tournament
from corrmail.bulletins.build import (
    build_bulletin,
    build_final_report,
    build_player_sheet,
    build_steward_report,
)
from corrmail.bulletins.content import Bulletin, FinalReport, PlayerSheet, StewardReport, to_json
from corrmail.bulletins.render import render_printable
from corrmail.bulletins.sending import send_issue
from corrmail.bulletins.sheet import is_sheet_request, mail_player_sheet
from corrmail.bulletins.timetable import ScheduleError, run_due, set_schedule

__all__ = [
    "Bulletin",
    "FinalReport",
    "IssueNotFound",
    "PlayerSheet",
    "ScheduleError",
    "Snapshot",
    "StewardReport",
    "TournamentNotFound",
    "build_bulletin",
    "build_final_report",
    "build_player_sheet",
    "build_steward_report",
    "is_sheet_request",
    "issue",
    "latest_issues",
    "load_tournament",
    "mail_player_sheet",
    "rebuild",
    "reissue",
    "render_printable",
    "run_due",
    "send_issue",
    "set_schedule",
    "to_json",
]
