"""The limits on what the app takes in, in one place: the web forms, the JSON API's models
(``documents``), the events and the store read them here.

They refuse what no game allows, so nothing unbounded reaches the rules core or the
database. The rules core keeps the contract's own limits (a name of at most 40 characters,
an event of 2 to 200 entrants and 1 to 20 sessions, each game's seats) and says them in
the players' words; these are the edge's.
"""

from __future__ import annotations

# --- A request ---------------------------------------------------------------------------

#: The largest request body, in bytes (a match of 500 rounds fits with room to spare).
MAX_BODY = 1024 * 1024
#: The largest photo (``POST /api/v1/photos``, contract "Photos"): a phone's full-size photo.
#: The one body allowed past ``MAX_BODY``.
MAX_PHOTO = 16 * 1024 * 1024
#: The request paths whose bodies may be larger than ``MAX_BODY``, and their own limits.
BODY_LIMITS = {"/api/v1/photos": MAX_PHOTO}
#: How deep a JSON body may nest (a match document needs 5: match, rounds, round, players,
#: melds).
MAX_DEPTH = 16
#: The largest whole number a JSON body may hold (far above any score, count or round number).
MAX_INT = 10**15

# --- A document (README, "Caps"; the round form is held to them too) --------------------

#: Players in a document: more than any game seats (the rules core names each game's own).
MAX_PLAYERS = 12
#: Meld lines one player may have on the table (a whole deck laid out makes fewer).
MAX_MELDS = 30
#: Cards in one meld line (the longest legal run has 17).
MAX_MELD_CARDS = 20
#: Cards or tiles one player may hold at the end of a round.
MAX_HELD = 200
#: Rounds in one match document.
MAX_ROUNDS = 500
#: A series length (``games``) a document may give.
MAX_GAMES = 500
#: The longest card as written (``*R17``, ``*10H``), with room for spaces.
MAX_CARD = 12
#: EV-1: 2–200 entrants and 1–20 sessions; a session seats at most 100 tables (200 ÷ 2).
MAX_ENTRANTS = 200
MAX_SESSIONS = 20
MAX_TABLES = 100
#: A name or an id (the rules core allows names of 40; more is refused here).
MAX_NAME = 100
#: Any other text (a title: the store allows ``MAX_TITLE``).
MAX_TEXT = 200
#: Entries in short lists of ids (bonus cards) and switches (options).
MAX_IDS = 20
#: Melds on a whole table (106 tiles make at most 35 melds of three).
MAX_TABLE = 60
#: Cards in a list of loose cards: a table to put back, the first tiles dealt.
MAX_CARDS = 300

# --- Points ------------------------------------------------------------------------------

#: The most points one rack or hand may be given as (``{"points": N}``, the round form's
#: count): the API, the round form and the rules core refuse more, each in the same words,
#: "from 0 to 802". No rack or hand holds more than the whole box, and the box worth most is
#: Deluxe Rummy-O's (RO-1, RO-2): 1, 11, 12 and 13 count 10 and 2-10 their number, in four
#: colours twice, with two jokers of 25. Rummikub's box is worth 788 (RK-21), Manipulation's
#: two decks 730 (MR-8); tests/web/test_limits.py counts each box from the game's own deck.
MAX_POINTS = 2 * 4 * (4 * 10 + sum(range(2, 11))) + 2 * 25

#: The most cards of one kind a hand may be given as (``{"low": N, "high": M}``): Rummy 17's
#: box holds 85 number cards (R17-1), so no hand holds more. The API, the round form and the
#: rules core refuse more, each in the same words, "from 0 to 85".
MAX_HAND_CARDS = 85

# --- What a person types on a page -------------------------------------------------------

#: A series length typed on the start page, and an event's rounds per session: a club
#: night's worth. (A document may give up to ``MAX_GAMES``; the start page's own refusal,
#: "from 1 to 60", is what players have always seen.)
MAX_TYPED_GAMES = 60
#: A player's name as typed in a seat (the contract's limit, the column's width).
MAX_TYPED_NAME = 40
#: A match's or an event's title (the column's width).
MAX_TITLE = 80
#: The referee's meld as typed, the blank sheet's names, the tiles of a table to put back.
MAX_TYPED_MELD = 200
MAX_TYPED_NAMES = 250
MAX_TYPED_TABLE = 800
