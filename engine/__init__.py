"""Rules engine for the Shengji family: 升级 (tractor-4p), 红五 (red-five-5p), 120分 (one-twenty-6p).

Pure standard-library Python: no I/O, no clock, no global random generator. The web app drives
it; it never knows the app exists.
"""

from .cards import card_str, parse_card, parse_cards
from .errors import CardError, EngineError, IllegalAction, OptionError
from .variants import VARIANT_IDS, Variant, make_variant

__all__ = [
    "VARIANT_IDS",
    "CardError",
    "EngineError",
    "IllegalAction",
    "OptionError",
    "Variant",
    "card_str",
    "make_variant",
    "parse_card",
    "parse_cards",
]
