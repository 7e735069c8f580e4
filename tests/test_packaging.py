"""``python -m build`` makes an sdist and a wheel that hold the whole package.

Built as a user would (``python -m build``: the sdist first, then the wheel
from the unpacked sdist, so the sdist is proven to hold what a build needs),
into a temp folder, asked to compile (``AMRCHECK_COMPILE=1``) on a machine
without a C compiler (``CC`` is ``/bin/false``): the build falls back to
pure Python (``setup.py``) and the wheel is ``py3-none-any``. The wheel is
then installed with ``--no-deps`` into a fresh virtual environment that sees
this environment's packages (numpy, penman ...) but not this checkout, and
its console scripts run from there: entry points and package data are
checked for real, and it scores. The compiled build: tests/test_compiled.py.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.conftest import REPO

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

PROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGES = ("amrcheck", "amr_lsp")
EXAMPLE = REPO / "examples" / "annotations_v1.amr"


def _package_files() -> set[str]:
    """Every file of the packages that git would commit (data included)."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z", "--", *PACKAGES],
        cwd=REPO, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    return {name for name in listed if name and (REPO / name).is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    no_compiler = {**os.environ, "AMRCHECK_COMPILE": "1", "CC": "/bin/false"}
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
        capture_output=True, text=True, timeout=600, env=no_compiler,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no working C compiler: pure Python build" in done.stderr
    (sdist,) = out.glob("amrcheck-*.tar.gz")
    (wheel,) = out.glob("amrcheck-*-py3-none-any.whl")
    return {"sdist": sdist, "wheel": wheel}


def test_the_sdist_holds_the_packages_and_what_a_build_reads(
    built: dict[str, Path],
) -> None:
    with tarfile.open(built["sdist"]) as archive:
        names = {
            name.split("/", 1)[1]
            for name in archive.getnames()
            if "/" in name and archive.getmember(name).isfile()
        }
    needed = {"pyproject.toml", "setup.py", "README.md", "LICENSE", "PKG-INFO"}
    assert needed <= names
    assert _package_files() <= names
    # nothing of the tests, docs or the extension, nor mypyc's generated C;
    # setuptools' own metadata (setup.cfg: its build tags) aside
    strays = {
        name
        for name in names - _package_files() - needed
        if not name.startswith("amrcheck.egg-info/")
    } - {"setup.cfg", "MANIFEST.in"}
    assert strays == set(), strays


def test_the_wheel_holds_the_package_data_and_the_entry_points(
    built: dict[str, Path],
) -> None:
    with zipfile.ZipFile(built["wheel"]) as archive:
        names = set(archive.namelist())
        (listed,) = [n for n in names if n.endswith(".dist-info/entry_points.txt")]
        scripts = archive.read(listed).decode()
    package = {n for n in names if n.split("/")[0] in PACKAGES}
    assert package == _package_files()
    for data in (
        "amrcheck/data/propbank_frames.json",
        "amrcheck/data/wlmatch_v1.json",
        "amrcheck/learned/weights/amrsim.safetensors",
        "amrcheck/render/static/report.js",
        "amrcheck/py.typed",
    ):
        assert data in package
    for name, target in PROJECT["project"]["scripts"].items():
        assert f"{name} = {target}" in scripts


def test_the_wheel_installs_and_its_commands_run(
    built: dict[str, Path], tmp_path: Path
) -> None:
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
        check=True, timeout=300,
    )
    bin_dir = venv / "bin"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PATH"] = os.pathsep.join([str(bin_dir), env["PATH"]])
    install = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--no-deps", "--no-index",
         "--disable-pip-version-check", str(built["wheel"])],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert install.returncode == 0, install.stdout + install.stderr

    def run(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            command, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300
        )

    where = run(str(bin_dir / "python"), "-c",
                "import amrcheck, amr_lsp; print(amrcheck.__file__, amr_lsp.__file__)")
    assert where.returncode == 0, where.stderr
    assert all(Path(p).is_relative_to(venv) for p in where.stdout.split()), where.stdout
    for name in PROJECT["project"]["scripts"]:
        shown = run(str(bin_dir / name), "--help")
        assert shown.returncode == 0 and "usage" in shown.stdout.lower(), shown.stderr
    # the bundled PropBank frames: an unknown frame is a finding
    wrong = tmp_path / "wrong.amr"
    wrong.write_text("# ::id x\n(w / want-99 :ARG0 (b / boy))\n", encoding="utf-8")
    checked = run(str(bin_dir / "amrcheck"), "check", str(EXAMPLE), str(wrong))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert f"{wrong}:2:6: W301 unknown PropBank frame 'want-99'; known: want-01" in (
        checked.stdout
    )
    about: dict[str, str] = {}
    exec((REPO / "amrcheck" / "__about__.py").read_text(encoding="utf-8"), about)
    version = run(str(bin_dir / "amrcheck"), "--version")
    assert version.stdout.strip() == f"amrcheck {about['__version__']}"
    # it scores, as the checkout does: BAMBOO sts/main dev, paired by position
    sts = REPO.parent / "shared" / "data" / "bamboo" / "sts" / "main"
    score = ["score", str(sts / "src.dev.amr"), str(sts / "tgt.dev.amr"), "-q"]
    installed = run(str(bin_dir / "amrcheck"), *score)
    assert installed.returncode == 0, installed.stderr
    checkout = subprocess.run(
        [sys.executable, "-c", "from amrcheck.cli import main; main()", *score],
        capture_output=True, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=300,
    )
    assert 0.0 < float(installed.stdout) < 1.0
    assert installed.stdout == checkout.stdout
