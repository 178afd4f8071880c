"""Print pip constraints pinning each runtime dependency to the lowest release pyproject.toml
allows (`name>=X` -> `name==X`), so CI tests the lower bounds it promises, not only the newest."""

import re
import sys
import tomllib
from pathlib import Path

project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
for requirement in project["dependencies"]:
    found = re.match(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*>=\s*([0-9][^,;\s]*)", requirement)
    if found is None:
        sys.exit(f"pyproject.toml: {requirement!r} has no lower bound (name>=X): give it one")
    print(f"{found[1]}=={found[2]}")
