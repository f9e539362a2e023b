"""Build the JupyterLite site into _site/ from the package registries only (./scripts/lite).

    python3 lite/build.py build [--force]   the site, unless _site/ is this checkout's already
    python3 lite/build.py lock              re-resolve lite/versions.toml into lite/lock.json
    python3 lite/build.py stamp             the digest of the site's inputs (see pins.stamp)

Where everything comes from:
- the build's virtualenv (jupyterlite-core, the Pyodide kernel, the lab extensions): pip,
  every distribution hash-checked against lite/lock.json;
- the Pyodide runtime: the npm package ``pyodide`` (its sha512 checked against the lock);
- the wheels the kernel runs: pure-Python wheels from pip, hash-checked, put into Pyodide's
  lock file and preloaded by every kernel (pyodide_lock.py); this project's wheel is built
  from the checkout.
The site itself asks nothing of the network: the PyPI fallback is off and every file it loads
is inside _site/. Work files live in build/lite/ (gitignored) and are reused between builds.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from pins import LOCK, REPO, SITE, STAMP_FILE, PinError, built_stamp, read_lock, read_pins, stamp

HERE = Path(__file__).resolve().parent
WORK = REPO / "build" / "lite"
VENV = WORK / "venv"
LOCK_VENV = WORK / "lock-venv"
CACHE = WORK / "cache"
PROJECT = "langfinger-widget"
# What the Pyodide kernel's worker installs one by one with piplite when they are not
# preloaded (jupyterlite/pyodide-kernel, worker.ts): preloading them from the lock is faster.
KERNEL_PACKAGES = ("micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython")
# Wheels that jupyterlite-pyodide-kernel itself ships (browser shims of ipykernel and friends).
KERNEL_WHEELS = ("ipykernel", "piplite", "pyodide-kernel", "widgetsnbextension")
# The parts of the npm package that the page loads (the rest is typings, maps and demos).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
# Lab extensions the site must have, and have only: the widget managers and the kernel.
LAB_EXTENSIONS = ("anywidget", "jupyterlab-widgets")
SITE_EXTENSIONS = {
    "anywidget",
    "@jupyter-widgets/jupyterlab-manager",
    "@jupyterlite/pyodide-kernel-extension",
    "jupyterlab_pygments",
}
WASM_PIP_FLAGS = [
    "--only-binary=:all:", "--no-deps", "--platform", "any", "--implementation", "py",
    "--abi", "none",
]  # fmt: skip
LOCK_PYTHON = "3.11"  # the build venv's Python: this machine's, CI's and the Pages workflow's
_T0 = time.monotonic()


def step(message: str) -> None:
    print(f"[lite {time.monotonic() - _T0:5.1f}s] {message}", flush=True)


def run(cmd: list[str | Path], *, cwd: Path = REPO, env: dict[str, str] | None = None) -> str:
    """Run a command quietly; on failure show its output and stop the build."""
    merged = {**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1", **(env or {})}
    proc = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=merged, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-40:])
        raise SystemExit(f"lite: `{' '.join(str(c) for c in cmd)}` failed:\n{tail}")
    return proc.stdout


def python_in(venv: Path) -> Path:
    return venv / "bin" / "python"


# --- the build's virtualenv ---------------------------------------------------------------


def ensure_venv(venv: Path, requirements: list[str], *, hashed: bool) -> None:
    """A virtualenv holding exactly ``requirements``; remade when they change."""
    wanted = hashlib.sha256("\n".join(requirements).encode()).hexdigest()
    marker = venv / "lite-requirements.sha256"
    if marker.is_file() and marker.read_text() == wanted and python_in(venv).exists():
        return
    step(f"virtualenv {venv.relative_to(REPO)} ({len(requirements)} requirements)")
    shutil.rmtree(venv, ignore_errors=True)
    run([sys.executable, "-m", "venv", venv])
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write("\n".join(requirements) + "\n")
    flags = ["--require-hashes", "--no-deps"] if hashed else []
    try:
        run([python_in(venv), "-m", "pip", "install", "-q", *flags, "-r", req.name])
    finally:
        os.unlink(req.name)
    marker.write_text(wanted)


def exec_in(venv: Path, command: str, *args: str) -> None:
    """Go on in ``venv``'s Python (it has packaging and jupyterlite; this one may not)."""
    sys.stdout.flush()
    python = str(python_in(venv))
    os.execv(python, [python, str(Path(__file__).resolve()), command, *args])


# --- lock: resolve the pins and record every hash ------------------------------------------


def lock() -> None:
    read_pins()  # a broken versions.toml stops here, before any download
    ensure_venv(LOCK_VENV, ["uv", "packaging"], hashed=False)
    exec_in(LOCK_VENV, "_lock")


