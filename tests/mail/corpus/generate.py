"""Writes the inbound corpus: ``*.eml`` files and ``expected.json``.

Run once after changing a case: ``.venv/bin/python tests/mail/corpus/generate.py``. The files
are committed, so the tests read fixed bytes; this script documents how each was made and
keeps the expected outcomes next to the messages they describe.

Headers imitate the clients they are named after (Thunderbird, Outlook, Gmail, Mail.ru, Yandex,
Apple Mail, The Bat!, K-9/Android), with their charsets and transfer encodings.
"""

from __future__ import annotations

import base64
import json
import quopri
from email.header import Header
from email.utils import formataddr, parseaddr
from pathlib import Path
from typing import Any

from corrmail.mail.tokens import TokenSigner

HERE = Path(__file__).parent
SECRET = b"corpus-secret"
DOMAIN = "turnir.shashki.example"
SIGNER = TokenSigner(SECRET, DOMAIN)

GAME = 12
WHITE, BLACK = 34, 35
WHITE_ADDR, BLACK_ADDR = "ivan.petrov@mail.example", "sedov@yandex.example"
REPLY_W = SIGNER.reply_address(GAME, WHITE)
REPLY_B = SIGNER.reply_address(GAME, BLACK)
REF_W = SIGNER.reply_reference(GAME, WHITE)
REF_B = SIGNER.reply_reference(GAME, BLACK)
OUR_MSGID = "<168.4242@turnir.shashki.example>"

OUR_LETTER = """Здравствуйте, Иван Петрович!
Турнир ЗЧ-2026/3, партия 12.
Ход партнёра: 7... h6-g5
Даты: 10.03.2026 / 11.03.2026 / 11.03.2026
Время: 14/11
С уважением, Турнир"""


def quoted(text: str, prefix: str = "> ") -> str:
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.splitlines())


def encode(text: str, charset: str, cte: str) -> bytes:
    data = text.replace("\n", "\r\n").encode(charset)
    if cte == "quoted-printable":
        return quopri.encodestring(data)
    if cte == "base64":
        return base64.encodebytes(data)
    return data


def leaf(text: str, subtype: str = "plain", charset: str = "utf-8", cte: str = "8bit",
         declare_charset: bool = True) -> bytes:
    ctype = f"text/{subtype}" + (f'; charset="{charset}"' if declare_charset else "")
    head = f"Content-Type: {ctype}\r\nContent-Transfer-Encoding: {cte}\r\n\r\n".encode()
    return head + encode(text, charset, cte)


def multipart(subtype: str, parts: list[bytes], boundary: str, extra: str = "") -> bytes:
    out = [f'Content-Type: multipart/{subtype}; boundary="{boundary}"{extra}\r\n\r\n'.encode(),
           b"This is a multi-part message in MIME format.\r\n"]
    for part in parts:
        out.append(f"\r\n--{boundary}\r\n".encode() + part)
    out.append(f"\r\n--{boundary}--\r\n".encode())
    return b"".join(out)


def message(headers: list[tuple[str, str]], body: bytes) -> bytes:
    head = "".join(f"{name}: {_encoded(name, value)}\r\n" for name, value in headers)
    return head.encode("utf-8") + b"MIME-Version: 1.0\r\n" + body


def _encoded(name: str, value: str) -> str:
    """RFC 2047 encoded words for non-ASCII headers, as every real client writes them."""
    if value.isascii():
        return value
    if name in ("From", "To", "Cc"):
        display, address = parseaddr(value)
        return formataddr((display, address), charset="utf-8")
    return Header(value, "utf-8").encode()


def hdrs(frm: str, to: str, subject: str, msgid: str, *, refs: str | None = REF_W,
         date: str = "Thu, 12 Mar 2026 09:15:02 +0300", extra: list[tuple[str, str]] | None = None,
         ) -> list[tuple[str, str]]:
    out = [("Return-Path", f"<{frm.split('<')[-1].rstrip('>')}>"), ("Date", date), ("From", frm),
           ("To", to), ("Subject", subject), ("Message-ID", msgid)]
    if refs:
        out += [("In-Reply-To", OUR_MSGID), ("References", f"{OUR_MSGID} {refs}")]
    return out + (extra or [])


CASES: dict[str, tuple[bytes, dict[str, Any]]] = {}


def case(name: str, raw: bytes, **expected: Any) -> None:
    expected.setdefault("kind", "letter")
    CASES[name] = (raw, expected)


W_FROM = f"Иван Петров <{WHITE_ADDR}>"
B_FROM = f"Сергей Седов <{BLACK_ADDR}>"
SUBJ = "Re: ЗЧ-2026/3, партия 12: ход 7... h6-g5"

