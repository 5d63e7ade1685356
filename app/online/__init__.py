"""Online tables: the director's page of a table played online (switch it online, seat links,
bots, pause, the live view), each seat's page, opened with that seat's secret link (its hand,
the table, its moves; polling with the state token answers 204 while nothing changed), the
spectators' live page for the club's members (the public table only, polled the same way) and
the replays of finished deals (the table's players at once, the club once the round is closed).

``routes`` holds the views, ``forms`` the forms. Every view calls ``app.services.online``, whose
``bridge`` alone drives the engine.
"""

from flask import Blueprint

bp = Blueprint("online", __name__)

from . import routes  # noqa: E402,F401
