"""Every case type by its stored ``type``, and effects to and from dicts for the service."""

from __future__ import annotations

from collections.abc import Mapping

from adjudication.case import Case
from adjudication.dispute import Dispute
from adjudication.effects import EFFECT_TYPES, Effect
from adjudication.errors import InvalidCaseData
from adjudication.game_record import GameRecordCase
from adjudication.overstep import OverstepClaim
from adjudication.sanction import Sanction
from adjudication.serialization import Plain, from_plain, to_plain
from adjudication.special_break import SpecialBreakRequest
from adjudication.unfinished import Adjudication
from adjudication.withdrawal import Withdrawal

CASE_TYPES: Mapping[str, type[Case]] = {
    cls.TYPE: cls
    for cls in (
        OverstepClaim,
        Adjudication,
        GameRecordCase,
        Withdrawal,
        Sanction,
        SpecialBreakRequest,
        Dispute,
    )
}

_EFFECTS: Mapping[str, type[Effect]] = {cls.kind: cls for cls in EFFECT_TYPES}


def case_from_dict(data: Mapping[str, object]) -> Case:
    """Read back any case stored with ``to_dict``, choosing its class by ``type``."""
    case_type = data.get("type")
    cls = CASE_TYPES.get(case_type) if isinstance(case_type, str) else None
    if cls is None:
        raise InvalidCaseData("$.type", f"unknown case type {case_type!r}")
    return cls.from_dict(data)


def effect_to_dict(effect: Effect) -> dict[str, Plain]:
    """An effect as a JSON-able dict with its ``kind``, e.g. for an outbox or audit row."""
    payload = to_plain(effect)
    assert isinstance(payload, dict)
    return {"kind": effect.kind, **payload}


def effect_from_dict(data: Mapping[str, object]) -> Effect:
    kind = data.get("kind")
    cls = _EFFECTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InvalidCaseData("$.kind", f"unknown effect kind {kind!r}")
    return from_plain(cls, dict(data))