# 1. Thunderbird, bottom-posting, UTF-8 8bit
case("01_thunderbird_bottom_posting.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<a1b2c3@mail.example>",
         extra=[("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Thunderbird/115.8.0")]),
    leaf("11.03.2026 18:02, Турнир пишет:\n" + quoted(OUR_LETTER) +
         "\n\nЗдравствуйте!\nЗЧ-2026/3. Ваш ход 7... h6-g5 получил.\nМой ход: 8. c3-d4\n"
         "\nС уважением, Иван Петров\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 2. Thunderbird, top-posting, signature after "-- "
case("02_thunderbird_top_posting_signature.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<a1b2c4@mail.example>"),
    leaf("Добрый день!\n7... h6-g5 8. c3-d4\n-- \nИван Петров, КМС\nтел. 8-900-000-00-00\n"
         "11.03.2026 18:02, Турнир пишет:\n" + quoted(OUR_LETTER), cte="quoted-printable")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 3. Outlook, Windows-1251 QP, unprefixed original below a Russian banner
case("03_outlook_cp1251_original_message.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<000001d9@PETROV-PC>",
         extra=[("X-Mailer", "Microsoft Outlook 16.0"), ("Thread-Index", "AdlUmQ==")]),
    leaf("Здравствуйте.\n\nПовторяю Ваш ход: 7... h6-g5\nМой ответ: 8. c3-d4\n\n"
         "-----Исходное сообщение-----\nОт: Турнир\nОтправлено: 11 марта 2026 г. 18:02\n"
         "Кому: Петров\nТема: ЗЧ-2026/3\n\n" + OUR_LETTER + "\n8. g3-f4\n",
         charset="windows-1251", cte="quoted-printable")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 4. Outlook HTML only, cp1251 base64, header block quoting
OUTLOOK_HTML = ("<html><head><meta http-equiv=Content-Type content='text/html; charset=windows-1251'>"
                "<style>p.MsoNormal{margin:0}</style></head><body lang=RU><div class=WordSection1>"
                "<p class=MsoNormal>Здравствуйте!<o:p></o:p></p><p class=MsoNormal>7...&nbsp;h6-g5"
                "<o:p></o:p></p><p class=MsoNormal>8. c3-d4<o:p></o:p></p>"
                "<div style='border:none;border-top:solid #E1E1E1 1.0pt'><p class=MsoNormal>"
                "<b>От:</b> Турнир<br><b>Отправлено:</b> 11 марта 2026 г. 18:02<br>"
                "<b>Кому:</b> Петров<br><b>Тема:</b> ЗЧ-2026/3</p></div>"
                "<p class=MsoNormal>Ход партнёра: 6. g3-f4</p></div></body></html>")
case("04_outlook_html_only_cp1251_base64.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<000002d9@PETROV-PC>", extra=[("X-Mailer", "Microsoft Outlook 16.0")]),
    leaf(OUTLOOK_HTML, "html", "windows-1251", "base64")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 5. Gmail multipart/alternative with gmail_quote
GMAIL_PLAIN = ("Здравствуйте!\n\n7... h6-g5\n8. c3-d4\n\nчт, 12 мар. 2026 г. в 09:00, Турнир <"
               + REPLY_W + ">:\n\n" + quoted(OUR_LETTER) + "\n")
GMAIL_HTML = ('<div dir="ltr">Здравствуйте!<div><br></div><div>7... h6-g5</div><div>8. c3-d4</div></div>'
              '<br><div class="gmail_quote"><div dir="ltr" class="gmail_attr">чт, 12 мар. 2026 г. в 09:00,'
              ' Турнир:<br></div><blockquote class="gmail_quote">' + OUR_LETTER.replace("\n", "<br>")
              + "</blockquote></div>")
case("05_gmail_alternative.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<CAF=abc123@mail.gmail.com>"),
    multipart("alternative", [leaf(GMAIL_PLAIN, cte="base64"), leaf(GMAIL_HTML, "html", cte="base64")],
              "000000000000a1b2c3")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 6. Gmail HTML only
case("06_gmail_html_only.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<CAF=def456@mail.gmail.com>", refs=REF_B),
    leaf('<div dir="ltr">Добрый вечер.<br>8. c3-d4<br>8... b6-a5</div><div class="gmail_quote">'
         '<blockquote class="gmail_quote">8. c3-d4 предыдущее</blockquote></div>', "html", cte="base64")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["b6-a5", 8, "black"]])

