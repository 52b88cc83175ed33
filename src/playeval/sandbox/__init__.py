"""Run untrusted Python functions (rules written by a language model) without trusting them.

    from playeval.sandbox import SandboxError, run_function

    run_function("def rule(word):\\n    return len(word) > 4\\n", "rule", [("apple",), ("tree",)])
    # -> [True, False]

The contract
------------
``run_function(source, name, inputs, timeout_s=2.0)`` defines ``source`` (a module that must define a top-level
function ``name``), calls ``name(*row)`` for each row of ``inputs`` and returns the results, in order, as a
list of JSON values. Rows and results cross a process boundary as JSON: a row's values must be JSON values
(tuples arrive as lists), and a result must be ``None``, a bool, an int, a float, a string, a list or tuple, or
a dict with string keys (tuples come back as lists; at most 64 levels deep). The sandbox does not check what
the values mean (a rule returning a non-boolean is the caller's business). The module body and all the calls
of one request share one fresh namespace; nothing survives from one request to the next but compiled code.

It raises ``SandboxError(reason, detail)``, whose ``reason`` is one of

- ``syntax``: the source does not parse, or defines no top-level function ``name``;
- ``forbidden``: the code reaches for something a rule may not have: attributes starting with ``_``
  (``__class__``, ``__subclasses__``, ``__builtins__``, ``__traceback__``...), frames and code objects
  (``gi_frame``, ``tb_frame``, ``f_back``, ...), ``mro``, imports other than ``math``, ``re`` and ``string``,
  ``open``, ``exec``, ``eval``, ``compile``, ``globals``, ``vars``, ``type``, ``object``, class definitions,
  attribute access inside a format string (``'{0.__class__}'.format(x)``), writing an attribute of anything
  or an item of anything but a list or a dict.
  Caught at compile time where possible, otherwise when it happens (the first violation sticks, so catching
  the exception does not help), or when the source is longer than the sandbox accepts;
- ``timeout``: the request (compiling, the module body and every call) took longer than ``timeout_s``;
  the worker was killed;
- ``memory``: the code ran out of its address space (256 MB by default);
- ``crashed``: the function raised (the detail names the exception and the line), returned a value that is not
  JSON, or the worker died (killed from outside, a crash of the interpreter). A worker killed while it runs a
  request is not retried: that request raises ``crashed`` and the next request gets a fresh worker. A worker
  found dead before it took the request is replaced and the request is sent once more (nothing had run);
- ``output_too_large``: the results are larger than the output limit (1 MiB of JSON by default).

It raises ``TypeError`` or ``ValueError`` for a bad call (``name`` not a public identifier, rows not JSON,
``timeout_s`` not in (0, 60], a request over 32 MiB), ``RuntimeError`` once its sandbox is closed, and
``OSError`` if no process can be started at all. The caller waits at most ``timeout_s`` plus the time to kill
and replace the worker (milliseconds), plus, when no warm worker is free, a worker's start (50 to 100 ms here;
bounded by ``start_timeout_s``, a worker that does not start is ``crashed``) or the wait for a busy one.

What the code can use: plain Python (arithmetic, strings and their methods, comprehensions, generators,
lambdas, ``try``, f-strings, ``print``, which goes nowhere), the builtins ``abs all any ascii bin bool bytes
callable chr complex dict divmod enumerate filter float format frozenset getattr hasattr hex int isinstance
issubclass iter len list map max min next oct ord pow range repr reversed round set slice sorted str sum tuple
zip`` and the common exception types, and read-only views of ``math``, ``re`` (its functions and flags) and
``string`` (its constants and ``capwords``), by name or by ``import``.

How it is enforced
------------------
Two independent barriers. The code is compiled with RestrictedPython's policy, tightened (``_policy``), and
runs with guards for attribute access, imports and writes (``_guards``); that happens in a separate worker
process started with ``python -s -P -S -B``, an environment holding only a fixed ``PYTHONHASHSEED`` (so a set of
strings iterates in the same order in every worker: a rule's truth never depends on the process; ``hash`` itself
is refused), no inherited descriptors but its three pipes,
in a new session. Before it reads any rule, the worker confines itself for good (``_isolation``), each layer
tried and reported by ``Sandbox.isolation()`` (a layer the kernel refuses is skipped and reported, not
fatal): new network (no interface but its own loopback), IPC and UTS namespaces (inside a new user namespace
when not root); a chroot into an empty, deleted directory; the unprivileged user ``nobody`` when started as
root; ``no_new_privs``; resource limits (address space, lifetime CPU, no processes, no file writes, no new
descriptors, no core dumps); and a seccomp filter (through the system's libseccomp, when installed) that makes
opening files, sockets, processes, signals, namespaces and privilege changes fail with EPERM. The caller reads
answers with a deadline and a size cap, kills (SIGKILL) a worker that is late, too talkative or malformed, and
replaces any worker that died or ran out of memory.

Workers and their lifetime
--------------------------
A ``Sandbox`` owns its workers (two at most by default), starts them on first need, keeps them warm between
requests (so a rule over 50 words takes well under a millisecond), replaces each after ``max_calls_per_worker``
requests, and kills them on ``close()``, at garbage collection or at interpreter exit. ``run_function`` uses a
default ``Sandbox`` created on the first call in the process and closed at interpreter exit; it is private to this
package (tests and tools that want to see or kill workers make their own ``Sandbox``). A process forked after using
a sandbox starts its own workers.
"""

from playeval.sandbox._errors import SandboxError, SandboxReason
from playeval.sandbox._sandbox import MAX_TIMEOUT_S, JsonValue, Sandbox, run_function

__all__ = ["MAX_TIMEOUT_S", "JsonValue", "Sandbox", "SandboxError", "SandboxReason", "run_function"]
