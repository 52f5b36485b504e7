"""``parlour serve``: starts, prints its address, serves the page and the catalog; bad flags
give a clear error."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request

from parlour.train.cli import main

START_TIMEOUT_S = 60


def test_serve_starts_and_prints_its_address(tmp_path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "parlour.train.cli", "serve", "--port", str(port)]
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as res:
                    page = res.read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline, "parlour serve did not answer"
                time.sleep(0.1)
        assert "<title>parlour table</title>" in page
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/catalog", timeout=5) as res:
            games = {g["name"]: g for g in json.loads(res.read())["games"]}
        assert {"audition", "guests"} <= set(games)
        assert "audition.expert" in games["audition"]["agents"]
        assert "guests.deducer" in games["guests"]["agents"]
        assert "audition.greedy" not in games["guests"]["agents"]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_serve_refuses_bad_flags(tmp_path, capsys) -> None:
    assert main(["serve", "--model", str(tmp_path / "none.zip")]) == 2
    assert "--model" in capsys.readouterr().out
    assert main(["serve", "--replays", str(tmp_path / "nowhere")]) == 2
    assert "--replays" in capsys.readouterr().out
    assert main(["serve", "--timeout", "0"]) == 2
    assert "--timeout must be > 0" in capsys.readouterr().out
