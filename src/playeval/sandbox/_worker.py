"""The worker process: confine itself, say hello, then answer requests until its input closes.

The caller starts it as ``python -s -P -S -B -c BOOTSTRAP CONFIG FOLDER PATH...`` with an environment holding only
a fixed ``PYTHONHASHSEED`` (``_process.WORKER_ENVIRONMENT``), in a
new session, with only its three standard descriptors (all pipes to the caller). The bootstrap loads this
folder as a private package, so the worker imports only its own modules (``_worker``, ``_runtime``,
``_guards``, ``_policy``, ``_isolation``, ``_seccomp``, ``_protocol``), RestrictedPython and the standard
library, never ``playeval`` itself. It imports and warms everything it needs, confines itself for good
(``_isolation.confine``), and only then reads rules. It never times itself out: the caller kills it.
"""

from __future__ import annotations

import json
import os
import warnings

from ._isolation import Limits, confine
from ._protocol import encode, frame, read_frame_blocking, write_all
from ._runtime import RuleRunner, refusal

_REQUESTS = 0
_ANSWERS = 1


def main(config_text: str) -> None:
    """Serve requests on standard input and output; ``config_text`` is the caller's JSON settings."""
    config = json.loads(config_text)
    warnings.simplefilter("ignore")  # warnings would go to the caller's stderr pipe, which nobody drains
    runner = RuleRunner(max_output_bytes=int(config["max_output_bytes"]))
    runner.warm_up()
    report = confine(Limits(memory_bytes=int(config["memory_bytes"]), cpu_seconds=int(config["cpu_seconds"])))
    write_all(_ANSWERS, encode({"hello": True, "pid": os.getpid(), "isolation": report}))
    while True:
        body = read_frame_blocking(_REQUESTS)
        if body is None:
            return
        try:
            request = json.loads(body)
        except (ValueError, RecursionError):
            answer = refusal("crashed", "malformed request")
        else:
            answer = runner.handle(request) if isinstance(request, dict) else refusal("crashed", "malformed request")
        write_all(_ANSWERS, frame(answer))
