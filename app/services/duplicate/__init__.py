"""Duplicate events (复式), one package: ``events`` (creating an event, its movement and boards,
typing a board's traveller in, the standings with no peeking, the printed hand records and
travellers). Services never commit; the views check permissions."""
