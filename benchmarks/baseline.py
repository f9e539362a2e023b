"""Load the kernel of an older commit beside this one, for same-run comparisons.

``load("8f2bd9c")`` extracts ``langfinger_widget/`` of that commit with
``git archive`` into a temporary directory and imports it under another name
(``langfinger_widget_8f2bd9c``), so one process can time the old code and the
new code turn by turn on the same machine, under the same load.
"""

from __future__ import annotations

import importlib.util
import io
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "8f2bd9c"  # issue 13: the code the speed-ups are measured against


def load(commit: str = BASELINE) -> ModuleType:
    """The package ``langfinger_widget`` as it was at ``commit`` (needs git history)."""
    name = f"langfinger_widget_{commit[:12]}"
    if name in sys.modules:
        return sys.modules[name]
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "langfinger_widget"],
                             check=True, capture_output=True).stdout
    where = Path(tempfile.mkdtemp(prefix=f"lf-{commit[:12]}-"))
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        try:
            tar.extractall(where, filter="data")
        except TypeError:  # a Python without extraction filters (our own archive: trusted)
            tar.extractall(where)
    init = where / "langfinger_widget" / "__init__.py"
    spec = importlib.util.spec_from_file_location(
        name, init, submodule_search_locations=[str(init.parent)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
