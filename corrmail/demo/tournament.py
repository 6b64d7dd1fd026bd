"""The demo: a 6-player postal round robin in progress, built from real letters.

Loading is idempotent: users are matched by login, the tournament by its code. The results in it
(one game resigned, one lost on overstep) are the demo's recorded decisions, not computed here.
"""

from __future__ import annotations

import datetime as dt
import random
from dataclasses import dataclass
from email.message import EmailMessage

from sqlalchemy import select
from sqlalchemy.orm import Session

from adjudication import Evidence, OverstepClaim
from adjudication import Side as AdjudicationSide
from corrmail import games
from corrmail.demo.moves import DEMO_MOVES
from corrmail.games import LetterInput
from corrmail.letters.outbox import enqueue
from corrmail.mail.compose import new_message_id
from corrmail.mail.settings import MailSettings
from corrmail.models import (
    Channel,
    Game,
    GameResult,
    GameState,
    GameType,
    Participant,
    Player,
    ResultKind,
    Role,
    Tournament,
    TournamentChannel,
    TournamentOfficial,
    TournamentStatus,
    TournamentSystem,
    User,
)
from corrmail.referee.case_letters import case_letter_writer
from corrmail.referee.desk import Desk, actor_for
from notation.full import parse_full
from notation.position import Position
from notation.rules import GameType as NotationGameType
from scoring.roundrobin import round_robin_games
from timekeeping import (
    Ledger,
    LetterEntry,
    Side,
    TimeControl,
    compute_chart,
    last_safe_reply_date,
)

DEMO_CODE = "ЗКР-2026"
DEMO_PASSWORD = "demo2026"
START = dt.date(2026, 9, 1)
# Letters in the demo stop before this day, so every game has its latest letter in transit or
# on someone's desk.
LAST_LETTER_BEFORE = dt.date(2026, 11, 20)
DEMO_MAIL_SECRET = "demo reply tokens"  # used only when no mail secret is configured


@dataclass(frozen=True)
class DemoLogin:
    login: str
    role: Role
    display_name: str
    #: Where a postal player writes his cards (002 §4.1.1): the start sheet names it (002 §4.3.2).
    postal_address: str | None = None


OFFICIALS = (
    DemoLogin("director", Role.ORGANIZER, "Директор турнира"),
    DemoLogin("referee", Role.REFEREE, "Главный судья"),
    DemoLogin("steward", Role.STEWARD, "Староста",
              "Москва, 119019, ул. Волхонка, 14, а/я 27, комиссия заочной игры"),
)

PLAYERS = (
    ("Иванов Пётр Сергеевич", "ivanov", "Москва, ул. Тверская, 7, кв. 12", 2210, "ЦШК Москва"),
    (
        "Смирнова Анна Викторовна",
        "smirnova",
        "Санкт-Петербург, Невский пр., 30, кв. 4",
        2185,
        "Петербург",
    ),
    ("Кузнецов Олег Иванович", "kuznetsov", "Казань, ул. Баумана, 15, кв. 3", 2150, "Казань"),
    ("Попова Мария Андреевна", "popova", "Самара, ул. Ленинградская, 41, кв. 9", 2120, "Самара"),
    ("Васильев Игорь Павлович", "vasiliev", "Тула, пр. Ленина, 88, кв. 21", 2095, "Тула"),
    ("Соколов Денис Юрьевич", "sokolov", "Пермь, ул. Сибирская, 12, кв. 5", 2060, "Пермь"),
)

# The Berger table for six players, from `scoring` (round, white, black by start number).
PAIRINGS = tuple((g.round, g.white, g.black) for g in round_robin_games(list(range(1, 7))))

FINISHED_GAME = 1  # index into PAIRINGS: 2–5, Black resigns after White's last move
OVERSTEPPED_GAME = 3  # 6–4: Black fell silent; the referee confirmed the overstep (002 §4.3.6)
OVERSTEP_AFTER_PLIES = 3


