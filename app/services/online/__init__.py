"""Online tables as services: ``bridge`` is the one module that drives the rules engine (load a
deal from its log, apply a move, let bots act, record a finished deal on the sheet)."""
