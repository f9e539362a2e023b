"""Add bytecode to wheels: ``precompile.py OUT_DIR WHEEL...`` (run in Pyodide by pyodide_run.mjs).

A kernel in the site imports IPython, ipywidgets, anywidget and this package before the first
cell runs; compiling their sources to bytecode at every start is about half of that time in
WebAssembly. The wheels keep their sources (tracebacks show lines) and gain
``__pycache__/*.cpython-3XX.pyc`` files with unchecked hash-based invalidation (PEP 552): the
interpreter loads them without looking at the source's timestamp, which unzipping changes. Only
Pyodide's own Python can write them (the bytecode format changes with every CPython version).
The output is deterministic: same wheel in, same bytes out.
"""

from __future__ import annotations

import importlib.util
import sys
import warnings
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from pathlib import PurePosixPath

SKIPPED_DIRS = {"tests", "test"}  # shipped by some wheels, never imported by the site


def pyc_name(path: str) -> str:
    p = PurePosixPath(path)
    return str(p.parent / "__pycache__" / f"{p.stem}.{sys.implementation.cache_tag}.pyc")


def compiled(path: str, source: bytes) -> bytes | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes and the like in third-party sources
        try:
            code = compile(source, path, "exec", dont_inherit=True)
        except SyntaxError:
            return None  # the interpreter would refuse it too: leave it to fail at import
    return bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False))


def precompile(src: str, dst: str) -> int:
    added = 0
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        record = next(n for n in zin.namelist() if n.endswith(".dist-info/RECORD"))
        extra: list[str] = []
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == record:
                continue  # written last, with the bytecode listed
            zout.writestr(info, data)
            parts = PurePosixPath(info.filename).parts
            if not info.filename.endswith(".py") or SKIPPED_DIRS & set(parts[:-1]):
                continue
            pyc = compiled(info.filename, data)
            if pyc is None:
                continue
            name = pyc_name(info.filename)
            entry = zipfile.ZipInfo(name, date_time=info.date_time)
            entry.external_attr = 0o644 << 16
            zout.writestr(entry, pyc, compress_type=zipfile.ZIP_DEFLATED)
            extra.append(f"{name},,")  # RECORD lists bytecode without a hash (PEP 376)
            added += 1
        lines = zin.read(record).decode().splitlines()
        body = "\n".join([*lines, *extra]) + "\n"
        zout.writestr(zin.getinfo(record), body)
    return added


def main(argv: list[str]) -> None:
    out, wheels = argv[0], argv[1:]
    for wheel in wheels:
        name = PurePosixPath(wheel).name
        count = precompile(wheel, f"{out}/{name}")
        print(f"{name}: {count} modules compiled", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
