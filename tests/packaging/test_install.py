"""The installed package: one ``parlour`` namespace that lives next to anything.

- The wheel holds ``parlour/`` (the envs, agents, training and benchmarks subpackages and the
  shipped configs), its ``.dist-info`` and the start-up registration hook ``parlour.pth``:
  nothing at the top level that another distribution could own.
- Installed into a fresh virtual environment next to a dummy distribution that ships top-level
  ``envs/`` and ``train/`` packages, both keep working, and uninstalling the dummy leaves
  parlour intact.
- ``gymnasium.make("parlour/AwkwardGuestsSolo-v1")`` works in a fresh interpreter that imported
  nothing before (``parlour.pth``), ``parlour train`` finds a shipped config by name, and the
  shipped models (``parlour.models``) are in the installed package.

The wheel is built once per session from the files git tracks (copied to a temporary folder,
so the build writes nothing into the working tree), with this venv's setuptools.
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from parlour.models import MODELS_DIR_ENV, read_index

ROOT = Path(__file__).resolve().parents[2]
ALLOWED_TOP_LEVEL = {"parlour", "parlour.pth"}


def _run(*cmd: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(c) for c in cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{cmd} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    src = tmp_path_factory.mktemp("src")
    tracked = _run("git", "ls-files", "-z", cwd=ROOT).split("\0")
    for name in filter(None, tracked):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_symlink():  # parlour/envs -> ../envs, … (the layout of docs/layout.md)
            (src / name).symlink_to(os.readlink(ROOT / name))
        elif (ROOT / name).is_file():
            shutil.copy2(ROOT / name, src / name)
    out = tmp_path_factory.mktemp("dist")
    _run(
        sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
        "-w", out, src, cwd=src,
    )  # fmt: skip
    (built,) = out.glob("parlour-*.whl")
    return built


def _top_level(names: list[str]) -> set[str]:
    return {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}


def test_wheel_holds_only_the_parlour_namespace(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    assert _top_level(names) == ALLOWED_TOP_LEVEL, sorted(_top_level(names))
    for module in ("envs/audition/rules.py", "agents/ppo.py", "apps/cli.py", "benchmarks/run.py"):
        assert f"parlour/{module}" in names
    assert "parlour/configs/audition_2p.yaml" in names  # shipped configs: package data
    assert {"parlour/models/__init__.py", "parlour/models/index.yaml"} <= set(names)
    for model in read_index(ROOT / "models"):  # the shipped models: package data
        assert {f"parlour/models/{model.path.name}", f"parlour/models/{model.name}.md"} <= set(
            names
        )
    assert "parlour/envs/awkward_guests/walton.json" in names or any(
        n.startswith("parlour/envs/awkward_guests/") and n.endswith("walton.json") for n in names
    )
    for script in ("games/audition/web.js", "games/guests/web.js"):  # the games' page drawings
        assert f"parlour/{script}" in names
    for page in ("index.html", "app.js", "style.css"):
        assert f"parlour/apps/web/static/{page}" in names  # parlour serve's page: package data
    assert not any(n.startswith("parlour/tests/") or "/__pycache__/" in n for n in names)
    pth = zipfile.ZipFile(wheel).read("parlour.pth").decode()
    assert pth.strip() == "import parlour"


def _dummy_wheel(folder: Path) -> Path:
    """A distribution ``dummy`` that ships top-level ``envs`` and ``train`` packages."""
    files = {
        "envs/__init__.py": "WHO = 'dummy envs'\n",
        "train/__init__.py": "WHO = 'dummy train'\n",
        "train/cli.py": "def main():\n    return 'dummy main'\n",
        "dummy-1.0.dist-info/METADATA": "Metadata-Version: 2.1\nName: dummy\nVersion: 1.0\n",
        "dummy-1.0.dist-info/WHEEL": (
            "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        ),
    }
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        record.append(f"{name},sha256={digest.decode()},{len(text.encode())}")
    record.append("dummy-1.0.dist-info/RECORD,,")
    files["dummy-1.0.dist-info/RECORD"] = "\n".join(record) + "\n"
    path = folder / "dummy-1.0-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return path


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """A new venv with parlour's wheel and the dummy; the dependencies (numpy, gymnasium, …)
    come from this venv's site-packages through a path file, so nothing is downloaded."""
    venv = tmp_path_factory.mktemp("venv")
    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=venv)
    site = Path(
        _run(venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=venv).strip()
    )  # fmt: skip
    (site / "zz_dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    dummy = _dummy_wheel(tmp_path_factory.mktemp("dummy"))
    pip = (sys.executable, "-m", "pip", "--python", venv / "bin" / "python")
    _run(*pip, "install", "--quiet", "--no-deps", "--no-index", wheel, dummy, cwd=venv)
    return venv


CHECK_BOTH = """
import envs, train, train.cli
import parlour, parlour.envs, parlour.apps.cli
from parlour.envs import audition_v1
assert envs.WHO == 'dummy envs' and train.cli.main() == 'dummy main'
assert parlour.apps.cli.__file__.startswith(SITE), parlour.apps.cli.__file__
env = audition_v1.env(num_players=3)
env.reset(seed=1)
print('ok', parlour.__version__)
"""


def _python(venv: Path, code: str, cwd: Path) -> str:
    site = _run(
        venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=cwd
    ).strip()  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", MODELS_DIR_ENV)}
    return _run(venv / "bin" / "python", "-c", f"SITE = {site!r}\n{code}", cwd=cwd, env=env)


def test_installs_next_to_a_distribution_with_top_level_envs_and_train(
    fresh_venv: Path, tmp_path: Path
):
    assert _python(fresh_venv, CHECK_BOTH, tmp_path).startswith("ok")
    # the console script runs parlour's CLI, not the other package's
    help_text = _run(fresh_venv / "bin" / "parlour", "--help", cwd=tmp_path)
    assert "train" in help_text and "eval" in help_text


def test_shipped_config_found_by_name_from_the_installed_wheel(fresh_venv: Path, tmp_path: Path):
    code = (
        "from importlib.resources import files\n"
        "import parlour.train.config as c\n"
        "assert (files('parlour.configs') / 'audition_2p.yaml').is_file()\n"
        "print('ok')\n"
    )
    assert _python(fresh_venv, code, tmp_path).startswith("ok")


def test_shipped_models_found_by_name_from_the_installed_wheel(fresh_venv: Path, tmp_path: Path):
    code = (
        "import parlour.models as m\n"
        "assert m.models_dir() == m.models_dir().resolve() and m.models_dir().is_relative_to(SITE)\n"
        "models = m.read_index()\n"
        "assert len(models) == EXPECTED, models\n"
        "assert all(x.path.is_file() and x.card.is_file() for x in models)\n"
        "print('ok')\n"
    )
    expected = len(read_index(ROOT / "models"))
    assert _python(fresh_venv, f"EXPECTED = {expected}\n{code}", tmp_path).startswith("ok")


def test_gymnasium_make_in_a_fresh_interpreter_without_importing_parlour(
    fresh_venv: Path, tmp_path: Path
):
    code = (
        "import sys, gymnasium\n"
        "env = gymnasium.make('parlour/AwkwardGuestsSolo-v1')\n"
        "obs, info = env.reset(seed=0)\n"
        "import pettingzoo\n"
        "aec = pettingzoo.make('aec', 'parlour/Audition-v1')\n"
        "aec.reset(seed=0)\n"
        "print('ok')\n"
    )
    assert _python(fresh_venv, code, tmp_path).startswith("ok")


def test_uninstalling_the_other_distribution_leaves_parlour_intact(
    fresh_venv: Path, tmp_path: Path
):
    pip = (sys.executable, "-m", "pip", "--python", fresh_venv / "bin" / "python")
    _run(*pip, "uninstall", "--quiet", "-y", "dummy", cwd=tmp_path)
    code = (
        "import importlib.util\n"
        "assert importlib.util.find_spec('envs') is None\n"
        "import parlour.apps.cli\n"
        "from parlour.envs import awkward_guests_v1\n"
        "awkward_guests_v1.env(num_players=2).reset(seed=0)\n"
        "print('ok')\n"
    )
    assert _python(fresh_venv, code, tmp_path).startswith("ok")
    assert "train" in _run(fresh_venv / "bin" / "parlour", "--help", cwd=tmp_path)
