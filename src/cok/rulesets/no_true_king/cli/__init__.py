"""`cok ntk`: its commands (`commands.py`) and the reading of `resolve` and `combat` words
(`phrases.py`)."""

from cok.rulesets.no_true_king.cli.commands import app

__all__ = ["app"]
