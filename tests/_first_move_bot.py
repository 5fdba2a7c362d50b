"""An external test bot that always plays the first legal move (deterministic)."""

import json
import sys


def main() -> None:
    """Answer each JSON-lines request on stdin with its first legal move, until ``end``."""
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "end":
            break
        print(json.dumps({"move": message["view"]["legal_moves"][0]}), flush=True)


if __name__ == "__main__":  # importable: --doctest-modules collects every module
    main()
