"""Club ratings as services: every recorded match of a club, in time order, rated with OpenSkill
(``app.competition.ratings``), re-derived whenever asked (a corrected result changes them)."""
