"""Ctrl-C while workers are forked is never lost: it comes once they are."""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: a process with a second thread, as numpy's BLAS or a Dask event loop
#: give every run: the Ctrl-C (process-directed, as a terminal sends it)
#: goes to that thread, since the held block blocks SIGINT in its own
SCRIPT = textwrap.dedent(
    """
    import os, signal, sys, threading, time
    from amrcheck.execution._local import _sigint_held

    started = threading.Event()
    def other_thread():
        started.set()
        time.sleep(30)
    threading.Thread(target=other_thread, daemon=True).start()
    started.wait()
    where = "inside the block"
    try:
        with _sigint_held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.5)  # the handler would have run by now
            child = os.fork()  # at-fork hooks: where a raise would be dropped
            if child == 0:
                os._exit(0)
            os.waitpid(child, 0)
            for _ in range(100_000):
                pass
            where = "after the block"
        print("not interrupted")
    except KeyboardInterrupt:
        print("interrupted", where)
    """
)


def test_ctrl_c_during_a_fork_comes_after_it_whatever_thread_receives_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "interrupted after the block\n", done.stderr
    assert "Exception ignored" not in done.stderr
