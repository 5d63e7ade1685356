"""Charts people would rather look at than read, drawn once and rendered twice: ``scene`` holds
the drawing (series of points, steps, marks, axis labels), ``builders`` makes one per thing shown
(a match's levels deal by deal, a night's standings over rounds, a season over nights, a player's
rating over time), ``svg`` renders it as server-side SVG for the pages (no JavaScript) and
``drawing`` as a reportlab Drawing for the PDFs and the phone-sized PNGs."""
