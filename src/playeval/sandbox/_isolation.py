"""The worker confines itself, once, before it reads any rule: namespaces, chroot, user, limits, seccomp.

The worker is trusted code until it reads its first request, so it does its own confinement there instead of
in a ``preexec_fn`` (which is unsafe in a caller with threads). Each layer is tried; what fails is reported,
not fatal, so that the sandbox still runs (with fewer layers) where the kernel or the container refuses one.
``confine`` returns the report the caller can read from ``Sandbox.isolation()``.
"""

from __future__ import annotations

import ctypes
import errno
import os
import resource
import socket
import tempfile
from dataclasses import dataclass

from . import _seccomp

_CLONE_NEWNET = 0x40000000
_CLONE_NEWUSER = 0x10000000
_CLONE_NEWIPC = 0x08000000
_CLONE_NEWUTS = 0x04000000
_PR_SET_DUMPABLE = 4
_PR_SET_NO_NEW_PRIVS = 38
_PROBE_ADDRESS = ("192.0.2.1", 9)  # TEST-NET-1: a UDP connect only looks up a route, it sends nothing


@dataclass(frozen=True)
class Limits:
    """What the worker may use: address space, CPU seconds over its whole life, and the user to become."""

    memory_bytes: int
    cpu_seconds: int
    uid: int = 65534
    gid: int = 65534


def _errno_name(error: OSError) -> str:
    return errno.errorcode.get(error.errno or 0, str(error.errno))


def _libc_call(libc: ctypes.CDLL, function: str, *arguments: int) -> None:
    if getattr(libc, function)(*arguments) != 0:
        number = ctypes.get_errno()
        raise OSError(number, os.strerror(number))


def _unshare(libc: ctypes.CDLL, root: bool) -> str:
    """New network, IPC and UTS namespaces; as root directly, otherwise (or if root is refused) in a new
    user namespace, where an unprivileged process may create them when the kernel allows it."""
    done: list[str] = []
    failed: list[str] = []
    network = [(_CLONE_NEWNET, "net")] if root else []
    network.append((_CLONE_NEWUSER | _CLONE_NEWNET, "user+net"))
    for flag, name in network:
        try:
            _libc_call(libc, "unshare", flag)
            done.append(name)
            break
        except OSError as error:
            failed.append(f"{name} ({_errno_name(error)})")
    for flag, name in ((_CLONE_NEWIPC, "ipc"), (_CLONE_NEWUTS, "uts")):
        try:
            _libc_call(libc, "unshare", flag)
            done.append(name)
        except OSError as error:
            failed.append(f"{name} ({_errno_name(error)})")
    text = f"new: {', '.join(done) or 'none'}"
    return text + (f"; refused: {', '.join(failed)}" if failed else "")


def _network() -> str:
    try:
        with open("/proc/self/net/dev", encoding="ascii") as lines:
            interfaces = sorted(line.split(":")[0].strip() for line in lines.readlines()[2:])
    except OSError as error:
        interfaces = [f"unknown ({_errno_name(error)})"]
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE_ADDRESS)
        route = "a route out exists"
    except OSError as error:
        route = f"no route out ({_errno_name(error)})"
    return f"interfaces: {', '.join(interfaces)}; {route}"


def _chroot() -> str:
    """Make an empty directory, hold it open, delete it, and make it the root: no file is reachable, and
    nothing can be created in it (a deleted directory takes no new entries)."""
    try:
        path = tempfile.mkdtemp(prefix="playeval-sandbox-")
        try:
            handle = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
        finally:
            os.rmdir(path)
        try:
            os.fchdir(handle)
            os.chroot(".")
        finally:
            os.close(handle)
        os.chdir("/")
    except OSError as error:
        return f"not confined: chroot refused ({_errno_name(error)})"
    return "chroot into an empty, deleted directory"