def demo_logins() -> list[tuple[str, str, str]]:
    """(login, password, what it is) for every demo account."""
    rows = [(o.login, DEMO_PASSWORD, o.role.value) for o in OFFICIALS]
    rows += [(login, DEMO_PASSWORD, f"{Role.PLAYER.value}: {name}") for name, login, *_ in PLAYERS]
    return rows


def load_demo(session: Session, mail: MailSettings | None = None) -> Tournament:
    """Create the demo (or find it) in `session`'s transaction; the caller commits. ``mail``:
    the settings the case letters of the demo's overstep claim are written with."""
    existing = session.scalar(select(Tournament).where(Tournament.code == DEMO_CODE))
    if existing is not None:
        return existing

    officials = {
        official.role: _user(session, official.login, official.display_name, official.role,
                             official.postal_address)
        for official in OFFICIALS
    }
    steward = officials[Role.STEWARD]

    tournament = Tournament(
        code=DEMO_CODE,
        title="Заочный кубок, демонстрационный турнир",
        game_type=GameType.RUSSIAN,
        system=TournamentSystem.ROUND_ROBIN_SINGLE,
        channel=TournamentChannel.POST,
        start_date=START,
        end_date=dt.date(2027, 12, 31),
        tiebreak_order=["sonneborn_berger", "koya"],
        status=TournamentStatus.RUNNING,
    )
    session.add(tournament)
    session.flush()

    participants: dict[int, Participant] = {}
    for number, (name, login, address, rating, club) in enumerate(PLAYERS, start=1):
        player = Player(
            name=name,
            email=f"{login}@example.org",
            postal_address=address,
            rating=rating,
            club=club,
        )
        session.add(player)
        session.flush()
        user = _user(session, login, name, Role.PLAYER)
        user.player_id = player.id
        user.email = player.email
        entry = Participant(
            tournament_id=tournament.id, player_id=player.id, start_number=number, rating=rating
        )
        session.add(entry)
        participants[number] = entry
    session.flush()

    for role in (Role.STEWARD, Role.REFEREE):
        session.add(
            TournamentOfficial(tournament_id=tournament.id, user_id=officials[role].id, role=role)
        )

    for index, (round_number, white, black) in enumerate(PAIRINGS):
        game = Game(
            tournament_id=tournament.id,
            round=round_number,
            white_id=participants[white].id,
            black_id=participants[black].id,
            state=GameState.IN_PLAY,
        )
        session.add(game)
        session.flush()
        overstepped = _play_letters(session, tournament, game, index, steward)
        if overstepped is not None:
            overstepped_game = (game, *overstepped)

    session.flush()
    game, silent, last_safe = overstepped_game
    _claim_and_confirm_overstep(session, tournament, game, silent, last_safe,
                                mail or MailSettings.from_env(secret_fallback=DEMO_MAIL_SECRET))
    _enqueue_start_sheet_notice(session, tournament, participants[1])
    session.flush()
    return tournament


def _by_login(session: Session, login: str) -> User | None:
    return session.scalar(select(User).where(User.login == login))


def _user(session: Session, login: str, display_name: str, role: Role,
          postal_address: str | None = None) -> User:
    user = _by_login(session, login)
    if user is None:
        user = User(login=login, display_name=display_name, postal_address=postal_address)
        user.set_password(DEMO_PASSWORD)
        session.add(user)
    user.grant(role)
    session.flush()
    return user


@dataclass(frozen=True)
class _PlannedLetter:
    ply: int
    move: str  # "" for the resignation
    partner_sent: dt.date | None
    received: dt.date | None
    sent: dt.date


