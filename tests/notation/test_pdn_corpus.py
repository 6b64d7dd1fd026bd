"""The public PDN corpus (wiegerw/pdn, games/succeed/; see tests/notation/corpus/README.md).

Every file of that folder that is Russian or international draughts is read with no game lost.
The files of other games are named here with the reason they are left out; two of them are in
the archive to show how a game that is not Russian draughts is reported.
"""

from __future__ import annotations

import tarfile
from functools import cache
from pathlib import Path

import pytest

from notation.pdn import PdnGame, read_pdn, write_pdn
from notation.rules import GameType

ARCHIVE = Path(__file__).parent / "corpus" / "wiegerw-pdn-succeed.tar.xz"

# file -> (games, game type they are read as)
RUSSIAN_OR_INTERNATIONAL = {
    "090417ronde12.pdn": (7, {GameType.INTERNATIONAL}),
    "Cat.B1.pdn": (37, {GameType.INTERNATIONAL}),
    "Cat.D1.pdn": (19, {GameType.INTERNATIONAL}),
    "DUTCH96H.pdn": (13, {GameType.INTERNATIONAL}),
    "PROF2.pdn": (16, {GameType.INTERNATIONAL}),
    "PWCP 2a.pdn": (59, {GameType.INTERNATIONAL}),
    "PWCP_2.pdn": (51, {GameType.INTERNATIONAL}),
    "candidate95.pdn": (8, {GameType.INTERNATIONAL}),
    # Two 8x8 problem positions (no moves: both boards fit, the default is assumed) and one 10x10.
    "fen.pdn": (3, {GameType.RUSSIAN, GameType.INTERNATIONAL}),
    "gameterminator.pdn": (1, {GameType.INTERNATIONAL}),
    "kurnik.pdn": (4, {GameType.INTERNATIONAL}),
    "linecomment.pdn": (1, {GameType.INTERNATIONAL}),
    "movestrength.pdn": (1, {GameType.INTERNATIONAL}),
    "nk ronde 01.pdn": (7, {GameType.INTERNATIONAL}),
    "nk ronde 02.pdn": (7, {GameType.INTERNATIONAL}),
    "nk2003-amsterdam.pdn": (33, {GameType.INTERNATIONAL}),
    "rk ronde 12.pdn": (7, {GameType.INTERNATIONAL}),
    "schildpad.pdn": (34, {GameType.INTERNATIONAL}),
    "string.pdn": (1, {GameType.INTERNATIONAL}),
    "unicode.pdn": (1, {GameType.INTERNATIONAL}),
    "ussr1947.pdn": (153, {GameType.RUSSIAN}),
    "variation.pdn": (1, {GameType.INTERNATIONAL}),
    "windragon.pdn": (1, {GameType.INTERNATIONAL}),
    "wk2003.pdn": (23, {GameType.INTERNATIONAL}),
    "alphanumeric.pdn": (1, {GameType.RUSSIAN}),
}
# The rest of games/succeed/ is not played here (002 §4.1.4 names Russian, giveaway,
# international and the column games): not in the archive, except the two marked *.
OTHER_GAMES = {
    "Campionato Assoluto 2005.pdn": "Italian draughts (numeric 8x8, White moves 21-17 first)",
    "OCA_2.0.pdn": "American checkers (Black opens 11-15)",
    "Principles of Strategy.pdn": "American checkers (Black opens 11-15) *",
    "Tricks traps and shots.pdn": "American checkers problems",
    "beginner.pdn": "American checkers problems",
    "borderclassics.pdn": "American checkers problems",
    "bridges.pdn": "American checkers problems",
    "gem.pdn": "American checkers problems",
    "goulds.pdn": "American checkers problems",
    "inferno.pdn": "American checkers (Black opens 11-15)",
    "lpc.pdn": "American checkers problems",
    "mrcd2000kval.pdn": "Czech draughts championship (men do not take backwards)",
    "mrcd2006.pdn": "Czech draughts championship (men do not take backwards) *",
    "mrcd2007.pdn": "Czech draughts championship (men do not take backwards)",
}
# Games whose record names a capture that two different legal captures fit: each is read by
# the moves after it (exactly one of the two lets the rest of the game replay), with a warning.
RESOLVED_AMBIGUITIES = {("schildpad.pdn", 3): "36x16", ("schildpad.pdn", 7): "4x24"}


