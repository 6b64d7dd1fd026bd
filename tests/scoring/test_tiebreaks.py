"""Every individual tiebreak on small tournaments computed by hand (see conftest docstrings)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scoring import Game, GameResult, Player, Tournament, TournamentSystem, Unpaired, Withdrawal
from scoring.errors import TiebreakNotApplicableError, UnknownTiebreakError
from scoring.standings import PRESETS, preset, standings
from scoring.tiebreaks import TIEBREAKS
from scoring.unplayed import UnplayedPolicy

W, D, B = GameResult.WHITE_WINS, GameResult.DRAW, GameResult.BLACK_WINS


def values(tournament: Tournament, names: list[str], policy: UnplayedPolicy = UnplayedPolicy.RUSSIAN) -> dict[int, dict[str, float | None]]:
    return {row.start_no: row.tiebreaks for row in standings(tournament, names, policy)}


def test_round_robin_coefficients(round_robin_four: Tournament) -> None:
    # Scores 1: 2.5, 2: 1.5, 3: 0.5, 4: 1.5.
    # 1 beat 2 (1.5) and 4 (1.5), drew 3 (0.5); 2 beat 3, drew 4, lost to 1;
    # 4 beat 3, drew 2, lost to 1; 3 drew 1, lost to 2 and 4.
    got = values(round_robin_four, ["shmulyan", "sonneborn_berger", "sonneborn_berger_double", "riga", "buchholz", "beaten_opponents_points", "wins", "koya"])
    assert got[1] == {"shmulyan": 3.0, "sonneborn_berger": 3.25, "sonneborn_berger_double": 6.5, "riga": 6.75, "buchholz": 3.5, "beaten_opponents_points": 3.0, "wins": 2.0, "koya": 2.0}
    # 2: Shmulyan 0.5 - 2.5; SB 0.5 + 1.5/2; double 1 + 1.5; Riga 2*0.5 + 1.5*1.5 + 2.5.
    assert got[2] == {"shmulyan": -2.0, "sonneborn_berger": 1.25, "sonneborn_berger_double": 2.5, "riga": 5.75, "buchholz": 4.5, "beaten_opponents_points": 0.5, "wins": 1.0, "koya": 0.5}
    assert got[4] == got[2]
    # 3: Shmulyan 0 - 3; SB 2.5/2; Riga 1.5*2.5 + 1.5 + 1.5; Koya: a draw with 1 (>= 50 %).
    assert got[3] == {"shmulyan": -3.0, "sonneborn_berger": 1.25, "sonneborn_berger_double": 2.5, "riga": 6.75, "buchholz": 5.5, "beaten_opponents_points": 0.0, "wins": 0.0, "koya": 0.5}


def test_level_players_share_the_place(round_robin_four: Tournament) -> None:
    rows = standings(round_robin_four, ["direct_encounter", "wins", "sonneborn_berger", "koya", "results_vs_placed"])
    assert [(r.place, r.start_no) for r in rows] == [("1", 1), ("2-3", 2), ("2-3", 4), ("4", 3)]
    assert rows[1].tiebreaks["direct_encounter"] == 0.5


def test_lot_separates_reproducibly(round_robin_four: Tournament) -> None:
    from scoring.ranking import TieRule

    first = standings(round_robin_four, ["wins"], tie_rule=TieRule.LOT, seed=7)
    again = standings(round_robin_four, ["wins"], tie_rule=TieRule.LOT, seed=7)
    assert [r.start_no for r in first] == [r.start_no for r in again]
    assert [r.place for r in first] == ["1", "2", "3", "4"]
    assert first[1].by_lot and first[2].by_lot and not first[0].by_lot


def test_recorded_playoff_overrides_the_order(round_robin_four: Tournament) -> None:
    decided = replace(round_robin_four, playoff=((4,), (2,)))
    rows = standings(decided, ["wins"])
    assert [(r.place, r.start_no) for r in rows] == [("1", 1), ("2", 4), ("3", 2), ("4", 3)]


def test_playoff_between_players_not_level_is_refused(round_robin_four: Tournament) -> None:
    from scoring.errors import PlayoffError

    with pytest.raises(PlayoffError, match="000 §3.16.2"):
        standings(replace(round_robin_four, playoff=((1,), (2,))), ["wins"])


def test_swiss_russian_policy(swiss_five: Tournament) -> None:
    # The bye counts as a win over the lowest score anyone made: player 5's 1 point.
    # 1: 2 (2) + 5 (1) + 4 (2) = 5;  2: 1 (2.5) + 3 (1.5) + bye (1) = 5;  4: 3 (1.5) + bye (1) + 1 (2.5).
    got = values(swiss_five, ["buchholz", "buchholz_cut1", "sonneborn_berger", "wins", "black_games"])
    assert {p: v["buchholz"] for p, v in got.items()} == {1: 5.0, 2: 5.0, 3: 5.0, 4: 5.0, 5: 5.0}
    assert {p: v["buchholz_cut1"] for p, v in got.items()} == {1: 4.0, 2: 4.0, 3: 4.0, 4: 4.0, 5: 4.0}
    # SB 1: 2 + 1 + 2/2;  2: 1.5 + 1 (bye);  3: 2/2 + 1 (plus over 5);  4: 1.5/2 + 1 + 2.5/2;  5: 1 (bye).
    assert {p: v["sonneborn_berger"] for p, v in got.items()} == {1: 4.0, 2: 2.5, 3: 2.0, 4: 3.0, 5: 1.0}
    # Pluses count as wins (000 §3.15.2); unplayed games count as white (003 §9.11).
    assert {p: v["wins"] for p, v in got.items()} == {1: 2.0, 2: 2.0, 3: 1.0, 4: 1.0, 5: 1.0}
    assert {p: v["black_games"] for p, v in got.items()} == {1: 1.0, 2: 1.0, 3: 1.0, 4: 2.0, 5: 0.0}


def test_swiss_virtual_opponent_policy(swiss_five: Tournament) -> None:
    # For opponents, unplayed rounds count as draws: 1: 2.5, 2: 0+1+½, 3: ½+0+½, 4: ½+½+½, 5: ½+0+½.
    # Virtual opponents: 2 in R3 (bye): 1 + 0 = 1;  3 in R3 (plus): ½ + 0 = ½;
    # 4 in R2 (bye): ½ + 0 + ½ = 1;  5 in R1 (bye): 0 + 0 + ½ + ½ = 1, in R3 (minus): 1 + 1 = 2.
    got = values(swiss_five, ["buchholz", "buchholz_cut1", "sonneborn_berger"], UnplayedPolicy.VIRTUAL_OPPONENT)
    assert {p: v["buchholz"] for p, v in got.items()} == {1: 4.0, 2: 4.5, 3: 3.5, 4: 4.5, 5: 5.5}
    assert {p: v["buchholz_cut1"] for p, v in got.items()} == {1: 3.0, 2: 3.5, 3: 3.0, 4: 3.5, 5: 4.5}
    assert {p: v["sonneborn_berger"] for p, v in got.items()} == {1: 3.25, 2: 2.0, 3: 1.25, 4: 2.75, 5: 1.0}


def test_russian_policy_credits_a_withdrawn_partner_with_his_score_group(swiss_five: Tournament) -> None:
    # 5 leaves after round 2 with 1 point; his score group then was {2} (1 point), who scored 1
    # more in round 3: 5 is credited with 1 + 1 = 2 in his partners' coefficients (000 §3.16.11).
    # The lowest score anyone made is still 5's own 1, for the byes.
    withdrawn = replace(swiss_five, withdrawals=(Withdrawal(5, 2),))
    got = values(withdrawn, ["buchholz"])
    assert got[1]["buchholz"] == 2.0 + 2.0 + 2.0
    assert got[3]["buchholz"] == 2.0 + 2.0 + 2.0
    assert got[2]["buchholz"] == 2.5 + 1.5 + 1.0


def test_cuts_medians_solkoff_and_buchholz_sum() -> None:
    # 1 met 2, 3, 4, 5, 6 (one round each) who scored 0, 1, 2, 3, 4 against the others.
    players = tuple(Player(n, f"P{n}") for n in range(1, 7))
    games = (Game(1, 1, 2, W), Game(2, 1, 3, W), Game(3, 1, 4, W), Game(4, 1, 5, W), Game(5, 1, 6, W))
    byes = tuple(Unpaired(r, p) for r, p in [(2, 4), (2, 5), (2, 6), (3, 5), (3, 6), (4, 6), (5, 3), (5, 4), (5, 5), (1, 3), (1, 4), (1, 5), (1, 6)])
    t = Tournament(players, games, byes, rounds=5)
    assert t.scores == {1: 5.0, 2: 0.0, 3: 2.0, 4: 3.0, 5: 4.0, 6: 4.0}
    got = values(t, ["buchholz", "buchholz_cut1", "buchholz_cut2", "buchholz_median1", "buchholz_median2", "solkoff_median", "solkoff_truncated"])[1]
    # Opponents' scores 0, 2, 3, 4, 4.
    assert got == {"buchholz": 13.0, "buchholz_cut1": 13.0, "buchholz_cut2": 11.0, "buchholz_median1": 9.0, "buchholz_median2": 3.0, "solkoff_median": 9.0, "solkoff_truncated": 13.0}


def test_truncated_solkoff_cuts_more_until_the_tie_breaks() -> None:
    # A met opponents scoring 1, 2, 2 and B 1, 1, 3: without the worst both have 4; without the
    # two worst A has 2 and B 3, so B is ahead (000 §3.16.8).
    from scoring.ranking import TiebreakValue
    from scoring.result import Result
    from scoring.tiebreaks import ScoringContext, _solkoff_truncated
    from scoring.unplayed import Opposition

    players = (Player(1, "A"), Player(2, "B"))
    context = ScoringContext(Tournament(players), frozenset({1, 2}), UnplayedPolicy.RUSSIAN)
    context.__dict__["oppositions"] = {
        1: tuple(Opposition(r, None, s, Result.WIN) for r, s in enumerate([1.0, 2.0, 2.0], 1)),
        2: tuple(Opposition(r, None, s, Result.WIN) for r, s in enumerate([1.0, 1.0, 3.0], 1)),
    }
    assert _solkoff_truncated(context, 1) == TiebreakValue(4.0, (4.0, 2.0, 0.0))
    assert _solkoff_truncated(context, 2) == TiebreakValue(4.0, (4.0, 3.0, 0.0))


def _partial_meetings() -> Tournament:
    """1, 2, 3 finish on 2 points; 1 beat 2 and 3, who never met (003 §9.8's partial case).

    R1: 1-2 1-0, 3-4 1-0, 5-6 ½, 7 bye.  R2: 1-3 1-0, 2-5 1-0, 4-6 0-1, 7 absent.
    R3: 1-4 0-1, 2-6 1-0, 3-7 1-0, 5 bye.
    """
    players = tuple(Player(n, f"P{n}") for n in range(1, 8))
    games = (
        Game(1, 1, 2, W), Game(1, 3, 4, W), Game(1, 5, 6, D),
        Game(2, 1, 3, W), Game(2, 2, 5, W), Game(2, 4, 6, B),
        Game(3, 1, 4, B), Game(3, 2, 6, W), Game(3, 3, 7, W),
    )
    from scoring import Result

    unpaired = (Unpaired(1, 7), Unpaired(2, 7, Result.ABSENT), Unpaired(3, 5))
    return Tournament(players, games, unpaired)


def test_direct_encounter_partial_case() -> None:
    t = _partial_meetings()
    assert [t.scores[p] for p in (1, 2, 3)] == [2.0, 2.0, 2.0]
    rows = standings(t, ["direct_encounter"])
    top = [(r.place, r.start_no, r.tiebreaks["direct_encounter"]) for r in rows[:3]]
    # 1 has 2 points among them; 2 and 3 could reach at most 1 each: 1 is first, 2 and 3 stay level.
    assert top == [("1", 1, 2.0), ("2-3", 2, 0.0), ("2-3", 3, 0.0)]


def test_results_against_the_others_in_order_of_places(round_robin_four: Tournament) -> None:
    # 1-2 drawn, 2-3 drawn, 4 beats 2, 3 beats 4: 1 and 3 lead with 2, 2 and 4 have 1 each;
    # 2 drew both leaders where 4 lost to them, so 2 is ahead (001 §5.4.8.2).
    changed = round_robin_four.with_results({(2, 1): D, (1, 2): D, (3, 2): B, (2, 4): B})
    assert changed.scores == {1: 2.0, 2: 1.0, 3: 2.0, 4: 1.0}
    rows = standings(changed, ["results_vs_placed"])
    order = [r.start_no for r in rows]
    assert order.index(2) < order.index(4)


def test_ratings_sum_and_average_with_the_two_games_rule() -> None:
    from scoring import Result

    players = (Player(1, "A", 2600), Player(2, "B", 1000), Player(3, "C", 1000), Player(4, "D", 2600))
    games = (Game(1, 1, 2, D), Game(1, 3, 4, D), Game(2, 1, 3, D), Game(2, 2, 4, D), Game(3, 1, 4, W))
    absent = (Unpaired(3, 2, Result.ABSENT), Unpaired(3, 3, Result.ABSENT))
    t = Tournament(players, games, absent, rounds=3)
    assert t.scores == {1: 2.0, 2: 1.0, 3: 1.0, 4: 1.0}
    got = values(t, ["opponents_rating_sum", "aro", "aro_cut1"])
    # 1 met 2 (1000), 3 (1000), 4 (2600): sum 4600, average over 3 rounds, cut the lowest.
    assert got[1] == {"opponents_rating_sum": 4600.0, "aro": pytest.approx(4600 / 3), "aro_cut1": 1800.0}
    # 2 met 1 and 4 only: (2600 + 2600) / 3 rounds is higher than 4's 4600 / 3 ...
    assert got[2]["aro"] == pytest.approx(5200 / 3)
    assert got[4]["aro"] == pytest.approx(4600 / 3)
    # ... but with two games or fewer 2 and 3 rank below 4, who played three (003 §12).
    rows = standings(t, ["aro"])
    assert [(r.place, r.start_no) for r in rows] == [("1", 1), ("2", 4), ("3-4", 2), ("3-4", 3)]


def test_koya_extended_adds_lower_groups() -> None:
    players = tuple(Player(n, f"P{n}") for n in range(1, 5))
    t = Tournament(players, (), system=TournamentSystem.ROUND_ROBIN)
    rows = standings(t, ["koya", "koya_extended"])
    assert all(r.tiebreaks == {"koya": 0.0, "koya_extended": 0.0} for r in rows)


def test_shmulyan_on_a_swiss_is_an_error(swiss_five: Tournament) -> None:
    with pytest.raises(TiebreakNotApplicableError, match="001 §5.4.8.4.3"):
        standings(swiss_five, ["shmulyan"])


def test_unknown_tiebreak_is_an_error(swiss_five: Tournament) -> None:
    with pytest.raises(UnknownTiebreakError, match="unknown name 'bucholz'"):
        standings(swiss_five, ["bucholz"])
    with pytest.raises(UnknownTiebreakError):
        preset("fide-2030")
    with pytest.raises(UnknownTiebreakError):
        UnplayedPolicy.parse("soviet")


def test_every_preset_names_known_tiebreaks() -> None:
    for names in PRESETS.values():
        assert set(names) <= set(TIEBREAKS)
    assert preset("swiss") == PRESETS["003-14.3"]


def test_every_tiebreak_runs_on_a_round_robin_and_a_swiss(round_robin_four: Tournament, swiss_five: Tournament) -> None:
    for name in TIEBREAKS:
        assert len(standings(round_robin_four, [name])) == 4
        if not TIEBREAKS[name].round_robin_only:
            assert len(standings(swiss_five, [name], UnplayedPolicy.VIRTUAL_OPPONENT)) == 5


def test_playoff_players_take_the_places_they_occupy_together() -> None:
    # Six players level on points and on every criterion; a play-off between 2, 4 and 5 puts 5
    # first, then 2 and 4 level: the play-off was for the top places, the rest share 4-6.
    players = tuple(Player(n, f"P{n}") for n in range(1, 7))
    level = Tournament(players, (), playoff=((5,), (2, 4)))
    rows = standings(level, [])
    assert [(r.place, r.start_no) for r in rows] == [("1", 5), ("2-3", 2), ("2-3", 4), ("4-6", 1), ("4-6", 3), ("4-6", 6)]

