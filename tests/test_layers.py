"""The direction of imports: the pure library knows nothing of the web.

``scoring/`` (the scorer, the measures, their commands) imports neither Flask (``flask``,
``flask_*``, ``werkzeug``), SQLAlchemy nor ``annotate``; the gold compiler
(``annotate/gold``) imports neither Flask nor SQLAlchemy, and of ``annotate`` only itself.
Every module is read with :mod:`ast` and every ``import`` anywhere in it counts: at the
top, inside a function, under ``if TYPE_CHECKING:``.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ("flask", "werkzeug", "sqlalchemy")

KNOWN: set[tuple[str, str]] = set()
"""Imports that break the rule, each on purpose and for now (none: the task's XML that
``gold-to-swords`` reads has its home in :mod:`scoring.formats.taskxml`)."""


def imported(source: str, module: str) -> list[tuple[int, str]]:
    """(line, module) of every import in ``source`` (the module ``module``, dotted, so that
    relative imports resolve), wherever it stands.

    >>> imported("import os\\ndef f():\\n    from flask import g\\n", "scoring.x")
    [(1, 'os'), (3, 'flask')]
    >>> imported("from . import y\\nfrom .z import w\\n", "scoring.a.b")
    [(1, 'scoring.a'), (2, 'scoring.a.z')]
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            name = node.module or ""
            if node.level:
                package = module.split(".")[: -node.level]
                name = ".".join([*package, name] if name else package)
            found.append((node.lineno, name))
    return sorted(found)


def _is_web(name: str) -> bool:
    top = name.split(".")[0]
    return top in WEB or top.startswith("flask_")


def _is_annotate(name: str) -> bool:
    return name == "annotate" or name.startswith("annotate.")


def _modules(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def _is_web_or_annotate(name: str) -> bool:
    return _is_web(name) or _is_annotate(name)


def _is_web_or_app(name: str) -> bool:
    return _is_web(name) or (_is_annotate(name) and not name.startswith("annotate.gold"))


def _breaches(folder: str, forbidden: Callable[[str], bool]) -> list[str]:
    """``FILE:LINE: imports NAME`` for each import under ``folder`` that ``forbidden``
    refuses and :data:`KNOWN` does not list."""
    breaches: list[str] = []
    for path in _modules(folder):
        relative = path.relative_to(ROOT).as_posix()
        module = relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for line, name in imported(path.read_text(encoding="utf-8"), module):
            if forbidden(name) and (relative, name) not in KNOWN:
                breaches.append(f"{relative}:{line}: imports {name}")
    return breaches


def test_scoring_imports_no_flask_sqlalchemy_or_annotate() -> None:
    assert len(_modules("scoring")) > 50
    assert _breaches("scoring", _is_web_or_annotate) == []


def test_the_compiler_imports_no_flask_sqlalchemy_or_app_module() -> None:
    assert len(_modules("annotate/gold")) > 10
    assert _breaches("annotate/gold", _is_web_or_app) == []


def test_each_known_exception_is_still_there() -> None:
    """An exception that no longer happens is struck off, so that it cannot come back."""
    for relative, name in KNOWN:
        module = relative.removesuffix(".py").replace("/", ".")
        source = (ROOT / relative).read_text(encoding="utf-8")
        assert name in [found for _, found in imported(source, module)], (relative, name)


@pytest.mark.parametrize(
    ("source", "name"),
    [
        ("import flask\n", "flask"),
        ("from flask_login import current_user\n", "flask_login"),
        ("def f():\n    from sqlalchemy import select\n", "sqlalchemy"),
        ("import werkzeug.exceptions\n", "werkzeug.exceptions"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import annotate.models\n",
            "annotate.models",
        ),
        ("class A:\n    def m(self):\n        from annotate import importer\n", "annotate"),
    ],
)
def test_every_kind_of_import_is_seen(source: str, name: str) -> None:
    names = [found for _, found in imported(source, "scoring.example")]
    assert name in names and _is_web_or_annotate(name)


# -- no module imports another that imports it back, directly or through others ----------

KNOWN_CYCLES: list[set[str]] = []
"""Cycles that are still there, each to be broken and struck off (the test below fails when
one is gone, so that it cannot come back unnoticed)."""


def _module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).as_posix()
    return relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the nodes under an ``if TYPE_CHECKING:``."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            inside.update(id(child) for child in ast.walk(node))
    return inside