# 7. Mail.ru KOI8-R quoted-printable
case("07_mailru_koi8r_qp.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<1710234567.123456789@f123.i.mail.example>", refs=REF_B,
         extra=[("X-Mailer", "Mail.Ru Mailer 1.0")]),
    leaf("Здравствуйте!\nВаш ход 8. c3-d4 принял.\nОтвечаю: 8... b6-a5\n\nСедов\n\n"
         "Четверг, 12 марта 2026, 9:00 +03:00 от Турнир <" + REPLY_B + ">:\n" + quoted(OUR_LETTER, ">"),
         charset="koi8-r", cte="quoted-printable")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["b6-a5", 8, "black"]])

# 8. Mail.ru web, banner-style original, utf-8 base64
case("08_mailru_banner_original.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<1710234568.5@f124.i.mail.example>", refs=REF_B),
    leaf("8. c3-d4 8... b6-a5\n\n-------- Исходное сообщение --------\n" + OUR_LETTER + "\n9. a3-b4\n",
         cte="base64")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["b6-a5", 8, "black"]])

# 9. Yandex HTML only with blockquote
case("09_yandex_html_blockquote.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<12345671710234569@mail.yandex.example>", refs=REF_B),
    leaf("<div>Здравствуйте.</div><div>8. c3-d4 b6-a5</div><div>&nbsp;</div><div>12.03.2026, 09:00, "
         '"Турнир":</div><blockquote><div>' + OUR_LETTER.replace("\n", "</div><div>")
         + "</div></blockquote>", "html")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["b6-a5", 8, "black"]])

# 10. Apple Mail, iPhone footer, attribution in English
case("10_apple_mail_iphone.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<8F2C1D3E-1111-2222@mail.example>",
         extra=[("X-Mailer", "iPhone Mail (21D61)")]),
    leaf("7... h6-g5\n8. c3-d4\n\nSent from my iPhone\n\n> On 12 Mar 2026, at 09:00, Turnir <"
         + REPLY_W + "> wrote:\n>\n" + quoted(OUR_LETTER), cte="quoted-printable")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 11. Android (Samsung) footer
case("11_android_footer.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<xyz.android@mail.example>"),
    leaf("7... h6-g5 8. c3-d4\n\nОтправлено с устройства Galaxy\n\n-------- Исходное сообщение --------\n"
         + OUR_LETTER)),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 12. The Bat!, windows-1251 8bit, "Вы писали" attribution
case("12_thebat_cp1251_8bit.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<1519871204.20260312091502@mail.example>",
         extra=[("X-Mailer", "The Bat! (v10.4.0) Professional")]),
    leaf("Здравствуйте, Турнир.\n\nВы писали 11 марта 2026 г., 18:02:\n\n" + quoted(OUR_LETTER, "Т> ")
         .replace("Т> ", "> ") + "\n\nПовторяю: 7... h6-g5\nОтвечаю: 8. c3-d4\n\n--\nС уважением,\n Иван\n",
         charset="windows-1251", cte="8bit")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 13. Interleaved quoting
