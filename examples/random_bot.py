#!/usr/bin/env python3
"""An external tikki bot in plain Python: picks a random legal move.

Run it in any tikki command that takes bots:

    tikki play myllymatti --bot "cmd:python3 examples/random_bot.py"
    tikki arena myllymatti --bot "cmd:python3 examples/random_bot.py" --bot random --bot random

Protocol: one JSON object per line on standard input; answer {"move": TEXT} per
"choose" message; stop at an "end" message or at end of input.
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "end":
            break
        move = rng.choice(message["view"]["legal_moves"])
        print(json.dumps({"move": move}), flush=True)


if __name__ == "__main__":
    main()
