"""Issue 31, missing extras: a command run without its optional extra ends with one line naming
the ``pip install "parlour[...]"`` it needs (never a bare ``No module named ...``), before it
does any work; ``bench`` checks every section's imports before measuring anything.

A missing module is simulated by ``sys.modules[name] = None`` (then ``import name`` raises
``ModuleNotFoundError``) in a fresh interpreter running ``parlour``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from parlour import extras
from parlour.benchmarks import run as bench
from parlour.errors import run_guarded

from .helpers import assert_clean_failure, files

#: a fresh interpreter: the listed modules made unimportable, then ``parlour ARGV``
RUNNER = textwrap.dedent(
    """
    import sys
    for name in sys.argv[1].split(","):
        sys.modules[name] = None
    from parlour.apps.cli import main
    sys.exit(main(sys.argv[2:]))
    """
)


def _without(modules: str, argv: list[str], cwd) -> tuple[int, str, str]:
    env = dict(os.environ)
    env.pop("PARLOUR_TRACEBACK", None)
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, modules, *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize(
    ("modules", "argv", "extra"),
    [
        ("starlette,uvicorn", ["serve", "--port", "0"], "web"),
        ("tqdm", ["eval", "--agents", "random", "audition.greedy", "--games", "2"], "train"),
        ("matplotlib", ["eval", "--agents", "random", "audition.greedy", "--games", "2"], "train"),
        ("openskill", ["league", "--agents", "random", "audition.greedy", "--games", "2"], "train"),
        ("torch", ["train", "audition_2p"], "train"),
        ("tensorboard", ["train", "audition_2p"], "train"),
        ("torch", ["bench", "--sections", "engine,train", "--quick"], "train"),
        ("torch", ["eval", "--agents", "ppo:audition-2p", "random", "--games", "2"], "train"),
        ("torch", ["play", "audition", "--opponents", "ppo:audition-2p"], "train"),
    ],
)
def test_a_command_without_its_extra_names_the_pip_install_line(modules, argv, extra, tmp_path):
    before = files(tmp_path)
    result = _without(modules, argv, tmp_path)
    # (bench without pygame too: ``pip install "parlour[train,bench]"``)
    assert_clean_failure(result, f'pip install "parlour[{extra}', before, files(tmp_path))
    assert "No module named" not in result[2] and "halted" not in result[2]
    assert not any(tmp_path.iterdir())  # nothing played, trained or measured first
    assert "[engine:" not in result[1]  # (bench: refused before the first section)


def test_an_import_failing_mid_command_names_the_extra(capsys):
    def uses_torch(_args):
        raise ModuleNotFoundError("import of torch halted; None in sys.modules", name="torch")

    assert run_guarded("play", uses_torch, None) == 2
    err = capsys.readouterr().err
    assert err.startswith("parlour play: error: ") and 'pip install "parlour[train]"' in err


def test_a_missing_extra_under_a_wrapping_error_is_still_named(capsys):
    def loads_a_model(_args):
        try:
            raise ModuleNotFoundError("import of torch halted", name="torch")
        except ModuleNotFoundError as exc:
            raise ValueError(f"cannot load the model: {exc}") from None

    assert run_guarded("eval", loads_a_model, None) == 2
    assert 'pip install "parlour[train]"' in capsys.readouterr().err


def test_an_import_error_of_another_kind_is_shown_as_it_is(capsys):
    def broken(_args):
        raise ImportError("cannot import name 'thing' from 'torch'", name="torch")

    assert run_guarded("play", broken, None) == 2
    assert "cannot import name 'thing'" in capsys.readouterr().err


def test_hint_names_every_extra_of_the_missing_modules():
    line = extras.needs("the train section", ["torch", "pygame"])
    assert '"train" and "bench" extras' in line and 'pip install "parlour[train,bench]"' in line


def test_bench_checks_the_peers_before_measuring_and_says_which_extra(monkeypatch, capsys):
    monkeypatch.setattr(extras, "missing", lambda names: [n for n in names if n == "pyspiel"])
    bench.check_imports(["engine", "guests"])
    err = capsys.readouterr().err
    assert 'the peers need the "bench" extra (missing: pyspiel)' in err
    assert 'pip install "parlour[bench]"' in err


def test_bench_refuses_a_section_without_its_modules_before_measuring(monkeypatch):
    from parlour.errors import UserError

    measured = []
    monkeypatch.setattr(bench, "_measure", lambda *a: measured.append(a) or [])
    monkeypatch.setattr(extras, "missing", lambda names: [n for n in names if n == "torch"])
    with pytest.raises(UserError, match=r'the train section needs the "train" extra'):
        bench.run(bench_args(sections="engine,train"))
    assert measured == []


def bench_args(**changes):
    import argparse

    args = dict(quick=True, json=None, steps=None, repeats=None, sections="engine")
    return argparse.Namespace(**{**args, **changes})
