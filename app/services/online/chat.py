"""An online table's chat: a few preset phrases (请快一点, 好牌, 再来) and short free text
(``MAX_TEXT`` characters), written by the seats and shown to the table and to the director's
page of the table. The director can switch it off (``Table.chat_off``): then nothing more is
written and the seats are told so. Never a card in it: a text that names one (a rank and suit
such as A♠, K♥, 10H, ♣7, or 黑桃A, 红桃K, 大王, 小王) is refused with a sentence saying so, nothing
saved. The chat has its own poll (the last message's id) and changes no state token: a move made
while a message arrives is not stale.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import func, select

from ...extensions import db
from ...models import OnlineChat, OnlineSeat, Table, Tournament
from .. import ServiceError
from ..tournaments.audit import Actor, audit
from . import bridge

MAX_TEXT = 80
SHOWN = 30  # the messages a page shows, the latest last
# the preset phrases by key: stored as the key, shown in the reader's language
PHRASES = {
    "hurry": _l("Please be a bit quicker (请快一点)"),
    "good": _l("Good cards! (好牌)"),
    "again": _l("Another one! (再来)"),
}

_RANK = r"(?:10|[2-9JQKA]|十|[二三四五六七八九])"
_SUIT = r"[♠♥♦♣♤♡♢♧]|黑桃|红桃|红心|方块|方片|梅花|草花"
# a rank next to a suit (either way round; a letter suit only in capitals, after the rank:
# "10H", "AS"), or a joker
_CARD = re.compile(
    rf"(?:{_RANK}\s*(?:{_SUIT})|(?:{_SUIT})\s*{_RANK}"
    rf"|(?<![A-Za-z0-9]){_RANK}[SHDC](?![A-Za-z])|大王|小王|大鬼|小鬼)"
)


class ChatError(ServiceError):
    """A message the chat does not take (answer 422)."""


def names_a_card(text: str) -> bool:
    return _CARD.search(text) is not None


def messages(tab: Table) -> list[OnlineChat]:
    """The table's latest messages, oldest first."""
    rows = db.session.scalars(
        select(OnlineChat)
        .where(OnlineChat.table_id == tab.id)
        .order_by(OnlineChat.id.desc())
        .limit(SHOWN)
    )
    return list(reversed(list(rows)))


def last_id(tab: Table) -> int:
    """The id of the table's latest message (0: none): what a chat's poll compares."""
    return int(
        db.session.scalar(
            select(OnlineChat.id)
            .where(OnlineChat.table_id == tab.id)
            .order_by(OnlineChat.id.desc())
            .limit(1)
        )
        or 0
    )


def last_id_by_token(token: str) -> int | None:
    """``last_id`` of the table of the seat whose link is ``token``, in one query (None: no
    such seat): a seat's chat poll."""
    row = db.session.execute(
        select(OnlineSeat.id, func.max(OnlineChat.id))
        .outerjoin(OnlineChat, OnlineChat.table_id == OnlineSeat.table_id)
        .where(OnlineSeat.token == token)
        .group_by(OnlineSeat.id)
    ).first()
    return None if row is None else int(row[1] or 0)


def shown(tab: Table) -> list[dict[str, Any]]:
    """The messages as pages show them: who (a seat, or None: the director) and the words."""
    return [
        {
            "id": m.id,
            "seat": m.seat,
            "text": str(PHRASES[m.phrase]) if m.phrase in PHRASES else (m.text or ""),
            "at": m.created_at,
        }
        for m in messages(tab)
    ]


def off_message() -> str:
    return _("The director has switched this table's chat off.")


def post(tab: Table, seat: int | None, phrase: str = "", text: str = "") -> OnlineChat:
    """A seat's (or, ``seat`` None, the director's) message: a preset phrase or a short text."""
    if tab.mode != "online":
        raise ChatError(_("This table is not played online."))
    if tab.chat_off and seat is not None:
        raise ChatError(off_message())
    text = " ".join(text.split())
    if phrase:
        if phrase not in PHRASES:
            raise ChatError(_("Please choose one of the phrases."))
        text = ""
    elif not text:
        raise ChatError(_("Please write a message or choose a phrase."))
    elif len(text) > MAX_TEXT:
        raise ChatError(
            _(
                "A message has at most %(n)d characters; this one has %(got)d.",
                n=MAX_TEXT,
                got=len(text),
            )
        )
    elif names_a_card(text):
        raise ChatError(
            _("The chat never names a card (like A♠ or 黑桃A): write your message without it.")
        )
    row = OnlineChat(table_id=tab.id, seat=seat, phrase=phrase or None, text=text or None)
    db.session.add(row)
    db.session.flush()
    return row


def set_chat(t: Tournament, tab: Table, on: bool, actor: Actor) -> None:
    """The director switches the table's chat on or off (audited)."""
    if tab.chat_off == (not on):
        return
    if tab.mode != "online":
        raise ChatError(_("This table is not played online."))
    tab.chat_off = not on
    db.session.flush()
    audit(t, actor, "online_chat", bridge.where(tab), {"chat": not on}, {"chat": on})
