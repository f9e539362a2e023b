"""The built distributions carry the front-end bundle, and the wheel works alone.

The bundle in ``langfinger_widget/static/`` is gitignored and produced by
``npm run build`` (hatch-jupyter-builder runs it when it is missing), so it is
easy to ship a wheel without it: then the widget shows nothing. This test
builds the wheel and the sdist the way a release would, looks inside both, and
installs the wheel into a clean virtual environment (no system packages, not
the checkout) to import the package and show the widget from there.
"""

from __future__ import annotations

import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.packaging, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
BUNDLE = "langfinger_widget/static/widget.js"


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, (
        f"{' '.join(cmd)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    )
    return proc


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Build the wheel and the sdist with hatchling (its build hooks included)."""
    out = tmp_path_factory.mktemp("dist")
    _run(
        [sys.executable, "-m", "hatchling", "build", "-t", "wheel", "-t", "sdist", "-d", str(out)],
        ROOT,
    )
    return out


def _one(dist: Path, pattern: str) -> Path:
    found = sorted(dist.glob(pattern))
    assert len(found) == 1, f"expected one {pattern} in {dist}, found {found}"
    return found[0]


def test_wheel_and_sdist_contain_the_bundle(dist: Path) -> None:
    wheel = _one(dist, "langfinger_widget-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert BUNDLE in names, f"{BUNDLE} missing from {wheel.name}"
    assert "langfinger_widget/__init__.py" in names
    # The game server (the [server] extra) and the pages it serves: the same bundle, driven
    # by the online page's script.
    assert {"langfinger_widget/server/app.py", "langfinger_widget/static/online-page.js",
            "langfinger_widget/static/online.css"} <= names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    scripts = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "langfinger = langfinger_widget.server.cli:main" in scripts
    # Test files, node_modules and the sources of the bundle stay out of the wheel.
    assert not any(n.startswith(("tests/", "node_modules/", "js/")) for n in names)

    sdist = _one(dist, "langfinger_widget-*.tar.gz")
    with tarfile.open(sdist) as tar:
        members = {m.name.split("/", 1)[1] for m in tar.getmembers() if "/" in m.name}
    assert BUNDLE in members, f"{BUNDLE} missing from {sdist.name}"
    assert "pyproject.toml" in members and "package.json" in members
    assert not any(
        m.startswith(("node_modules/", ".venv/", "tests/e2e/artifacts/")) for m in members
    )


def test_wheel_in_clean_venv(dist: Path, tmp_path: Path) -> None:
    wheel = _one(dist, "langfinger_widget-*.whl")
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], tmp_path)
    python = venv / "bin" / "python"
    # No extra: anywidget is a dependency, so `pip install langfinger-widget` gives a board.
    _run([str(python), "-m", "pip", "install", "--quiet", str(wheel)], tmp_path)
    check = textwrap.dedent(
        """
        import importlib.resources, pathlib, sys
        import langfinger_widget as lf
        here = pathlib.Path(lf.__file__).resolve()
        assert pathlib.Path(sys.prefix).resolve() in here.parents, here  # not the checkout
        bundle = importlib.resources.files("langfinger_widget") / "static" / "widget.js"
        assert bundle.is_file() and len(bundle.read_bytes()) > 1000, bundle
        # The widget serves the installed bundle (not the "bundle not built" fallback).
        w = lf.LangfingerWidget(players=3, seed=1, seat=0, bots={1: "random"}, autoplay=False)
        assert str(w._esm) == bundle.read_text(), "the widget does not serve static/widget.js"
        state = w.get_state()
        assert state["view"]["seat"] == 0 and state["legal"], state["legal"]
        assert "_repr_mimebundle_" in dir(w) and w._repr_mimebundle_()
        print("ok", here)
        """
    )
    # Run from an empty directory so that the checkout cannot shadow the installed package.
    proc = _run([str(python), "-c", check], tmp_path)
    assert proc.stdout.startswith("ok "), proc.stdout
    assert str(ROOT) not in proc.stdout
