"""``python -m tikki.learn``: see :mod:`tikki.learn.cli`."""

import sys

from tikki.learn.cli import main

sys.exit(main())
