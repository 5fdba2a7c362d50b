"""An external test bot that always plays the first legal move (deterministic)."""

import json
import sys

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "end":
        break
    print(json.dumps({"move": message["view"]["legal_moves"][0]}), flush=True)
