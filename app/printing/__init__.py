"""Printed paper: score sheets (记分表), table cards, pairings, standings and a round's print pack.

This package owns all page layout, one module per printed thing (``sheet``, ``cards``,
``pairings``, ``standings``, ``pack``, ``hand_records``: duplicate hand records and travellers, ``scorecards``: duplicate team match
scorecards) and the shared pieces beside them (``model``: what the functions
take; ``layout``, ``frame``, ``lists``: drawing; ``words``: bilingual words; ``checks``; ``codes``: QR). It is pure: it takes the plain dataclasses below and returns PDF
bytes; it never imports Flask or the database (the tournament code maps its rows into these
dataclasses). Everything is drawn on a reportlab canvas with ``drawString``, which prints text
literally, so markup typed into a name (``<b>``, ``&amp;``, ``<font …>``) is printed as typed and
never interpreted; no ``Paragraph`` (whose markup once allowed code execution, CVE-2023-33733) is
used anywhere.

Chinese renders with the WenQuanYi Micro Hei font shipped in ``static/fonts/`` (face 0 of the
TrueType collection, embedded as a subset). Labels are bilingual, Chinese first.

Seats are numbered from 0 in the data (as in the tournament file) and printed from 1 (座1 …).
Fixed sides: side 0 (甲 A) sits in seats 0, 2 (, 4); side 1 (乙 B) in seats 1, 3 (, 5).
"""

from __future__ import annotations

from .cards import table_cards
from .codes import QR_BORDER, QR_ERROR, qr_code
from .hand_records import (
    BoardResult,
    HandRecord,
    HandRecords,
    TravellerRow,
    Travellers,
    hand_records,
    travellers,
)
from .layout import FONT
from .model import (
    ClimbingDeal,
    FixedDeal,
    HundredDeal,
    PrintError,
    RedFiveDeal,
    RoundPack,
    ScoreSheet,
    SeatLink,
    Standings,
    TableCard,
)
from .pack import print_pack
from .pairings import pairings
from .scorecards import ScorecardBoard, TeamScorecard, TeamScorecards, team_scorecards
from .sheet import score_sheet
from .standings import standings

__all__ = [
    "FONT",
    "BoardResult",
    "HandRecord",
    "HandRecords",
    "TravellerRow",
    "Travellers",
    "hand_records",
    "travellers",
    "ScorecardBoard",
    "TeamScorecard",
    "TeamScorecards",
    "team_scorecards",
    "QR_BORDER",
    "QR_ERROR",
    "ClimbingDeal",
    "FixedDeal",
    "HundredDeal",
    "PrintError",
    "RedFiveDeal",
    "RoundPack",
    "ScoreSheet",
    "SeatLink",
    "Standings",
    "TableCard",
    "pairings",
    "print_pack",
    "qr_code",
    "score_sheet",
    "standings",
    "table_cards",
]
