"""Every action the referee's desk writes to a case's log has a reader's name: the page must not
show a code such as ``adjudication.analysis`` to a referee or a player."""

from __future__ import annotations

import re
from pathlib import Path

import corrmail.referee.desk as desk
from corrmail.web.audit_labels import AUDIT_ACTIONS


def test_every_action_the_desk_logs_has_a_name() -> None:
    source = Path(desk.__file__).read_text(encoding="utf-8")
    written = set(re.findall(r'action="([a-z_]+\.[a-z_]+)"', source))
    written |= set(re.findall(r'"([a-z_]+\.[a-z_]+)",\s*(?:"00\d §|""|[a-z_.]*RULE)', source))
    assert {"adjudication.analysis", "case.decided", "overstep_claim.opened"} <= written
    assert sorted(written - set(AUDIT_ACTIONS)) == []
