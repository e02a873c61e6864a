"""A local Argos package index: an HTTP server on 127.0.0.1 (a free port) serving an index and
packages from a folder, in a subprocess stopped by its PID at the end of the session.

Paths choose how a file is served, so one server plays every network fault:
    /ok/NAME         the file, whole
    /truncated/NAME  a Content-Length for the whole file, half of it, then the connection closes
    /stall/NAME      the whole Content-Length, half of it, then nothing for an hour
    anything else    404
Run as a script (`python argos_index_fixtures.py FOLDER`) it serves FOLDER and prints its port.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from argostranslate import settings as argos_settings


class _Handler(BaseHTTPRequestHandler):
    folder: Path

    def do_GET(self) -> None:
        mode, _, name = self.path.lstrip("/").partition("/")
        path = self.folder / name
        if mode not in ("ok", "truncated", "stall") or not name or "/" in name or not path.is_file():
            self.send_error(404)
            return
        data = path.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if mode == "ok":
            self.wfile.write(data)
            return
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        if mode == "stall":
            time.sleep(3600)
        self.close_connection = True

    def log_message(self, *args) -> None:
        pass


def serve(folder: Path) -> None:
    _Handler.folder = folder
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


@dataclass
class LocalIndex:
    folder: Path
    port: int

    def url(self, mode: str, name: str) -> str:
        return f"http://127.0.0.1:{self.port}/{mode}/{name}"

    def publish(self, name: str, entries: list[dict]) -> str:
        """Write an index file and return its URL."""
        (self.folder / name).write_text(json.dumps(entries), "utf-8")
        return self.url("ok", name)

    @staticmethod
    def entry(from_code: str, to_code: str, version: str, links: list[str]) -> dict:
        """One package as the Argos index lists it."""
        return {
            "type": "translate",
            "from_code": from_code,
            "to_code": to_code,
            "package_version": version,
            "argos_version": "1.1",
            "from_name": from_code,
            "to_name": to_code,
            "links": links,
        }

    def offer(self, archive: Path, name: str | None = None) -> str:
        """Put a package file where the server finds it; returns its name."""
        target = self.folder / (name or archive.name)
        target.write_bytes(archive.read_bytes())
        return target.name


@pytest.fixture(scope="session")
def local_index(tmp_path_factory):
    """The index server for the session; stopped (by its PID) when the session ends."""
    folder = tmp_path_factory.mktemp("argos-index")
    process = subprocess.Popen([sys.executable, __file__, str(folder)], stdout=subprocess.PIPE, text=True)
    try:
        port = int(process.stdout.readline())
        yield LocalIndex(folder, port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process.stdout.close()


@pytest.fixture
def index_at(monkeypatch):
    """Point argostranslate's index URL (which `ingest models install` reads) somewhere."""

    def point(url: str) -> None:
        monkeypatch.setattr(argos_settings, "remote_package_index", url)

    return point


if __name__ == "__main__":
    serve(Path(sys.argv[1]))
