"""Why the rounds service refuses, as codes with values.

A refusal of :mod:`corrmail.rounds` carries a ``code`` and its ``params`` besides its English
text; the English texts below are also the catalog's message ids, so a page words the refusal in
its reader's language (``corrmail.web.refusals``) while the CLI and the logs keep the English.
A value that is itself a text of the pairing program (``detail``) stays as that program wrote it.
"""

from __future__ import annotations

__all__ = ["ENGINE", "ROUND_REFUSALS", "TEAM_LINE_REFUSALS", "english"]


def N_(text: str) -> str:
    """Mark ``text`` for ``pybabel extract``; it is translated when shown."""
    return text


ENGINE = "engine"
"""The pairing program (``scoring``) refused; its own text is the value ``detail``."""

#: The English text of every refusal of a round, a redraw or a team match, by code.
ROUND_REFUSALS: dict[str, str] = {
    ENGINE: N_("the pairing program refuses: %(detail)s"),
    # Pairing and publishing a round (000 §3.18).
    "not_by_rounds": N_(
        "only a Swiss (or a team Swiss) is paired round by round; a round robin is paired "
        "from the Berger table"),
    "no_pairing_system": N_("the regulations name no pairing system"),
    "round_published": N_(
        "round %(number)s is published and cannot be paired again: a published draw is "
        "changed only where it breaks an absolute criterion, corrections affect only rounds "
        "not yet paired"),
    "next_round": N_("the next round to pair is round %(next)s, not %(number)s"),
    "previous_unfinished": N_(
        "round %(round)s still has %(count)s unfinished game(s); a correspondence Swiss pairs "
        "the next round on the results of the previous one, unless the regulations allow "
        "pairing earlier (docs/rounds.md)"),
    "unknown_absent": N_("no player with start number(s) %(numbers)s to mark absent"),
    "team_absences": N_(
        "a team plays its match with its reserves; absences are a team's default"),
    "enter_teams": N_("enter the teams first"),
    "paired_meanwhile": N_(
        "round %(number)s was paired by someone else just now; reload the page"),
    "not_paired_yet": N_("round %(number)s has not been paired yet"),
    "already_published": N_("round %(number)s is already published"),
    "results_changed": N_(
        "the results changed since round %(number)s was previewed; pair it again"),
    # The regulations' choices for a team event.
    "team_swiss_program": N_(
        "a team Swiss needs its pairing program: choose one of the rulebook's programs"),
    "scheveningen_not_swiss": N_("a Scheveningen schedule is played as a match, not a Swiss"),
    "team_pairing_fixed": N_("how the teams are paired is fixed once games are paired"),
    # A published round redrawn (004).
    "redraw_only_swiss": N_(
        "only a published round of an individual Swiss is redrawn; other draws are not "
        "changed once published"),
    "redraw_not_published": N_(
        "round %(number)s is not published: a preview is paired again, not redrawn"),
    "redraw_later_paired": N_(
        "round %(later)s is already paired from round %(number)s as it stands; corrections "
        "affect only rounds not yet paired"),
    "redraw_nothing_broken": N_(
        "round %(number)s breaks no absolute criterion, so its published draw stands"),
    "redraw_games_begun": N_(
        "round %(number)s cannot be redrawn: game(s) %(games)s have begun and their moves "
        "stand; a player who left a game in play is a withdrawal (000 §3.14), not a redraw"),
    "redraw_changed": N_(
        "round %(number)s changed since the redraw was shown; look at it again before "
        "applying it"),
    # Teams (000 §3.17).
    "not_team_event": N_("only a team tournament has teams"),
    "teams_fixed": N_("the teams are fixed once games are paired"),
    "scheveningen_two_teams": N_("a Scheveningen match is between two teams, not %(count)s"),
    "team_swiss_on_rounds_page": N_("a team Swiss is paired round by round on the Rounds page"),
    "has_games": N_("the tournament already has games"),
    "two_teams_first": N_("enter at least two teams first"),
}

#: The English text of every problem of the teams as entered, by code.
TEAM_LINE_REFUSALS: dict[str, str] = {
    "line_format": N_("write the team as «Name: 3, 7, 12»"),
    "not_numbers": N_("not start numbers: %(numbers)s"),
    "no_players": N_("team %(name)s has no players (000 §3.17.2)"),
    "name_twice": N_("two teams are called %(name)s"),
    "no_such_player": N_("%(team)s: no player no. %(number)s"),
    "withdrawn": N_("%(team)s: no. %(number)s has withdrawn"),
    "in_two_teams": N_("no. %(number)s is in %(first)s and in %(second)s"),
    "two_teams": N_("a team event needs at least two teams (000 §3.17.1)"),
}

#: A problem of one line of the teams as entered.
TEAM_LINE = N_("line %(line)s: %(reason)s")


def english(texts: dict[str, str], code: str, params: dict[str, object]) -> str:
    """The English text of ``code`` with its values."""
    return texts[code] % params if params else texts[code]