def import_graph(
    folders: tuple[str, ...] = ("scoring", "annotate"), run_time: bool = False
) -> dict[str, set[str]]:
    """Module → the project modules it imports, anywhere in it (``from P import m`` names the
    module ``P.m`` when there is one, the package ``P`` otherwise); with ``run_time``, not
    those imported for the type checker only."""
    paths = {
        _module_name(path): path
        for folder in folders
        for path in _modules(folder)
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_only(tree) if run_time else set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [
                    f"{node.module}.{alias.name}"
                    if f"{node.module}.{alias.name}" in paths
                    else node.module
                    for alias in node.names
                ]
            for name in names:
                while name and name not in paths:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    edges.add(name)
        graph[module] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative).

    >>> [sorted(c) for c in cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})]
    [['a', 'b', 'c']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_no_two_modules_import_each_other() -> None:
    graph = import_graph()
    assert len(graph) > 100
    unexpected = [sorted(c) for c in cycles(graph) if c not in KNOWN_CYCLES]
    assert unexpected == []


def test_each_known_cycle_is_still_there() -> None:
    found = cycles(import_graph())
    for cycle in KNOWN_CYCLES:
        assert cycle in found, sorted(cycle)


def test_a_cycle_through_a_function_level_import_is_found() -> None:
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles(graph) == [{"p.a", "p.b", "p.c"}]
    assert cycles({"p.a": {"p.b"}, "p.b": set()}) == []


# -- the web by feature: pages over services, no blueprint over another -----------------


def _blueprints() -> set[str]:
    """The modules under ``annotate/web`` that make a blueprint (one area's pages each)."""
    return {
        _module_name(path)
        for path in _modules("annotate/web")
        if "Blueprint(" in path.read_text(encoding="utf-8")
    }


def crossings(graph: dict[str, set[str]], blueprints: set[str]) -> dict[str, list[str]]:
    """Each module of ``annotate.web`` that imports a blueprint module other than itself.

    >>> crossings({"annotate.web.a": {"annotate.web.b"}, "annotate.web.b": set()},
    ...           {"annotate.web.a", "annotate.web.b"})
    {'annotate.web.a': ['annotate.web.b']}
    """
    return {
        module: sorted(edges & (blueprints - {module}))
        for module, edges in sorted(graph.items())
        if module.startswith("annotate.web.") and edges & (blueprints - {module})
    }


def test_no_blueprint_imports_another() -> None:
    """An area's views import the access helpers (``annotate.web.access``) and services,
    never another area's views: a helper two areas need moves to access or a service."""
    blueprints = _blueprints()
    assert blueprints >= {
        "annotate.web.annotator",
        "annotate.web.auth",
        "annotate.web.judge",
        "annotate.web.members",
        "annotate.web.organiser",
        "annotate.web.reports",
    }
    assert crossings(import_graph(), blueprints) == {}


def test_services_are_below_the_pages_and_the_commands() -> None:
    """A service (``annotate/services``) is called by pages and commands alike: it imports
    no Flask or Werkzeug (only the bound ``db`` of ``annotate.extensions``) and nothing of
    ``annotate.web`` or ``annotate.cli``."""
    assert len(_modules("annotate/services")) > 8
    breaches = _breaches(
        "annotate/services",
        lambda name: (
            name.split(".")[0] in ("flask", "werkzeug")
            or name.startswith(("annotate.web", "annotate.cli"))
        ),
    )
    assert breaches == []


# -- the scoring library's shape ---------------------------------------------------------

FORMATS_MAY_IMPORT = (
    "scoring",
    "scoring.errors",
    "scoring.types",
    "scoring.terms",
    "scoring.substitute",
    "scoring.files",
    "scoring.formats",
)
"""What :mod:`scoring.formats` stands on: the vocabulary, the term and answer rules, the
errors and the bounded file reading. Nothing that reads a format's records (the measures,
the drop-in, the leaderboard, the benchmarks, the commands) is below it."""


def longest_chain(graph: dict[str, set[str]]) -> list[str]:
    """The longest path of imports (modules, first the importer) in an acyclic ``graph``.

    >>> longest_chain({"a": {"b", "c"}, "b": {"c"}, "c": set(), "d": {"a"}})
    ['d', 'a', 'b', 'c']
    """
    best: dict[str, list[str]] = {}

    def chain(module: str) -> list[str]:
        if module not in best:
            below = [chain(child) for child in sorted(graph.get(module, ()))]
            best[module] = [module, *max(below, key=len, default=[])]
        return best[module]

    return max((chain(module) for module in sorted(graph)), key=len, default=[])


def _scoring_graph() -> dict[str, set[str]]:
    """What each module of ``scoring`` loads of ``scoring`` when it runs: an import under
    ``if TYPE_CHECKING:`` loads nothing, and a package a module is inside is loaded before
    the module anyway."""
    graph = import_graph(("scoring",), run_time=True)
    return {
        module: {
            name
            for name in edges
            if name.startswith("scoring") and not module.startswith(f"{name}.")
        }
        for module, edges in graph.items()
    }


def test_scoring_has_at_most_twelve_modules_of_its_own() -> None:
    """The library's top level is its vocabulary, rules and commands; everything else lives
    in the subpackage of its concern (scoring/score, scoring/measures/FAMILY, …)."""
    top = sorted(path.name for path in (ROOT / "scoring").glob("*.py"))
    assert "__init__.py" in top and len(top) <= 12, top


def test_the_longest_import_chain_in_scoring_is_at_most_eleven_modules() -> None:
    chain = longest_chain(_scoring_graph())
    assert 5 <= len(chain) <= 11, " -> ".join(chain)


def test_formats_import_nothing_above_them() -> None:
    breaches = [
        f"{module} imports {name}"
        for module, edges in sorted(_scoring_graph().items())
        if module.startswith("scoring.formats")
        for name in sorted(edges)
        if not name.startswith(FORMATS_MAY_IMPORT[-1])
        and not any(
            name == allowed or name.startswith(f"{allowed}.") for allowed in FORMATS_MAY_IMPORT[1:]
        )
        and name != "scoring"
    ]
    assert breaches == []
