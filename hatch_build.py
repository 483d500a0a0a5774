"""Build hook: compile the translation catalogues (.po → .mo) into every wheel and editable install.

Compiled catalogues are build output, so they are not committed: a fresh clone gets them from
``pip install -e .`` (the hook runs for editable installs too) and a wheel carries them. The
``.po`` files are the only source; nothing can drift between the two.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompileCatalogues(BuildHookInterface):  # type: ignore[type-arg]
    """Compile companion/i18n/translations/*/LC_MESSAGES/messages.po next to each .po."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root)
        for po in sorted(root.glob("companion/i18n/translations/*/LC_MESSAGES/messages.po")):
            mo = po.with_suffix(".mo")
            with po.open("rb") as source:
                catalogue = read_po(source, locale=po.parent.parent.name)
            with mo.open("wb") as target:
                write_mo(target, catalogue, use_fuzzy=False)
            # .mo files are ignored by git; artifacts puts them in the wheel all the same.
            build_data["artifacts"].append(str(mo.relative_to(root)))
