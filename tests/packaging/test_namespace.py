"""The source tree keeps to the ``parlour`` namespace, and registration needs no import.

- No Python file, docstring example or config imports the bare top-level names ``envs``,
  ``agents``, ``train`` or ``benchmarks`` (they would load a second copy of a module, or another
  distribution's package).
- In a fresh subprocess of this venv (where ``parlour.pth`` is installed, as ``make`` does),
  ``gymnasium.make("parlour/AwkwardGuestsSolo-v1")`` works with no prior import, and importing
  ``parlour`` loads none of NumPy, Gymnasium or PettingZoo.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEGACY = "envs|agents|train|benchmarks"
#: a statement (at a line's start, or after ``;`` or a quote in code held in a string)
BARE_IMPORT = re.compile(
    rf"(^\s*|[;\"'`]\s*)(from ({LEGACY})(\.|\s+import)|import ({LEGACY})(\.|\s|$))"
)
#: a line that imports a *user's* package of that name on purpose (the shadowing tests)
USER_PACKAGE = "# a user's package"
SKIP = {
    "parlour/_legacy.py",
    "tests/packaging/test_namespace.py",
    "tests/packaging/test_install.py",
}


def _tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return [ROOT / p for p in out.split() if p not in SKIP and (ROOT / p).is_file()]


def test_no_bare_top_level_imports_anywhere():
    offenders = []
    for path in _tracked("*.py", "*.md", "*.yaml", "Makefile"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if BARE_IMPORT.search(line.strip()) and USER_PACKAGE not in line:
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not offenders, "bare imports (use parlour.<name>):\n" + "\n".join(offenders)


def test_the_check_catches_a_bare_import():
    assert BARE_IMPORT.search("from envs.audition import rules")
    assert BARE_IMPORT.search("    import train.features as f")
    assert BARE_IMPORT.search('"from agents import x"')
    assert not BARE_IMPORT.search("from parlour.envs.audition import rules")
    assert not BARE_IMPORT.search("import parlour.apps.cli")
    assert not BARE_IMPORT.search("from parlour.train import train as train_module")
    assert BARE_IMPORT.search("x = 1; import envs")


def _fresh(code: str, tmp_path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_gymnasium_make_in_a_fresh_interpreter(tmp_path: Path):
    code = (
        "import sys\n"
        "assert 'parlour' in sys.modules  # parlour.pth\n"
        "import gymnasium\n"
        "env = gymnasium.make('parlour/AwkwardGuestsSolo-v1', level='easy')\n"
        "env.reset(seed=0)\n"
        "print('ok')\n"
    )
    assert _fresh(code, tmp_path).strip() == "ok"


def test_importing_parlour_is_cheap(tmp_path: Path):
    code = (
        "import sys\n"
        "import parlour\n"
        "heavy = sorted(m for m in ('numpy', 'gymnasium', 'pettingzoo', 'torch') if m in sys.modules)\n"
        "print(parlour.__version__, heavy)\n"
    )
    version, heavy = _fresh(code, tmp_path).split(" ", 1)
    assert heavy.strip() == "[]" and version


def test_pettingzoo_registry_after_import_parlour(tmp_path: Path):
    code = (
        "import parlour, pettingzoo\n"
        "for env_id in parlour.AEC_ENVS:\n"
        "    env = pettingzoo.make('aec', env_id)\n"
        "    env.reset(seed=0)\n"
        "print('ok')\n"
    )
    assert _fresh(code, tmp_path).strip() == "ok"
