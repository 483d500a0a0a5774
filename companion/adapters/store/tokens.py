"""Link tokens: the secret in a match's edit and read-only links, and what one can look like."""

from __future__ import annotations

import re
import secrets

# 24 random bytes = 192 bits, written as 32 URL-safe characters.
TOKEN_BYTES = 24

#: What a link token, or a device cookie, can look like (anything else finds nothing).
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_token() -> str:
    """A secret link token (192 bits from ``secrets``)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def is_token(token: object) -> bool:
    """Could this be a link token (or a device cookie)? Anything else finds nothing."""
    return isinstance(token, str) and TOKEN.fullmatch(token) is not None
