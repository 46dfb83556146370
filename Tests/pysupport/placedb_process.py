"""The placedb binary as the Python tests run it (Tests/interop, Tests/browser):
the CLI for imports, and `placedb serve` on a free loopback port."""

import json
import os
import signal
import subprocess
import threading

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PLACEDB = os.environ.get("PLACEDB", os.path.join(ROOT, ".build", "debug", "placedb"))


def write_lines(path, records):
    """Writes `records` to `path`, one JSON text a line (NDJSON, GeoJSON-seq)."""
    with open(path, "w") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def cli(*args, db):
    """Runs `placedb ARGS --db DB`; its stdout, or AssertionError with its stderr."""
    r = subprocess.run([PLACEDB, *args, "--db", db], capture_output=True)
    if r.returncode != 0:
        raise AssertionError(f"placedb {' '.join(args)}: exit {r.returncode}: {r.stderr.decode()}")
    return r.stdout


class Server:
    """`placedb serve` on a free loopback port; its stderr read in a thread."""

    def __init__(self, db, *extra, env=None):
        self.proc = subprocess.Popen([PLACEDB, "serve", "--db", db, "--listen", "127.0.0.1:0", "--threads", "2", *extra],
                                     stderr=subprocess.PIPE, env={**os.environ, **(env or {})})
        first = self.proc.stderr.readline().decode()
        if "listening on http://127.0.0.1:" not in first:
            self.proc.kill()
            raise AssertionError(f"placedb serve did not start: {first!r}")
        self.port = int(first.split("http://127.0.0.1:")[1].split("/")[0])
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.origin = self.endpoint
        self.log = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.proc.stderr:
            self.log.append(line.decode().rstrip("\n"))

    def stop(self):
        """SIGTERM, then its exit code once it has stopped."""
        self.proc.send_signal(signal.SIGTERM)
        code = self.proc.wait(timeout=20)
        self.reader.join(timeout=5)
        self.proc.stderr.close()
        return code
