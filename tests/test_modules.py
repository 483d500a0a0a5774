"""How the code is laid out (issue 15, point 4): one place saves, the blueprints live in
companion/web/, no module imports another's private name, and one module holds the limits.
Read from the source, so a new shortcut fails here before it is copied."""

from __future__ import annotations

import ast
from pathlib import Path

from companion.domain import bounds as limits
from companion.web.api import models as api_models
from companion.web.pages import forms

ROOT = Path(__file__).resolve().parent.parent
COMPANION = ROOT / "companion"


def modules() -> dict[str, ast.Module]:
    """Every module of the app, parsed, by its path from the checkout's top."""
    return {
        str(path.relative_to(ROOT)): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(COMPANION.rglob("*.py"))
    }


def test_only_the_save_function_looks_up_a_once_key() -> None:
    """``store.done`` (has this key's write been stored?) is asked in companion/services/saving.py
    only: the API, the round form, the start page and delete/undo all save through it."""
    asking = sorted(
        path
        for path, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "done"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in ("store", "once")
    )
    assert asking == ["companion/services/saving.py"]
    importing = sorted(
        path
        for path, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and (node.module or "").startswith("companion.adapters.store")
        and any(alias.name == "done" for alias in node.names)
    )
    assert importing == ["companion/adapters/store/__init__.py"]  # the package's own re-export


def test_no_module_imports_a_private_name_of_another() -> None:
    found = [
        f"{path}: {node.module}.{alias.name}"
        for path, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("companion")
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]
    assert found == []


def test_the_blueprints_are_all_in_the_web_package() -> None:
    outside = [
        path
        for path, tree in modules().items()
        if not path.startswith("companion/web/")
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Blueprint"
    ]
    assert outside == []


def test_the_form_and_the_api_take_their_limits_from_one_module() -> None:
    assert api_models.MAX_ROUNDS is limits.MAX_ROUNDS
    assert api_models.MAX_MELDS == limits.MAX_MELDS == 30
    own = [
        f"{path}: {target.id}"
        for path, tree in modules().items()
        if path
        in (
            "companion/web/pages/forms.py",
            "companion/web/api/models.py",
            "companion/adapters/store/events.py",
        )
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id.startswith(("MAX_", "MOST_"))
    ]
    assert own == []
    games = forms.MatchForm.games.kwargs["validators"][1]
    assert (games.min, games.max) == (1, limits.MAX_TYPED_GAMES)
