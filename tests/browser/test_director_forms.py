"""Two director's forms in a real browser (Debian's chromium, headless, via Playwright).

The director sets up a Lasca tournament with its column-draughts rule options — the options
appear only for column draughts, Lasca's numbering only for Lasca (002 §4.1.4) — and redraws a
published Swiss round broken by a withdrawal, after seeing which games change (002, 004).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest
from sqlalchemy import select

from corrmail.db import Database
from corrmail.demo.tournament import DEMO_PASSWORD
from corrmail.models import Game, Participant, Tournament, TournamentSystem
from corrmail.rounds.swiss import pair_next_round, publish_round

pytestmark = pytest.mark.browser


def _log_in(page: object, server: str, login: str) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(page, Page)
    page.goto(f"{server}/login")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", DEMO_PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator("header .who")).to_be_visible()
    page.locator("header form.locale button[value=en]").click()  # English labels from here
    # the switch is a form post: the next goto must not cut it short
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_director_sets_lasca_rule_options(
    live_server: str, browser_page: object, database: Database
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    page = browser_page
    _log_in(page, live_server, "director")
    page.goto(f"{live_server}/tournaments/new")
    options = page.locator("#rule-options")
    expect(options).to_be_hidden()  # Russian draughts, the default, has no rule options
    page.select_option("select[name=game_type]", "column_russian")
    expect(options).to_be_visible()
    expect(page.locator("select[name=rule_numbering]")).to_be_hidden()  # Lasca only
    expect(page.locator("select[name=rule_rejump]")).to_be_enabled()
    page.select_option("select[name=game_type]", "column_international")
    numbering = page.locator("select[name=rule_numbering]")
    expect(numbering).to_be_visible()
    expect(options.get_by_text("digest §4, §9 Q4")).to_be_visible()

    page.fill("input[name=code]", "ЛАСКА-27")
    page.fill("input[name=title]", "Ласка по переписке 2027")
    page.fill("input[name=start_date]", "2027-01-10")
    page.fill("input[name=end_date]", "2028-01-10")
    page.select_option("select[name=rule_moves]", "bashni")
    numbering.select_option("g1")
    page.select_option("select[name=rule_quiet_limit]", "15")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", name="ЛАСКА-27 — Ласка по переписке 2027")).to_be_visible()
    with database.session() as session:
        tournament = session.scalars(select(Tournament).where(Tournament.code == "ЛАСКА-27")).one()
        assert tournament.rule_options == {"moves": "bashni", "numbering": "g1",
                                           "quiet-limit": "15"}


def test_director_redraws_a_round_broken_by_a_withdrawal(
    live_server: str, browser_page: object, database: Database,
    make_tournament: Callable[..., Tournament],
) -> None:
    from playwright.sync_api import Page, expect

    assert isinstance(browser_page, Page)
    created = make_tournament(players=5, code="ШВ-1", system=TournamentSystem.SWISS,
                              pairing_system="coefficients")
    with database.transaction() as session:
        tournament = session.get(Tournament, created.id)
        assert tournament is not None
        pair_next_round(session, tournament, None, seed=8)
        publish_round(session, tournament, None, writer=None, today=dt.date(2026, 9, 1))
    with database.transaction() as session:
        game = session.scalars(select(Game).where(Game.tournament_id == created.id)
                               .order_by(Game.id)).first()
        assert game is not None
        withdrawn, partner = game.black, game.white.start_number
        withdrawn.withdrawn_on = dt.date(2026, 9, 3)
        withdrawn_number = withdrawn.start_number
        bye = session.scalars(select(Participant.start_number).where(
            Participant.tournament_id == created.id,
            Participant.start_number.not_in([g.white.start_number for g in game.tournament.games]
                                            + [g.black.start_number
                                               for g in game.tournament.games]))).one()

    page = browser_page
    _log_in(page, live_server, "director")
    page.goto(f"{live_server}/tournaments/ШВ-1/rounds")
    page.get_by_role("link", name="Redraw round 1…").click()
    expect(page.get_by_role("heading", name="Redraw round 1")).to_be_visible()
    cancelled = page.locator("tr.cancelled")
    expect(cancelled).to_have_count(1)
    expect(cancelled).to_contain_text(f"№{partner} ")
    expect(cancelled).to_contain_text(f"№{withdrawn_number} ")
    added = page.locator("tr.added")
    expect(added).to_have_count(1)
    expect(added).to_contain_text(f"№{bye} ")
    page.get_by_role("button", name="Apply the redraw").click()
    expect(page.get_by_text("Round 1 redrawn: 1 game(s) cancelled, 1 paired instead")).to_be_visible()
    with database.session() as session:
        pairs = {frozenset((g.white.start_number, g.black.start_number))
                 for g in session.scalars(select(Game).where(Game.tournament_id == created.id))}
        assert frozenset((partner, bye)) in pairs
        assert all(withdrawn_number not in pair for pair in pairs)


def test_the_tournament_form_fits_a_phone(live_server: str, browser_page: object) -> None:
    """A select is as wide as its longest option: the form must still fit 390 px, with every
    option of the rule options shown (no sideways scrolling to reach a field)."""
    from playwright.sync_api import Page

    assert isinstance(browser_page, Page)
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    _log_in(page, live_server, "director")
    page.goto(f"{live_server}/tournaments/new")
    page.select_option("select[name=game_type]", "column_international")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
