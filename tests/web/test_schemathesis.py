"""schemathesis against the arena's own OpenAPI schema, in-process over ASGI: no request makes the server fail.

The examples are bounded (``MAX_EXAMPLES`` per operation, derandomized) so the run stays well under a minute.
Every operation is exercised with schema-valid and schema-breaking input; the only property asserted is that
no response is a 5xx (``not_a_server_error``): bad input must be refused with a 4xx and a message.

The schema is read from ``app.openapi()`` at collection, which starts nothing; the app's lifespan (and its
database, in a fresh temporary directory) starts with the first request and ends with this module.
"""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from arena_client import make_settings
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import shutdown_lifespans

from playeval.web import create_app

MAX_EXAMPLES = 25
WORK_DIR = Path(tempfile.gettempdir()) / f"playeval-schemathesis-{secrets.token_hex(6)}"

app = create_app(make_settings(WORK_DIR, max_live_watches=2))
schema = schemathesis.openapi.from_dict(app.openapi())
schema.app = app


@pytest.fixture(scope="module", autouse=True)
def _app_lifetime() -> Iterator[None]:
    yield
    shutdown_lifespans()  # the store closes and the model tasks stop with the module, not at exit
    shutil.rmtree(WORK_DIR, ignore_errors=True)


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_server_fail(case: Any) -> None:
    case.call_and_validate(checks=[not_a_server_error])
