"""The referee's cases as pure state machines: overstep claims, adjudication of unfinished games,
game records, withdrawals, protests, sanctions and special breaks (002 §4, 000 §3.14).

A case is an immutable dataclass. Each transition takes the revision the caller saw and returns a
:class:`~adjudication.case.Transition`: the next case and the effects (results, penalties, letters)
the service must carry out. Cases round-trip through ``to_dict``/``from_dict`` for storage.
"""
