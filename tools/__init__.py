"""The developer's tools that are not part of tikki's package: the translation catalogs'
commands (``python -m tools.catalogs``, ``python -m tools.web_catalogs``; ``make catalogs``).
They need Babel (the ``test`` extra) and run from the repository's root."""
