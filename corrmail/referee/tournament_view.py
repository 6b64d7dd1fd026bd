"""The referee's desk reads the tournament through the one adapter, `corrmail.standings.results`.

Games in progress (000 §3.14.4) and the referee's decided withdrawals (002 §4.5.3, 000
§3.14.3) are mapped there, so the desk, the standings pages, the API, the exports and the
bulletins show the same points. This module keeps the desk's import path.
"""

from __future__ import annotations

from corrmail.standings.results import scoring_game, scoring_tournament

__all__ = ["scoring_game", "scoring_tournament"]
