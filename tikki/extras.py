"""The optional parts of tikki and the pip extra that brings each.

``pip install tikki`` brings the engine, the bots, the terminal and the arena.  Everything
else is an extra, imported only where it is used; :func:`require` checks an extra before
that import and, when it is missing, raises :class:`MissingExtra` whose message names the
command that installs it (``the web table needs: pip install 'tikki[web]'``).
"""

from __future__ import annotations

import importlib.util

from tikki.i18n import _ as _t

EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn", "websockets", "sqlalchemy"),
    "postgres": ("psycopg", "sqlalchemy"),
    "plot": ("matplotlib",),
    "openspiel": ("pyspiel", "numpy"),
    "pettingzoo": ("pettingzoo", "gymnasium", "numpy"),
    "gym": ("gymnasium", "numpy"),
    "parquet": ("pyarrow", "numpy"),
    "models": ("numpy",),
    "ray": ("ray",),
}
"""Each extra and the modules it provides (checked by :func:`require`)."""


class MissingExtra(ImportError):
    """An optional part of tikki is used without the extra that installs it."""


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return _absent(EXTRAS[extra])


def _absent(modules: tuple[str, ...]) -> list[str]:
    return [m for m in modules if importlib.util.find_spec(m) is None]


def require(extra: str, purpose: str, modules: tuple[str, ...] | None = None) -> None:
    """Raise :class:`MissingExtra` unless every module of ``extra`` (or only ``modules``,
    which that extra installs) is installed.

    ``purpose`` names what needs it: ``require("web", "the web table")``.
    """
    absent = missing(extra) if modules is None else _absent(modules)
    if absent:
        raise MissingExtra(
            _t(
                "{purpose} needs: pip install 'tikki[{extra}]' (not installed: {absent})",
                purpose=purpose,
                extra=extra,
                absent=", ".join(absent),
            )
        )


__all__ = ["EXTRAS", "MissingExtra", "missing", "require"]