def _lock_in_venv() -> None:
    from pyodide_lock import check_pins_against_lock

    pins = read_pins()
    step(f"resolve the build venv ({len(pins.build)} pins) with uv")
    top = [f"{n}=={v}" for n, v in pins.build.items()]
    top += [f"{n}=={pins.site[n]}" for n in LAB_EXTENSIONS]
    with tempfile.TemporaryDirectory() as tmp:
        req = Path(tmp) / "build.in"
        req.write_text("\n".join(top) + "\n")
        out = run([
            LOCK_VENV / "bin" / "uv", "pip", "compile", "--universal", "--generate-hashes",
            "--no-header", "--no-annotate", "--python-version", LOCK_PYTHON,
            "--index-url", "https://pypi.org/simple", req,
        ])  # fmt: skip
    build = [line.strip() for line in out.replace("\\\n", " ").splitlines() if line.strip()]
    build = [" ".join(line.split()) for line in build if not line.startswith("#")]

    step(f"pyodide {pins.pyodide} from npm")
    integrity = json.loads(
        run(["npm", "view", f"pyodide@{pins.pyodide}", "dist.integrity", "--json"])
    )
    tarball = fetch_pyodide(pins.pyodide, integrity)
    check_pins_against_lock(pins.site, read_tarball_lock(tarball), pins.pyodide)

    step(f"hash the site's {len(pins.site)} wheels")
    site: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        reqs = [f"{n}=={v}" for n, v in pins.site.items()]
        pip_download(LOCK_VENV, reqs, Path(tmp), python=pyodide_python(tarball))
        for whl in sorted(Path(tmp).glob("*.whl")):
            name = normalize_wheel_name(whl.name)
            site[name] = {
                "version": pins.site[name],
                "file": whl.name,
                "sha256": hashlib.sha256(whl.read_bytes()).hexdigest(),
            }
    missing = sorted(set(pins.site) - set(site))
    if missing:
        raise PinError(f"pip gave no wheel for {', '.join(missing)}")
    data = {
        "comment": "Written by `./scripts/lite lock` from lite/versions.toml: do not edit.",
        "versions_sha256": pins.digest,
        "pyodide": {"version": pins.pyodide, "integrity": integrity},
        "site": site,
        "build": build,
    }
    LOCK.write_text(json.dumps(data, indent=1) + "\n")
    step(f"wrote {LOCK.relative_to(REPO)}: {len(build)} build and {len(site)} site packages")


def normalize_wheel_name(filename: str) -> str:
    from pins import normalize

    return normalize(filename.split("-")[0])


def pyodide_python(tarball: Path) -> str:
    info = read_tarball_lock(tarball)["info"]
    return ".".join(str(info["python"]).split(".")[:2])


def pip_download(venv: Path, requirements: list[str], dest: Path, *, python: str) -> None:
    """Pure-Python wheels for Pyodide's Python: a compiled-only package fails here, by name."""
    dest.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as req:
        req.write("\n".join(requirements) + "\n")
    hashed = ["--require-hashes"] if any("--hash" in r for r in requirements) else []
    try:
        run([
            python_in(venv), "-m", "pip", "download", "-q", *hashed, *WASM_PIP_FLAGS,
            "--python-version", python, "-d", dest, "-r", req.name,
        ])  # fmt: skip
    finally:
        os.unlink(req.name)


# --- the Pyodide runtime from npm -----------------------------------------------------------


