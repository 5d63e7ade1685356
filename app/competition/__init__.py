"""Tournament logic as pure Python over frozen dataclasses: no Flask, no database.

- ``model``: the tournament as data (``Tournament``, ``Round``, ``Table``, ``Deal`` …);
- ``matches``: a table's match derived from its deals (running sheet rows, result) and deal checks;
- ``standings``: fixed-side and red five standings, and their ``--json`` form;
- ``pairing``: round robin (Berger), Swiss and red five re-seating;
- ``tfile``: the tournament file (load with every error listed, dump);
- ``hundred``, ``hundred_event``, ``hundred_file``: 打百分's score sheet, its events (积分 or
  pair matches) and its rows in the tournament file.
"""
