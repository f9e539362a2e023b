"""``./scripts/play``, the README's first command, as a new user meets it.

The script is started for real (only its ``pip install`` step is skipped: the package
is installed already): JupyterLab must root its file browser at the checkout, so the
README and docs are in sight, open ``notebooks/00_quickstart.ipynb``, and print
nothing that looks like an error while nothing is wrong.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from e2e.lab import free_port

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = "notebooks/00_quickstart.ipynb"
# What a log line looks like when JupyterLab (or a tool it runs) reports a problem.
ALARMING = re.compile(r"^\[[EC] |Traceback|Error:|\bFail(ed)? to\b", re.M)


@dataclass
class Played:
    url: str
    token: str
    opened: Path  # what JupyterLab asked the browser to open
    log: Path

    def get(self, path: str) -> object:
        req = urllib.request.Request(f"{self.url}{path}",
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=5) as resp:
            return json.load(resp)


def _stub_bin(tmp: Path) -> Path:
    """``python`` that skips ``pip install`` (done already), and a "browser" that keeps
    the page JupyterLab opens (a redirect file, removed when the server stops)."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").write_text(
        "#!/bin/sh\n"
        'if [ "$1 $2 $3" = "-m pip install" ]; then exit 0; fi\n'
        f'exec "{sys.executable}" "$@"\n')
    (bin_dir / "browser").write_text(
        "#!/bin/sh\n"
        f'cp "${{1#file://}}" "{tmp / "opened.html"}"\n')
    for f in bin_dir.iterdir():
        f.chmod(0o755)
    return bin_dir


@pytest.fixture(scope="module")
def played() -> Iterator[Played]:
    if shutil.which("jupyter-lab", path=str(Path(sys.executable).parent)) is None:
        pytest.skip("JupyterLab is not installed in this environment (the lab extra)")
    tmp = Path(tempfile.mkdtemp(prefix="lf-play-"))
    bin_dir = _stub_bin(tmp)
    env = dict(os.environ)
    env.update(
        VIRTUAL_ENV=sys.prefix,  # the script uses the active environment
        PATH=os.pathsep.join([str(bin_dir), str(Path(sys.executable).parent), env["PATH"]]),
        JUPYTER_CONFIG_DIR=str(tmp / "config"),
        JUPYTER_RUNTIME_DIR=str(tmp / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(tmp / "settings"),
        JUPYTERLAB_WORKSPACES_DIR=str(tmp / "workspaces"),
    )
    port, token = free_port(), secrets.token_hex(16)
    log = tmp / "play.log"
    cmd = [str(ROOT / "scripts" / "play"), "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.browser={bin_dir / 'browser'} %s",
           "--LabApp.news_url=None",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    with log.open("wb") as out:
        # From a directory elsewhere: the script must find the checkout by itself.
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=tmp)
    run = Played(f"http://127.0.0.1:{port}", token, tmp / "opened.html", log)
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, f"scripts/play exited early:\n{log.read_text()}"
            assert time.monotonic() < deadline, f"no answer in 120 s:\n{log.read_text()}"
            try:
                run.get("/api/status")
                if run.opened.exists():
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            time.sleep(0.3)
        yield run
    finally:
        proc.send_signal(signal.SIGINT)  # once asks; a second SIGINT (or SIGTERM) shuts down
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.terminate()
            proc.wait(timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)


def test_file_browser_is_rooted_at_the_checkout(played: Played) -> None:
    top = played.get("/api/contents/")
    assert isinstance(top, dict)
    names = {item["name"] for item in top["content"]}
    assert {"README.md", "docs", "notebooks"} <= names, names


def test_opens_the_quickstart(played: Played) -> None:
    page = played.opened.read_text()
    assert f"/lab/tree/{QUICKSTART}" in page, page


def test_startup_prints_nothing_alarming(played: Played) -> None:
    text = played.log.read_text(errors="replace")
    assert not ALARMING.search(text), text


def test_node_runs_commonjs_files_inside_the_checkout() -> None:
    """Why startup once printed a yarn "Dynamic require of util" stack: a ``package.json``
    with ``"type": "module"`` at the root makes Node load every ``.js`` below it as an ES
    module, and JupyterLab's bundled yarn.js (CommonJS) lives below it when the virtualenv
    is ``.venv`` in the checkout; JupyterLab runs it at every start (``yarn config``)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("no Node")
    probe_dir = Path(tempfile.mkdtemp(prefix=".lf-node-probe-", dir=ROOT))
    try:
        probe = probe_dir / "probe.js"
        probe.write_text('const util = require("util"); console.log(util.format("%s", "ok"));\n')
        run = subprocess.run([node, str(probe)], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr
    finally:
        shutil.rmtree(probe_dir)


def test_jupyterlab_reads_the_yarn_config_without_error() -> None:
    """The call behind the old startup error, made where this environment has it."""
    commands = pytest.importorskip("jupyterlab.commands")
    if shutil.which("node") is None:
        pytest.skip("no Node")
    import logging

    errors: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR:
                errors.append(record.getMessage())

    logger = logging.getLogger("lf-yarn-config")
    logger.addHandler(Keep())
    commands._yarn_config(logger)
    assert not errors, errors[0][:2000]
