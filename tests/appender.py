"""A worker for the durability tests: records `count` adjustments through the real CLI,
printing `ok NOTE` (flushed) after each one the command reported as recorded."""

from __future__ import annotations

import sys

from cok.main import app


def main() -> None:
    campaign, worker, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    for n in range(count):
        note = f"{worker}-{n}"
        try:
            app(["adjust", "tim", "1", "--reason", "durability", "--note", note, "-C", campaign], standalone_mode=False)
        except SystemExit as stop:
            if stop.code:
                print(f"failed {note} {stop.code}", flush=True)
                continue
        print(f"ok {note}", flush=True)


if __name__ == "__main__":
    main()
