"""Why the rounds service refuses, as codes with values.

A refusal of :mod:`corrmail.rounds` carries a ``code`` and its ``params`` besides its English
text; the English texts below are also the catalog's message ids, so a page words the refusal in
its reader's language (``corrmail.web.refusals``) while the CLI and the logs keep the English.
When the pairing program refuses (``ENGINE``), its English text is the value ``detail`` and its
own codes and values come along as its ``reasons`` (:class:`EngineReason`), worded by
``PAIRING_REASONS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from scoring.errors import ErrorValue, ScoringError
from scoring.pairing import Violation

__all__ = [
    "BYE_CANDIDATES",
    "ENGINE",
    "EngineReason",
    "PAIRING_REASONS",
    "ROUND_REFUSALS",
    "TEAM_LINE_REFUSALS",
    "english",
]


def N_(text: str) -> str:
    """Mark ``text`` for ``pybabel extract``; it is translated when shown."""
    return text


ENGINE = "engine"
"""The pairing program (``scoring``) refused; its own text is the value ``detail``, its codes
and values the refusal's ``reasons``."""

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

@dataclass(frozen=True)
class EngineReason:
    """One reason the pairing program gives, by its ``code`` and ``values`` (the codes of
    ``scoring``'s errors and of ``scoring.pairing.check_round``'s violations)."""

    code: str
    values: Mapping[str, ErrorValue]

    @classmethod
    def of_error(cls, error: ScoringError) -> tuple[EngineReason, ...]:
        """The error's reason; none for an error that has no code (its English is all there is)."""
        return (cls(error.code, error.values),) if error.code else ()

    @classmethod
    def of_violation(cls, violation: Violation) -> EngineReason:
        """A breach found in a published round, with its round and the rule it breaks."""
        return cls(violation.code,
                   {"round": violation.round_no, "rule": violation.rule, **violation.values})


NO_LEGAL_PAIRING = N_("round %(round)s: no legal pairing: %(reason)s")
IMPOSSIBLE_HISTORY = N_("player %(player)s: %(reason)s")
BROKEN_CRITERION = N_("round %(round)s: %(reason)s (%(rule)s)")
#: Added to a reason found by matching when no player could take the bye (``bye_candidates``).
BYE_CANDIDATES = N_("%(reason)s whoever of %(players)s takes the bye (000 §3.18.2: never a "
                    "second point without play)")

#: The pairing program's reasons in English by their codes, each with the frame it is said in
#: (``None``: said alone); the program's own English is the same, but lists numbers in brackets.
PAIRING_REASONS: dict[str, tuple[str | None, str]] = {
    # scoring.pairing.UnknownSystemError and PairingError.
    "unknown_system": (None, N_("unknown pairing system «%(name)s»; known: %(known)s "
                                "(000 §3.18.3-3.18.7)")),
    "no_teams": (None, N_("the tournament has no teams (000 §3.17.1)")),
    # EntrantError: a history no tournament can have.
    "start_number_below_one": (IMPOSSIBLE_HISTORY,
                               N_("start numbers begin at 1 (000 §3.18.5.1)")),
    "start_number_twice": (IMPOSSIBLE_HISTORY, N_("start number used twice (000 §3.18.5.1)")),
    "colours_not_games": (IMPOSSIBLE_HISTORY,
                          N_("%(games)s games played but %(colours)s colours")),
    "met_twice": (IMPOSSIBLE_HISTORY, N_("met the same opponent twice (000 §3.18.2)")),
    "meets_himself": (IMPOSSIBLE_HISTORY, N_("recorded as meeting himself")),
    "opponent_not_in_event": (IMPOSSIBLE_HISTORY,
                              N_("opponent %(opponent)s is not in the event")),
    "game_not_in_history": (IMPOSSIBLE_HISTORY,
                            N_("met %(opponent)s, whose history does not list the game")),
    # NoLegalPairingError: the absolute criteria cannot all be met (000 §3.18.2).
    "round_below_one": (NO_LEGAL_PAIRING, N_("rounds are numbered from 1")),
    "every_bye_taken": (NO_LEGAL_PAIRING, N_(
        "odd number of players and every one has already had a point without play "
        "(000 §3.18.2)")),
    "cannot_meet_anyone": (NO_LEGAL_PAIRING, N_(
        "player(s) %(players)s cannot meet anyone: every other player already met "
        "(000 §3.18.2) or no colour within the limits (000 §3.18.2, 002)")),
    "no_legal_opponent": (NO_LEGAL_PAIRING, N_(
        "players %(players)s have no legal opponent left (000 §3.18.2, 002)")),
    "odd_blocks": (NO_LEGAL_PAIRING, N_(
        "players %(players)s may meet only one another (in blocks of odd size) or the "
        "%(count)s player(s) %(others)s, too few for them, so one is left over (never "
        "the same pair twice, colour limits: 000 §3.18.2, 002)")),
    "redraw_blocked": (NO_LEGAL_PAIRING, N_(
        "the players %(players)s cannot be paired again without breaking 000 §3.18.2")),
    # check_round: a published round that breaks an absolute criterion.
    "met_before": (BROKEN_CRITERION, N_("%(white)s and %(black)s have met before")),
    "withdrawn_paired": (BROKEN_CRITERION, N_("player %(player)s has withdrawn but is paired")),
    "colour_limits": (BROKEN_CRITERION, N_(
        "player %(player)s gets %(colour)s beyond the colour limits (never four in a row, "
        "whites and blacks at most two apart)")),
    "byes": (BROKEN_CRITERION, N_("%(count)s byes in one round; at most one")),
    "second_point_without_play": (BROKEN_CRITERION,
                                  N_("player %(player)s gets a second point without play")),
    "withdrawn_bye": (BROKEN_CRITERION, N_("player %(player)s has withdrawn but gets the bye")),
    "bye_even_number": (BROKEN_CRITERION, N_("a bye with an even number of players")),
    "incomplete": (BROKEN_CRITERION, N_(
        "players %(players)s are neither paired nor absent: the draw is incomplete")),
    # scoring.errors.ScheduleError: a Scheveningen schedule (004).
    "scheveningen_size": (None, N_(
        "a Scheveningen match needs at least one player(s) a team, not %(size)s")),
    "semi_scheveningen_size": (None, N_(
        "a semi-Scheveningen match needs an even number of player(s) a team, not %(size)s")),
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
