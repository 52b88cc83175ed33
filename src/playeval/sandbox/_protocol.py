"""Framing of the messages between the caller and a worker: a 4-byte length, then UTF-8 JSON.

Both sides use this module. The worker side reads and writes blocking; the caller side never blocks past a
deadline and never reads more than a limit, since it must survive a worker that stalls, dies or lies.
"""

from __future__ import annotations

import fcntl
import json
import os
import select
import struct
import termios
import time
from collections.abc import Mapping
from typing import Final

HEADER: Final = struct.Struct(">I")
_CHUNK: Final = 1 << 16


class FrameEOF(Exception):
    """The other side closed its end (it died, or never started)."""


class FrameTimeout(Exception):
    """The deadline passed before the whole frame was read or written."""


class FrameTooLarge(Exception):
    """The frame announces more bytes than the reader accepts."""

    def __init__(self, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes announced, at most {limit} accepted")
        self.size = size
        self.limit = limit


def encode(message: Mapping[str, object]) -> bytes:
    """One frame holding ``message`` as compact JSON (non-finite floats allowed, as Python's json reads them).

    ASCII-escaped, so that any string (even one with a lone surrogate) can be sent.
    """
    body = json.dumps(message, separators=(",", ":")).encode("ascii")
    return HEADER.pack(len(body)) + body


def frame(body: bytes) -> bytes:
    """One frame around an already encoded JSON body."""
    return HEADER.pack(len(body)) + body


# --- worker side: blocking -------------------------------------------------------------------------------


def read_exact(fd: int, size: int) -> bytes | None:
    """Exactly ``size`` bytes from ``fd``, or ``None`` at end of file before the first byte."""
    parts: list[bytes] = []
    remaining = size
    while remaining:
        chunk = os.read(fd, min(remaining, _CHUNK))
        if not chunk:
            if remaining == size:
                return None
            raise FrameEOF(f"end of file inside a frame ({size - remaining} of {size} bytes)")
        parts.append(chunk)
        remaining -= len(chunk)
    return b"".join(parts)


def read_frame_blocking(fd: int) -> bytes | None:
    """The body of the next frame on ``fd``, or ``None`` when the other side has closed."""
    header = read_exact(fd, HEADER.size)
    if header is None:
        return None
    (size,) = HEADER.unpack(header)
    if size == 0:
        return b""
    body = read_exact(fd, size)
    if body is None:
        raise FrameEOF("end of file after a frame header")
    return body


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to a blocking ``fd``."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


# --- caller side: bounded by a deadline and a size limit -------------------------------------------------


def _wait(fd: int, events: int, deadline: float) -> None:
    """Wait until ``fd`` is ready; past the deadline it still takes what is ready now (a hello long waiting)."""
    remaining = deadline - time.monotonic()
    poller = select.poll()
    poller.register(fd, events)
    if not poller.poll(max(0, int(remaining * 1000 + 0.999))):
        raise FrameTimeout("deadline passed")


def write_before(fd: int, data: bytes, deadline: float) -> None:
    """Write all of ``data`` to the non-blocking ``fd`` before ``deadline`` (``time.monotonic``).

    Raises ``FrameTimeout`` past the deadline and ``FrameEOF`` when the reader has gone.
    """
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            written = 0
        except (BrokenPipeError, ConnectionResetError) as error:
            raise FrameEOF("the reader closed its end") from error
        view = view[written:]
        if view:
            _wait(fd, select.POLLOUT, deadline)


def unread_bytes(fd: int) -> int:
    """How many bytes written to the pipe ``fd`` (either end) nobody has read yet."""
    (count,) = struct.unpack("i", fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"))
    return int(count)


def _read_before(fd: int, size: int, deadline: float) -> bytes:
    parts: list[bytes] = []
    remaining = size
    while remaining:
        _wait(fd, select.POLLIN, deadline)
        chunk = os.read(fd, min(remaining, _CHUNK))
        if not chunk:
            raise FrameEOF(f"end of file after {size - remaining} of {size} bytes")
        parts.append(chunk)
        remaining -= len(chunk)
    return b"".join(parts)


def read_frame_before(fd: int, deadline: float, limit: int) -> bytes:
    """The body of the next frame on ``fd``, read before ``deadline``, at most ``limit`` bytes long."""
    (size,) = HEADER.unpack(_read_before(fd, HEADER.size, deadline))
    if size > limit:
        raise FrameTooLarge(size, limit)
    return _read_before(fd, size, deadline) if size else b""