case("13_interleaved_quotes.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<inter@mail.example>"),
    leaf("> Ход партнёра: 7... h6-g5\nПринял: 7... h6-g5\n> Время: 14/11\nМой ход 8. c3-d4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 14. Draw offer
case("14_draw_offer.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<draw1@mail.example>"),
    leaf("7... h6-g5\n8. c3-d4\nПредлагаю ничью.\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]], draw_offer=True)

# 15. Draw acceptance
case("15_draw_accept.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<draw2@yandex.example>", refs=REF_B),
    leaf("Согласен на ничью. Спасибо за партию!\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK], draw_accept=True)

# 16. Draw declined, with a move
case("16_draw_decline.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<draw3@yandex.example>", refs=REF_B),
    leaf("8. c3-d4 b6-a5\nОт ничьей отказываюсь.\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["b6-a5", 8, "black"]], draw_decline=True)

# 17. Resignation
case("17_resignation.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<resign@yandex.example>", refs=REF_B),
    leaf("Партию сдаю. Поздравляю с победой.\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK], resignation=True)

# 18. "Не сдаюсь" is not a resignation
case("18_not_resigning.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<noresign@yandex.example>", refs=REF_B),
    leaf("Я не сдаюсь! 8. c3-d4 b6-a5\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["b6-a5", 8, "black"]])

# 19. Break in the rule's words
case("19_break_standard.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<break1@mail.example>"),
    leaf("7... h6-g5 8. c3-d4\nБеру перерыв с 10.04.2026 по 25.04.2026.\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]],
    break_phrase="Беру перерыв с 10.04.2026 по 25.04.2026", break_standard=True)

# 20. Break in other words → flagged (002 §4.4.3)
case("20_break_other_words.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<break2@mail.example>"),
    leaf("Ухожу в отпуск с 10.04.2026 до 25.04.2026, ходы пришлю потом.\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE], break_standard=False,
    break_phrase="Ухожу в отпуск с 10.04.2026 до 25.04.2026, ходы пришлю потом.",
    issues=["002 §4.4.3"])

# 21. Overstep claim
case("21_overstep_claim.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<over@mail.example>"),
    leaf("Объявляю вам просрочку времени: на 10 ходов затрачено 53 дня.\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE], overstep_claim=True)

# 22. Protest
case("22_protest.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<protest@yandex.example>", refs=REF_B),
    leaf("Заявляю протест: просрочки нет, письмо задержала почта.\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    protest="Заявляю протест: просрочки нет, письмо задержала почта.")

# 23. Two labelled variants
case("23_variants_labelled.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<var1@mail.example>"),
    leaf("7... h6-g5\n8. c3-d4\nВариант А: если 8... g5-f4, то 9. e3:g5\n"
         "Вариант Б: на 8... b6-a5 предлагаю 9. d4-c5\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]],
    variants=[["А", [["g5-f4", 8, "black"], ["e3:g5", 9, "white"]]],
              ["Б", [["b6-a5", 8, "black"], ["d4-c5", 9, "white"]]]])

# 24. Variant over several lines
case("24_variant_multiline.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<var2@mail.example>"),
    leaf("7... h6-g5 8. c3-d4\n\nПредлагаю вариант:\n8... g5-f4 9. e3:g5\n9... h4:f6 10. g3-h4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]],
    variants=[[None, [["g5-f4", 8, "black"], ["e3:g5", 9, "white"], ["h4:f6", 9, "black"],
                      ["g3-h4", 10, "white"]]]])

# 25. Acceptance of a variant
case("25_variant_accepted.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<var3@yandex.example>", refs=REF_B),
    leaf("Вариант А принимаю: 8... g5-f4 9. e3:g5 h4:f6\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK], accepts_variant=True, accepted_variant_label="А",
    moves=[["g5-f4", 8, "black"], ["e3:g5", 9, "white"], ["h4:f6", 9, "black"]])

# 26. Short notation → impossible (002 §4.2.2)
case("26_short_notation.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<short@mail.example>"),
    leaf("7... hg5 8. cd4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["hg5", 7, "black", True], ["cd4", 8, "white", True]],
    issues=["002 §4.2.2", "002 §4.2.2"])

# 27. Cyrillic look-alike letters and capital E (as the rulebook writes it)
case("27_cyrillic_homoglyphs.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<homo@mail.example>"),
    leaf("7... h6-g5\n8. с3-d4 (с — русская)\n9. Е3:с5\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"], ["e3:c5", 9, "white"]])

# 28. Attachments are ignored
PDF = b"%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"
PNG = base64.b64decode(b"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
case("28_with_attachments.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<att@mail.example>"),
    multipart("mixed", [
        leaf("7... h6-g5 8. c3-d4\nЗапись партии во вложении.\n"),
        b'Content-Type: application/pdf; name="partiya.pdf"\r\nContent-Disposition: attachment; '
        b'filename="partiya.pdf"\r\nContent-Transfer-Encoding: base64\r\n\r\n' + base64.encodebytes(PDF),
        b'Content-Type: image/png; name="doska.png"\r\nContent-Disposition: attachment; '
        b'filename="doska.png"\r\nContent-Transfer-Encoding: base64\r\n\r\n' + base64.encodebytes(PNG),
    ], "att-boundary")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]], attachments=["partiya.pdf", "doska.png"])

# 29. Forged token: signature altered
FORGED = REPLY_W.replace(REPLY_W.split("-")[-1].split("@")[0], "aaaaaaaaaaaaaaaa")
case("29_forged_token.eml", message(
    hdrs(f"Мошенник <{BLACK_ADDR}>", FORGED, SUBJ, "<forged@yandex.example>",
         refs=FORGED.split("+")[1].split("@")[0].join(["<", ".reply@" + DOMAIN + ">"])),
    leaf("7... h6-g5 8. c3-d4\n")),
    from_address=BLACK_ADDR, token=None, token_candidate=True,
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 30. No token at all: a new letter to the plain address
case("30_no_token.eml", message(
    hdrs(W_FROM, f"turnir@{DOMAIN}", "ЗЧ-2026/3 ход", "<notoken@mail.example>", refs=None),
    leaf("7... h6-g5 8. c3-d4\n")),
    from_address=WHITE_ADDR, token=None,
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 31. Token only in References (client answered the plain From address)
case("31_token_in_references_only.eml", message(
    hdrs(W_FROM, f"turnir@{DOMAIN}", SUBJ, "<refonly@mail.example>"),
    leaf("7... h6-g5 8. c3-d4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 32. Valid token of white, but From is someone else (forwarded / spoofed)
case("32_token_from_mismatch.eml", message(
    hdrs("Пётр Сидоров <sidorov@other.example>", REPLY_W, SUBJ, "<mismatch@other.example>"),
    leaf("7... h6-g5 8. c3-d4\n")),
    from_address="sidorov@other.example", token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 33. DSN bounce (RFC 3464) to a VERP address
BOUNCE_ADDR = SIGNER.bounce_address(42)
DSN = multipart("report", [
    leaf("This is the mail system at host mx.example.\n\nI'm sorry to have to inform you that your "
         "message could not be delivered.\n\n<ivan.petrov@mail.example>: host mx.mail.example said: "
         "550 5.1.1 User unknown\n"),
    b"Content-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example\r\n\r\n"
    b"Final-Recipient: rfc822; ivan.petrov@mail.example\r\nAction: failed\r\nStatus: 5.1.1\r\n",
    b"Content-Type: text/rfc822-headers\r\n\r\nMessage-ID: <168.4242@turnir.shashki.example>\r\n"
    b"Subject: 7... h6-g5\r\n",
], "dsn-boundary", extra="; report-type=delivery-status")
case("33_dsn_bounce_verp.eml", message(
    [("Return-Path", "<>"), ("Date", "Thu, 12 Mar 2026 09:20:00 +0300"),
     ("From", "MAILER-DAEMON@mx.example (Mail Delivery System)"), ("To", BOUNCE_ADDR),
     ("Subject", "Undelivered Mail Returned to Sender"), ("Message-ID", "<dsn1@mx.example>"),
     ("Auto-Submitted", "auto-replied")], DSN),
    kind="bounce", from_address="mailer-daemon@mx.example", bounce_letter=42)

# 34. Old-style bounce, not multipart/report, empty Return-Path
case("34_qmail_bounce.eml", message(
    [("Return-Path", "<>"), ("Date", "Thu, 12 Mar 2026 09:21:00 +0300"),
     ("From", "MAILER-DAEMON@old.example"), ("To", SIGNER.bounce_address(43)),
     ("Subject", "failure notice"), ("Message-ID", "<q1@old.example>")],
    leaf("Hi. This is the qmail-send program at old.example.\nI'm afraid I wasn't able to deliver "
         "your message.\n<sedov@yandex.example>:\nSorry, no mailbox here by that name.\n")),
    kind="bounce", from_address="mailer-daemon@old.example", bounce_letter=43)

# 35. Vacation responder quoting our letter (moves in it must NOT be read)
case("35_vacation_auto_replied.eml", message(
    hdrs(W_FROM, REPLY_W, "Автоответ: " + SUBJ, "<vac@mail.example>",
         extra=[("Auto-Submitted", "auto-replied"), ("X-Autoreply", "yes")]),
    leaf("Я в отпуске до 20 марта.\n\n" + OUR_LETTER + "\n8. c3-d4\n")),
    kind="auto_reply", from_address=WHITE_ADDR, token=[GAME, WHITE])

# 36. Outlook out-of-office announced only by its subject
case("36_outlook_oof_subject.eml", message(
    hdrs(W_FROM, REPLY_W, "Автоматический ответ: " + SUBJ, "<oof@PETROV-PC>"),
    leaf("Меня нет на месте до 20.03.\n", "plain", "windows-1251", "quoted-printable")),
    kind="auto_reply", from_address=WHITE_ADDR, token=[GAME, WHITE])

# 37. Bulk mail (Precedence: bulk)
case("37_precedence_bulk.eml", message(
    hdrs("Новости федерации <news@federation.example>", f"turnir@{DOMAIN}", "Бюллетень №3",
         "<bulk@federation.example>", refs=None, extra=[("Precedence", "bulk"),
                                                        ("List-Unsubscribe", "<mailto:u@f.example>")]),
    leaf("Итоги тура: 1. c3-d4\n")),
    kind="auto_reply", from_address="news@federation.example", token=None)

# 38. Read receipt (RFC 8098)
MDN = multipart("report", [
    leaf("Ваше сообщение прочитано 12.03.2026 10:00.\n"),
    b"Content-Type: message/disposition-notification\r\n\r\nReporting-UA: mail.example\r\n"
    b"Final-Recipient: rfc822;ivan.petrov@mail.example\r\nDisposition: manual-action/MDN-sent-manually; displayed\r\n",
], "mdn-boundary", extra="; report-type=disposition-notification")
case("38_read_receipt.eml", message(
    hdrs(W_FROM, REPLY_W, "Прочитано: " + SUBJ, "<mdn@mail.example>"), MDN),
    kind="read_receipt", from_address=WHITE_ADDR, token=[GAME, WHITE])

# 39. Garbage: not a mail message at all
case("39_garbage_binary.eml", bytes(range(256)) * 4, kind="malformed")

# 40. Empty message
case("40_empty.eml", b"\r\n\r\n", kind="malformed")

# 41. Oversize (limit lowered for the test; the real default is 10 MiB)
case("41_oversize.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<big@mail.example>"),
    leaf("7... h6-g5 8. c3-d4\n" + "Очень длинное письмо. " * 400, cte="base64")),
    kind="oversize", max_bytes=8192)

# 42. No charset declared, Windows-1251 bytes
case("42_undeclared_cp1251.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<nocs@mail.example>"),
    leaf("Здравствуйте! 7... h6-g5 8. c3-d4. Предлагаю ничью.\n", charset="windows-1251",
         declare_charset=False)),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]], draw_offer=True)

# 43. Unknown charset label, UTF-8 bytes
case("43_unknown_charset_label.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<unk@mail.example>"),
    leaf("Сдаюсь.\n", charset="x-user-defined-1251".replace("x-user-defined-1251", "utf-8"))
    .replace(b'charset="utf-8"', b'charset="x-unknown"')),
    from_address=WHITE_ADDR, token=[GAME, WHITE], resignation=True)

# 44. Encoded-word subject and sender name in KOI8-R
case("44_encoded_words_koi8r.eml", message(
    [("Return-Path", f"<{BLACK_ADDR}>"), ("Date", "Thu, 12 Mar 2026 09:15:02 +0300"),
     ("From", "=?koi8-r?B?" + base64.b64encode("Сергей Седов".encode("koi8-r")).decode() + "?= <"
      + BLACK_ADDR + ">"), ("To", REPLY_B),
     ("Subject", "=?koi8-r?Q?" + quopri.encodestring("Ход".encode("koi8-r")).decode().strip() + "?="),
     ("Message-ID", "<ew@yandex.example>"), ("References", REF_B)],
    leaf("8. c3-d4 b6-a5\n", charset="koi8-r")),
    from_address=BLACK_ADDR, from_name="Сергей Седов", subject="Ход", token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["b6-a5", 8, "black"]])

# 45. English letter
case("45_english_letter.eml", message(
    hdrs("John Smith <john@example.org>", REPLY_W, "Re: game 12", "<en@example.org>"),
    leaf("Dear director,\nI repeat your move 7... h6-g5 and play 8. c3-d4.\nI offer a draw.\n\n"
         "On Thu, Mar 12, 2026 at 9:00 AM Turnir <" + REPLY_W + "> wrote:\n" + quoted(OUR_LETTER))),
    from_address="john@example.org", token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]], draw_offer=True)