def fetch_pyodide(version: str, integrity: str) -> Path:
    """``npm pack pyodide@version`` into the cache, checked against the locked sha512."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tarball = CACHE / f"pyodide-{version}.tgz"
    if not (tarball.is_file() and _sri(tarball) == integrity):
        step(f"npm pack pyodide@{version}")
        run(["npm", "pack", "--silent", f"pyodide@{version}", "--pack-destination", CACHE])
    if _sri(tarball) != integrity:
        raise PinError(f"{tarball.name} does not match the sha512 in lite/lock.json")
    return tarball


def _sri(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def read_tarball_lock(tarball: Path) -> dict[str, Any]:
    with tarfile.open(tarball) as tar:
        member = tar.extractfile("package/pyodide-lock.json")
        assert member is not None
        return json.load(member)  # type: ignore[no-any-return]


# --- build -----------------------------------------------------------------------------------


def build(force: bool) -> None:
    pins = read_pins()
    lock_data = read_lock(pins)
    # One build at a time: a second `build` (CI starts one early, in the background, and the
    # browser tests ask again) waits for the first and then finds the site up to date.
    WORK.mkdir(parents=True, exist_ok=True)
    with open(WORK / "build.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        os.set_inheritable(held.fileno(), True)  # held on through exec_in, to the build's end
        current = stamp()
        if not force and built_stamp() == current:
            step(f"_site/ is up to date with this checkout (stamp {current[:12]})")
            return
        ensure_venv(VENV, lock_data["build"], hashed=True)
        exec_in(VENV, "_assemble", current)


def _assemble(current: str) -> None:
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION
    from pyodide_lock import check_pins_against_lock, pyodide_environment, read_wheel, write_lock

    pins = read_pins()
    locked = read_lock(pins)
    if pins.pyodide != PYODIDE_VERSION:
        raise PinError(
            f"lite/versions.toml pins pyodide {pins.pyodide}, but jupyterlite-pyodide-kernel "
            f"{pins.build['jupyterlite-pyodide-kernel']} is made for {PYODIDE_VERSION}"
        )
    tarball = fetch_pyodide(pins.pyodide, locked["pyodide"]["integrity"])
    pyodide_lock = read_tarball_lock(tarball)
    check_pins_against_lock(pins.site, pyodide_lock, pins.pyodide)

    step(f"{len(locked['site'])} pure-Python wheels for Pyodide (pip, hash-checked)")
    wheels_dir = CACHE / "wheels"
    reqs = [f"{n}=={e['version']} --hash=sha256:{e['sha256']}" for n, e in locked["site"].items()]
    pip_download(VENV, reqs, wheels_dir, python=pyodide_python(tarball))
    site_wheels = [wheels_dir / e["file"] for e in locked["site"].values()]

    step("this project's wheel, from the checkout")
    own = build_own_wheel()
    kernel_wheels = find_kernel_wheels()
    runtime_cache = unpack_runtime(tarball)
    compiled = precompile(runtime_cache, [*site_wheels, *kernel_wheels, own])

    stage = WORK / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    runtime = stage / "static" / "pyodide"
    shutil.copytree(runtime_cache, runtime, ignore=shutil.ignore_patterns("pyodide-lock.json"))
    env = pyodide_environment(pyodide_lock["info"])
    wheels = [read_wheel(p, env) for p in compiled]
    for wheel in wheels:
        shutil.copy2(wheel.path, runtime / wheel.path.name)
    site_lock = write_lock(pyodide_lock, wheels)
    (runtime / "pyodide-lock.json").write_text(json.dumps(site_lock, indent=1))
    step(f"pyodide-lock.json: {len(site_lock['packages'])} packages, all served by the site")

    (stage / "files").mkdir()
    notebooks = sorted((REPO / "notebooks").glob("*.ipynb"))
    for nb in notebooks:
        shutil.copy2(nb, stage / "files" / nb.name)
    (stage / "jupyter-lite.json").write_text(json.dumps(lite_config(), indent=1))

    step(f"jupyter lite build ({len(notebooks)} notebooks)")
    out = REPO / "_site.partial"
    shutil.rmtree(out, ignore_errors=True)
    run(
        [
            VENV / "bin" / "jupyter", "lite", "build", "--lite-dir", stage, "--output-dir", out,
            "--no-sourcemaps", "--apps", "lab", "--no-unused-shared-packages",
        ],
        cwd=stage,
    )  # fmt: skip
    check_site(out, site_lock)
    (out / STAMP_FILE).write_text(json.dumps({"stamp": current, "commit": git_commit()}) + "\n")
    shutil.rmtree(SITE, ignore_errors=True)
    out.rename(SITE)
    size = sum(p.stat().st_size for p in SITE.rglob("*") if p.is_file())
    step(f"built {SITE.relative_to(REPO)}/: {size / 1e6:.1f} MB")


def unpack_runtime(tarball: Path) -> Path:
    """The files of the npm package that the page loads (and Node runs), unpacked once."""
    runtime = CACHE / tarball.name.removesuffix(".tgz")
    if not all((runtime / name).is_file() for name in (*RUNTIME_FILES, "pyodide-lock.json")):
        runtime.mkdir(parents=True, exist_ok=True)
        with tarfile.open(tarball) as tar:
            for name in (*RUNTIME_FILES, "pyodide-lock.json"):
                member = tar.extractfile(f"package/{name}")
                assert member is not None
                (runtime / name).write_bytes(member.read())
    return runtime


def precompile(runtime: Path, wheels: list[Path]) -> list[Path]:
    """The wheels with bytecode added by Pyodide's own Python (precompile.py, run by Node);
    cached by the input wheel's sha256, so a rebuild compiles only what changed."""
    out: list[Path] = []
    todo: list[tuple[Path, Path]] = []
    for wheel in wheels:
        digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
        target = CACHE / "bytecode" / digest / wheel.name
        out.append(target)
        if not target.is_file():
            todo.append((wheel, target))
    if todo:
        step(f"bytecode for {len(todo)} wheel(s), compiled by Pyodide under Node")
        with tempfile.TemporaryDirectory(dir=WORK) as tmp:
            src_dir, out_dir = Path(tmp, "in"), Path(tmp, "out")
            src_dir.mkdir()
            out_dir.mkdir()
            # Copies, so that Pyodide reads no path through the venv's symlinks.
            inputs = [Path(shutil.copy2(src, src_dir / src.name)) for src, _ in todo]
            run([
                "node", HERE / "pyodide_run.mjs", runtime, HERE / "precompile.py", out_dir, *inputs
            ])  # fmt: skip
            for _, target in todo:
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(out_dir / target.name, target)
    for stale in set((CACHE / "bytecode").iterdir()) - {p.parent for p in out}:
        shutil.rmtree(stale)  # earlier builds' wheels (this project's, mostly)
    return out


