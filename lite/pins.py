"""The site's pinned versions (lite/versions.toml), their lock (lite/lock.json) and its stamp.

Standard library only: ``./scripts/lite`` reads these before the build's virtualenv exists,
and the tests read the stamp to decide whether a prebuilt ``_site/`` is this checkout's.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info < (3, 11):  # tomllib; the site's tools need 3.11 anyway
    raise SystemExit("./scripts/lite needs Python 3.11 or newer (tomllib)")
import tomllib

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
VERSIONS = HERE / "versions.toml"
LOCK = HERE / "lock.json"
SITE = REPO / "_site"
STAMP_FILE = "build-stamp.json"
# Everything the site is made of: when one of these changes, a prebuilt _site/ is stale.
STAMPED = (
    "lite",
    "scripts/lite",
    "langfinger_widget",
    "js",
    "notebooks",
    "pyproject.toml",
    "package.json",
    "package-lock.json",
)
# Derived files that live among the stamped ones but are outputs, not inputs.
UNSTAMPED_PARTS = ("__pycache__", "static")


class PinError(SystemExit):
    """A pin, the lock or the Pyodide lock disagree: the build stops with this message."""

    def __init__(self, message: str) -> None:
        super().__init__(f"lite: {message}")


@dataclass(frozen=True)
class Pins:
    pyodide: str
    build: dict[str, str]
    site: dict[str, str]
    digest: str  # sha256 of versions.toml: the lock says which pins it was made from


def normalize(name: str) -> str:
    """PEP 503 name: what pip, Pyodide's lock and this file's keys agree on."""
    return "-".join(name.replace("_", "-").replace(".", "-").lower().split("-"))


def read_pins(path: Path = VERSIONS) -> Pins:
    raw = path.read_bytes()
    data = tomllib.loads(raw.decode())
    try:
        pyodide = str(data["pyodide"]["version"])
        build = {normalize(k): str(v) for k, v in data["build"].items()}
        site = {normalize(k): str(v) for k, v in data["site"].items()}
    except KeyError as exc:
        raise PinError(f"{path.name} needs [pyodide] version, [build] and [site]: {exc}") from exc
    return Pins(pyodide, build, site, hashlib.sha256(raw).hexdigest())


def read_lock(pins: Pins, path: Path = LOCK) -> dict[str, Any]:
    """The lock, refused when it was made from other pins than versions.toml's."""
    if not path.is_file():
        raise PinError(f"{path.relative_to(REPO)} is missing: run ./scripts/lite lock")
    lock: dict[str, Any] = json.loads(path.read_text())
    if lock.get("versions_sha256") != pins.digest:
        raise PinError(
            f"{path.relative_to(REPO)} was made from another lite/versions.toml: "
            "run ./scripts/lite lock"
        )
    return lock


def _stamped_files() -> list[Path]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", *STAMPED],
            cwd=REPO, capture_output=True, check=True,
        ).stdout  # fmt: skip
        files = [REPO / p for p in out.decode().split("\0") if p]
    except (OSError, subprocess.CalledProcessError):  # not a git checkout (an sdist)
        files = [p for s in STAMPED for p in (REPO / s).rglob("*")] + [REPO / s for s in STAMPED]
    return sorted(
        p
        for p in files
        if p.is_file() and not set(p.relative_to(REPO).parts) & set(UNSTAMPED_PARTS)
    )


def stamp() -> str:
    """A digest of every input of the site, as the checkout has them now (edits included)."""
    h = hashlib.sha256()
    for path in _stamped_files():
        h.update(path.relative_to(REPO).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def built_stamp(site: Path = SITE) -> str | None:
    """The stamp a built site carries (None: no site, or not a finished build)."""
    try:
        return str(json.loads((site / STAMP_FILE).read_text())["stamp"])
    except (OSError, ValueError, KeyError):
        return None


if __name__ == "__main__":
    print(stamp())
