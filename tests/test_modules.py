"""How the code is laid out: one place saves, the blueprints live in companion/web/, no module
reaches another's private name, and one module holds the limits. Read from the source, so a
new shortcut fails here before it is copied.

Which module may import which (the layers, the rules core apart, no import cycles, the store's
idempotency keys) is import-linter's: ``lint-imports`` checks the contracts of pyproject.toml
in scripts/test. What stays here is what its contracts do not say: calls, names and
assignments, and a cycle through a package module (``acyclic_siblings`` compares the modules of
a package with each other, not with the package's own ``__init__``)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp

from companion.domain import bounds as limits
from companion.domain import documents as api_models
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


#: The store's writes: only a command's handler calls one (companion/services/handlers.py).
WRITES = {
    "create_match", "rematch", "add_round", "update_round", "delete_round", "restore_round",
    "lengthen", "forget_on_device", "open_parts", "drop_parts", "put_part", "keep_part",
    "create_event", "seat_next", "redraw", "add_entrant", "withdraw",
}  # fmt: skip


def test_only_the_handlers_write_and_only_handle_saves() -> None:
    """No view or command line calls ``saving.save`` or a store write: each hands a command to
    ``handlers.handle`` (docs/adr/0005-one-service-path.md)."""
    calling = sorted(
        (path, node.func.attr)
        for path, tree in modules().items()
        if path.startswith(("companion/web/", "companion/cli.py"))
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and (
            (node.func.value.id in ("store", "events") and node.func.attr in WRITES)
            or (node.func.value.id == "saving" and node.func.attr == "save")
        )
    )
    assert calling == []
    saving = sorted(
        path
        for path, tree in modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "save"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "saving"
    )
    assert saving == ["companion/services/handlers.py"]


def private_names_reached(tree: ast.Module) -> list[str]:
    """The private names of the project's other modules that ``tree`` reaches: imported by name
    (``from companion.x import _y``) or read from a module it imported (``x._y``)."""
    found = []
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("companion"):
            for alias in node.names:
                imported.add(alias.asname or alias.name)
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            imported.update(
                a.asname or a.name for a in node.names if a.name.startswith("companion")
            )
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and isinstance(node.value, ast.Name)
            and node.value.id in imported
        ):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_no_module_reaches_a_private_name_of_another() -> None:
    found = [
        f"{path}: {name}"
        for path, tree in modules().items()
        for name in private_names_reached(tree)
    ]
    assert found == []


def test_the_private_name_check_sees_both_ways_in() -> None:
    tree = ast.parse(
        "from companion.adapters.sheets.event import _qr\n"
        "from companion.adapters.sheets import render\n"
        "render._html('x')\n"
        "self._own = render.public\n"
    )
    assert private_names_reached(tree) == ["companion.adapters.sheets.event._qr", "render._html"]


def cycles(graph: grimp.ImportGraph) -> list[tuple[str, str]]:
    """Every import of the graph that the imported module reaches back from: each is part of
    an import cycle (a package and its own modules included)."""
    reach: dict[str, set[str]] = {}

    def reached(start: str) -> set[str]:
        if start not in reach:
            seen: set[str] = set()
            todo = [start]
            while todo:
                for nxt in graph.find_modules_directly_imported_by(todo.pop()):
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            reach[start] = seen
        return reach[start]

    return sorted(
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if importer != imported and importer in reached(imported)  # run as __main__: itself
    )


def test_no_import_cycle_at_all_package_modules_and_deferred_imports_included() -> None:
    assert cycles(grimp.build_graph("companion", cache_dir=None)) == []


def test_the_cycle_check_sees_a_package_and_a_module_of_its_own() -> None:
    graph = grimp.ImportGraph()
    graph.add_import(importer="app.sheets", imported="app.sheets.blank")  # the re-export
    graph.add_import(importer="app.sheets.blank", imported="app.sheets")  # and back
    graph.add_import(importer="app.sheets.blank", imported="app.rules")
    assert cycles(graph) == [("app.sheets", "app.sheets.blank"), ("app.sheets.blank", "app.sheets")]


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
            "companion/domain/documents.py",
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


def test_no_file_points_to_a_work_item_by_its_number() -> None:
    """Decisions are written down in docs/adr/, not as "see issue N": a number means nothing
    to a reader of the checkout. Every text file of the checkout is read, but for hidden
    folders and build output (``SKIPPED``)."""
    pattern = re.compile(r"\bissues?\s*#?\d+", re.IGNORECASE)
    suffixes = {".py", ".md", ".html", ".js", ".css", ".toml", ".po", ".txt", ".cfg", ".ini"}
    files = [p for p in ROOT.rglob("*") if p.suffix in suffixes and p.is_file()]
    kept = [
        p
        for p in files
        if not any(part.startswith(".") or part in SKIPPED for part in p.relative_to(ROOT).parts)
    ]
    naming = sorted(
        f"{p.relative_to(ROOT)}:{n}"
        for p in kept
        for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace").splitlines(), 1)
        if pattern.search(line)
    )
    assert kept and naming == []


#: Folders that are not the project's own text: virtualenvs, caches, build output.
SKIPPED = {"__pycache__", "node_modules", "build", "dist", "companion.egg-info", "instance"}
