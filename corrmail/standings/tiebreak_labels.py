"""What people read for a tiebreak: a short column label and the full title, in the rulebook's
words (000 §3.16, 001 §5.4.8, 003 §9–§12).

The texts are English msgids, marked with :func:`N_` and translated when a page or a letter is
rendered (``_(label.short)`` in a template: Flask-Babel in the web app, the merged catalogs in
:mod:`corrmail.bulletins.render`), so one table serves both. ``scoring`` keeps the code names
(``sonneborn_berger``): they stay the identifiers of the CSV, JSON and TRF exports, the API and
the regulations form; only tables meant for people show these labels. Their Russian is in
``corrmail/translations`` (the rulebook's words: 000 and 001 are Russian, 003's Ukrainian
names are given in Russian).

No text here may contain a percent sign: Jinja's gettext formats every translation with ``%``.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.teams import TEAM_TIEBREAKS
from scoring.tiebreaks import TIEBREAKS

__all__ = ["N_", "TEAM_TIEBREAK_LABELS", "TIEBREAK_LABELS", "TiebreakLabel", "tiebreak_label"]


def N_(text: str) -> str:
    """Mark ``text`` for ``pybabel extract`` (a default keyword); it is translated when shown."""
    return text


@dataclass(frozen=True)
class TiebreakLabel:
    """``short`` heads a column, ``title`` explains it (tooltip, legend, the final report);
    ``rule`` is where the rulebook defines it, never translated."""

    name: str
    short: str
    title: str
    rule: str


_INDIVIDUAL: dict[str, tuple[str, str]] = {
    "shmulyan": (
        N_("Shmulyan"),
        N_("Shmulyan coefficient: points of the opponents beaten minus points of the opponents "
           "lost to (round robin only)")),
    "sonneborn_berger": (
        N_("Sonneborn-Berger"),
        N_("Sonneborn-Berger coefficient: points of the opponents beaten plus half the points of "
           "the opponents drawn with")),
    "sonneborn_berger_double": (
        N_("Sonneborn-Berger ×2"),
        N_("Sonneborn-Berger coefficient, doubled: twice the points of the opponents beaten plus "
           "the points of the opponents drawn with")),
    "buchholz": (
        N_("Buchholz"),
        N_("Buchholz coefficient: the sum of the points of all the opponents")),
    "buchholz_cut1": (
        N_("Buchholz cut 1"),
        N_("Cut Buchholz 1: Buchholz less the lowest opponent's points")),
    "buchholz_cut2": (
        N_("Buchholz cut 2"),
        N_("Cut Buchholz 2: Buchholz less the two lowest opponents' points")),
    "buchholz_median1": (
        N_("Median Buchholz 1"),
        N_("Median Buchholz 1: Buchholz less the highest and the lowest opponent's points")),
    "buchholz_median2": (
        N_("Median Buchholz 2"),
        N_("Median Buchholz 2: Buchholz less the two highest and the two lowest opponents' "
           "points")),
    "buchholz_sum": (
        N_("Buchholz sum"),
        N_("Sum of Buchholz: the sum of the opponents' Buchholz coefficients")),
    "solkoff_median": (
        N_("Solkoff"),
        N_("Solkoff coefficient (median): the opponents' points less the best and the worst "
           "result")),
    "solkoff_truncated": (
        N_("Truncated Solkoff"),
        N_("Truncated Solkoff coefficient: the opponents' points less the worst result, then the "
           "two worst, and so on until the places are decided")),
    "riga": (
        N_("Riga"),
        N_("Riga coefficient: 2 × the points of the opponents beaten + 1.5 × the points of the "
           "opponents drawn with + the points of the opponents lost to")),
    "koya": (
        N_("Koya"),
        N_("Koya system: points scored against the opponents who made half the possible points "
           "or more")),
    "koya_extended": (
        N_("Extended Koya"),
        N_("Extended Koya system: Koya, extended one lower score group at a time")),
    "wins": (
        N_("Wins"),
        N_("The greatest number of wins (pluses count as wins)")),
    "direct_encounter": (
        N_("Direct encounter"),
        N_("The result of the games between the players concerned")),
    "beaten_opponents_points": (
        N_("Points of beaten"),
        N_("The greatest sum of points of the opponents beaten")),
    "results_vs_placed": (
        N_("Results by places"),
        N_("The best result in the games against the other players in the order of places")),
    "opponents_rating_sum": (
        N_("Opponents' ratings"),
        N_("The best sum of the opponents' individual (Elo) ratings")),
    "aro": (
        N_("ARO"),
        N_("Average rating of the opponents (two games or fewer rank lowest)")),
    "aro_cut1": (
        N_("ARO cut 1"),
        N_("Average rating of the opponents less the lowest-rated opponent")),
    "black_games": (
        N_("Games as Black"),
        N_("The greater number of games played with Black (unplayed games count as White)")),
}

_TEAM: dict[str, tuple[str, str]] = {
    "match_points": (
        N_("Match points"),
        N_("Match points: 2 for a match won, 1 for a match drawn, 0 for a match lost")),
    "game_points": (
        N_("Game points"),
        N_("Game points: the sum of all the board results")),
    "direct_encounter": (
        N_("Direct encounter"),
        N_("Match points in the matches between the teams concerned")),
    "results_vs_placed": (
        N_("Results by places"),
        N_("The best match result against the other teams in the order of places")),
    "match_wins": (
        N_("Matches won"),
        N_("The greatest number of matches won")),
    "team_sonneborn_berger": (
        N_("Sonneborn-Berger"),
        N_("Team Sonneborn-Berger: the sum of each opponent team's points times the points "
           "scored against it")),
    "team_sb_a": (
        N_("Sonneborn-Berger A"),
        N_("Team Sonneborn-Berger A: opponents' match points times the match points scored "
           "against them")),
    "team_sb_b": (
        N_("Sonneborn-Berger B"),
        N_("Team Sonneborn-Berger B: opponents' match points times the game points scored "
           "against them")),
    "team_sb_c": (
        N_("Sonneborn-Berger C"),
        N_("Team Sonneborn-Berger C: opponents' game points times the match points scored "
           "against them")),
    "team_sb_d": (
        N_("Sonneborn-Berger D"),
        N_("Team Sonneborn-Berger D: opponents' game points times the game points scored "
           "against them")),
    "team_sb_a_cut": (
        N_("Sonneborn-Berger A cut"),
        N_("Cut team Sonneborn-Berger A: without the opponent with the fewest match points")),
    "team_sb_b_cut": (
        N_("Sonneborn-Berger B cut"),
        N_("Cut team Sonneborn-Berger B: without the opponent with the fewest match points")),
    "team_sb_c_cut": (
        N_("Sonneborn-Berger C cut"),
        N_("Cut team Sonneborn-Berger C: without the opponent with the fewest game points")),
    "team_sb_d_cut": (
        N_("Sonneborn-Berger D cut"),
        N_("Cut team Sonneborn-Berger D: without the opponent with the fewest game points")),
    "team_shmulyan": (
        N_("Shmulyan"),
        N_("Team Shmulyan coefficient (round robin only)")),
    "buchholz": (
        N_("Buchholz"),
        N_("Team Buchholz: the sum of the opponent teams' points")),
    "buchholz_cut1": (
        N_("Buchholz cut 1"),
        N_("Cut team Buchholz 1: team Buchholz less the lowest opponent's points")),
}

#: Every individual tiebreak of ``scoring.tiebreaks`` by code name.
TIEBREAK_LABELS: dict[str, TiebreakLabel] = {
    name: TiebreakLabel(name, short, title, TIEBREAKS[name].rule)
    for name, (short, title) in _INDIVIDUAL.items()
}

#: Every team tiebreak of ``scoring.teams`` by code name (some names are the individual ones:
#: ``buchholz`` of a team counts the opponent teams' points).
TEAM_TIEBREAK_LABELS: dict[str, TiebreakLabel] = {
    name: TiebreakLabel(name, short, title, TEAM_TIEBREAKS[name].rule)
    for name, (short, title) in _TEAM.items()
    if name in TEAM_TIEBREAKS
}


def tiebreak_label(name: str, *, team: bool = False) -> TiebreakLabel:
    """The label of tiebreak ``name``; a name no table knows (an archived bulletin written before
    a tiebreak was renamed) is shown as it is rather than lost."""
    labels = TEAM_TIEBREAK_LABELS if team else TIEBREAK_LABELS
    return labels.get(name) or TiebreakLabel(name, name, name, "")
