"""``python -m tikki.cli``: the ``tikki`` command."""

from tikki.cli import main

main()
