"""The package's version: its one source (pyproject.toml reads it, ``lf.__version__`` is it)."""

__version__ = "0.1.0"
