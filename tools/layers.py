"""The import graph of parlour, its numbers, and the picture of its layers (``make layers``).

``python tools/layers.py [--root DIR] [--svg FILE] [--json FILE]`` reads every module under
``parlour/`` (following the links to the top-level folders) with ``ast``, and prints:

| number | what it counts |
|---|---|
| modules | Python modules in ``parlour`` |
| imports in functions | ``import`` statements inside a function or method |
| cycles (all imports) | strongly connected groups of modules, counting imports in functions and under ``TYPE_CHECKING`` |
| cycles (run-time imports) | the same, without ``TYPE_CHECKING`` imports |
| training package | files in ``parlour.train``, the imports among them, and its import levels (the longest chain of imports inside it, plus one) |
| cfg stops | functions that take a training config (a parameter ``cfg``), the files holding them, and the climbs: imports made inside those functions (the code reaching back up to a module above it) |
| game lookups | calls of ``get_game(...)`` outside the registry: places where a game name is resolved again |

``--svg FILE`` draws the package graph (one box per package, a row per layer of
``.importlinter``, an arrow per imported package pair) as an SVG with no dependency.
"""

from __future__ import annotations

import argparse
import ast
import configparser
import json
import sys
from collections import defaultdict
from pathlib import Path

PACKAGE = "parlour"


