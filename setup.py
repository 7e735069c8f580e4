"""The build: the hot modules compiled by mypyc where a C compiler works.

pyproject.toml holds the metadata; this file only adds the compiled
modules. mypyc compiles the very same typed sources (strict mypy clean) to
C extensions that Python imports in place of the ``.py`` files, which stay
in the wheel beside them. The compiled build is asked for with
``AMRCHECK_COMPILE=1``: compiling takes minutes, which every plain
``pip install .`` (the quickstart, pre-commit's own install of the hooks)
would otherwise pay. Where no working C compiler is found, or the
compilation fails, the build says so and the wheel is pure Python: the same
results, slower. An editable install (``pip install -e .``) is always pure,
so that edits to the sources take effect without a rebuild.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: where the time goes: reading, standardising, canonical numbering, the
#: alignment search and smatch's encoding of a pair, rematch's motifs, the
#: glue between them that a 5k-pair run spends time in (the search's problem
#: and climb, the chunked corpus reader, the pairing of two streams); UMR
#: reading and validation with the core types they build (graphs, spans,
#: findings: 1.39x the pure check of the UMR release, bench/RESULTS.md)
COMPILED = [
    "amrcheck/canonical.py",
    "amrcheck/standardize.py",
    "amrcheck/reading/_parse.py",
    "amrcheck/reading/metadata.py",
    "amrcheck/metrics/_search.py",
    "amrcheck/metrics/_encoding.py",
    "amrcheck/metrics/_motifs.py",
    "amrcheck/metrics/_align.py",
    "amrcheck/metrics/_smatch_core.py",
    "amrcheck/reading/corpus.py",
    "amrcheck/pairing/streaming.py",
    "amrcheck/span.py",
    "amrcheck/findings.py",
    "amrcheck/graph.py",
    "amrcheck/reading/umr.py",
    "amrcheck/validation/umr.py",
    "amrcheck/validation/filecheck.py",
    "amrcheck/workflows/umatch.py",
    "amrcheck/workflows/umr_score.py",
]

#: the commands that build extensions (not sdist, egg_info, dist_info ...)
_BUILDS = {"bdist_wheel", "build", "build_ext", "install"}
_EDITABLE = {"editable_wheel", "develop"}


def _say(message: str) -> None:
    print(f"amrcheck build: {message}", file=sys.stderr, flush=True)


def _compiler_works() -> bool:
    """Whether the C compiler Python's build would use compiles a file."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder, "probe.c")
        source.write_text("int amrcheck_probe(void) { return 0; }\n")
        try:
            compiler.compile([str(source)], output_dir=folder)
        except Exception:  # noqa: BLE001 -- any failure: no compiled build
            return False
    return True


def _compiled_modules() -> list[Any]:
    commands = set(sys.argv[1:])
    if not _BUILDS & commands:
        return []
    if os.environ.get("AMRCHECK_COMPILE") != "1":
        return []  # the default build: pure Python
    if _EDITABLE & commands:
        _say("editable install: pure Python (`pip install .` compiles)")
        return []
    if not _compiler_works():
        _say("no working C compiler: pure Python build (same results, slower)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _say("mypyc is not installed: pure Python build")
        return []
    return list(mypycify(COMPILED, opt_level="3"))


class _OptionalBuildExt(build_ext):
    """Builds the compiled modules, or none of them: a failure leaves the
    pure Python build (a half-compiled package would not import)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # noqa: BLE001 -- compiler errors vary
            _say(f"compiling failed ({error}): pure Python build")
            for extension in self.extensions:
                for folder in (self.build_lib, "."):
                    built = Path(folder, self.get_ext_filename(extension.name))
                    built.unlink(missing_ok=True)
            shutil.rmtree(self.build_temp, ignore_errors=True)


#: what only the compiled build needs (mypy ships mypyc), reported to pip as a
#: build requirement of that build alone (PEP 517's get_requires_for_build_*):
#: a plain `pip install .` does not download it
_COMPILE_REQUIRES = ["mypy>=2.4"] if os.environ.get("AMRCHECK_COMPILE") == "1" else []

setup(
    ext_modules=_compiled_modules(),
    cmdclass={"build_ext": _OptionalBuildExt},
    setup_requires=_COMPILE_REQUIRES,
)
