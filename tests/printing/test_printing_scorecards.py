"""Duplicate team match scorecards, read back from the PDF text: blank for pencil or filled
with the results so far, two cards a page, names printed as typed, bad input refused."""

from __future__ import annotations

import io

import pypdf
import pytest
from printing_samples import EVIL

from app.printing import PrintError, ScorecardBoard, TeamScorecard, TeamScorecards, team_scorecards


def pages(pdf: bytes) -> list[str]:
    assert pdf.startswith(b"%PDF-")
    return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def card(rnd: int, match: int, boards, imps=None, vps=None) -> TeamScorecard:  # type: ignore[no-untyped-def]
    return TeamScorecard(
        rnd,
        match,
        ("红队", EVIL),
        (2 * match - 1, 2 * match),
        (("红队 · 1", f"{EVIL} · 1"), (f"{EVIL} · 2", "红队 · 2")),
        tuple(boards),
        imps,
        vps,
    )


def test_scorecards_blank_and_filled() -> None:
    filled = card(
        1,
        1,
        [ScorecardBoard(1, (40, -10), (4, 0)), ScorecardBoard(2, (15, None))],
        imps=(4, 0),
    )
    blank = card(1, 2, [ScorecardBoard(1), ScorecardBoard(2)])
    later = card(2, 1, [ScorecardBoard(3, (0, 0), (0, 0))], imps=(0, 0), vps=(10.0, 10.0))
    text = pages(
        team_scorecards(TeamScorecards("秋季队式赛", "tractor-4p", (later, blank, filled)))
    )
    assert len(text) == 2  # two cards a page, in round and match order
    first, second = text
    assert "Round 1, match 1" in first and "Round 1, match 2" in first
    assert "Round 2, match 1" in second and "Round 1" not in second.split("Round 2")[0]
    assert "队式记分卡 Team match scorecard" in first and "秋季队式赛" in first
    assert EVIL in first  # printed as typed, never markup
    assert "+40" in first and "-10" in first and "+50" in first  # the difference for team A
    assert "+15" in first  # one table in: no difference, no IMPs yet
    assert "10.00" in second and "Table 1 value A" in second


def test_scorecards_refuse_what_cannot_be_printed() -> None:
    one = card(1, 1, [ScorecardBoard(1)])
    with pytest.raises(PrintError, match="red five has no team matches"):
        team_scorecards(TeamScorecards("E", "red-five-5p", (one,)))
    with pytest.raises(PrintError, match="no team matches"):
        team_scorecards(TeamScorecards("E", "tractor-4p", ()))
    with pytest.raises(PrintError, match="given twice"):
        team_scorecards(TeamScorecards("E", "tractor-4p", (one, one)))
    with pytest.raises(PrintError, match="has no boards"):
        team_scorecards(TeamScorecards("E", "tractor-4p", (card(1, 1, []),)))
