"""How a local pool starts its workers (play.sweep.process_context): forked from a process running one
thread, from a fork server otherwise (a server's other threads may hold locks at the fork); both give
the games of a plain run, game for game."""

from __future__ import annotations

import threading

from play.sweep import compare, process_context


def test_a_process_with_other_threads_starts_its_workers_from_the_fork_server():
    held, started = threading.Event(), threading.Event()

    def other():
        started.set()
        held.wait(10)

    thread = threading.Thread(target=other, daemon=True)
    thread.start()
    started.wait(5)
    try:
        assert process_context().get_start_method() == "forkserver"
        from_a_thread = compare("subastral", 3, 6, 4, variants_b={"disturbance": True}, executor="processes",
                                workers=1, chunk=3)
    finally:
        held.set()
        thread.join(5)
    here = compare("subastral", 3, 6, 4, variants_b={"disturbance": True}, executor="inprocess", chunk=3)
    assert from_a_thread["results"] == here["results"]

