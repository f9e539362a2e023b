"""Put the site's wheels into Pyodide's lock file (pyodide-lock.json), so that the kernel
preloads them from the site itself: no micropip resolution and no network at run time.

Pyodide's npm package ships the runtime and a lock that names ~350 packages, but none of
their files (those live on a CDN). The site serves only the wheels pinned in
lite/versions.toml, so the lock written here lists exactly those: the entries Pyodide has get
our file and its sha256 (the version must be Pyodide's), the others (anywidget, this project)
get entries made from their wheel's metadata. Runs in the build's virtualenv (``packaging``).
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import dataclass
from email.parser import Parser
from pathlib import Path
from typing import Any

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from pins import PinError


def pyodide_environment(info: dict[str, Any]) -> dict[str, str]:
    """The environment markers of Pyodide's Python (pyodide-lock.json's "info" has its version)."""
    full = str(info["python"])
    return {
        "implementation_name": "cpython",
        "implementation_version": full,
        "os_name": "posix",
        "platform_machine": "wasm32",
        "platform_python_implementation": "CPython",
        "platform_release": "",
        "platform_system": "Emscripten",
        "platform_version": "",
        "python_full_version": full,
        "python_version": ".".join(full.split(".")[:2]),
        "sys_platform": "emscripten",
        "extra": "",
    }


@dataclass(frozen=True)
class Wheel:
    path: Path
    name: str  # canonical
    display_name: str
    version: str
    requires: tuple[Requirement, ...]  # without extras, markers evaluated for Pyodide
    imports: tuple[str, ...]

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


def read_wheel(path: Path, env: dict[str, str]) -> Wheel:
    with zipfile.ZipFile(path) as whl:
        names = whl.namelist()
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(whl.read(meta_name).decode())
        top_level = next((n for n in names if n.endswith(".dist-info/top_level.txt")), None)
        tops = whl.read(top_level).decode().split() if top_level else []
    if not path.name.endswith("-none-any.whl"):
        raise PinError(f"{path.name} is not a pure-Python wheel: the site serves only those")
    if not tops:  # no top_level.txt (hatchling, flit): the wheel's top-level packages/modules
        tops = sorted(
            {
                n.split("/")[0].removesuffix(".py")
                for n in names
                if not n.split("/")[0].endswith((".dist-info", ".data", ".pth"))
            }
        )
    requires = []
    for line in meta.get_all("Requires-Dist") or []:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(env):
            requires.append(req)
    return Wheel(
        path=path,
        name=canonicalize_name(meta["Name"]),
        display_name=meta["Name"],
        version=meta["Version"],
        requires=tuple(requires),
        imports=tuple(t for t in tops if t.isidentifier()),
    )


def check_pins_against_lock(site: dict[str, str], lock: dict[str, Any], pyodide: str) -> None:
    """A pinned package that Pyodide's lock lists must have the lock's version."""
    packages = lock["packages"]
    wrong = [
        f"{name} {version} (pyodide-lock.json has {packages[name]['version']})"
        for name, version in sorted(site.items())
        if name in packages and Version(packages[name]["version"]) != Version(version)
    ]
    if wrong:
        raise PinError(
            f"lite/versions.toml [site] disagrees with Pyodide {pyodide}'s pyodide-lock.json: "
            + "; ".join(wrong)
            + ". Pin the lock's versions: Pyodide's other packages were built and tested "
            "against them."
        )


def _check_requirements(checked: list[Wheel], wheels: dict[str, Wheel]) -> None:
    missing = []
    for wheel in checked:
        for req in wheel.requires:
            have = wheels.get(canonicalize_name(req.name))
            if have is None or not req.specifier.contains(have.version, prereleases=True):
                found = f"{have.version} is pinned" if have else "it is not pinned"
                missing.append(f"{wheel.name} {wheel.version} needs {req}, but {found}")
    if missing:
        raise PinError(
            "the site's wheels do not satisfy each other (add or change pins in "
            "lite/versions.toml [site]): " + "; ".join(missing)
        )


def write_lock(lock: dict[str, Any], wheels: list[Wheel]) -> dict[str, Any]:
    """The site's pyodide-lock.json: Pyodide's entries for our wheels, plus our own entries."""
    packages = lock["packages"]
    by_name = {w.name: w for w in wheels}
    # Pyodide's entries keep Pyodide's dependency lists; ours are checked against the metadata.
    _check_requirements([w for n, w in by_name.items() if n not in packages], by_name)
    out: dict[str, Any] = {}
    for name, wheel in sorted(by_name.items()):
        if name in packages:
            entry = dict(packages[name])
            if Version(entry["version"]) != Version(wheel.version):
                raise PinError(
                    f"{wheel.path.name}: pyodide-lock.json has {name} {entry['version']}"
                )
        else:
            entry = {
                "name": wheel.display_name,
                "version": wheel.version,
                "install_dir": "site",
                "package_type": "package",
                "imports": list(wheel.imports),
                "depends": sorted(canonicalize_name(r.name) for r in wheel.requires),
                "unvendored_tests": False,
            }
        entry["file_name"] = wheel.path.name
        entry["sha256"] = wheel.sha256
        out[name] = entry
    for name, entry in out.items():  # Pyodide's own dependency lists must be served too
        absent = [d for d in entry["depends"] if canonicalize_name(d) not in out]
        if absent:
            raise PinError(
                f"pyodide-lock.json says {name} needs {', '.join(absent)}: pin "
                f"{'it' if len(absent) == 1 else 'them'} in lite/versions.toml [site] "
                "(at the lock's version)"
            )
    return {**lock, "packages": out}