def modules_of(root: Path) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` under ``root/parlour`` (links followed)."""
    found: dict[str, Path] = {}
    base = root / PACKAGE
    for path in sorted(base.rglob("*.py")) + sorted(_linked(base)):
        rel = path.relative_to(base).with_suffix("")
        if "__pycache__" in rel.parts:
            continue
        parts = [PACKAGE, *rel.parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _linked(base: Path) -> list[Path]:
    # Path.rglob does not descend into linked folders before Python 3.13
    out: list[Path] = []
    for child in base.iterdir():
        if child.is_symlink() and child.is_dir():
            out += [child / p.relative_to(child.resolve()) for p in child.resolve().rglob("*.py")]
    return out


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool) -> None:
        self.module, self.is_package = module, is_package
        self.found: list[tuple[str, bool, bool]] = []  # (target, in function, type checking)
        self.depth = 0
        self.type_checking = 0

    def _target(self, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        parts = self.module.split(".")
        if not self.is_package:
            parts = parts[:-1]
        parts = parts[: len(parts) - node.level + 1]
        return ".".join(parts + ([node.module] if node.module else []))

    def visit_FunctionDef(self, node: ast.AST) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_If(self, node: ast.If) -> None:
        test = ast.unparse(node.test)
        if test in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            self.type_checking += 1
            for child in node.body:
                self.visit(child)
            self.type_checking -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.append((alias.name, self.depth > 0, self.type_checking > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._target(node)
        for alias in node.names:
            self.found.append((f"{base}.{alias.name}", self.depth > 0, self.type_checking > 0))
            self.found.append((base, self.depth > 0, self.type_checking > 0))

    def visit_Call(self, node: ast.Call) -> None:
        # importlib.import_module("parlour.x") with a constant name is an import too
        name = ast.unparse(node.func)
        if name.endswith("import_module") and node.args and isinstance(node.args[0], ast.Constant):
            value = node.args[0].value
            if isinstance(value, str):
                self.found.append((value, self.depth > 0, self.type_checking > 0))
        self.generic_visit(node)


def graph(mods: dict[str, Path]) -> dict[str, list[tuple[str, bool, bool]]]:
    """Module -> [(imported parlour module, in a function, under TYPE_CHECKING)]."""
    edges: dict[str, list[tuple[str, bool, bool]]] = {}
    for name, path in mods.items():
        visitor = _Imports(name, path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(), str(path)))
        seen: dict[str, tuple[bool, bool]] = {}
        for target, in_function, tc in visitor.found:
            while target and target not in mods:
                target = target.rpartition(".")[0]
            if not target or target == name or name.startswith(target + "."):
                continue  # an import of the package a module sits in is not an edge
            old = seen.get(target)
            # keep the strongest kind: module-level run-time < in function < type checking
            if old is None or (old[1] and not tc) or (old[0] and not in_function and not tc):
                seen[target] = (in_function, tc)
        edges[name] = [(t, f, tc) for t, (f, tc) in sorted(seen.items())]
    return edges


def cycles(edges: dict[str, list[tuple[str, bool, bool]]], type_checking: bool) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan)."""
    adj = {m: [t for t, _, tc in out if type_checking or not tc] for m, out in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    groups: list[list[str]] = []
    sys.setrecursionlimit(10000)

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in adj.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(adj):
        if v not in index:
            visit(v)
    return sorted(groups)


def levels(edges: dict[str, list[tuple[str, bool, bool]]], prefix: str) -> tuple[int, int, int]:
    """(files, imports among them, import levels) of the modules under ``prefix``: the levels
    are the longest chain of imports inside the package, a cycle counting as one level."""
    inside = {m for m in edges if m == prefix or m.startswith(prefix + ".")}
    sub = {m: [(t, f, tc) for t, f, tc in edges[m] if t in inside] for m in inside}
    n_imports = sum(len(v) for v in sub.values())
    group_of = {m: m for m in inside}
    for group in cycles(sub, type_checking=True):
        for m in group:
            group_of[m] = group[0]
    adj: dict[str, set[str]] = defaultdict(set)
    for m, out in sub.items():
        adj[group_of[m]].update(group_of[t] for t, _, _ in out if group_of[t] != group_of[m])
    depth: dict[str, int] = {}

    def level(g: str) -> int:
        if g not in depth:
            depth[g] = 1 + max((level(t) for t in adj[g]), default=0)
        return depth[g]

    return len(inside), n_imports, max((level(g) for g in set(group_of.values())), default=0)


def function_imports(mods: dict[str, Path]) -> tuple[int, int]:
    """(import statements inside functions, those importing parlour)."""
    found: dict[int, bool] = {}  # id of the statement -> imports parlour
    trees = [ast.parse(path.read_text()) for path in mods.values()]  # (alive: ids stay unique)
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Import):
                        found[id(sub)] = any(a.name.startswith(PACKAGE) for a in sub.names)
                    elif isinstance(sub, ast.ImportFrom):
                        found[id(sub)] = (sub.module or "").startswith(PACKAGE)
    return len(found), sum(found.values())


def cfg_stops(mods: dict[str, Path]) -> tuple[int, int, int]:
    """(functions taking ``cfg``, files holding them, imports made inside those functions)."""
    stops, files, climbs = 0, set(), 0
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                args = [a.arg for a in node.args.args + node.args.kwonlyargs]
                if "cfg" in args:
                    stops += 1
                    files.add(name)
                    climbs += sum(
                        1
                        for sub in ast.walk(node)
                        if isinstance(sub, ast.ImportFrom)
                        and (sub.module or "").startswith(PACKAGE)
                    )
    return stops, len(files), climbs


def game_lookups(mods: dict[str, Path]) -> int:
    count = 0
    for name, path in mods.items():
        if name == "parlour.games":  # (the registry itself)
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            func = node.func if isinstance(node, ast.Call) else None
            name = getattr(func, "attr", None) or getattr(func, "id", None)
            if name == "get_game":
                count += 1
    return count


def numbers(root: Path) -> dict[str, object]:
    mods = modules_of(root)
    edges = graph(mods)
    all_cycles = cycles(edges, type_checking=True)
    run_cycles = cycles(edges, type_checking=False)
    files, imports, depth = levels(edges, "parlour.train")
    stops, stop_files, climbs = cfg_stops(mods)
    return {
        "modules": len(mods),
        "imports in functions": function_imports(mods)[0],
        "parlour imports in functions": function_imports(mods)[1],
        "cycles (all imports)": len(all_cycles),
        "modules in cycles (all imports)": sum(len(c) for c in all_cycles),
        "cycles (run-time imports)": len(run_cycles),
        "modules in cycles (run-time imports)": sum(len(c) for c in run_cycles),
        "cycle groups": all_cycles,
        "training package files": files,
        "training package imports": imports,
        "training package import levels": depth,
        "cfg stops": stops,
        "cfg files": stop_files,
        "cfg climbs": climbs,
        "game lookups": game_lookups(mods),
    }


def read_layers(root: Path) -> list[list[str]]:
    """The layers of the ``.importlinter`` layers contract, top first (siblings in a row)."""
    parser = configparser.ConfigParser()
    parser.read(root / ".importlinter")
    for section in parser.sections():
        if parser[section].get("type") == "layers":
            rows = [r.strip() for r in parser[section]["layers"].strip().splitlines() if r.strip()]
            return [[p.strip() for p in row.replace(":", "|").split("|")] for row in rows]
    return []


def package_edges(root: Path, packages: list[str]) -> set[tuple[str, str]]:
    edges = graph(modules_of(root))

    def owner(m: str) -> str | None:
        best = [p for p in packages if m == p or m.startswith(p + ".")]
        return max(best, key=len) if best else None

    out = set()
    for m, targets in edges.items():
        a = owner(m)
        for t, _, _ in targets:
            b = owner(t)
            if a and b and a != b:
                out.add((a, b))
    return out


def svg(root: Path) -> str:
    """The layers as rows of boxes (top: apps), an arrow per package that imports another.

    Arrows are drawn orthogonally so that none crosses a box: each leaves the bottom of the
    importing package (the top, for an upward import), runs along the gap under its row, down a
    lane of its own beside the rows it passes, along the gap above its target's row and into the
    target's top. An upward import (one ``lint-imports`` refuses) is red."""
    rows = read_layers(root)
    flat = [p for r in rows for p in r]
    row_of = {p: i for i, r in enumerate(rows) for p in r}
    edges = sorted(package_edges(root, flat), key=lambda e: (row_of[e[0]], row_of[e[1]], e))
    box_w, box_h, gap_x, pad, lane_gap, step = 150, 34, 24, 24, 18, 6
    # the boxes' x (rows centred on one axis) and each arrow's end points on them
    centre = pad + max(len(r) for r in rows) * (box_w + gap_x) / 2 + 60
    x_of: dict[str, float] = {}
    for row in rows:
        x0 = centre - (len(row) * (box_w + gap_x) - gap_x) / 2
        for j, pkg in enumerate(row):
            x_of[pkg] = x0 + j * (box_w + gap_x)
    outs: dict[str, list[int]] = defaultdict(list)
    ins: dict[str, list[int]] = defaultdict(list)
    for k, (a, b) in enumerate(edges):
        outs[a].append(k)
        ins[b].append(k)

    def spread(pkg: str, ks: list[int], k: int) -> float:
        ordered = sorted(ks, key=lambda i: x_of[edges[i][1] if edges[i][0] == pkg else edges[i][0]])
        return x_of[pkg] + box_w * (ordered.index(k) + 1) / (len(ordered) + 1)

    # the gaps under each row: one track per arrow running along it
    tracks: dict[int, list[tuple[int, str]]] = defaultdict(list)  # gap below row i -> arrows
    for k, (a, b) in enumerate(edges):
        ra, rb = row_of[a], row_of[b]
        down = rb > ra
        tracks[ra if down else ra - 1].append((k, "out"))
        if abs(rb - ra) > 1:
            tracks[rb - 1 if down else rb].append((k, "in"))
    gap_h = {i: max(40, step * (len(tracks[i]) + 2)) for i in range(len(rows))}
    top = pad + 40
    row_y: list[float] = []
    y = top
    for i in range(len(rows)):
        row_y.append(y)
        y += box_h + gap_h[i]
    height = y - gap_h[len(rows) - 1] + pad + 60
    track_y = {
        (i, k, part): row_y[i] + box_h + step * (n + 1)
        for i, ts in tracks.items()
        for n, (k, part) in enumerate(ts)
    }
    # lanes beside the rows for arrows that pass rows: left of the boxes for targets left of the
    # axis, right of them for those right of it, the side with fewer lanes for those on it
    extent_l = min(x_of.values()) - lane_gap
    extent_r = max(x + box_w for x in x_of.values()) + lane_gap
    lanes: dict[int, float] = {}
    n_left = n_right = 0
    for k, (a, b) in enumerate(edges):
        if abs(row_of[b] - row_of[a]) > 1:
            passed = rows[min(row_of[a], row_of[b]) + 1 : max(row_of[a], row_of[b])]
            left = min(x_of[p] for r in passed for p in r) - lane_gap
            right = max(x_of[p] + box_w for r in passed for p in r) + lane_gap
            middle = x_of[b] + box_w / 2 - centre
            if middle < -1 or (abs(middle) <= 1 and n_left < n_right):
                lanes[k] = left - step * n_left
                n_left += 1
            else:
                lanes[k] = right + step * n_right
                n_right += 1
    width = max([extent_r + pad, *[x + pad for x in lanes.values()]])
    shift = max(0.0, pad - min([extent_l, *lanes.values()]))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + shift:.0f}" '
        f'height="{height:.0f}" font-family="sans-serif" font-size="13">',
        '<defs><marker id="a" markerWidth="7" markerHeight="7" refX="6" refY="3.5" '
        'orient="auto"><path d="M0,0 L7,3.5 L0,7 z" fill="#666"/></marker>'
        '<marker id="u" markerWidth="7" markerHeight="7" refX="6" refY="3.5" orient="auto">'
        '<path d="M0,0 L7,3.5 L0,7 z" fill="#c00"/></marker></defs>',
        f'<rect width="{width + shift:.0f}" height="{height:.0f}" fill="white"/>',
        f'<g transform="translate({shift:.0f},0)">',
        f'<text x="{centre:.0f}" y="{pad + 12}" text-anchor="middle" font-size="15" '
        'font-weight="bold">parlour: import layers (.importlinter)</text>',
    ]
    upward = 0
    for k, (a, b) in enumerate(edges):
        ra, rb = row_of[a], row_of[b]
        down = rb > ra
        upward += not down
        # (exits and entries 4 px apart: an exit never continues an entry of the box below)
        x1, x2 = spread(a, outs[a], k) + 4, spread(b, ins[b], k) - 4
        y1 = row_y[ra] + (box_h if down else 0)
        y2 = row_y[rb] + (0 if down else box_h)
        t1 = track_y[(ra if down else ra - 1, k, "out")]
        points = [(x1, y1), (x1, t1)]
        if k in lanes:
            t2 = track_y[(rb - 1 if down else rb, k, "in")]
            points += [(lanes[k], t1), (lanes[k], t2), (x2, t2)]
        else:
            points += [(x2, t1)]
        points.append((x2, y2))
        color, marker = ("#666", "a") if down else ("#c00", "u")
        path = " ".join(f"{x:.1f},{yy:.1f}" for x, yy in points)
        parts.append(
            f'<polyline points="{path}" fill="none" stroke="{color}" '
            f'stroke-width="{1 if down else 2}" marker-end="url(#{marker})" opacity="0.8">'
            f"<title>{a} imports {b}</title></polyline>"
        )
    for pkg, x in x_of.items():
        yy = row_y[row_of[pkg]]
        parts.append(
            f'<rect x="{x:.1f}" y="{yy:.1f}" width="{box_w}" height="{box_h}" rx="6" '
            f'fill="#eef3fb" stroke="#35a"/><text x="{x + box_w / 2:.1f}" y="{yy + 22:.1f}" '
            f'text-anchor="middle">{pkg}</text>'
        )
    legend = (
        f"{len(edges)} arrows: package A imports package B (any import: module level, in a "
        f"function, under TYPE_CHECKING); {upward} upward (red) break the layers"
    )
    parts.append(
        f'<text x="{centre:.0f}" y="{height - pad:.0f}" text-anchor="middle" font-size="12" '
        f'fill="#333">{legend}</text>'
    )
    parts += ["</g>", "</svg>"]
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--svg", type=Path, help="write the layer picture here")
    parser.add_argument("--json", type=Path, help="write the numbers here as JSON")
    args = parser.parse_args(argv)
    found = numbers(args.root)
    for key, value in found.items():
        print(f"{key}: {value}")
    if args.json:
        args.json.write_text(json.dumps(found, indent=1) + "\n")
    if args.svg:
        args.svg.write_text(svg(args.root))
    return 0


if __name__ == "__main__":
    sys.exit(main())
