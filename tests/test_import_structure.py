"""The import structure of the product: no cycles, and no function-local import without a reason.

A cycle hidden behind a function-local import still ties two modules together: neither can
be read, moved or tested alone, and the order they load in decides whether it works. Both
checks read the source with `ast`, so they see imports that never run in a test.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("gridservice", "gridclient", "components", "bench")


@dataclass(frozen=True)
class ImportSite:
    """One import statement: the module it sits in, where, what it names, and its comment."""

    module: str
    path: Path
    line: int
    targets: tuple[str, ...]
    in_function: bool
    commented: bool


def module_name(path: Path, root: Path = ROOT) -> str:
    """Return the dotted module name of a source file under `root`."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[Path]:
    """Return every Python source file of the given packages, in a stable order."""
    return sorted(path for package in packages for path in (root / package).rglob("*.py"))


def _resolve_from(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """Return the absolute module an `import from` statement reads from."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _targets(module: str, is_package: bool, node: ast.Import | ast.ImportFrom) -> tuple[str, ...]:
    """Return what a statement names: `from a import b` names `a.b`, which is a module or not."""
    if isinstance(node, ast.Import):
        return tuple(alias.name for alias in node.names)
    source = _resolve_from(module, is_package, node)
    return tuple(f"{source}.{alias.name}" for alias in node.names)


def _walk(node: ast.AST, in_function: bool, type_checking: bool) -> Iterator[tuple[ast.AST, bool]]:
    """Yield each import node with whether it sits in a function; skips TYPE_CHECKING blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and not type_checking and _is_type_checking(child.test):
            continue  # typing-only imports never run, so they tie nothing together
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, in_function
        inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
        yield from _walk(child, inner, type_checking)


def _is_type_checking(test: ast.expr) -> bool:
    """Return whether an `if` tests `TYPE_CHECKING` (bare or as `typing.TYPE_CHECKING`)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def import_sites(path: Path, root: Path = ROOT) -> list[ImportSite]:
    """Return every import statement of one file, module-level and function-local."""
    text = path.read_text()
    lines = text.splitlines()
    module = module_name(path, root)
    is_package = path.name == "__init__.py"
    found = [
        (node, in_function)
        for node, in_function in _walk(ast.parse(text), False, False)
        if isinstance(node, ast.Import | ast.ImportFrom)
    ]
    import_lines = {
        line for node, _ in found for line in range(node.lineno, (node.end_lineno or 0) + 1)
    }
    sites = []
    for node, in_function in found:
        first, last = node.lineno, node.end_lineno or node.lineno
        # A reason sits on a statement's lines or just above its run of imports (a run may
        # hold a blank line: the formatter parts third-party from first-party imports).
        top = first
        while top - 1 in import_lines or (
            top >= 3 and not lines[top - 2].strip() and top - 2 in import_lines
        ):
            top -= 1
        above = top >= 2 and lines[top - 2].lstrip().startswith("#")
        commented = above or any("#" in line for line in lines[top - 1 : last])
        targets = _targets(module, is_package, node)
        sites.append(ImportSite(module, path, first, targets, in_function, commented))
    return sites


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, set[str]]:
    """Return each module's set of imported modules within `packages`."""
    sites = [site for path in source_files(root, packages) for site in import_sites(path, root)]
    known = {module_name(path, root) for path in source_files(root, packages)}
    graph: dict[str, set[str]] = {module: set() for module in known}
    for site in sites:
        for target in site.targets:
            # `from a import b` loads the module `a.b` when there is one, else `a` itself.
            loaded = target if target in known else target.rpartition(".")[0]
            if loaded in known and loaded != site.module:
                graph[site.module].add(loaded)
    return graph


def find_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return one cycle (as a closed path of module names) per strongly connected group."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        # Tarjan's algorithm; the graph has a few hundred nodes, so recursion depth is fine.
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                connect(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return [_cycle_within(graph, set(group)) for group in groups]


def _cycle_within(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """Return a closed path through a strongly connected group, from its first member."""
    start = min(group)
    path, seen, node = [start], {start}, start
    while True:
        following = sorted(target for target in graph[node] if target in group)
        closing = start in following
        if closing:
            return [*path, start]
        node = next((target for target in following if target not in seen), following[0])
        if node in seen:
            return [*path[path.index(node) :], node]
        path.append(node)
        seen.add(node)


def unexplained_local_imports(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> list[str]:
    """Return 'path:line module' for each function-local import lacking a reason comment."""
    found = []
    for path in source_files(root, packages):
        for site in import_sites(path, root):
            if site.in_function and not site.commented:
                relative = path.relative_to(root)
                found.append(f"{relative}:{site.line} imports {site.targets[0]}")
    return found


def test_no_import_cycles() -> None:
    """No module of the product reaches itself through imports, at any depth."""
    cycles = find_cycles(import_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


def test_function_local_imports_say_why() -> None:
    """A function-local import carries a comment saying why it is not at the top."""
    assert not unexplained_local_imports(), "\n".join(unexplained_local_imports())


def test_a_cycle_through_a_local_import_is_named(tmp_path: Path) -> None:
    """A cycle hidden behind a function-local import is found and named, module by module."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "low.py").write_text("def f():\n    from pkg.high import g\n    return g\n")
    (package / "high.py").write_text("from . import low\n\ng = low\n")
    (package / "apart.py").write_text("import pkg.low\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert find_cycles(graph) == [["pkg.high", "pkg.low", "pkg.high"]]
    assert unexplained_local_imports(tmp_path, ("pkg",)) == ["pkg/low.py:2 imports pkg.high.g"]


# The service's top level keeps its entry points only; everything else lives in a room that
# says what it holds (runtime, security, catalogue, geography, routers, store, ...).
SERVICE_ENTRY_POINTS = {"__init__.py", "__main__.py", "app.py", "cli.py", "settings.py"}


def test_the_service_top_level_holds_only_its_entry_points() -> None:
    """A module added beside `gridservice/app.py` is named: it belongs in one of the rooms."""
    loose = sorted(
        path.name
        for path in (ROOT / "gridservice").glob("*.py")
        if path.name not in SERVICE_ENTRY_POINTS
    )
    assert not loose, f"modules outside the service's rooms (see docs/ARCHITECTURE.md): {loose}"