def _plan_letters(index: int) -> tuple[list[_PlannedLetter], dt.date]:
    """The demo's posting dates, and when the last letter reached the partner.

    The moves are checked with `notation` (each one legal in full notation, 002 §4.2.2): a
    demo that showed impossible moves would teach the wrong thing.
    """
    moves = DEMO_MOVES[index]
    position = Position.initial(NotationGameType.RUSSIAN)
    schedule = random.Random(index)  # fixed seed: the demo is the same on every machine
    sent = START + dt.timedelta(days=schedule.randint(0, 3))
    partner_sent: dt.date | None = None
    received: dt.date | None = None
    planned: list[_PlannedLetter] = []
    plies = OVERSTEP_AFTER_PLIES if index == OVERSTEPPED_GAME else len(moves)
    for ply, move in enumerate(moves[:plies]):
        if sent >= LAST_LETTER_BEFORE and index != FINISHED_GAME:
            break
        position = position.play(parse_full(position, move))
        planned.append(_PlannedLetter(ply, move, partner_sent, received, sent))
        partner_sent = sent
        received = sent + dt.timedelta(days=schedule.randint(2, 6))
        sent = received + dt.timedelta(days=schedule.randint(1, 8))
    if index == FINISHED_GAME:
        planned.append(_PlannedLetter(len(moves), "", partner_sent, received, sent))
    assert received is not None
    return planned, received


def _ledger(tournament: Tournament, planned: list[_PlannedLetter]) -> Ledger:
    return Ledger(
        start_date=tournament.start_date,
        end_date=tournament.end_date,
        control=TimeControl(tournament.time_control_days, tournament.time_control_moves),
        letters=tuple(
            LetterEntry(
                sender=Side.WHITE if letter.ply % 2 == 0 else Side.BLACK,
                move=letter.ply // 2 + 1,
                sent=letter.sent,
                received=letter.received,
                partner_sent_postmark=letter.partner_sent,
                moves_text=letter.move,
            )
            for letter in planned
            if letter.move
        ),
    )


def _letter_text(
    tournament: Tournament, sender: Participant, partner: Participant, repeated: str,
    letter: _PlannedLetter, totals: str | None,
) -> str:  # fmt: skip
    lines = [f"Уважаемый(ая) {partner.player.name}!", f"Турнир {tournament.code}."]
    if repeated:
        lines.append(f"Ваш ход: {repeated}.")
    lines.append(f"Мой ход: {letter.move}." if letter.move else "Сдаюсь. Спасибо за игру.")
    if letter.partner_sent and letter.received:
        lines.append(
            f"Ваше письмо отправлено {letter.partner_sent:%d.%m.%Y}, "
            f"получено {letter.received:%d.%m.%Y}, моё отправлено {letter.sent:%d.%m.%Y}."
        )
    else:
        lines.append(f"Отправлено {letter.sent:%d.%m.%Y}.")
    if totals:
        lines.append(f"Время: {totals}.")
    lines += ["С уважением,", sender.player.name, sender.player.postal_address or ""]
    return "\n".join(lines)


