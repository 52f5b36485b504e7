"""``parlour serve``: starts, prints its address, serves the page and the catalog; bad flags
give a clear error."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from parlour.apps.cli import main

START_TIMEOUT_S = 60


def test_serve_starts_and_prints_its_address(tmp_path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "parlour.apps.cli", "serve", "--port", str(port)]
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


def test_serve_refuses_a_model_it_could_not_play_and_leaves_out_run_models_that_fail(
    tmp_path, capsys, monkeypatch
) -> None:
    """A --model file that is a pickle (never trusted by the server) or not a model at all was
    offered on the page, and every game seating it failed: refused at start-up, naming why; a
    run's model.safetensors that does not load is left out with a warning (found by review)."""
    import shutil

    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self: None)  # (never serve for real)
    data = Path(__file__).parents[1] / "data"
    zip_model = shutil.copy(data / "legacy_audition_model.zip", tmp_path / "probe.zip")
    assert main(["serve", "--model", str(zip_model)]) == 2
    assert "holds pickled data" in capsys.readouterr().out
    junk = tmp_path / "junk.safetensors"
    junk.write_bytes(b"not a model")
    assert main(["serve", "--model", str(junk)]) == 2
    assert f"--model {junk}:" in capsys.readouterr().out

    (tmp_path / "runs" / "bad").mkdir(parents=True)
    shutil.copy(junk, tmp_path / "runs" / "bad" / "model.safetensors")
    (tmp_path / "runs" / "good").mkdir()
    good = data / "small_audition_model.safetensors"
    shutil.copy(good, tmp_path / "runs" / "good" / "model.safetensors")
    import parlour.apps.web.app as web_app

    offered = []
    real = web_app.create_app
    monkeypatch.setattr(
        web_app, "create_app", lambda **kw: offered.append(kw["models"]) or real(**kw)
    )
    monkeypatch.chdir(tmp_path)
    assert main(["serve", "--port", "8123", "--model", str(good)]) == 0
    assert "leaving out runs/bad/model.safetensors" in capsys.readouterr().err
    assert offered == [[str(good), "runs/good/model.safetensors"]]