@cache
def _corpus() -> dict[str, str]:
    with tarfile.open(ARCHIVE) as archive:
        texts = {}
        for member in archive.getmembers():
            handle = archive.extractfile(member)
            assert handle is not None
            texts[member.name] = handle.read().decode("utf-8-sig")
        return texts


def test_the_archive_holds_every_russian_and_international_file() -> None:
    names = set(_corpus())
    assert set(RUSSIAN_OR_INTERNATIONAL) <= names
    assert names - set(RUSSIAN_OR_INTERNATIONAL) == {n for n, why in OTHER_GAMES.items() if why.endswith("*")}
    assert not set(RUSSIAN_OR_INTERNATIONAL) & set(OTHER_GAMES)


@pytest.mark.parametrize("name", sorted(RUSSIAN_OR_INTERNATIONAL))
def test_every_game_is_read(name: str) -> None:
    count, types = RUSSIAN_OR_INTERNATIONAL[name]
    games = read_pdn(_corpus()[name])
    assert len(games) == count
    assert [g.errors for g in games] == [[] for _ in games]
    assert {g.game_type for g in games} == types
    for number, game in enumerate(games, start=1):
        if (name, number) in RESOLVED_AMBIGUITIES:
            assert any(w.text == RESOLVED_AMBIGUITIES[name, number] and "rest of the game" in w.reason
                       for w in game.warnings)
        if "GameType" not in game.headers:
            assert "no GameType header: assumed" in game.warnings[0].reason


@pytest.mark.parametrize("name", sorted(RUSSIAN_OR_INTERNATIONAL))
def test_every_game_comes_back_unchanged_through_write_and_read(name: str) -> None:
    for game in read_pdn(_corpus()[name]):
        (again,) = read_pdn(write_pdn(game))
        assert again.errors == [] and again.warnings == []
        assert (again.game_type, again.start, again.moves, again.result) == (
            game.game_type, game.start, game.moves, game.result)
        assert again.comments == game.comments and again.nags == game.nags


def test_column_aligned_moves_and_detached_ellipsis_are_read() -> None:
    dutch = read_pdn(_corpus()["DUTCH96H.pdn"])
    assert len(dutch[0].moves) > 40 and dutch[0].warnings == []
    (windragon,) = read_pdn(_corpus()["windragon.pdn"])
    assert len(windragon.moves) > 100


def test_checkers_is_reported_as_a_probable_other_game_not_as_illegal_moves() -> None:
    games = read_pdn(_corpus()["Principles of Strategy.pdn"])
    assert games and all(g.errors for g in games)
    for game in games:
        reason = game.errors[0].reason
        assert "does not replay as Russian draughts" in reason and "GameType 21" in reason


def test_czech_games_name_the_missing_game_type() -> None:
    games = read_pdn(_corpus()["mrcd2006.pdn"])
    bad = [g for g in games if g.errors]
    assert bad and all("GameType 29 Czech" in g.errors[0].reason for g in bad)


def test_an_ambiguous_capture_with_nothing_after_it_stays_an_error() -> None:
    game = read_pdn(_corpus()["schildpad.pdn"])[2]
    ambiguous = next(w for w in game.warnings if w.text == "36x16")
    before = 2 * (ambiguous.move_number or 0) - 2
    cut = PdnGame(game.headers, game.game_type, game.start, game.moves[:before], result="*")
    text = write_pdn(cut).replace(" *\n", f" {ambiguous.move_number}. 36x16 *\n")
    (again,) = read_pdn(text)
    (error,) = again.errors
    assert error.text == "36x16" and "fits 2 different legal moves and it is the last move" in error.reason
