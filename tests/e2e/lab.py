"""Drive a real JupyterLab page from pytest: start a server, open a notebook, run it.

The browser tests talk to JupyterLab the way a person does (clicks in the page)
and read the kernel's state through the kernel the page itself is connected to,
so a test can assert both sides of the widget's comm. JupyterLab is started with
``LabApp.expose_app_in_browser`` so that ``window.jupyterapp`` (the application
object galata uses) is available for the few things a click cannot say reliably:
"run all cells" and "execute this code in the notebook's kernel".
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
from playwright.sync_api import Locator, Page

ARTIFACTS = Path(__file__).parent / "artifacts"
REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("LANGFINGER_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# Settings that keep a fresh JupyterLab from fetching news or update checks
# (there is no network to reach) and from popping toasts over the notebook.
_USER_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class LabServer:
    """A JupyterLab (or Jupyter Notebook 7) server this test session started and owns."""

    url: str
    token: str
    root_dir: Path
    process: subprocess.Popen[bytes]
    log_path: Path
    started_in: float = 0.0
    # Where the app opens a notebook: JupyterLab's "lab/tree", Notebook 7's "notebooks".
    tree: str = "lab/tree"

    def notebook_url(self, path: str) -> str:
        reset = "&reset" if self.tree == "lab/tree" else ""  # a fresh workspace (JupyterLab)
        return f"{self.url}/{self.tree}/{path}?token={self.token}{reset}"

    def write_notebook(self, path: str, cells: list[str]) -> Path:
        """Write a notebook of code cells (a fresh file, so no cell has run yet)."""
        nb = nbformat.v4.new_notebook()
        nb.metadata["kernelspec"] = {
            "name": "python3",
            "display_name": "Python 3 (ipykernel)",
            "language": "python",
        }
        nb.cells = [nbformat.v4.new_code_cell(src) for src in cells]
        target = self.root_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, target)
        return target

    def log_tail(self, lines: int = 40) -> str:
        return log_tail(self.log_path, lines)


def jupyter_env(base: Path, user_settings: dict[str, Any] | None = None,
                kernel_path: Path | None = None) -> dict[str, str]:
    """The environment of a Jupyter server whose config, settings and runtime live under ``base``.

    A developer's own settings or saved workspaces cannot change what the test sees.
    ``user_settings`` replaces the quiet defaults (``{}``: none at all, the app's
    defaults); ``kernel_path`` goes first on the kernels' ``PYTHONPATH``.
    """
    settings = base / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    for rel, value in (_USER_SETTINGS if user_settings is None else user_settings).items():
        target = settings / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(value))
    env = dict(os.environ)
    env.update(
        JUPYTER_CONFIG_DIR=str(base / "config"),
        JUPYTER_RUNTIME_DIR=str(base / "runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(base / "workspaces"),
        # The kernel writes bytecode into the checkout otherwise.
        PYTHONDONTWRITEBYTECODE="1",
        # The kernel imports this checkout's package (the code under test), installed or not.
        PYTHONPATH=os.pathsep.join(filter(None, [
            str(kernel_path or ""), str(REPO), os.environ.get("PYTHONPATH")])),
    )
    return env


def log_tail(log_path: Path, lines: int = 40) -> str:
    text = log_path.read_text(errors="replace") if log_path.exists() else ""
    return "\n".join(text.splitlines()[-lines:])


def wait_until_answers(
    url: str,
    process: subprocess.Popen[bytes],
    log_path: Path,
    timeout: float,
    headers: dict[str, str] | None = None,
) -> float:
    """Wait until ``url`` answers 200; return how long that took. Raises with the log tail
    if the process exits or the time runs out (and then stops the process)."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args!r} exited early:\n{log_tail(log_path)}")
        try:
            req = urllib.request.Request(url, headers=headers or {})
            with urllib.request.urlopen(req, timeout=2) as resp:
                if resp.status == 200:
                    return time.monotonic() - start
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    stop_process(process)
    raise RuntimeError(f"{url} did not answer within {timeout}s:\n{log_tail(log_path)}")


