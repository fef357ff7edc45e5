"""Log the turns of a process's event loop that kept it busy: `sockets.py --stalls MS` puts this
directory on the web processes' PYTHONPATH.

A turn is one `_run_once` of asyncio's loop: it waits in `select` for I/O, then runs every
callback that was ready.  The wait is not counted; a turn whose callbacks took over
``PLYGROUND_STALL_MS`` is written to ``PLYGROUND_STALL_LOG.<pid>`` as "<epoch seconds> <ms>".
While a turn runs, a move that arrived waits for it: these turns are the loop's own share of
move-to-peers' tail.  Not loaded unless ``PLYGROUND_STALL_LOG`` is set.

Each garbage collection is written to ``PLYGROUND_STALL_LOG-gc.<pid>`` as "<epoch seconds>
<generation> <ms> <CPU ms of the collecting thread>", once the process runs an event loop (the
web, not a management command): a collection holds the GIL, so every thread of the process
(the event loop too) waits for it.
"""

import gc
import os
import time

if os.environ.get("PLYGROUND_STALL_LOG"):
    import asyncio.base_events

    _threshold_s = float(os.environ.get("PLYGROUND_STALL_MS", "15")) / 1000
    _log = open(f"{os.environ['PLYGROUND_STALL_LOG']}.{os.getpid()}", "a", buffering=1)  # noqa: SIM115
    _waited = [0.0]
    _serving = [False]
    _run_once = asyncio.base_events.BaseEventLoop._run_once

    def _timed_select(select):
        def timed(timeout=None):
            started = time.perf_counter()
            try:
                return select(timeout)
            finally:
                _waited[0] += time.perf_counter() - started

        return timed

    def _timed_run_once(self):
        _serving[0] = True
        if not getattr(self, "_stall_timed", False):
            self._selector.select = _timed_select(self._selector.select)
            self._stall_timed = True
        _waited[0] = 0.0
        started = time.perf_counter()
        _run_once(self)
        busy = time.perf_counter() - started - _waited[0]
        if busy > _threshold_s:
            _log.write(f"{time.time():.3f} {busy * 1000:.1f}\n")

    asyncio.base_events.BaseEventLoop._run_once = _timed_run_once

    _gc_log = open(f"{os.environ['PLYGROUND_STALL_LOG']}-gc.{os.getpid()}", "a", buffering=1)  # noqa: SIM115
    _gc_started = [0.0, 0.0]

    def _timed_collection(phase, info):
        if not _serving[0]:
            return
        if phase == "start":
            _gc_started[:] = time.perf_counter(), time.thread_time()
            return
        wall, cpu = time.perf_counter() - _gc_started[0], time.thread_time() - _gc_started[1]
        _gc_log.write(f"{time.time():.3f} {info['generation']} {wall * 1000:.2f} {cpu * 1000:.2f}\n")

    gc.callbacks.append(_timed_collection)
