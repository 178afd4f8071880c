"""`cok mk`: its commands (`commands.py`), the winter's (`winter.py`) and the arguments they share
(`arguments.py`)."""

from cok.rulesets.mighty_kingdoms.cli.commands import app

__all__ = ["app"]
