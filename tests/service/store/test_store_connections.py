"""Store connections live as long as the thread that uses them, not as long as the process."""

import gc
import threading

from gridservice.store.connections import ConnectionPerThread
from gridservice.store.db import connect, init_schema


def test_a_finished_thread_gives_its_connection_back(tmp_path):
    path = tmp_path / "store.db"
    init_schema(connect(path))
    connections = ConnectionPerThread(path)

    def use_the_store():
        connections.get().execute("SELECT count(*) FROM meta").fetchone()

    # Worker threads of a server come and go between bursts of requests; if each one's
    # connection outlived it, memory would grow with every burst.
    for _ in range(5):
        workers = [threading.Thread(target=use_the_store) for _ in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        del workers, worker
        gc.collect()
        assert connections.open_count == 0

    connections.get()
    assert connections.open_count == 1
    connections.close_all()
    assert connections.open_count == 0
