"""What a game installed from outside brings besides its rules: templates, words, reference.

A game declares one folder (``Game.folder``); the pages, the sheets, the translation
catalogues and the rules reference look there after the app's own files. The games built in
have no folder: their files live with the app's (``templates/``, ``companion/i18n/translations/``,
``companion/i18n/reference/``). See docs/adding-a-game.md.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import jinja2

from companion.domain import all_games


def folders(kind: str) -> list[Path]:
    """Each installed game's ``kind`` folder (``templates``, ``translations``, ``reference``)
    that exists, in the games' order."""
    found = (g.folder / kind for g in all_games() if g.folder is not None)
    return [path for path in found if path.is_dir()]


class GameTemplates(jinja2.BaseLoader):
    """Templates from the installed games' folders, asked at each lookup (after the app's)."""

    def get_source(
        self, environment: jinja2.Environment, template: str
    ) -> tuple[str, str | None, Callable[[], bool] | None]:
        for folder in folders("templates"):
            try:
                return jinja2.FileSystemLoader(folder).get_source(environment, template)
            except jinja2.TemplateNotFound:
                continue
        raise jinja2.TemplateNotFound(template)


def template_loader(*app_folders: Path) -> jinja2.BaseLoader:
    """The app's templates first, then those the installed games bring."""
    return jinja2.ChoiceLoader(
        [jinja2.FileSystemLoader([str(p) for p in app_folders]), GameTemplates()]
    )