def lite_config() -> dict[str, Any]:
    kernel = {
        # Never ask pypi.org: every wheel is in the site.
        "disablePyPIFallback": True,
        # Loaded from the site's pyodide-lock.json when the kernel starts, in one go.
        "loadPyodideOptions": {"packages": [*KERNEL_PACKAGES, PROJECT]},
    }
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Langfinger",
            # window.jupyterapp, as `jupyter lab --LabApp.expose_app_in_browser` gives it: the
            # browser tests drive the notebook through it (there is no server to hide here).
            "exposeAppInBrowser": True,
            "litePluginSettings": {"@jupyterlite/pyodide-kernel-extension:kernel": kernel},
        },
    }


def bundle_is_fresh() -> bool:
    """Whether langfinger_widget/static was built after every front-end source changed."""
    bundle = [REPO / "langfinger_widget" / "static" / n for n in ("widget.js", "widget.css")]
    if not all(p.is_file() for p in bundle):
        return False
    sources = [*(REPO / "js").rglob("*"), REPO / "package.json", REPO / "package-lock.json"]
    newest = max(p.stat().st_mtime for p in sources if p.is_file())
    return min(p.stat().st_mtime for p in bundle) >= newest


def build_own_wheel() -> Path:
    if not (REPO / "node_modules").is_dir():
        run(["npm", "ci", "--no-audit", "--no-fund"])
    # The bundle must be this checkout's, not a stale one; an up-to-date one is not rewritten,
    # because tests and kernels running beside this build may be reading it.
    if not bundle_is_fresh():
        run(["npm", "run", "build"])
    dist = WORK / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    run([python_in(VENV), "-m", "hatchling", "build", "-t", "wheel", "-d", dist])
    (wheel,) = dist.glob("*.whl")
    return wheel


def find_kernel_wheels() -> list[Path]:
    pypi = VENV / "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi"
    found = {normalize_wheel_name(p.name): p for p in sorted(pypi.glob("*.whl"))}
    # widgetsnbextension comes in a 3.x and a 4.x shim: ipywidgets 8 wants 4.x (the newest).
    missing = [n for n in KERNEL_WHEELS if n not in found]
    if missing:
        raise PinError(f"jupyterlite-pyodide-kernel ships no wheel for {', '.join(missing)}")
    return [found[n] for n in KERNEL_WHEELS]


def check_site(out: Path, site_lock: dict[str, Any]) -> None:
    """The built site serves every file its lock names and exactly the expected extensions."""
    runtime = out / "static" / "pyodide"
    absent = [
        e["file_name"]
        for e in site_lock["packages"].values()
        if not (runtime / e["file_name"]).is_file()
    ]
    if absent:
        raise SystemExit(f"lite: the site lacks {absent}")
    config = json.loads((out / "jupyter-lite.json").read_text())["jupyter-config-data"]
    extensions = {e["name"] for e in config["federated_extensions"]}
    if extensions != SITE_EXTENSIONS:
        raise SystemExit(
            f"lite: the site has the lab extensions {sorted(extensions)}, "
            f"expected {sorted(SITE_EXTENSIONS)}"
        )


def git_commit() -> str | None:
    proc = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True)
    return proc.stdout.strip() or None


def main(argv: list[str]) -> None:
    command = argv[0] if argv else "build"
    if command == "build":
        build(force="--force" in argv[1:])
    elif command == "lock":
        lock()
    elif command == "stamp":
        print(stamp())
    elif command == "_lock":
        _lock_in_venv()
    elif command == "_assemble":
        _assemble(argv[1])
    else:
        raise SystemExit(f"lite: unknown command {command!r} (build, lock, stamp)")


if __name__ == "__main__":
    main(sys.argv[1:])
