"""The web shell, as blueprints: ``pages`` (start a match, the scoreboard, the series),
``rounds`` (enter, correct, delete and explain one round), ``timer`` (the turn timer),
``reference`` (the rules, clause by clause, and the links to them from every page),
``players`` (figures across matches, a match as CSV), ``offline`` (the manifest and
the service worker), ``referee``, ``events`` and ``parts`` (own hands: a player's own
page, and the parts as the round form shows them); and beside them ``api`` (the JSON API
at /api/v1, one blueprint: ``events_api`` adds the events' routes to it), ``sheet_views``
(the PDF score sheets) and ``tools`` (is this meld legal, put the table back, choose a blank
sheet), which the app registers itself.

Views parse the request, call the store (which calls the rules core), and place an
``EntryError``'s problems next to the fields they are about. No score is computed here, and
no page asks which game it is: everything game-specific comes from the game's descriptor or
from a partial under ``templates/games/<id>/``.
"""

from __future__ import annotations

from flask import Flask


def register_blueprints(app: Flask) -> None:
    """The page blueprints (the app registers the API, sheets and tools itself)."""
    from companion.web import (
        events,
        offline,
        pages,
        parts,
        players,
        referee,
        reference,
        rounds,
        timer,
    )

    app.register_blueprint(pages.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(timer.bp)
    app.register_blueprint(reference.bp)
    app.register_blueprint(referee.bp)
    app.register_blueprint(players.bp)
    app.register_blueprint(offline.bp)
    app.register_blueprint(events.bp)
    app.register_blueprint(parts.bp)