# 46. Forced sequence of several moves in one letter (002 §4.2.4)
case("46_forced_moves_sequence.eml", message(
    hdrs(B_FROM, REPLY_B, SUBJ, "<forced@yandex.example>", refs=REF_B),
    leaf("8. c3-d4 g5-f4 9. e3:g5 h6:f4 10. g3:e5 d6:f4\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["c3-d4", 8, "white"], ["g5-f4", 8, "black"], ["e3:g5", 9, "white"],
           ["h6:f4", 9, "black"], ["g3:e5", 10, "white"], ["d6:f4", 10, "black"]])

# 47. Gmail forwarded-message banner cuts the rest
case("47_forwarded_banner.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<fwd@mail.example>"),
    leaf("7... h6-g5 8. c3-d4\n\n---------- Forwarded message ---------\nFrom: Someone\n9. a3-b4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 48. Only a quote, nothing new
case("48_only_quote.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<empty@mail.example>"),
    leaf("12.03.2026 09:00, Турнир пишет:\n" + quoted(OUR_LETTER))),
    from_address=WHITE_ADDR, token=[GAME, WHITE], empty=True)

# 49. Token in a case-folded plus address (some MTAs upper-case local parts)
case("49_uppercased_token.eml", message(
    hdrs(W_FROM, REPLY_W.upper(), SUBJ, "<upper@mail.example>", refs=None),
    leaf("7... h6-g5 8. c3-d4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"]])

