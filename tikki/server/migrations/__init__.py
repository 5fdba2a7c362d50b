"""The web table's schema, versioned by Alembic: one revision per change in ``versions/``.

:func:`tikki.server.schema.upgrade` runs them (``tikki db upgrade``, and the start of a
server on SQLite); ``env.py`` is what Alembic runs for each command, on the connection it
is given (or on ``sqlalchemy.url``, for ``alembic revision --autogenerate`` by hand).
"""
