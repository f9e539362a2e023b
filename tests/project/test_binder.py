"""The Binder recipe (binder/) is consistent with the project it installs.

The recipe itself is proved end to end by ``scripts/binder-check`` (a fresh
virtualenv running ``binder/postBuild`` and every notebook); these checks are
the quick ones that catch a recipe drifting away from pyproject.toml and
package.json: a renamed extra, a missing build script, an unpinned Python.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pytest brings tomli on 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "binder"


def _dependencies() -> list[str]:
    """The conda dependency lines of binder/environment.yml (no YAML library needed)."""
    text = (BINDER / "environment.yml").read_text()
    section = text.split("dependencies:", 1)[1]
    return re.findall(r"^\s+-\s+(\S+)\s*$", section, re.M)


def test_environment_pins_python_and_node_from_conda_forge() -> None:
    text = (BINDER / "environment.yml").read_text()
    assert re.search(r"^channels:\s*\n\s+-\s+conda-forge", text, re.M)
    deps = _dependencies()
    # repo2docker honours only an exact Python version, and postBuild needs Node and pip.
    python = [d for d in deps if d.startswith("python=")]
    assert len(python) == 1 and re.fullmatch(r"python=3\.1\d", python[0]), deps
    assert any(re.fullmatch(r"nodejs=\d+", d) for d in deps), deps
    assert "pip" in deps
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    floor = pyproject["project"]["requires-python"].removeprefix(">=")
    assert tuple(map(int, python[0][7:].split("."))) >= tuple(map(int, floor.split(".")))


def test_environment_refers_to_nothing_in_the_checkout() -> None:
    # repo2docker installs environment.yml before copying the repository in.
    text = (BINDER / "environment.yml").read_text()
    assert not re.search(r"^\s+-\s+(-e\s+)?\.\.?(/|\[|\s*$)", text, re.M)
    assert not re.search(r"^\s+-\s+-r\s", text, re.M)


def test_post_build_builds_the_bundle_and_installs_the_lab_extra() -> None:
    post = BINDER / "postBuild"
    text = post.read_text()
    assert text.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in text
    assert os.access(post, os.X_OK), "repo2docker runs postBuild only if it is executable"
    commands = [line.strip() for line in text.splitlines()
                if line.strip() and not line.lstrip().startswith("#")]
    build = next(i for i, c in enumerate(commands) if c.startswith("npm run build"))
    install = next(i for i, c in enumerate(commands) if "pip install" in c)
    assert any(c.startswith("npm ci") for c in commands[:build]), "install node modules first"
    assert build < install, "build the bundle before pip packs it into the package"
    extra = re.search(r'"\.\[([\w,]+)\]"', commands[install])
    assert extra, commands[install]
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = pyproject["project"]["optional-dependencies"]
    wanted = extra.group(1).split(",")
    assert all(name in extras for name in wanted), wanted
    # JupyterLab for every notebook, the server for notebooks/12_online (it starts one).
    assert {"lab", "server"} <= set(wanted), wanted
    installed = pyproject["project"]["dependencies"] + [d for name in wanted for d in extras[name]]
    assert any(d.startswith("anywidget") for d in installed), "the install must bring anywidget"
    scripts = json.loads((ROOT / "package.json").read_text())["scripts"]
    assert "build" in scripts
    assert (ROOT / "package-lock.json").is_file(), "npm ci needs the lock file"


def test_badge_opens_the_quickstart_in_jupyterlab() -> None:
    readme = (BINDER / "README.md").read_text()
    badge = re.search(r"\[!\[Binder\]\(https://mybinder\.org/badge_logo\.svg\)\]"
                      r"\(https://mybinder\.org/v2/gh/[^/]+/[^/]+/HEAD\?urlpath=lab/tree/"
                      r"(?P<path>[^)]+)\)", readme)
    assert badge, "binder/README.md lacks the badge line"
    assert (ROOT / badge.group("path")).is_file()


def test_binder_check_runs_post_build_and_every_notebook() -> None:
    script = ROOT / "scripts" / "binder-check"
    assert os.access(script, os.X_OK)
    text = script.read_text()
    assert "python3 -m venv" in text and "./binder/postBuild" in text
    assert "--nbval-lax" in text and "--nbval-current-env" in text and "notebooks/" in text