def _play_letters(
    session: Session, tournament: Tournament, game: Game, index: int, steward: User | None
) -> tuple[Side, dt.date] | None:
    """Enter the game's letters; for the overstepped game, the silent side and the last day
    he could have replied on."""
    moves = DEMO_MOVES[index]
    planned, last_received = _plan_letters(index)
    ledger = _ledger(tournament, planned)
    # The fraction each player writes (002 §4.2.3) is what `timekeeping` counts, as a careful
    # player would count it.
    rows = iter(compute_chart(ledger).rows)
    sides = (game.white, game.black)
    for letter in planned:
        sender, partner = sides[letter.ply % 2], sides[(letter.ply + 1) % 2]
        row = next(rows) if letter.move else None
        games.append_letter(
            session,
            game,
            LetterInput(
                sender_id=sender.id,
                channel=Channel.POST,
                raw_text=_letter_text(
                    tournament, sender, partner, moves[letter.ply - 1] if letter.ply else "",
                    letter, str(row.totals) if row else None,
                ),
                moves_text=letter.move,
                partner_sent=letter.partner_sent,
                received=letter.received,
                sent=letter.sent,
                postmark_date=letter.sent,
                declared_white_days=row.white_total if row else None,
                declared_black_days=row.black_total if row else None,
            ),
            entered_by=steward,
        )  # fmt: skip

    if index == FINISHED_GAME:
        loser = sides[len(moves) % 2]
        # Generated history, not an act of anyone's: no audit entry.
        games.record_result(
            session, game, GameResult.BLACK_WIN if loser is game.white else GameResult.WHITE_WIN,
            ResultKind.PLAYED, on=planned[-1].sent, user=None, audited=False)
    elif index == OVERSTEPPED_GAME:
        # The side to move never answered; timekeeping says when its limit ran out (002 §4.3.5).
        # The partner claims it with the file of §4.3.6, the referee confirms it and the protest
        # window runs (§4.3.7–§4.3.8): the result comes from that decision, as in real play.
        silent = Side.WHITE if len(planned) % 2 == 0 else Side.BLACK
        last_safe = last_safe_reply_date(ledger, silent, received=last_received)
        if last_safe is None or last_safe >= LAST_LETTER_BEFORE:
            raise RuntimeError(f"demo overstep game is not overstepped yet: {last_safe}")
        return silent, last_safe
    return None


def _claim_and_confirm_overstep(
    session: Session, tournament: Tournament, game: Game, silent: Side, last_safe: dt.date,
    mail: MailSettings,
) -> None:
    """The demo's overstepped game reaches its result the rulebook's way: the claimant's file
    (002 §4.3.6) entered by the steward the day after the limit ran out, the referee's
    confirmation once the accused's time to object has passed (§4.3.7–§4.3.8); the protest
    window against the decision then runs its course (002 §4.1.12)."""
    claimant = AdjudicationSide.WHITE if silent is Side.BLACK else AdjudicationSide.BLACK
    steward = _by_login(session, "steward")
    referee = _by_login(session, "referee")
    assert steward is not None and referee is not None
    writer = case_letter_writer(mail)
    claimed_on = last_safe + dt.timedelta(days=1)
    done = Desk(session, writer, on=claimed_on).open_overstep_claim(
        actor_for(session, steward, tournament.id), game, claimant=claimant,
        evidence=frozenset(Evidence), notice_received_on=claimed_on + dt.timedelta(days=2),
        letter_text="Заявляю о просрочке времени партнёром; материалы прилагаю (002 §4.3.6).",
    )
    case_id = done.stored.row.id
    claim = done.stored.case
    assert isinstance(claim, OverstepClaim)
    # The referee decides the day after the accused's time to protest the claim ran out.
    Desk(session, writer, on=claim.objection_due + dt.timedelta(days=1)).decide(
        actor_for(session, referee, tournament.id), case_id,
        revision=claim.revision, ruling="confirmed",
        reasons="График времени подтверждает просрочку; материалы полные (002 §4.3.6–4.3.7).",
    )


def _enqueue_start_sheet_notice(
    session: Session, tournament: Tournament, participant: Participant
) -> None:
    """One letter in the outbox, so the outbox viewer has something to show."""
    message = EmailMessage()
    message["From"] = "Турнирная служба <turnir@corrmail.local>"
    message["To"] = f"{participant.player.name} <{participant.player.email}>"
    message["Subject"] = f"{tournament.code}: стартовый лист"
    message["Message-ID"] = new_message_id("corrmail.local", tag=f"demo-start-{participant.id}")
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(
        f"Уважаемый(ая) {participant.player.name}!\n\n"
        f"Турнир {tournament.code} начинается {tournament.start_date:%d.%m.%Y}, "
        f"окончание игры {tournament.end_date:%d.%m.%Y}.\n"
        "Ваши партнёры и их адреса — на странице турнира.\n"
    )
    enqueue(session, message, kind="start_sheet", tournament_id=tournament.id)
