#!/usr/bin/env python3
# BROKEN: answers lines concurrently (a pool of worker threads, since "the runner may write a few lines before their replies come") and writes each reply when it is ready, so a slow call followed by a quick line is answered out of order.
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
sys.dont_write_bytecode = True
from _patch import catalog_port, serve, write_line  # noqa: E402


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr
    session = catalog_port.Session()
    lock = threading.Lock()

    def answer(raw):
        r = session.handle(raw)
        with lock:
            write_line(stdout, r)

    with ThreadPoolExecutor(max_workers=4) as pool:
        while True:
            raw = stdin.readline()
            if not raw:
                break
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            pool.submit(answer, raw)
    return 0


catalog_port.main = main
serve(__name__)