def start_lab(base: Path, timeout: float = 90.0, app: str = "jupyterlab",
              user_settings: dict[str, Any] | None = None,
              kernel_path: Path | None = None) -> LabServer:
    """Start ``jupyter lab`` (or, with ``app="notebook"``, Jupyter Notebook 7) on 127.0.0.1
    with its own config, settings and workspace dirs (:func:`jupyter_env`; ``user_settings``
    and ``kernel_path`` go there).

    Both expose ``window.jupyterapp``, so :class:`LabNotebook` drives either.
    Root-safe (``--allow-root``) because CI runs as root.
    """
    root = base / "root"
    root.mkdir(parents=True, exist_ok=True)
    env = jupyter_env(base, user_settings, kernel_path)
    port = free_port()
    token = secrets.token_hex(16)
    log_path = base / "jupyter.log"
    cmd = [
        sys.executable, "-m", app,
        "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
    ]  # fmt: skip
    if app == "jupyterlab":
        cmd += [
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        ]
    else:
        cmd += ["--JupyterNotebookApp.expose_app_in_browser=True"]
    log = log_path.open("wb")
    process = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
    url = f"http://127.0.0.1:{port}"
    server = LabServer(
        url, token, root, process, log_path, tree="lab/tree" if app == "jupyterlab" else "notebooks"
    )
    server.started_in = wait_until_answers(
        f"{url}/api/status", process, log_path, timeout, {"Authorization": f"token {token}"}
    )
    return server


def stop_process(process: subprocess.Popen[bytes]) -> None:
    """Stop a server this session started (and with it the kernels it started)."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


def stop_lab(server: LabServer) -> None:
    stop_process(server.process)


# JavaScript run in the page. `path` picks the notebook panel by its file path,
# so a test never depends on which tab happens to have focus.
_FIND_PANEL = """
    const app = window.jupyterapp;
    const panel = app && Array.from(app.shell.widgets('main'))
        .find(w => w.context && w.context.path === path && w.sessionContext);
"""

_JS_READY = f"""(path) => {{ {_FIND_PANEL}
    if (!panel || !panel.context.isReady) return false;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    return !!kernel && kernel.connectionStatus === 'connected' && kernel.status === 'idle';
}}"""

_JS_RUN_ALL = f"""async (path) => {{ {_FIND_PANEL}
    app.shell.activateById(panel.id);
    await app.commands.execute('notebook:run-all-cells');
}}"""

_JS_RUN_THROUGH = f"""async ([path, last]) => {{ {_FIND_PANEL}
    app.shell.activateById(panel.id);
    for (let i = 0; i <= last; i++) {{
        if (panel.content.widgets[i].model.type !== 'code') continue;
        panel.content.activeCellIndex = i;
        await app.commands.execute('notebook:run-cell');
    }}
}}"""

_JS_RAN_THROUGH = f"""([path, last]) => {{ {_FIND_PANEL}
    if (!panel) return false;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const cells = panel.content.widgets.slice(0, last + 1).filter(c => c.model.type === 'code');
    return cells.every(c => c.model.executionCount !== null)
        && !!kernel && kernel.status === 'idle';
}}"""

_JS_SAVE = f"""async (path) => {{ {_FIND_PANEL}
    await panel.context.save();
    return !panel.context.model.dirty;
}}"""

_JS_ALL_RAN = f"""(path) => {{ {_FIND_PANEL}
    if (!panel) return false;
    const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
    const cells = panel.content.widgets.filter(c => c.model.type === 'code');
    return cells.every(c => c.model.executionCount !== null)
        && !!kernel && kernel.status === 'idle';
}}"""

_JS_EXECUTE = f"""async ([path, code, timeoutMs]) => {{ {_FIND_PANEL}
    const kernel = panel.sessionContext.session.kernel;
    const future = kernel.requestExecute({{ code, store_history: false, silent: false }});
    let out = '';
    let error = null;
    future.onIOPub = (msg) => {{
        const t = msg.header.msg_type;
        if (t === 'stream') out += msg.content.text;
        else if (t === 'execute_result') out += msg.content.data['text/plain'] + '\\n';
        else if (t === 'error') error = msg.content.ename + ': ' + msg.content.evalue;
    }};
    const timeout = new Promise((_, reject) => setTimeout(
        () => reject(new Error(`kernel did not answer within ${{timeoutMs}} ms`)), timeoutMs));
    await Promise.race([future.done, timeout]);
    return {{ out, error }};
}}"""

_JS_CELL_ERRORS = f"""(path) => {{ {_FIND_PANEL}
    const errors = [];
    panel.content.widgets.forEach((cell, i) => {{
        if (cell.model.type !== 'code') return;
        const outputs = cell.model.outputs;
        for (let k = 0; k < outputs.length; k++) {{
            const o = outputs.get(k).toJSON();
            if (o.output_type === 'error') errors.push(`cell ${{i}}: ${{o.ename}}: ${{o.evalue}}`);
        }}
    }});
    return errors;
}}"""

_JS_SHUTDOWN = f"""async (path) => {{ {_FIND_PANEL}
    if (panel && panel.sessionContext.session) await panel.sessionContext.shutdown();
}}"""


class KernelError(AssertionError):
    """Code sent to the notebook's kernel raised."""


