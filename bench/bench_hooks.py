"""Bench (not a test): the pre-commit hooks on a commit that touches 200 graphs.

Builds a temporary annotation repository from the first 200 Little Prince
graphs, in two layouts, commits it, edits it, and times each hook's console
script as a subprocess (what pre-commit runs), median of ``--runs``:

* ``one file``: ``parser/lpp.amr`` (200 graphs, vs ``gold/lpp.amr`` and the
  baseline), ``gold/lpp.amr`` (200 graphs, vs its HEAD version, 10 edited),
  ``annotator2/lpp.amr`` (200 graphs, vs ``annotator1/lpp.amr``);
* ``200 files``: the same graphs, one per file (``parser/0001.amr`` ...), so
  per-file costs (reading, pairing, ``HEAD`` lookups) show.

Each hook gets the files of its gate; ``amr-check`` gets all the changed
files. ``pre-commit run`` (with ``repo: local``, ``language: system``
hooks, so no environment is built) is timed too, over all changed files.
Target: each hook under 2 s.

    python bench/bench_hooks.py [--runs 5] [--graphs 200]
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from bench.command_line import runs_parser  # noqa: E402

CORPUS = REPO.parent / "shared" / "data" / "little_prince" / "amr-bank-struct-v3.0.txt"

CONFIG = """\
[check]
ignore = ["W"]

[[regress.reference]]
files = "parser/{doc}.amr"
reference = "gold/{doc}.amr"
min-f1 = 0.5
max-drop = 0.5

[[regress.head]]
files = "gold/*.amr"
max-changed-graphs = 1000
min-f1-vs-head = 0.5

[[iaa]]
files = ["annotator1/{doc}.amr", "annotator2/{doc}.amr"]
min-mean-f1 = 0.5
"""

PRE_COMMIT_CONFIG = """\
repos:
  - repo: local
    hooks:
""" + "".join(
    f"      - {{id: {hook}, name: {hook}, entry: {hook}, language: system, "
    "files: '\\.amr$', require_serial: true}\n"
    for hook in ("amr-check", "amr-regress", "amr-iaa")
)


def blocks(count: int) -> list[str]:
    text = CORPUS.read_text(encoding="utf-8")
    found = [b for b in text.split("\n\n") if "# ::id" in b]
    return [b.strip() + "\n" for b in found[:count]]


def perturb(graphs: list[str], every: int, old: str, new: str) -> list[str]:
    """``old`` -> ``new`` in every ``every``-th graph (a parse error, an edit)."""
    return [
        g.replace(old, new, 1) if i % every == 0 else g for i, g in enumerate(graphs)
    ]


def env(tmp: Path) -> dict[str, str]:
    gitconfig = tmp / "gitconfig"
    gitconfig.touch()
    return dict(
        os.environ,
        GIT_CONFIG_GLOBAL=str(gitconfig),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.org",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.org",
        PRE_COMMIT_HOME=str(tmp / "pre-commit-home"),
        PRE_COMMIT_COLOR="never",
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]),
    )


def write(root: Path, folder: str, graphs: list[str], split: bool) -> list[str]:
    (root / folder).mkdir(parents=True, exist_ok=True)
    if not split:
        (root / folder / "lpp.amr").write_text("\n".join(graphs), encoding="utf-8")
        return [f"{folder}/lpp.amr"]
    names = []
    for number, graph in enumerate(graphs, 1):
        name = f"{folder}/{number:04d}.amr"
        (root / name).write_text(graph, encoding="utf-8")
        names.append(name)
    return names


def build(
    root: Path, graphs: list[str], split: bool, environ: dict[str, str]
) -> dict[str, list[str]]:
    """The repository, committed with its baseline; then the commit's edits."""

    def run(*args: str) -> None:
        subprocess.run(args, cwd=root, env=environ, check=True, capture_output=True)

    root.mkdir(parents=True)
    run("git", "init", "-q")
    (root / ".amrcheck.toml").write_text(CONFIG)
    (root / ".pre-commit-config.yaml").write_text(PRE_COMMIT_CONFIG)
    write(root, "gold", graphs, split)
    write(root, "parser", perturb(graphs, 7, ":ARG0 ", ":ARG1 "), split)
    write(root, "annotator1", graphs, split)
    write(root, "annotator2", perturb(graphs, 5, ":ARG1 ", ":ARG2 "), split)
    run("amrcheck", "baseline")
    run("git", "add", "-A")
    run("git", "commit", "-q", "-m", "annotations")
    # the commit: a worse parse, 10 edited gold graphs, a revised annotation
    return {
        "amr-regress": [
            *write(root, "parser", perturb(graphs, 3, ":ARG0 ", ":ARG1 "), split),
            *write(root, "gold", perturb(graphs, 20, ":ARG1 ", ":ARG0 "), split),
        ],
        "amr-iaa": write(
            root, "annotator2", perturb(graphs, 4, ":ARG1 ", ":ARG2 "), split
        ),
    }


def timed(cmd: list[str], cwd: Path, environ: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=cwd, env=environ, capture_output=True, text=True)
        times.append(time.perf_counter() - start)
        if proc.returncode not in (0, 1):
            raise SystemExit(
                f"{' '.join(cmd[:3])} ... failed:\n{proc.stdout}{proc.stderr}"
            )
    return times


def report(label: str, times: list[float]) -> None:
    print(
        f"| {label} | **{statistics.median(times):.3f} s** "
        f"(min {min(times):.3f}, max {max(times):.3f}) |"
    )


def main() -> None:
    parser = runs_parser(__doc__, runs=5)
    parser.add_argument("--graphs", type=int, default=200)
    parser.add_argument(
        "--no-pre-commit", action="store_true", help="skip timing `pre-commit run`"
    )
    args = parser.parse_args()
    graphs = blocks(args.graphs)
    tmp = Path(tempfile.mkdtemp(prefix="bench-hooks-"))
    try:
        environ = env(tmp)
        print(f"{len(graphs)} graphs per file set, median of {args.runs} runs\n")
        print("| layout: hook (files) | time |\n|---|---|")
        for split in (False, True):
            layout = "200 files" if split else "one file"
            root = tmp / layout.replace(" ", "-")
            files = build(root, graphs, split, environ)
            files["amr-check"] = files["amr-regress"] + files["amr-iaa"]
            for hook in ("amr-check", "amr-regress", "amr-iaa"):
                names = files[hook]
                times = timed([hook, *names], root, environ, args.runs)
                count = f"{len(names)} file{'' if len(names) == 1 else 's'}"
                report(f"{layout}: `{hook}` ({count})", times)
            if not args.no_pre_commit and shutil.which("pre-commit"):
                cmd = ["pre-commit", "run", "--files", *files["amr-check"]]
                report(
                    f"{layout}: `pre-commit run`, all three",
                    timed(cmd, root, environ, args.runs),
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
