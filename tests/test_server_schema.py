"""schemathesis over every operation of ``/openapi.json`` (the ASGI app, in-process).

A small, fixed budget of generated requests per operation (derandomized, so the run is the
same every time); no answer may be a server error or break the documented schema.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tikki.server import create_app

WORKDIR = Path(tempfile.mkdtemp(prefix="tikki-schema-"))
atexit.register(shutil.rmtree, WORKDIR, ignore_errors=True)
DB = WORKDIR / "web.sqlite"
app = create_app(f"sqlite:///{DB}", bot_delay=0)
schema = schemathesis.openapi.from_asgi("/openapi.json", app)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


@schema.parametrize()
@settings(
    max_examples=15,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_api_has_no_server_errors_and_keeps_its_schema(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate(checks=CHECKS)
