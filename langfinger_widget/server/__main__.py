"""``python -m langfinger_widget.server [--host ...]``: the same as ``langfinger serve``."""

from .cli import run_module

run_module()
