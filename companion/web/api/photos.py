"""``POST /api/v1/photos?game=G&as=rack|table`` (contract "Photos"): the tiles read off a
photo sent as the body (``image/jpeg``, ``image/png``, ``image/webp``, up to ``MAX_PHOTO``).

The one body allowed past the app's ``MAX_BODY``: the view raises this request's own limit
before it reads the body (``security.ChunkedLimit`` and ``companion serve`` let it through
too). The photo is read in memory and dropped: never stored, logged or cached (``no-store``;
the service worker never caches a POST).
"""

from __future__ import annotations

from flask import Response, abort, jsonify, request
from flask_babel import gettext as _
from werkzeug.exceptions import RequestEntityTooLarge

from companion.domain import EntryError
from companion.domain.bounds import MAX_PHOTO
from companion.services import photos
from companion.web.api.matches import bp, error_response

#: What a photo may be sent as.
TYPES = ("image/jpeg", "image/png", "image/webp")


@bp.post("/photos")
def read_photo() -> tuple[Response, int]:
    """The tiles of one photo: 200 the contract's object; 415 a body of another type; 422
    an image that cannot be decoded (or has too many pixels) or a game whose pieces cannot
    be read; 413 over ``MAX_PHOTO``."""
    game = request.args.get("game", "")
    kind = request.args.get("as", "rack")
    try:
        photos.inks(game)
        photos.check_as(kind)
    except EntryError as err:
        return error_response(err, 422), 422
    if request.mimetype not in TYPES:
        abort(
            415,
            description=_(
                "Send the photo as a JPEG, PNG or WebP picture (Content-Type %(types)s).",
                types=", ".join(TYPES),
            ),
        )
    request.max_content_length = MAX_PHOTO
    try:
        data = request.get_data(cache=False)
    except RequestEntityTooLarge:
        abort(
            413,
            description=_(
                "The photo is larger than %(most)s MB: send a smaller one.",
                most=MAX_PHOTO // (1024 * 1024),
            ),
        )
    try:
        answer = photos.read(game, data, kind)
    except EntryError as err:
        return error_response(err, 422), 422
    finally:
        del data
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response, 200
