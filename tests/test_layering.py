"""The layers of docs/architecture.md hold: a test reads every module's imports (AST)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "nemori_cli"
HEAVY = ("chromadb", "litellm", "onnxruntime", "mcp", "mcp_types")
# Imports that may stay inside a function, because importing them costs every command's
# startup: the CLI's (a command loads only what it runs; `nemori --help` loads no Memory), and
# the LLM extractor with its pydantic prompt models (offline runs never need it).
LAZY_LAYERS = {"cli"}
# documented names of the standard library that start with one underscore
STDLIB_UNDERSCORED = {"_exit"}  # os._exit: how a forked child leaves (embed_worker)
LAZY_OK = {"nemori_cli.pipeline.llm_extractor"}
# The facade imports each operation in the method that runs it, and its parts import each
# index's and extractor's modules in the method that opens it: importing them all cost a
# listing or a search every other command's modules (`python -X importtime -m nemori_cli.cli.app
# facts list`)
LAZY_FROM = {
    "nemori_cli.memory": ("nemori_cli.ops", "nemori_cli.search", "nemori_cli.store.users"),
    "nemori_cli.parts": (
        "nemori_cli.indexing", "nemori_cli.pipeline.offline", "nemori_cli.store.lexical",
        "nemori_cli.store.open_index",
    ),
}


def module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path) -> Iterator[tuple[str, list[str], bool, bool]]:
    """Yield (module imported, names taken from it, at module level, only for type checking)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(n) for n in tree.body}
    typing_only: set[int] = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            typing_only.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        where = (id(node) in top, id(node) in typing_only)
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], *where
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, [a.name for a in node.names], *where


def nemori_imports(name: str) -> list[tuple[str, list[str], bool]]:
    """The nemori modules a module imports: (module, names, whether at the top or typing-only)."""
    out = []
    for target, names, at_top, typing_only in imports(MODULES[name]):
        if target.split(".")[0] != "nemori_cli":
            continue
        for n in names:  # `from nemori_cli.store import lexical` imports a module
            if f"{target}.{n}" in MODULES:
                out.append((f"{target}.{n}", [], at_top or typing_only))
                break
        else:
            out.append((target, names, at_top or typing_only))
    return out


def layer(name: str) -> str:
    """The first part of a module's name below nemori_cli ('store', 'memory', ...)."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def within(name: str, *layers: str) -> bool:
    return layer(name) in layers


BELOW_CLI = [m for m in MODULES if not within(m, "cli")]
BELOW_MEMORY = [m for m in MODULES if within(m, "ops", "search", "store", "pipeline", "importers")]


@pytest.mark.parametrize("name", BELOW_CLI)
def test_nothing_below_the_cli_imports_it(name: str) -> None:
    assert not [t for t, _, _ in nemori_imports(name) if within(t, "cli")]


@pytest.mark.parametrize("name", BELOW_MEMORY)
def test_nothing_memory_uses_imports_memory(name: str) -> None:
    assert not [t for t, _, _ in nemori_imports(name) if within(t, "memory")]


@pytest.mark.parametrize("name", [m for m in MODULES if within(m, "importers")])
def test_importers_know_only_records_and_errors(name: str) -> None:
    foreign = [t for t, _, _ in nemori_imports(name) if not within(t, "importers")]
    assert set(foreign) <= {"nemori_cli.models", "nemori_cli.errors"}, foreign


@pytest.mark.parametrize("name", [m for m in MODULES if within(m, "store")])
def test_store_knows_no_pipeline_nor_importers(name: str) -> None:
    assert not [t for t, _, _ in nemori_imports(name) if within(t, "pipeline", "importers")]


@pytest.mark.parametrize("name", [m for m in MODULES if within(m, "pipeline")])
def test_pipeline_knows_no_storage(name: str) -> None:
    assert not [t for t, _, _ in nemori_imports(name) if within(t, "store")]


@pytest.mark.parametrize("name", list(MODULES))
def test_nemori_modules_are_imported_at_the_top(name: str) -> None:
    if within(name, *LAZY_LAYERS):
        return
    lazy = [t for t, _, top in nemori_imports(name) if not top and t not in LAZY_OK]
    allowed = LAZY_FROM.get(name, ())
    lazy = [t for t in lazy if not any(t == m or t.startswith(m + ".") for m in allowed)]
    assert not lazy, f"{name} imports {lazy} inside a function: import them at the top"


@pytest.mark.parametrize("name", list(MODULES))
def test_heavy_libraries_are_imported_only_inside_functions(name: str) -> None:
    eager = [
        t
        for t, _, top, typing_only in imports(MODULES[name])
        if top and not typing_only and t.split(".")[0] in HEAVY
    ]
    assert not eager, f"{name} imports {eager} at startup"


@pytest.mark.parametrize("name", list(MODULES))
def test_no_underscore_name_is_taken_from_another_module(name: str) -> None:
    taken = [
        f"{t}.{n}"
        for t, names, _ in nemori_imports(name)
        for n in names
        if n.startswith("_") and not n.startswith("__")
    ]
    assert not taken


def test_no_module_reaches_into_another_ones_private_names() -> None:
    """`memory._clean(...)` style access: an attribute starting with one underscore, on
    anything but self/cls, used outside the module that defines it."""
    found = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {
            n.name
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        } | {
            n.attr
            for n in ast.walk(tree)
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
        } | {
            n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and node.attr not in defined
                and node.attr not in STDLIB_UNDERSCORED
            ):
                found.append(f"{name}:{node.lineno} .{node.attr}")
    assert not found


def test_there_is_no_import_cycle() -> None:
    graph = {m: {t for t, _, _ in nemori_imports(m) if t in MODULES} for m in MODULES}

    def visit(node: str, path: list[str], done: set[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for nxt in sorted(graph[node]):
            cycle = visit(nxt, [*path, node], done)
            if cycle:
                return cycle
        done.add(node)
        return None

    done: set[str] = set()
    for m in sorted(graph):
        cycle = visit(m, [], done)
        assert cycle is None, " -> ".join(cycle or [])


@pytest.mark.parametrize("name", list(MODULES))
def test_no_module_is_over_400_lines(name: str) -> None:
    assert len(MODULES[name].read_text(encoding="utf-8").splitlines()) <= 400


ARCHITECTURE = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [m for m in MODULES if MODULES[m].name != "__init__.py"])
def test_every_module_is_in_the_architecture_table(name: str) -> None:
    path = MODULES[name]
    parts = path.relative_to(PACKAGE).parts
    suffixes = ("/".join(parts[i:]) for i in range(len(parts)))
    named = any(f"`{s}`" in ARCHITECTURE for s in suffixes)
    assert named, f"docs/architecture.md does not name {path.relative_to(PACKAGE)}"
