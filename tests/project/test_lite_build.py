"""The JupyterLite build's checks (lite/): pins against Pyodide's lock, the wheels' closure, the
lock file written for the site, and a stale lite/lock.json. No network, no build: small wheels
made here stand in for the real ones.
"""

from __future__ import annotations

import hashlib
import json
import sys
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
PYODIDE_INFO = {"abi_version": "2026_0", "arch": "wasm32", "platform": "emscripten_5_0_3",
                "python": "3.14.2"}  # fmt: skip


@pytest.fixture
def lite(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[ModuleType, ModuleType]]:
    """lite/pins.py and lite/pyodide_lock.py (scripts, not a package: imported from lite/)."""
    monkeypatch.syspath_prepend(str(REPO / "lite"))
    import pins
    import pyodide_lock

    yield pins, pyodide_lock
    for name in ("pins", "pyodide_lock"):
        sys.modules.pop(name, None)


def make_wheel(tmp: Path, name: str, version: str, requires: Sequence[str] = ()) -> Path:
    dist = f"{name.replace('-', '_')}-{version}"
    path = tmp / f"{dist}-py3-none-any.whl"
    meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    with zipfile.ZipFile(path, "w") as whl:
        whl.writestr(f"{name.replace('-', '_')}/__init__.py", "")
        whl.writestr(f"{dist}.dist-info/METADATA", "\n".join(meta) + "\n")
        whl.writestr(f"{dist}.dist-info/RECORD", "")
    return path


def pyodide_lock_of(**packages: tuple[str, list[str]]) -> dict[str, Any]:
    return {
        "info": PYODIDE_INFO,
        "packages": {
            name: {
                "name": name,
                "version": version,
                "depends": depends,
                "file_name": f"{name}-{version}-py3-none-any.whl",
                "imports": [name],
                "install_dir": "site",
                "package_type": "package",
                "sha256": "0" * 64,
                "unvendored_tests": False,
            }
            for name, (version, depends) in packages.items()
        },
    }


def test_a_pin_that_pyodide_locks_at_another_version_is_refused(lite: Any) -> None:
    pins, pyodide_lock = lite
    lock = pyodide_lock_of(traitlets=("5.14.3", []))
    with pytest.raises(
        pins.PinError, match=r"traitlets 5\.14\.2 \(pyodide-lock\.json has 5\.14\.3\)"
    ):
        pyodide_lock.check_pins_against_lock({"traitlets": "5.14.2"}, lock, "314.0.6")
    pyodide_lock.check_pins_against_lock({"traitlets": "5.14.3", "anywidget": "1"}, lock, "x")


def test_the_site_lock_lists_exactly_our_wheels(lite: Any, tmp_path: Path) -> None:
    _, pyodide_lock = lite
    env = pyodide_lock.pyodide_environment(PYODIDE_INFO)
    ours = make_wheel(tmp_path, "board-game", "1.0", [
        "traitlets>=5", "pexpect; sys_platform != 'emscripten'", "pytest; extra == 'test'",
    ])  # fmt: skip
    theirs = make_wheel(tmp_path, "traitlets", "5.14.3")
    lock = pyodide_lock_of(traitlets=("5.14.3", []), numpy=("2.0", []))
    wheels = [pyodide_lock.read_wheel(p, env) for p in (ours, theirs)]
    out = pyodide_lock.write_lock(lock, wheels)["packages"]
    assert sorted(out) == ["board-game", "traitlets"]  # numpy is not served: not listed
    # Only what Pyodide's Python needs: no pexpect (not on emscripten), no test extra.
    assert out["board-game"]["depends"] == ["traitlets"]
    assert out["board-game"]["imports"] == ["board_game"]
    for entry, path in ((out["board-game"], ours), (out["traitlets"], theirs)):
        assert entry["file_name"] == path.name
        assert entry["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()


def test_an_unpinned_or_unsatisfied_requirement_is_refused(lite: Any, tmp_path: Path) -> None:
    pins, pyodide_lock = lite
    env = pyodide_lock.pyodide_environment(PYODIDE_INFO)
    lock = pyodide_lock_of(traitlets=("5.14.3", []))
    needs_more = make_wheel(tmp_path, "board-game", "1.0", ["traitlets>=6", "psygnal"])
    wheels = [
        pyodide_lock.read_wheel(p, env)
        for p in (needs_more, make_wheel(tmp_path, "traitlets", "5.14.3"))
    ]
    with pytest.raises(pins.PinError) as refused:
        pyodide_lock.write_lock(lock, wheels)
    assert "needs traitlets>=6, but 5.14.3 is pinned" in str(refused.value)
    assert "needs psygnal, but it is not pinned" in str(refused.value)


def test_a_dependency_pyodide_names_must_be_served(lite: Any, tmp_path: Path) -> None:
    pins, pyodide_lock = lite
    env = pyodide_lock.pyodide_environment(PYODIDE_INFO)
    lock = pyodide_lock_of(ipython=("9.12.0", ["traitlets", "pygments"]), traitlets=("5.14.3", []))
    wheels = [pyodide_lock.read_wheel(make_wheel(tmp_path, n, v), env)
              for n, v in (("ipython", "9.12.0"), ("traitlets", "5.14.3"))]  # fmt: skip
    with pytest.raises(pins.PinError, match="ipython needs pygments"):
        pyodide_lock.write_lock(lock, wheels)


def test_a_compiled_wheel_is_refused(lite: Any, tmp_path: Path) -> None:
    pins, pyodide_lock = lite
    pure = make_wheel(tmp_path, "fast", "1.0")
    compiled = pure.rename(tmp_path / "fast-1.0-cp314-cp314-pyemscripten_2026_0_wasm32.whl")
    with pytest.raises(pins.PinError, match="not a pure-Python wheel"):
        pyodide_lock.read_wheel(compiled, pyodide_lock.pyodide_environment(PYODIDE_INFO))


def test_a_lock_made_from_other_pins_is_refused(lite: Any, tmp_path: Path) -> None:
    pins, _ = lite
    current = pins.read_pins()
    assert pins.read_lock(current)["versions_sha256"] == current.digest  # the committed lock
    edited = tmp_path / "versions.toml"
    edited.write_text(pins.VERSIONS.read_text().replace('traitlets = "', 'traitlets = "0'))
    with pytest.raises(pins.PinError, match=r"run \./scripts/lite lock"):
        pins.read_lock(pins.read_pins(edited))


def test_the_stamp_is_a_digest_of_the_checkout(lite: Any) -> None:
    pins, _ = lite
    first = pins.stamp()
    assert first == pins.stamp() and len(first) == 64
    files = {p.relative_to(REPO).as_posix() for p in pins._stamped_files()}
    assert {"lite/versions.toml", "notebooks/00_quickstart.ipynb", "pyproject.toml"} <= files
    assert not any("__pycache__" in f for f in files)


def test_the_committed_lock_pins_every_site_wheel_with_a_hash(lite: Any) -> None:
    pins, _ = lite
    current = pins.read_pins()
    lock = json.loads(pins.LOCK.read_text())
    assert {n: e["version"] for n, e in lock["site"].items()} == current.site
    assert all(len(e["sha256"]) == 64 and e["file"].endswith("-none-any.whl")
               for e in lock["site"].values())  # fmt: skip
    assert lock["pyodide"]["version"] == current.pyodide
    assert lock["pyodide"]["integrity"].startswith("sha512-")
    assert all("--hash=sha256:" in line for line in lock["build"])