# 50. Unicode dashes and "x" for capture typed by a word processor
case("50_unicode_dashes.eml", message(
    hdrs(W_FROM, REPLY_W, SUBJ, "<dash@mail.example>"),
    leaf("7… h6–g5\n8. c3—d4\n8… g5xe3 9. f2×d4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["h6-g5", 7, "black"], ["c3-d4", 8, "white"], ["g5:e3", 8, "black"],
           ["f2:d4", 9, "white"]])


# --- games in numeric notation: 100-square draughts and Lasca (002 §4.1.4) ------------------------
# Written to ``games/`` with their own ``expected.json``: each case names the tournament's game
# type (a ``notation.rules.GameType`` member name), whose board the letter is read on.

GAME_CASES: dict[str, tuple[bytes, dict[str, Any]]] = {}


def game_case(name: str, game_type: str, raw: bytes, **expected: Any) -> None:
    GAME_CASES[name] = (raw, {"game_type": game_type, **expected})


INTL_LETTER = """Здравствуйте, Иван Петрович!
Турнир ЗЧ-2026/5 (100 клеток), партия 12.
Ход партнёра: 12... 19-23
Даты: 10.03.2026 / 11.03.2026 / 11.03.2026
Время: 14/11
С уважением, Турнир"""
INTL_SUBJ = "Re: ЗЧ-2026/5, партия 12: ход 12... 19-23"
LASCA_LETTER = """Здравствуйте, Сергей!
Турнир ЛК-2026/1 (ласка), партия 12.
Ход партнёра: 2. 5:13
Даты: 10.03.2026 / 11.03.2026 / 11.03.2026
Время: 9/7
С уважением, Турнир"""
LASCA_SUBJ = "Re: ЛК-2026/1, партия 12: ход 2. 5:13"

# I1. Thunderbird, bottom posting; the quote's moves and the dates are not read
game_case("i01_international_thunderbird.eml", "INTERNATIONAL", message(
    hdrs(W_FROM, REPLY_W, INTL_SUBJ, "<i1@mail.example>",
         extra=[("User-Agent", "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Thunderbird/115.8.0")]),
    leaf("11.03.2026 18:02, Турнир пишет:\n" + quoted(INTL_LETTER) +
         "\n\nЗдравствуйте!\nВаш ход 12... 19-23 получил 11.03.26 в 18:30.\nМой ход: 13. 32-28\n"
         "\nС уважением, Иван Петров\n630090, Новосибирск, ул. Ленина, д. 12-4, кв. 31\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["19-23", 12, "black"], ["32-28", 13, "white"]])

# I2. Outlook, Windows-1251 QP: a conditional variant «если …, то …»
game_case("i02_international_outlook_variant.eml", "INTERNATIONAL", message(
    hdrs(W_FROM, REPLY_W, INTL_SUBJ, "<000003d9@PETROV-PC>",
         extra=[("X-Mailer", "Microsoft Outlook 16.0")]),
    leaf("Здравствуйте.\n\nПовторяю Ваш ход: 12... 19-23\nМой ответ: 13. 28:19\n"
         "Если 13... 14:23, то 14. 37-32\n\n-----Исходное сообщение-----\nОт: Турнир\n"
         "Отправлено: 11 марта 2026 г. 18:02\n\n" + INTL_LETTER + "\n",
         charset="windows-1251", cte="quoted-printable")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["19-23", 12, "black"], ["28:19", 13, "white"]],
    variants=[[None, [["14:23", 13, "black"], ["37-32", 14, "white"]]]])

# I3. Gmail HTML only: «на … предлагаю …» and a signature full of numbers
game_case("i03_international_gmail_html_na_predlagayu.eml", "INTERNATIONAL", message(
    hdrs(B_FROM, REPLY_B, INTL_SUBJ, "<CAF=intl3@mail.gmail.com>", refs=REF_B),
    leaf('<div dir="ltr">Добрый вечер.<br>13. 32-28 18-22<br>на 14. 37-32 предлагаю 14... 22-27'
         ' 15. 31:22 17:28<br><br>--<br>Сергей Седов<br>тел. 8-903-123-45-67<br>'
         '443099, Самара, пр. Ленина 10-12</div>', "html", cte="base64")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["32-28", 13, "white"], ["18-22", 13, "black"]],
    variants=[[None, [["37-32", 14, "white"], ["22-27", 14, "black"], ["31:22", 15, "white"],
                      ["17:28", 15, "black"]]]])

# I4. Labelled variants and a long capture
game_case("i04_international_labelled_variants.eml", "INTERNATIONAL", message(
    hdrs(W_FROM, REPLY_W, INTL_SUBJ, "<i4@mail.example>"),
    leaf("25... 14-19 26. 47:24:8:17:6\n\nВариант А: 26... 13-18 27. 6:31\n"
         "Вариант Б:\n26... 12-17\n27. 6:28\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["14-19", 25, "black"], ["47:24:8:17:6", 26, "white"]],
    variants=[["А", [["13-18", 26, "black"], ["6:31", 27, "white"]]],
              ["Б", [["12-17", 26, "black"], ["6:28", 27, "white"]]]])

# I5. A draw offer with the move, dates around it
game_case("i05_international_draw_offer.eml", "INTERNATIONAL", message(
    hdrs(B_FROM, REPLY_B, INTL_SUBJ, "<i5@yandex.example>", refs=REF_B),
    leaf("13. 32-28 19-23\nПредлагаю ничью.\nПолучено 12.03.2026, отправлено 13.03.2026, "
         "время 12/7.\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["32-28", 13, "white"], ["19-23", 13, "black"]], draw_offer=True)

# I6. Resignation; the date range is no move
game_case("i06_international_resignation.eml", "INTERNATIONAL", message(
    hdrs(W_FROM, REPLY_W, INTL_SUBJ, "<i6@mail.example>"),
    leaf("Сдаюсь. Спасибо за партию! Буду в Москве 7-12 апреля.\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE], resignation=True)

# I7. Only dates, times and numbers: nothing to read
game_case("i07_international_numbers_only.eml", "INTERNATIONAL", message(
    hdrs(W_FROM, REPLY_W, INTL_SUBJ, "<i7@mail.example>"),
    leaf("Письмо от 10.10.97 получил в 18:30. Время 12/7. Счёт 2:0. Ход 12.\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE], empty=True)

# I8. Algebraic a–j squares on 10×10, Cyrillic «с» and «е» among them (002 §4.2.2)
game_case("i08_international_algebraic.eml", "INTERNATIONAL", message(
    hdrs(W_FROM, REPLY_W, INTL_SUBJ, "<i8@mail.example>"),
    leaf("Пишу по-старому: 13. d4-е5 f6-g5 14. с3-d4\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["d4-e5", 13, "white"], ["f6-g5", 13, "black"], ["c3-d4", 14, "white"]])

# L1. Lasca, Mail.ru KOI8-R: repetition and a reply
game_case("l01_lasca_mailru_koi8r.eml", "COLUMN_INTERNATIONAL", message(
    hdrs(B_FROM, REPLY_B, LASCA_SUBJ, "<1710234599.1@f123.i.mail.example>", refs=REF_B,
         extra=[("X-Mailer", "Mail.Ru Mailer 1.0")]),
    leaf("Здравствуйте!\nВаш ход 2. 5:13 принял.\nОтвечаю: 2... 16-12\n\nСедов\n\n"
         "Четверг, 12 марта 2026, 9:00 +03:00 от Турнир <" + REPLY_B + ">:\n"
         + quoted(LASCA_LETTER, ">"), charset="koi8-r", cte="quoted-printable")),
    from_address=BLACK_ADDR, token=[GAME, BLACK],
    moves=[["5:13", 2, "white"], ["16-12", 2, "black"]])

# L2. Lasca: a variant, a multi-capture, a clock time that would also be a Lasca capture
game_case("l02_lasca_variant_and_time.eml", "COLUMN_INTERNATIONAL", message(
    hdrs(W_FROM, REPLY_W, LASCA_SUBJ, "<l2@mail.example>"),
    leaf("1... 17:9 2. 5:13\nНа 2... 16-12 предлагаю 3. 8:16\nЕсли 2... 18-14, то 3. 9:17:25\n"
         "Отправляю в 9:15, время 9/7.\n")),
    from_address=WHITE_ADDR, token=[GAME, WHITE],
    moves=[["17:9", 1, "black"], ["5:13", 2, "white"]],
    variants=[[None, [["16-12", 2, "black"], ["8:16", 3, "white"]]],
              [None, [["18-14", 2, "black"], ["9:17:25", 3, "white"]]]])

# L3. Lasca resignation and a declined draw in one letter
game_case("l03_lasca_resignation.eml", "COLUMN_INTERNATIONAL", message(
    hdrs(B_FROM, REPLY_B, LASCA_SUBJ, "<l3@yandex.example>", refs=REF_B),
    leaf("Ничью не принимаю, но позиция проиграна: сдаюсь.\n")),
    from_address=BLACK_ADDR, token=[GAME, BLACK], draw_decline=True, resignation=True)


def main() -> None:
    for old in HERE.glob("*.eml"):
        old.unlink()
    expected = {}
    for name, (raw, outcome) in CASES.items():
        (HERE / name).write_bytes(raw)
        expected[name] = outcome
    (HERE / "expected.json").write_text(
        json.dumps({"secret": SECRET.decode(), "domain": DOMAIN, "cases": expected},
                   ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    games = HERE / "games"
    games.mkdir(exist_ok=True)
    for old in games.glob("*.eml"):
        old.unlink()
    for name, (raw, _) in GAME_CASES.items():
        (games / name).write_bytes(raw)
    (games / "expected.json").write_text(
        json.dumps({"secret": SECRET.decode(), "domain": DOMAIN,
                    "cases": {name: outcome for name, (_, outcome) in GAME_CASES.items()}},
                   ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(CASES)} messages to {HERE} and {len(GAME_CASES)} to {games}")


if __name__ == "__main__":
    main()
