"""The same graph written differently: what a rewrite must never change.

Three ways, each giving PENMAN text whose standard triples equal the
original's (used by the invariance tests of the canonical order and of
every metric):

* ``rename``: every variable renamed, the layout kept;
* ``shuffle``: the branches of every node in another order;
* ``relayout``: a fresh layout by penman from the graph's triples (given in
  another order), so re-entrant nodes may be defined at another of their
  places and edges may be written inverted (``:ARG0-of``).
"""

from __future__ import annotations

import random
from typing import Literal

import penman
from penman.models.amr import model as amr_model
from penman.tree import Tree

Rewrite = Literal["rename", "shuffle", "relayout"]
REWRITES: tuple[Rewrite, ...] = ("rename", "shuffle", "relayout")


def rewrite(text: str, how: Rewrite, rng: random.Random) -> str:
    """``text`` (one PENMAN graph) written differently, ``how``."""
    if how == "relayout":
        return _relayout(text, rng)
    tree = penman.parse(text)
    if how == "rename":
        variables = sorted({var for var, _ in tree.nodes()})
        names = rng.sample(range(10 * len(variables) + 10), len(variables))
        mapping = {v: f"r{n}" for v, n in zip(variables, names, strict=True)}
        return penman.format(Tree(_renamed(tree.node, mapping)))
    return penman.format(Tree(_shuffled(tree.node, rng)))


def _renamed(node: tuple, mapping: dict[str, str]) -> tuple:
    var, branches = node
    renamed = []
    for role, target in branches:
        if isinstance(target, tuple):
            target = _renamed(target, mapping)
        elif role != "/" and target in mapping:
            target = mapping[target]
        renamed.append((role, target))
    return mapping[var], renamed


def _shuffled(node: tuple, rng: random.Random) -> tuple:
    var, branches = node
    head = [b for b in branches if b[0] == "/"]
    rest = [
        (role, _shuffled(target, rng) if isinstance(target, tuple) else target)
        for role, target in branches
        if role != "/"
    ]
    rng.shuffle(rest)
    return var, head + rest


def _relayout(text: str, rng: random.Random) -> str:
    # penman's AMR model: its default model takes every role ending in -of
    # for an inverse, and would write (a :consist-of b) as (b :consist a)
    graph = penman.decode(text, model=amr_model)
    top = [t for t in graph.instances() if t.source == graph.top][:1]
    rest = [t for t in graph.triples if t not in top]
    rng.shuffle(rest)
    return penman.encode(penman.Graph(top + rest, top=graph.top), model=amr_model)
