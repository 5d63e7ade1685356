"""Rules engine for the Shengji family: 升级 (tractor-4p), 红五 (red-five-5p), 120分 (one-twenty-6p),
and the two further games of seed 001: 打百分 (hundred-4p, forty-4p, hundred-3p) and 争上游
(climbing). ``ALL_VARIANT_IDS`` names all seven; ``make_any_variant`` builds any of them.

Pure standard-library Python: no I/O, no clock, no global random generator. The web app drives
it; it never knows the app exists.
"""

from .cards import card_str, parse_card, parse_cards
from .errors import CardError, EngineError, IllegalAction, OptionError
from .variants import ALL_VARIANT_IDS, VARIANT_IDS, Variant, make_any_variant, make_variant

__all__ = [
    "ALL_VARIANT_IDS",
    "VARIANT_IDS",
    "CardError",
    "EngineError",
    "IllegalAction",
    "OptionError",
    "Variant",
    "card_str",
    "make_any_variant",
    "make_variant",
    "parse_card",
    "parse_cards",
]
