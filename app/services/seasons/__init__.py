"""Seasons as services: a club's series of nights (``nights``: which tournaments count, in date
order; ``standings``: the season table re-derived from the nights; ``manage``: creating a season,
putting nights in it, its rule, divisions and the end-of-season movement)."""