@dataclass
class LabNotebook:
    """One notebook open in the page, with its live kernel."""

    page: Page
    path: str
    timings: dict[str, float] = field(default_factory=dict)

    def wait_ready(self, timeout_ms: int = 90_000) -> None:
        """Wait until the notebook is loaded and its kernel is connected and idle."""
        t0 = time.monotonic()
        self.page.wait_for_function(_JS_READY, arg=self.path, timeout=timeout_ms, polling=200)
        self.timings["kernel_ready"] = time.monotonic() - t0

    def run_all(self, timeout_ms: int = 120_000) -> None:
        """Run every cell (JupyterLab's own `notebook:run-all-cells` command) and wait.

        Fails with the cells' error outputs if any cell raised, so a broken
        notebook reads as a Python traceback, not as a missing element later.
        """
        t0 = time.monotonic()
        self.page.evaluate(_JS_RUN_ALL, self.path)
        self.page.wait_for_function(_JS_ALL_RAN, arg=self.path, timeout=timeout_ms, polling=200)
        self.timings["run_all"] = time.monotonic() - t0
        errors = self.page.evaluate(_JS_CELL_ERRORS, self.path)
        if errors:
            raise KernelError("notebook cells raised:\n" + "\n".join(errors))

    def run_through(self, last: int, timeout_ms: int = 120_000) -> None:
        """Run the code cells from the first to the ``last``-th (counting all cells), one by one
        as a reader does, and wait; fails with the cells' error outputs if any raised."""
        self.page.evaluate(_JS_RUN_THROUGH, [self.path, last])
        self.page.wait_for_function(
            _JS_RAN_THROUGH, arg=[self.path, last], timeout=timeout_ms, polling=200
        )
        errors = self.page.evaluate(_JS_CELL_ERRORS, self.path)
        if errors:
            raise KernelError("notebook cells raised:\n" + "\n".join(errors))

    def save(self) -> None:
        """Save the notebook (outputs and all), as Ctrl+S or the autosave does."""
        assert self.page.evaluate(_JS_SAVE, self.path), f"{self.path} is still unsaved"

    def kernel(self, code: str, timeout_ms: int = 60_000) -> str:
        """Execute ``code`` in this notebook's kernel; return what it printed.

        This is how a test reads the kernel's side of the widget (``w.game``)
        without going through the page it is checking.
        """
        result: dict[str, Any] = self.page.evaluate(_JS_EXECUTE, [self.path, code, timeout_ms])
        if result["error"]:
            raise KernelError(f"{result['error']}\nwhile running:\n{code}")
        return str(result["out"])

    def kernel_json(self, expr: str) -> Any:
        """Evaluate a Python expression in the kernel and return it as JSON data."""
        out = self.kernel(f"import json as _j; print(_j.dumps({expr}))")
        return json.loads(out.strip().splitlines()[-1])

    def wait_until(self, expr: str, timeout: float = 30.0, explain: str | None = None) -> None:
        """Poll a Python expression in the kernel until it is true (bots move on the loop).

        ``explain``: an expression whose value the failure message shows (e.g. ``w.error``).
        """
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.kernel_json(expr):
                return
            time.sleep(0.1)
        why = "" if explain is None else f"; {explain}: {self.kernel_json(explain)!r}"
        raise AssertionError(f"{expr} never held in the kernel within {timeout}s{why}")

    def output(self, cell_index: int) -> Locator:
        """The output area of the ``cell_index``-th cell (counting all cells)."""
        return (
            self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")
            .nth(cell_index)
            .locator(".jp-OutputArea")
        )

    def screenshot(self, name: str, locator: Locator | None = None) -> Path:
        """Save a PNG under tests/e2e/artifacts/ (gitignored) and return its path."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        target = ARTIFACTS / f"{name}.png"
        if locator is not None:
            locator.screenshot(path=str(target))
        else:
            self.page.screenshot(path=str(target), full_page=False)
        return target

    def shutdown_kernel(self) -> None:
        """Stop this notebook's kernel (2 cores: idle kernels still cost)."""
        self.page.evaluate(_JS_SHUTDOWN, self.path)
