"""Share cards turned into pictures away from the server's requests: one at a time, in a
process of their own, at the lowest CPU priority.

resvg holds Python's GIL the whole time it renders (a card takes a tenth of a second or
more): in one of the server's threads it would stop every other request for that long, and
eight phones asking for pictures would starve a save. So a picture is rendered in one child
process, niced, which any save outranks; one more request may wait its turn, and a further
one is told at once to come back (Busy) rather than hold one of the server's threads.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

import resvg_py

TURNS = 2  # one picture being drawn, one waiting for its turn
RETRY_AFTER = 2  # seconds, said to a phone told to come back
WAIT = 30  # seconds at most for a picture: a stuck renderer is not waited on for ever

_turns = threading.BoundedSemaphore(TURNS)
_started = threading.Lock()
_pool: ProcessPoolExecutor | None = None


class Busy(Exception):
    """Pictures are being drawn for other phones: ask again in RETRY_AFTER seconds."""


def _lowest_priority() -> None:
    if hasattr(os, "nice"):  # not on Windows: there the process keeps its priority
        os.nice(19)


def _render(svg: str, fonts: list[str], family: str) -> bytes:
    return bytes(resvg_py.svg_to_bytes(svg_string=svg, font_files=fonts,
                                       skip_system_fonts=True, font_family=family))


def _renderer() -> ProcessPoolExecutor:
    """Return the rendering process, started the first time (spawned: the server's threads
    are not forked with it)."""
    global _pool
    with _started:
        if _pool is None:
            _pool = ProcessPoolExecutor(1, multiprocessing.get_context("spawn"),
                                        initializer=_lowest_priority)
        return _pool


@contextmanager
def turn() -> Iterator[None]:
    """Hold one of the TURNS for a picture while it is worked out and drawn; raise Busy at
    once if there is none, before any of the work is done."""
    if not _turns.acquire(blocking=False):
        raise Busy
    try:
        yield
    finally:
        _turns.release()


def png(svg: str, fonts: list[str], family: str) -> bytes:
    """Return an SVG drawn as a PNG with these font files only, by the rendering process
    (in a `turn()`: one picture at a time, one more waiting)."""
    global _pool
    pool = _renderer()
    try:
        return pool.submit(_render, svg, fonts, family).result(WAIT)
    except BrokenProcessPool:  # the process died (killed?): a new one for the next picture
        with _started:
            if _pool is pool:
                _pool = None
        raise Busy
