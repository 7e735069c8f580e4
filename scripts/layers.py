"""Draw the import graph of the engine and its front ends, and check its layers.

Every import counts, wherever it is written (a lazy import inside a
function is a dependency too). Modules are grouped into units: a
subpackage or top module of ``amrcheck`` (``amrcheck.metrics``,
``amrcheck.graph``), and ``amr_lsp`` as one. Each unit has a layer
(:data:`LAYERS`, bottom first); a unit may import units of its own layer
or below, never above, and no two units may import each other, directly
or round a circle. The package façade ``amrcheck/__init__.py`` re-exports
names from the whole engine and is above every engine layer.

    python scripts/layers.py            # the unit graph, upward imports, circles
    python scripts/layers.py --dot      # the unit graph as Graphviz DOT

Exit status 1 when there is an upward import, a circle or a unit with no
layer; 0 otherwise.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

#: the layers, bottom first, and the units in each
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "core",
        (
            "__about__",
            "_sources",
            "types",
            "span",
            "errors",
            "findings",
            "graph",
            "standardize",
            "canonical",
            "cache",
            "collector",
        ),
    ),
    ("reading", ("reading", "execution")),
    ("engine below the metrics", ("embeddings", "learned", "validation")),
    ("metrics", ("metrics",)),
    ("pairing", ("pairing",)),
    ("workflows", ("workflows", "search")),
    ("reports and benchmarks", ("render", "benchmarks")),
    ("training", ("training",)),
    ("facade", ("amrcheck",)),
    ("front ends", ("cli", "hooks", "amr_lsp")),
)
LAYER_OF = {unit: rank for rank, (_, units) in enumerate(LAYERS) for unit in units}
PACKAGES = ("amrcheck", "amr_lsp")


@dataclass(frozen=True, slots=True)
class Import:
    source: str  # the importing unit
    target: str  # the imported unit
    where: str  # path:line of the import


def unit(module: str) -> str:
    """``amrcheck.metrics.smatch`` → ``metrics``; ``amr_lsp.server`` → ``amr_lsp``."""
    parts = module.split(".")
    if parts[0] == "amrcheck":
        return parts[1] if len(parts) > 1 else "amrcheck"
    return parts[0]


def _module_name(path: Path, root: Path) -> tuple[str, str]:
    """The module ``path`` defines, and the package its relative imports start from."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        name = ".".join(parts[:-1])
        return name, name
    name = ".".join(parts)
    return name, name.rsplit(".", 1)[0]


def imports(root: Path) -> Iterator[Import]:
    """Every import between two units of the packages under ``root``."""
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            module, base = _module_name(path, root)
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            for node in ast.walk(tree):
                if not isinstance(node, ast.Import | ast.ImportFrom):
                    continue
                for target in _targets(node, base, root):
                    if target.split(".")[0] not in PACKAGES:
                        continue
                    source, imported = unit(module), unit(target)
                    if source != imported:
                        where = f"{path.relative_to(root)}:{node.lineno}"
                        yield Import(source, imported, where)


def _is_module(name: str, root: Path) -> bool:
    path = root.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def _targets(node: ast.Import | ast.ImportFrom, base: str, root: Path) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level == 0:
        module = node.module or ""
    else:
        parts = base.split(".")
        parts = parts[: len(parts) - (node.level - 1)]
        module = ".".join(parts + ([node.module] if node.module else []))
    # ``from amrcheck import metrics`` imports the unit it names;
    # ``from amrcheck import Corpus`` imports the façade
    names = (f"{module}.{alias.name}" for alias in node.names)
    return [module, *(name for name in names if _is_module(name, root))]


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one unit."""
    names = sorted(set(edges).union(*edges.values()))
    number = {name: i for i, name in enumerate(names)}
    pairs = [(number[a], number[b]) for a, targets in edges.items() for b in targets]
    rows, columns = zip(*pairs, strict=True) if pairs else ((), ())
    matrix = csr_matrix(([1] * len(pairs), (rows, columns)), (len(names),) * 2)
    _, labels = connected_components(matrix, directed=True, connection="strong")
    groups: dict[int, list[str]] = defaultdict(list)
    for name, label in zip(names, labels, strict=True):
        groups[int(label)].append(name)
    return sorted(group for group in groups.values() if len(group) > 1)


@dataclass(slots=True)
class Report:
    edges: dict[str, set[str]]
    upward: list[Import]
    unplaced: list[str]
    circles: list[list[str]]

    @property
    def clean(self) -> bool:
        return not (self.upward or self.unplaced or self.circles)


def check(root: Path) -> Report:
    edges: dict[str, set[str]] = defaultdict(set)
    upward: list[Import] = []
    units: set[str] = set()
    for found in imports(root):
        edges[found.source].add(found.target)
        units |= {found.source, found.target}
        below = LAYER_OF.get(found.source, -1) < LAYER_OF.get(found.target, -1)
        if below and found.source in LAYER_OF:
            upward.append(found)
    unplaced = sorted(u for u in units if u not in LAYER_OF)
    return Report(dict(edges), upward, unplaced, circles(edges))


def dot(report: Report) -> str:
    lines = ["digraph layers {", "  rankdir=BT;"]
    for rank, (name, members) in enumerate(LAYERS):
        present = [
            m
            for m in members
            if m in report.edges
            or any(m in targets for targets in report.edges.values())
        ]
        if present:
            lines.append(f'  subgraph cluster_{rank} {{ label="{name}";')
            lines += [f'    "{m}";' for m in present]
            lines.append("  }")
    for source in sorted(report.edges):
        lines += [f'  "{source}" -> "{t}";' for t in sorted(report.edges[source])]
    lines.append("}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).parents[1])
    parser.add_argument("--dot", action="store_true", help="print Graphviz DOT")
    options = parser.parse_args(argv)
    report = check(options.root)
    if options.dot:
        print(dot(report))
    else:
        for source in sorted(report.edges, key=lambda u: (LAYER_OF.get(u, -1), u)):
            layer = LAYERS[LAYER_OF[source]][0] if source in LAYER_OF else "?"
            print(f"{source} ({layer}) -> {', '.join(sorted(report.edges[source]))}")
        for found in report.upward:
            print(f"{found.where}: upward import: {found.source} -> {found.target}")
        for name in report.unplaced:
            print(f"unit with no layer: {name} (add it to LAYERS)")
        for circle in report.circles:
            print(f"import circle: {' -> '.join(circle)}")
        print(
            f"{len(report.circles)} circles, {len(report.upward)} upward imports, "
            f"{len(report.unplaced)} units without a layer"
        )
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
