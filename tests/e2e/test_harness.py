"""Proves the browser harness itself with a tiny anywidget defined in the notebook.

If this fails, the problem is the environment (JupyterLab, anywidget's lab
extension, Chromium, the comm), not the Langfinger widget. It exercises both
channels the real widget uses: a synced trait set by a click, and a custom
message answered by the kernel.
"""

from __future__ import annotations

import time

from .lab import LabNotebook

CLICKER = '''
import anywidget, traitlets

class Clicker(anywidget.AnyWidget):
    _esm = """
    function render({ model, el }) {
      const button = document.createElement("button");
      button.dataset.testid = "clicker";
      const show = () => { button.textContent = `clicks: ${model.get("count")}`; };
      button.addEventListener("click", () => {
        model.set("count", model.get("count") + 1);
        model.save_changes();
      });
      model.on("change:count", show);
      show();
      const reply = document.createElement("output");
      reply.dataset.testid = "reply";
      model.on("msg:custom", (msg) => { reply.textContent = msg.echo; });
      const ping = document.createElement("button");
      ping.dataset.testid = "ping";
      ping.textContent = "ping";
      ping.addEventListener("click", () => model.send({ kind: "ping", n: model.get("count") }));
      el.append(button, ping, reply);
    }
    export default { render };
    """
    count = traitlets.Int(0).tag(sync=True)
    pings = traitlets.List([])

    def __init__(self, **kw):
        super().__init__(**kw)
        self.on_msg(self._on_msg)

    def _on_msg(self, _widget, content, _buffers):
        self.pings = [*self.pings, content]
        self.send({"echo": f"pong {content['n']}"})

w = Clicker()
w
'''


def test_click_reaches_kernel_and_kernel_answers(open_notebook) -> None:  # type: ignore[no-untyped-def]
    t0 = time.monotonic()
    nb: LabNotebook = open_notebook("harness.ipynb", [CLICKER, "print('count is', w.count)"])
    nb.run_all()
    widget = nb.output(0)
    button = widget.get_by_test_id("clicker")
    button.wait_for()
    assert button.inner_text() == "clicks: 0"

    for _ in range(3):
        button.click()
    # The page re-renders from the model, so the text proves the round trip in JS...
    widget.get_by_text("clicks: 3").wait_for()
    # ...and the kernel proves the trait arrived in Python. ipywidgets throttles state updates
    # (one unacknowledged message at a time), so the last click may still be on its way.
    deadline = time.monotonic() + 15
    while (count := nb.kernel("print(w.count)").strip()) != "3" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert count == "3"

    # The same kernel state, read the way a person would: run a cell, read its output.
    nb.page.locator(".jp-Notebook .jp-Cell").nth(1).click()
    nb.page.keyboard.press("Shift+Enter")
    nb.output(1).get_by_text("count is 3").wait_for()

    # Custom messages: JS -> kernel -> JS.
    widget.get_by_test_id("ping").click()
    widget.get_by_test_id("reply").get_by_text("pong 3").wait_for()
    assert nb.kernel_json("w.pings") == [{"kind": "ping", "n": 3}]

    # And Python -> page: a trait set in the kernel shows up in the browser.
    nb.kernel("w.count = 10")
    widget.get_by_text("clicks: 10").wait_for()

    nb.screenshot("harness", widget)
    print(
        f"\n[e2e] harness: kernel ready {nb.timings['kernel_ready']:.1f}s, "
        f"run all {nb.timings['run_all']:.1f}s, whole test {time.monotonic() - t0:.1f}s"
    )
