"""The package's layers point one way, and no module imports itself round a circle.

Every module of scorekeeper/ belongs to one layer (a new module in no layer fails here), and
imports only from its own layer and the layers below it, at the top of the file or inside a
function alike.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.helpers import PACKAGE

LAYERS = [  # lowest first
    ("rules", ["scorekeeper.rules"]),
    ("words and extensions", ["scorekeeper.words", "scorekeeper.extensions",
                              "scorekeeper.config"]),
    ("the machine", ["scorekeeper.server"]),  # its addresses and certificates
    ("variants", ["scorekeeper.variants"]),
    ("db", ["scorekeeper.db"]),
    ("reports", ["scorekeeper.reports"]),
    ("play", ["scorekeeper.play", "scorekeeper.crowd"]),
    ("web", ["scorekeeper.web"]),
    ("the app and its commands", ["scorekeeper", "scorekeeper.cli", "scorekeeper.server.serve"]),
]


def module_of(path: Path) -> str:
    """Return a file's module name: scorekeeper/db/reader.py is scorekeeper.db.reader."""
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(path): path for path in PACKAGE.rglob("*.py")
           if "migrations" not in path.relative_to(PACKAGE).parts}


def layer(module: str) -> int | None:
    """Return the index of a module's layer: the longest matching prefix decides."""
    best, found = -1, None
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), index
    return found


def imports(module: str) -> set[str]:
    """Return the project modules a module imports, anywhere in it, by absolute name: a name
    imported from a package counts as that module when it is one."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                whole = f"{source}.{alias.name}"
                found.add(whole if whole in MODULES else source)
    return {name for name in found if name in MODULES and name != module}


def test_every_module_belongs_to_a_layer():
    assert len(MODULES) > 60
    lost = sorted(module for module in MODULES if layer(module) is None)
    assert lost == [], f"modules in no layer (add them to LAYERS): {lost}"


def test_layers_point_one_way():
    wrong = []
    for module in MODULES:
        for imported in imports(module):
            if layer(imported) > layer(module):
                wrong.append(f"{module} ({LAYERS[layer(module)][0]}) imports {imported} "
                             f"({LAYERS[layer(imported)][0]})")
    assert wrong == []


def test_no_module_imports_itself_round_a_circle():
    graph = {module: imports(module) for module in MODULES}
    # A package's __init__ that gathers its modules is not a circle with them: what they
    # import from the package itself is.
    circles, state = [], {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for imported in sorted(graph[module]):
            if state.get(imported) == "open":
                circles.append(" → ".join(path[path.index(imported):] + [imported]))
            elif imported not in state:
                visit(imported, path + [imported])
        state[module] = "done"

    for module in sorted(MODULES):
        if module not in state:
            visit(module, [module])
    assert circles == []


def test_the_database_layer_knows_nothing_of_the_request():
    for module in MODULES:
        if module.startswith("scorekeeper.db"):
            source = MODULES[module].read_text(encoding="utf-8")
            tree = ast.parse(source)
            flask = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                     and node.module == "flask" for alias in node.names}
            assert not flask & {"g", "request", "session"}, f"{module} reads the request"
            assert not any(imported.startswith(("scorekeeper.web", "scorekeeper.words"))
                           for imported in imports(module)), f"{module} reads the request"


def test_no_template_tests_a_type():
    """Templates show view-models; what kind a thing is was decided before they run."""
    templates = list((PACKAGE.parent / "templates").rglob("*.html"))
    assert len(templates) > 30
    for path in templates:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"__name__|__class__|\bkind\.|is instance", text), path.name


# What only the write path does (db/ and play.py): commit, roll back, lock, run SQL.
CHANGES = {"commit", "rollback", "lock", "locked_game", "locked_or_404"}
RUNS_SQL = {"execute", "scalar", "scalars", "connection"}
BUILDS_SQL = {"select", "insert", "update", "delete", "text", "func", "and_", "or_"}
# A fault's page lets go of the transaction the fault broke (it writes nothing).
LETS_GO = {"scorekeeper.web.faults": {"rollback"}}


def test_the_web_and_the_commands_never_commit_roll_back_lock_or_build_sql():
    """A change is done whole in scorekeeper/play.py (lock, read again, check, write,
    commit), and a read in db/ or reports/; the web side and the commands only parse, call
    them and say what happened."""
    callers = {module: path for module, path in MODULES.items()
               if module.startswith("scorekeeper.web") or module in (
                   "scorekeeper.cli", "scorekeeper.server.serve")}
    assert len(callers) > 25
    for module, path in callers.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        called = {node.func.attr if isinstance(node.func, ast.Attribute) else
                  getattr(node.func, "id", "") for node in ast.walk(tree)
                  if isinstance(node, ast.Call)}
        built = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                 and (node.module or "").split(".")[0] == "sqlalchemy" for alias in node.names}
        wrong = (called & (CHANGES | RUNS_SQL) | built & BUILDS_SQL) - LETS_GO.get(module, set())
        assert not wrong, f"{path.name} changes or asks the database itself: {sorted(wrong)}"


def test_templates_draw_and_python_hands_them_data():
    """A board, a standings or a night is drawn by a template from plain data and words;
    Python writes one tag at most (a name isolated in <bdi>, a <wbr>, the QR code's <svg>),
    and the variants none."""
    one_tag = {"bdi", "wbr", "svg"}
    for module, path in MODULES.items():
        if not module.startswith(("scorekeeper.variants", "scorekeeper.web")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                    id(node) not in docstrings and not node.value.startswith("/")):  # a URL rule
                tags = set(re.findall(r"<([a-z][a-z0-9]*)[\s>/]", node.value))
                allowed = set() if module.startswith("scorekeeper.variants") else one_tag
                assert tags <= allowed, f"{module}:{node.lineno} writes HTML {tags - allowed}"
