"""The referee's queue in the service: cases stored, decided and carried out.

`adjudication` says what a decision means; this package reads the case (`store`), checks who
may act and applies the transition (`desk`: the one way a case is opened or moved on, whether
the claim came by web, post or e-mail), carries out the effects — results, penalties, breaks and
the held move through the game core (:mod:`corrmail.games`), letters and audit entries
(`effects`, `letters`) — shows the evidence
(`evidence`), maps results to the games table (`results`) and to `scoring` (`standings`, kept
apart so the web app does not import the scoring engine), and opens the end-of-play
adjudications the daily sweep asks for (`sweep`, `cli`).
"""

from corrmail.referee.desk import (
    ActionRefused,
    Actor,
    Desk,
    Done,
    NotEntitled,
    actor_for,
    deciding_instance,
)
from corrmail.referee.results import columns_for, outcome_of
from corrmail.referee.store import CaseNotFound, StoredCase, load_case

__all__ = [
    "ActionRefused",
    "Actor",
    "CaseNotFound",
    "Desk",
    "Done",
    "NotEntitled",
    "StoredCase",
    "actor_for",
    "columns_for",
    "deciding_instance",
    "load_case",
    "outcome_of",
]
