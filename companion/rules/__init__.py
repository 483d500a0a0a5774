"""The rules core: the rules of the games as pure code.

Nothing here imports a web, database or PDF library; the CLI, the web pages, the JSON API and
the score sheets all call these functions, so every rule exists once.
"""

from .bonus import BONUS_CARDS, Award, BonusCard
from .cards import DECKS, Card, Joker, parse_card
from .document import doubles, read_meld, read_table, result_json
from .errors import EntryError
from .match import check_names, dealer_of, left_of, standings
from .melds import RUN, SET, Meld, analyse_meld
from .referee import check_meld
from .scoring import GameResult, PlayerScore, score_game
from .series import match_document, score_document
from .table import Hand, Seat, Table

__all__ = [
    "BONUS_CARDS",
    "DECKS",
    "RUN",
    "SET",
    "Award",
    "BonusCard",
    "Card",
    "EntryError",
    "GameResult",
    "Hand",
    "Joker",
    "Meld",
    "PlayerScore",
    "Seat",
    "Table",
    "analyse_meld",
    "check_meld",
    "check_names",
    "dealer_of",
    "doubles",
    "left_of",
    "match_document",
    "parse_card",
    "read_meld",
    "read_table",
    "result_json",
    "score_document",
    "score_game",
    "standings",
]
