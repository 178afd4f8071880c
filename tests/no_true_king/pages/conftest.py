"""The server's fixtures (a data folder of its own, the warm campaign), for the pages' tests."""

from tests.serve.conftest import _own_data, table

__all__ = ["_own_data", "table"]