def _drop_user(root: bool, limits: Limits) -> str:
    if not root:
        return f"unchanged: uid {os.getuid()} (not started as root)"
    try:
        os.setgroups([])
        os.setgid(limits.gid)
        os.setuid(limits.uid)
    except OSError as error:
        return f"still root: dropping to uid {limits.uid} refused ({_errno_name(error)})"
    return f"uid {os.getuid()}, gid {os.getgid()}, no supplementary groups, no capabilities"


def _privileges(libc: ctypes.CDLL) -> str:
    results: list[str] = []
    for option, value, name in ((_PR_SET_NO_NEW_PRIVS, 1, "no_new_privs"), (_PR_SET_DUMPABLE, 0, "not dumpable")):
        try:
            _libc_call(libc, "prctl", option, value, 0, 0, 0)
            results.append(name)
        except OSError as error:
            results.append(f"{name} refused ({_errno_name(error)})")
    return ", ".join(results)


def _open_descriptors() -> int:
    highest = -1
    for descriptor in range(256):
        try:
            os.fstat(descriptor)
        except OSError:
            continue
        highest = descriptor
    return highest + 1


def _rlimits(limits: Limits) -> str:
    descriptors = _open_descriptors()
    wanted = [
        (resource.RLIMIT_CORE, 0, 0, "core=0"),
        (resource.RLIMIT_FSIZE, 0, 0, "fsize=0"),
        (resource.RLIMIT_NPROC, 0, 0, "nproc=0"),
        (resource.RLIMIT_MEMLOCK, 0, 0, "memlock=0"),
        (resource.RLIMIT_MSGQUEUE, 0, 0, "msgqueue=0"),
        (resource.RLIMIT_NOFILE, descriptors, descriptors, f"nofile={descriptors}"),
        (resource.RLIMIT_CPU, limits.cpu_seconds, limits.cpu_seconds + 1, f"cpu={limits.cpu_seconds} s"),
        (resource.RLIMIT_AS, limits.memory_bytes, limits.memory_bytes, f"as={limits.memory_bytes >> 20} MiB"),
    ]
    results: list[str] = []
    for which, soft, hard, name in wanted:
        try:
            resource.setrlimit(which, (soft, hard))
            results.append(name)
        except (OSError, ValueError) as error:
            results.append(f"{name} refused ({error})")
    return ", ".join(results)


def _probe_fork() -> str:
    try:
        pid = os.fork()
    except OSError as error:
        return f"fork blocked ({_errno_name(error)})"
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return "fork possible"


def _probe_open() -> str:
    try:
        with open("/etc/passwd", "rb"):
            return "/etc/passwd readable"
    except OSError as error:
        return f"/etc/passwd unreachable ({_errno_name(error)})"


def _probe_socket() -> str:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM):
            return "socket creatable"
    except OSError as error:
        return f"socket blocked ({_errno_name(error)})"


def confine(limits: Limits) -> dict[str, str]:
    """Confine this process for good and report each layer; call once, before any untrusted code runs."""
    os.environ.clear()
    libc = ctypes.CDLL(None, use_errno=True)
    seccomp_library = _seccomp.load_library()  # before the chroot: it is a file
    root = os.geteuid() == 0
    report: dict[str, str] = {"environment": "cleared: started with PYTHONHASHSEED only, 0 variables now"}
    report["namespaces"] = _unshare(libc, root)
    report["network"] = _network()
    report["filesystem"] = _chroot()
    report["files_probe"] = _probe_open()
    report["user"] = _drop_user(root, limits)
    report["privileges"] = _privileges(libc)
    report["rlimits"] = _rlimits(limits)
    report["fork_probe"] = _probe_fork()
    if seccomp_library is None:
        report["seccomp"] = "off: libseccomp.so.2 not found"
    else:
        try:
            report["seccomp"] = _seccomp.install(seccomp_library)
        except OSError as error:
            report["seccomp"] = f"off: {error}"
    report["final_probes"] = "; ".join((_probe_open(), _probe_fork(), _probe_socket()))
    return report
