"""Rummy 17's own words where its box differs from the tile games'.

Piatnik's Rummy 17 calls one deal a **game** (hu *játék*, de *Spiel*; bg *игра*), from the deal
to the end (R17-15); Rummikub, Rummy-O and Manipulation say *round*. Each text below keeps the
tile games' English as its message id and gets a translation of its own in the message context
``rummy17`` (``P_``, ``NP_``), English included (``translations/en``: "Game 3", not "Round 3");
pages, sheets, flashes and the history ask for it through the game's id (``messages.say``, and
``gw``/``ngw`` in templates and views), never by testing which game it is.
"""

from __future__ import annotations

from companion.domain.messages import F_, NP_, P_

WORDS = (
    # the scoreboard
    P_("rummy17", "Round"),
    P_("rummy17", "Round %(n)s breakdown"),
    P_("rummy17", "Enter round %(n)s"),
    P_("rummy17", "One more round"),
    P_("rummy17", "Scores per round and player"),
    P_("rummy17", "Tap a round for its breakdown."),
    P_("rummy17", "Round %(n)s: %(dealer)s deals, %(starts)s starts."),
    P_("rummy17", "Round %(n)s of %(of)s: %(dealer)s deals, %(starts)s starts."),
    NP_("rummy17", "%(played)d of %(num)d round", "%(played)d of %(num)d rounds"),
    # the card picker's one-card mode
    P_("rummy17", "Tap the colour, then the value of this tile."),
    # the round form, breakdown and deletion
    P_("rummy17", "Round %(n)s"),
    P_("rummy17", "Edit round %(n)s"),
    P_("rummy17", "Save round %(n)s"),
    P_("rummy17", "How the round ended"),
    P_("rummy17", "Delete round %(n)s?"),
    P_("rummy17", "Delete round %(n)s"),
    P_(
        "rummy17",
        "Round %(n)s was saved on another phone while you were typing; nothing was saved from "
        "this one.",
    ),
    P_(
        "rummy17",
        "Everything you typed is still here. Keep yours to replace their round %(n)s with it, "
        "or keep theirs and drop what you typed.",
    ),
    P_("rummy17", "See their round %(n)s"),
    # the history
    P_("rummy17", "Round {number} added"),
    P_("rummy17", "Round {number} added; {parts}"),
    P_("rummy17", "Round {number} edited: {changes}"),
    P_("rummy17", "Round {number} saved again with the same cards and choices"),
    P_("rummy17", "Round {number} deleted"),
    P_("rummy17", "Round {number} deleted; round {next} is now round {number}"),
    P_("rummy17", "Round {number} deleted; rounds {first}–{last} renumbered"),
    P_("rummy17", "Round {number} deleted earlier is back (undone)"),
    # the meld check: Rummy 17's box says sor/szett (hu), Satz (de); the tile games' boxes
    # say sorozat/csoport, Gruppe (rummikub-hu.txt), the text without a context
    P_("rummy17", "Legal: a set"),
    P_("rummy17", "Legal: a run"),
    P_("rummy17", "Legal: a set or a run"),
    # the picker's tabs: Rummy 17's box says sor/szett (hu), Folge/Satz (de); the tile
    # games' boxes say sorozat/csoport, Reihe/Gruppe (the text without a context)
    P_("rummy17", "Run"),
    P_("rummy17", "Set"),
    # the sheet
    P_("rummy17", "Standings after round %(n)d"),
    P_("rummy17", "next: round %(n)d, dealer %(p)s"),
    P_("rummy17", "Corrections to past rounds"),
    # the flashes after saving, deleting, restoring and lengthening, and the round form's
    # and deletion's messages
    P_("rummy17", "Round %(n)s saved."),
    P_("rummy17", "Round %(n)s deleted."),
    P_("rummy17", "Round %(n)s is back."),
    P_("rummy17", "One more round: the match now has %(n)s rounds."),
    P_("rummy17", "This match has no round %(n)s."),
    P_("rummy17", "The match is over: no further round can be entered."),
    P_("rummy17", "Check that this is still the round to delete, then confirm again."),
    P_("rummy17", "Discard what was typed for this round? It cannot be brought back."),
    P_(
        "rummy17",
        "The round's entries are removed; later rounds move up one number and keep their "
        "dealers. The deletion is kept in the match history.",
    ),
    # own hands: a player's own page (templates/part.html) while the round is open, once it is
    # closed, and what a part is refused for
    P_(
        "rummy17",
        "Sent ✓ The scorekeeper's phone has it. You can still change it until the round is saved.",
    ),
    P_(
        "rummy17",
        "Only your own part is on this page. The scorekeeper enters the rest and saves the round.",
    ),
    P_("rummy17", "Round %(n)s was saved. Nothing more to do here."),
    P_(
        "rummy17",
        "The scorekeeper enters round %(n)s on their own phone. Nothing more to do here.",
    ),
    P_("rummy17", "round {number} was saved: this part can no longer change"),
    P_(
        "rummy17",
        "the scorekeeper stopped the own entries of round {number}: this part can no longer change",
    ),
    P_("rummy17", "the match is over: there is no next round to enter"),
    # where a problem is (messages.location)
    P_("rummy17", "round {round}: "),
    # the start page and the home page
    P_("rummy17", "Rounds"),
    P_(
        "rummy17",
        "Empty number of rounds: one round per player, so everyone deals once (%(rule)s).",
    ),
    NP_("rummy17", "%(num)d round", "%(num)d rounds"),
    # the history's first entries and the lengthening (store/changes.py)
    NP_(
        "rummy17",
        "Match started: {players}; {dealer} deals first; {games} round",
        "Match started: {players}; {dealer} deals first; {games} rounds",
    ),
    NP_(
        "rummy17",
        "Rematch started: {players}; {dealer} deals first; {games} round",
        "Rematch started: {players}; {dealer} deals first; {games} rounds",
    ),
    P_("rummy17", "Match lengthened from {old} to {new} rounds"),
    # the players page and the chart of totals
    P_("rummy17", "Rounds played"),
    P_("rummy17", "Average per round"),
    P_("rummy17", "Best round"),
    P_("rummy17", "%(match)s, round %(n)s"),
    P_("rummy17", "Totals round by round"),
    P_("rummy17", "Totals after rounds 1 to %(n)s. %(each)s."),
    # the blank-sheet chooser (tools.blank: the chosen game's words, swapped by game-words.js)
    P_(
        "rummy17",
        "A sheet to fill in with a pen: a row per round with who deals, the game's own columns, "
        "the totals, and the rules for reference.",
    ),
    P_(
        "rummy17",
        "One round per player, so everyone deals once, unless the game plays to a target.",
    ),
    P_("rummy17", "rounds must be a whole number from 1 to {high}"),
    # the events pages, their standings sheet and table; Rummy 17 has no winner of
    # a game, so its standings break ties by points alone (EV-6)
    P_("rummy17", "Rounds per table"),
    NP_("rummy17", "playing: %(num)s round saved", "playing: %(num)s rounds saved"),
    P_(
        "rummy17",
        "Sum %%: the sessions' percentages added up, each the share of opponents finished "
        "ahead of at the table, ties half (EV-5, EV-6); ties broken by points, then rounds won "
        "(EV-6). * provisional, − missed a session.",
    ),
    P_(
        "rummy17",
        "Sum of session percentages: in each session, the share of opponents finished ahead "
        "of at the table, ties counting half (EV-5); the sessions added up (EV-6); ties broken "
        "by total points, then rounds won (EV-6).",
    ),
    P_("rummy17", "Rounds won"),
    P_("rummy17", "rounds per table must be a whole number, 1 to {most}"),
    P_(
        "rummy17",
        "session {session} has started (a table saved a round): its seating stays (EV-3)",
    ),
    # the documents' and the API's words (series.py, game.py, seating.py, documents.py,
    # store/errors.py): the field keeps its name, the text says game
    P_("rummy17", "a round must be a JSON object"),
    P_("rummy17", "the round has an unknown field {key!r}; the fields are {fields}"),
    P_(
        "rummy17",
        "the round's players must be the match's players in the same seat order: {names}",
    ),
    P_("rummy17", "{field} must be a list of round documents"),
    P_("rummy17", "{field} must be a whole number of rounds, 1 or more"),
    P_(
        "rummy17",
        "the match was set to {games} rounds but has {count}; lengthen the series to add one "
        "({rule})",
    ),
    P_("rummy17", "this round is {other!r}, the match is {game}"),
    NP_("rummy17", "a match holds at most {max} round", "a match holds at most {max} rounds"),
    NP_(
        "rummy17",
        "there is no round {number}; the match has {count} round",
        "there is no round {number}; the match has {count} rounds",
    ),
    P_("rummy17", "the round cannot be stored as JSON: {reason}"),
    P_("rummy17", "a match is lengthened by a whole number of rounds, 1 or more"),
)

#: The sheet's column heads as the edition abbreviates them, the form ``short`` of the head's
#: word (``sheets.render.column_heads``; a language without one gets the shortest prefix no
#: other head shares): German *SP*, *BP* (rummy17-de.txt l.136 "je 1 SP", l.142 "3 BP").
SHORT = (F_("forms", "Penalty"), F_("forms", "Bonus"))
