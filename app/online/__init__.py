"""Online tables: the director's page of a table played online (switch it online, seat links,
bots) and each seat's page, opened with that seat's secret link (its hand, the table, its
moves; polling with the state token answers 204 while nothing changed).

``routes`` holds the views, ``forms`` the forms. Every view calls ``app.services.online``, whose
``bridge`` alone drives the engine.
"""

from flask import Blueprint

bp = Blueprint("online", __name__)

from . import routes  # noqa: E402,F401
