"""English plurals come from ngettext: one deal, one minute, one round, never "1 deals"."""

from __future__ import annotations

from tournament_helpers import add_entrants, create, login, seat, world


def test_a_one_deal_one_round_tournament_reads_in_the_singular(app, client) -> None:  # type: ignore[no-untyped-def]
    w = world()
    login(client, w.director)
    t = create(client, w.club, name="Quick", match_value=1, rounds=1)
    add_entrants(client, w.club, t, 4, 2)
    seat(client, w.club, t)
    page = client.get(f"/clubs/{w.club.slug}/tournaments/{t.id}").get_data(as_text=True)
    assert "1 deal" in page and "1 deals" not in page
    assert "The round is seated." in page and "All 1 rounds" not in page
    timed = create(client, w.club, name="Timed", match_kind="minutes", match_value=1)
    page = client.get(f"/clubs/{w.club.slug}/tournaments/{timed.id}").get_data(as_text=True)
    assert "1 minute" in page and "1 minutes" not in page
