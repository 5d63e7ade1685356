"""A club member's player page: every tournament and season they played, their partners, each
match with its level progression and deals, and their rating over time (``pages``)."""
