"""CFR on a tikki mini game: OpenSpiel's solver, its exploitability, the policy saved.

The ``mini`` variant of Myllymatti (two players, a four-card deck, one card each) has an
explicit chance node for the deal, so OpenSpiel's tabular methods run on it as on Kuhn
poker: 24 deals, 1,593 histories, 988 information states (docs/research.md)::

    pip install 'tikki[openspiel]'
    python examples/cfr_mini.py --iterations 200 --out cfr_policy.json

``--game "python_tikki_mueckenstich(players=3,variant=mini)"`` solves Mückenstich's mini
(three players, six cards, 33 deals, 1,552 information states).

Every ``--report`` iterations it prints the NashConv of the average policy (the sum of
what each player could gain by a best response; 0 is a Nash equilibrium); at the end it
saves the average policy as JSON, ``{information state: {move text: probability}}``.
``--iterations 2`` runs in seconds (the test suite does that).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from tikki.extras import require

require("openspiel", "examples/cfr_mini.py")

import pyspiel  # noqa: E402
from open_spiel.python.algorithms import cfr, exploitability  # noqa: E402

from tikki.interop import openspiel  # noqa: E402
from tikki.tui import outputs  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    """Run CFR, report NashConv, save the average policy."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="python_tikki_myllymatti(players=2,variant=mini)")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--report", type=int, default=10)
    parser.add_argument("--plus", action="store_true", help="CFR+ instead of vanilla CFR")
    parser.add_argument("--out", default="cfr_policy.json")
    args = parser.parse_args(argv)
    try:  # refused now, not after the solve
        out = outputs.check("--out", Path(args.out), "json").path
    except outputs.OutputError as err:
        parser.error(str(err))
    openspiel.register()
    game = pyspiel.load_game(args.game)
    solver = cfr.CFRPlusSolver(game) if args.plus else cfr.CFRSolver(game)
    start = time.monotonic()
    print(f"iteration 0: NashConv {exploitability.nash_conv(game, solver.average_policy()):.4f}")
    for i in range(1, args.iterations + 1):
        solver.evaluate_and_update_policy()
        if i % args.report == 0 or i == args.iterations:
            conv = exploitability.nash_conv(game, solver.average_policy())
            print(f"iteration {i}: NashConv {conv:.4f} ({time.monotonic() - start:.0f} s)")
    average = solver.average_policy()
    texts = openspiel.actions_of(game)
    probabilities = average.action_probability_array
    table = {
        key: {texts[a]: float(p) for a, p in enumerate(probabilities[row]) if p > 0}
        for key, row in average.state_lookup.items()
    }
    try:
        with out.open("w", encoding="utf-8") as file:
            json.dump(table, file, indent=0, sort_keys=True)
    except OSError as err:
        raise SystemExit(f"error: could not write {out}: {err.strerror or err}") from None
    print(f"average policy over {len(table)} information states saved to {out}")


if __name__ == "__main__":
    main()
