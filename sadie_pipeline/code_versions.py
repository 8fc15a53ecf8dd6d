"""Code versions found by the code: the digest of a module's import closure, that is its source and,
recursively, the source of every project module it imports (`import a.b`, `from a import b` where b
is a module, relative imports, imports inside functions), with the packages whose `__init__` runs
on such an import. No list of modules is kept by hand, so a rule added in any module the code
imports changes the version. Pure: no Dagster, no I/O but reading the package's own files.

The import statements are picked out by a line-anchored pattern and parsed with ast: every asset's
version (catalog.py) then costs about 0.1 s where parsing whole files cost 1.7 s, paid by each run's and
step's process as it loads the definitions (`python benchmarks/code_versions.py`, floor 0.5 s). A file whose picked lines do not parse is parsed
whole. A line of a docstring that parses as an import only widens the closure. Not found: imports
after a `;` and imports by name at run time (importlib); the project has neither.

Not modulefinder: it compiles each module and follows every import into the standard library and
the third-party packages (Dagster, pandas: seconds spent on files that are not ours), and it finds
the submodule of `from a import b` by importing a. Reading our own files runs none of their code."""

from __future__ import annotations

import ast
import hashlib
import os
import re
from collections.abc import Iterable, Iterator
from functools import cache
from importlib.util import find_spec, resolve_name
from pathlib import Path

PACKAGE = "sadie_pipeline"
# An import statement at the start of a line: `from x import ...` (parenthesised or continued with
# backslashes over several lines) or `import ...`.
_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]*(?:\([^)]*\)|(?:[^\n\\]|\\\n)*)"
                     rb"|import[ \t]+(?:[^\n\\]|\\\n)*)", re.M)


@cache
def package_root() -> Path:
    """The package's folder. find_spec for the top package only: for a submodule it would import
    its parents, running their code only to hash it."""
    spec = find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(PACKAGE)
    return Path(next(iter(spec.submodule_search_locations)))


def module_file(name: str) -> str | None:
    """The file of a project module, relative to the package (module.py or package/__init__.py);
    None for a name that is no module (an attribute imported with `from a import b`) or not the
    project's. Strings and os.path: pathlib took half the time of a closure."""
    top, _, rest = name.partition(".")
    if top != PACKAGE:
        return None
    root, base = str(package_root()), rest.replace(".", os.sep)
    candidates = (f"{base}.py", os.path.join(base, "__init__.py")) if rest else ("__init__.py",)
    return next((c for c in candidates if os.path.isfile(os.path.join(root, c))), None)


@cache
def _module(name: str) -> tuple[str, bytes, frozenset[str]] | None:
    """A project module's file, its bytes and the project modules its imports may name: each file
    is read and parsed once, however many closures hold it."""
    path = module_file(name)
    if path is None:
        return None
    with open(os.path.join(package_root(), path), "rb") as fh:
        source = fh.read()
    package = name if os.path.basename(path) == "__init__.py" else name.rpartition(".")[0]
    return path, source, frozenset(_imported(_import_nodes(source), package))


def _import_nodes(source: bytes) -> list[ast.stmt]:
    """The import statements of a source, parsed: those the pattern picks out, at once (indented ones
    too); the whole file when they do not parse (a line taken from a string, a comment that ends
    a parenthesis early), so that a statement the pattern cut wrong is never lost."""
    try:
        return ast.parse(b"\n".join(m.group(0).strip() for m in _IMPORT.finditer(source))).body
    except SyntaxError:
        return [node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import | ast.ImportFrom)]


def _imported(nodes: Iterable[ast.stmt], package: str) -> Iterator[str]:
    """Every project module name the imports may refer to, with the packages above it (their
    `__init__` runs first). `from a import b` gives a and a.b: a.b counts if it is a module."""
    for node in nodes:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            try:
                base = resolve_name("." * node.level + (node.module or ""), package) if node.level else node.module
            except ImportError:  # beyond the top package: a line of a docstring
                continue
            names = [base, *(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] == PACKAGE:
                yield from (".".join(parts[:k]) for k in range(1, len(parts) + 1))


def _closure(modules: tuple[str, ...]) -> dict[str, tuple[str, bytes, frozenset[str]]]:
    seen: dict[str, tuple[str, bytes, frozenset[str]]] = {}
    todo = list(modules)
    while todo:
        name = todo.pop()
        if name not in seen and (found := _module(name)) is not None:
            seen[name] = found
            todo.extend(found[2])
    if missing := [m for m in modules if m not in seen]:
        raise ModuleNotFoundError(f"no project module {', '.join(missing)}")
    return seen


def import_closure(*modules: str) -> list[Path]:
    """The files of the modules and of every project module they import, recursively, sorted."""
    return [package_root() / path for path in sorted(path for path, _, _ in _closure(modules).values())]


def code_version(*modules: str, data: Iterable[Path] = ()) -> str:
    """The digest of the modules' import closure, and of data files the code reads by name (SQL):
    each file's path within the package, then its bytes."""
    sources = {path: source for path, source, _ in _closure(modules).values()}
    sources.update((str(path.relative_to(package_root())), path.read_bytes()) for path in data)
    digest = hashlib.sha256()
    for path in sorted(sources):
        source = sources[path]
        digest.update(f"{Path(path).as_posix()}\0{len(source)}\0".encode())
        digest.update(source)
    return digest.hexdigest()[:16]


# Data files a module reads by name, beyond the SQL beside a `queries` module (see data_files).
_READS_BY_NAME: dict[str, tuple[str, ...]] = {"sadie_pipeline.core.booking.catalogue": ("data/booking_engines.json",)}


def data_files(*modules: str) -> list[Path]:
    """The files the modules' import closure reads by name: the .sql files of the sql/ folder beside
    each `queries` module in it (sql_files.py), and the files of _READS_BY_NAME."""
    root, found = package_root(), set()
    for name, (path, _, _) in _closure(modules).items():
        if name.rpartition(".")[2] == "queries":
            found.update((root / path).parent.glob("sql/*.sql"))
        found.update(root / relative for relative in _READS_BY_NAME.get(name, ()))
    return sorted(found)


def module_version(*modules: str) -> str:
    """code_version of the modules with the data files their closure reads (data_files): the version
    of an asset whose module is given, when no narrower one is declared."""
    return code_version(*modules, data=data_files(*modules))
