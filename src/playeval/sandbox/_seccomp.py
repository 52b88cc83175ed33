"""A seccomp filter for the worker, built with the system's libseccomp (through ctypes), when it is there.

The filter allows every system call except those a rule never needs and an escaped rule would want: opening,
creating or changing files, sockets, new processes and programs, signals to anyone, namespaces, mounts,
privileges, limits, kernel keys and modules, tracing other processes. They fail with EPERM. It is the last
layer: RestrictedPython keeps the code from reaching any of them, and the chroot, the network namespace, the
unprivileged user and the resource limits stand before it too. Where libseccomp is missing the worker runs
without it and says so in its isolation report.
"""

from __future__ import annotations

import ctypes
import errno
from typing import Final

_ALLOW: Final = 0x7FFF0000
_ERRNO_EPERM: Final = 0x00050000 | errno.EPERM

DENIED_SYSCALLS: Final[tuple[str, ...]] = (
    # files
    "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at", "truncate", "ftruncate",
    "unlink", "unlinkat", "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "link", "linkat",
    "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "mknod",
    "mknodat", "utime", "utimes", "utimensat", "futimesat", "memfd_create", "inotify_init", "inotify_init1",
    "fanotify_init", "acct", "swapon", "swapoff", "quotactl",
    # network
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg", "sendmmsg",
    # processes, programs, signals, tracing
    "fork", "vfork", "clone", "clone3", "execve", "execveat", "kill", "tkill", "tgkill", "rt_sigqueueinfo",
    "rt_tgsigqueueinfo", "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "ptrace", "process_vm_readv",
    "process_vm_writev", "kcmp",
    # namespaces, mounts, privileges, limits
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "fsopen", "fsmount", "fsconfig",
    "move_mount", "open_tree", "mount_setattr", "setuid", "setgid", "setreuid", "setregid", "setresuid",
    "setresgid", "setgroups", "setfsuid", "setfsgid", "capset", "prctl", "setrlimit", "prlimit64",
    "personality", "seccomp",
    # the kernel itself
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key", "io_uring_setup",
    "io_uring_enter", "io_uring_register", "init_module", "finit_module", "delete_module", "kexec_load",
    "kexec_file_load", "iopl", "ioperm", "syslog", "reboot", "sethostname", "setdomainname", "mq_open",
    "msgget", "semget", "shmget", "move_pages", "migrate_pages", "vhangup", "lookup_dcookie",
)  # fmt: skip


def load_library() -> ctypes.CDLL | None:
    """libseccomp, loaded now (before the worker loses its file system), or ``None`` when missing."""
    for name in ("libseccomp.so.2", "libseccomp.so"):  # not ctypes.util.find_library: it runs programs
        try:
            library = ctypes.CDLL(name, use_errno=True)
        except OSError:
            continue
        library.seccomp_init.restype = ctypes.c_void_p
        library.seccomp_init.argtypes = [ctypes.c_uint32]
        library.seccomp_syscall_resolve_name.restype = ctypes.c_int
        library.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
        library.seccomp_rule_add.restype = ctypes.c_int
        library.seccomp_rule_add.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint]
        library.seccomp_load.restype = ctypes.c_int
        library.seccomp_load.argtypes = [ctypes.c_void_p]
        library.seccomp_release.restype = None
        library.seccomp_release.argtypes = [ctypes.c_void_p]
        return library
    return None


def install(library: ctypes.CDLL) -> str:
    """Build and load the filter into this process for good; returns what was done, for the report.

    Raises ``OSError`` when the filter cannot be built or loaded.
    """
    context = library.seccomp_init(_ALLOW)
    if not context:
        raise OSError(errno.ENOMEM, "seccomp_init failed")
    try:
        denied = 0
        for name in DENIED_SYSCALLS:
            number = library.seccomp_syscall_resolve_name(name.encode("ascii"))
            if number < 0:
                continue  # not a system call of this architecture
            result = library.seccomp_rule_add(context, _ERRNO_EPERM, number, 0)
            if result < 0:
                raise OSError(-result, f"seccomp_rule_add({name}) failed")
            denied += 1
        result = library.seccomp_load(context)
        if result < 0:
            raise OSError(-result, "seccomp_load failed")
    finally:
        library.seccomp_release(context)
    return f"on: {denied} system calls fail with EPERM (files, sockets, processes, signals, namespaces)"
