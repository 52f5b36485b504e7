"""Model files cannot run code unless the user says they trust them (issue 31, docs/security.md).

Real payload probes: a Stable-Baselines3 zip whose pickled ``data`` entry (cloudpickle) writes a
marker file when it is unpickled, and one whose ``policy.pth`` is such a pickle. Without
``--trust-model`` every way in — ``parlour eval``, ``league``, ``play``, ``train`` (opponents,
``init_from``), ``audition.search:model=``, ``parlour models convert``, the Python loaders and
the policy cache — refuses the file with the why-message and the marker never appears; with
the flag the ``data`` probe runs (proving the probe is real). parlour's own format
(``.safetensors`` + JSON) loads without the flag and refuses tampered documents, huge headers,
tensors that do not fit and NaN weights, each with a clear error.
"""

from __future__ import annotations

import base64
import json
import pickle
import shutil
import struct
import zipfile
from pathlib import Path

import pytest
import torch

from parlour.agents import ppo
from parlour.agents.model_file import (
    MAX_HEADER_BYTES,
    METADATA_KEY,
    load_policy_file,
    read_model_file,
    save_policy,
    sniff,
    write_model_file,
)
from parlour.agents.trust import UntrustedModelError
from tests.faults.helpers import files, run_main, tiny, write_config

DATA = Path(__file__).resolve().parents[1] / "data"
LEGACY = DATA / "legacy_audition_model.zip"
SMALL = DATA / "small_audition_model.safetensors"
WHY = "holds pickled data, which runs code while it loads"


class _Payload:
    """Unpickling this writes ``marker`` (what a hostile model file would do)."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return exec, (f"open({str(self.marker)!r}, 'w').write('payload ran')",)


def _zip_with(src: Path, dst: Path, member: str, data: bytes) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            zout.writestr(item.filename, data if item.filename == member else zin.read(item))
    return dst


@pytest.fixture
def data_probe(tmp_path: Path) -> tuple[Path, Path]:
    """(an SB3 zip whose ``data`` holds a cloudpickled payload, the marker it writes)."""
    marker = tmp_path / "marker_data"
    with zipfile.ZipFile(LEGACY) as z:
        doc = json.loads(z.read("data"))
    blob = base64.b64encode(pickle.dumps(_Payload(marker))).decode()
    doc["probe"] = {":type:": "<class 'object'>", ":serialized:": blob}
    path = _zip_with(LEGACY, tmp_path / "probe.zip", "data", json.dumps(doc).encode())
    return path, marker


@pytest.fixture
def pth_probe(tmp_path: Path) -> tuple[Path, Path]:
    """(an SB3 zip whose ``policy.pth`` is a pickle with a payload, the marker it writes)."""
    marker = tmp_path / "marker_pth"
    payload = pickle.dumps(_Payload(marker))
    return _zip_with(LEGACY, tmp_path / "probe_pth.zip", "policy.pth", payload), marker


def _eval(path: Path, tmp_path: Path, *extra: str) -> list[str]:
    return ["eval", "--agents", f"ppo:{path}", "random", "--games", "2", "--workers", "1"] + [
        "--out",
        str(tmp_path / "out"),
        "--no-progress",
        *extra,
    ]


def test_the_data_payload_does_not_run_without_the_flag_and_runs_with_it(
    data_probe, tmp_path, capsys
):
    path, marker = data_probe
    code, _, err = run_main(_eval(path, tmp_path), capsys)
    assert code == 2 and WHY in err and "--trust-model" in err and "Traceback" not in err
    assert not marker.exists() and not (tmp_path / "out").exists()
    code, _, err = run_main(_eval(path, tmp_path, "--trust-model"), capsys)
    assert code == 0, err
    assert marker.read_text() == "payload ran"  # (the probe is real: trusted, it runs)


def test_a_pth_payload_does_not_run_with_or_without_the_flag(pth_probe, tmp_path, capsys):
    path, marker = pth_probe
    code, _, err = run_main(_eval(path, tmp_path), capsys)
    assert code == 2 and WHY in err and not marker.exists()
    # trusted, SB3 reads .pth members with torch.load(weights_only=True): refused all the same
    code, _, err = run_main(_eval(path, tmp_path, "--trust-model"), capsys)
    assert code == 2 and "cannot load a MaskablePPO model" in err and not marker.exists()


def test_every_command_refuses_the_zip_without_the_flag(data_probe, tmp_path, capsys):
    path, marker = data_probe
    cfg = write_config(tmp_path / "c.yaml", tiny(opponents={"baselines": {f"ppo:{path}": 1.0}}))
    init = write_config(tmp_path / "i.yaml", tiny(name="init", init_from=str(path)))
    runs = ["--runs", str(tmp_path / "runs"), "--no-progress"]
    before = files(tmp_path)
    for argv in [
        ["league", "--agents", f"ppo:{path}", "random", "audition.greedy", "--games", "2"]
        + ["--workers", "1", "--out", str(tmp_path / "league"), "--no-progress"],
        ["play", "audition", "--opponents", f"ppo:{path}"],
        ["eval", "--agents", f"audition.search:model={path},sims=2", "random", "--games", "2"]
        + ["--workers", "1", "--out", str(tmp_path / "out"), "--no-progress"],
        ["train", str(cfg), *runs],
        ["train", str(init), *runs],
        ["models", "convert", str(path), str(tmp_path / "converted.safetensors")],
    ]:
        code, _, err = run_main(argv, capsys)
        assert code != 0 and WHY in err, (argv, err)
        assert not marker.exists(), argv
        assert files(tmp_path) == before, argv  # nothing written


def test_the_python_loaders_and_the_cache_refuse_the_zip_without_trust(data_probe, tmp_path):
    from parlour.agents.factory import make_agent

    path, marker = data_probe
    legacy = tmp_path / "legacy.zip"
    shutil.copy(LEGACY, legacy)
    with pytest.raises(UntrustedModelError, match=WHY):
        ppo.load_policy(str(path))
    with pytest.raises(UntrustedModelError, match=WHY):
        make_agent(f"ppo:{legacy}", "audition")
    assert not marker.exists()
    trusted = ppo.load_policy(str(legacy), trust=True)  # (a parlour 0.1 model, trusted: loads)
    with pytest.raises(UntrustedModelError):  # cached from a trusted load: still refused
        ppo.load_policy(str(legacy))
    assert ppo.load_policy(str(legacy), trust=True) is trusted  # (served from the cache)
    with pytest.raises(ValueError, match="trust is not an option"):  # a spec cannot grant it
        make_agent(f"audition.search:model={legacy},trust=1", "audition")


def test_the_content_decides_not_the_name(tmp_path):
    disguised = tmp_path / "model.safetensors"
    shutil.copy(LEGACY, disguised)
    assert sniff(disguised) == "zip"
    with pytest.raises(UntrustedModelError):
        ppo.load_policy(str(disguised))
    renamed = tmp_path / "model.zip"
    shutil.copy(SMALL, renamed)
    assert ppo.load_policy(str(renamed)) is not None  # parlour's format under any name
    garbage = tmp_path / "garbage.safetensors"
    garbage.write_bytes(b"\x00" * 64)
    with pytest.raises(ValueError, match="is not a model file"):
        ppo.load_policy(str(garbage))


def test_convert_gives_a_file_that_loads_without_trust_with_the_same_logits(tmp_path, capsys):
    dst = tmp_path / "converted.safetensors"
    argv = ["models", "convert", str(LEGACY), str(dst), "--trust-model"]
    assert run_main(argv, capsys)[0] == 0
    old, new = ppo.load_policy(str(LEGACY), trust=True), ppo.load_policy(str(dst))
    x = torch.rand(32, new.observation_space.shape[0])
    with torch.no_grad():
        a = old.get_distribution(x).distribution.logits
        assert torch.equal(a, new.get_distribution(x).distribution.logits)
    code, _, err = run_main(argv, capsys)  # an existing DST is not replaced silently
    assert code == 2 and "--overwrite" in err


# -- tampered files of parlour's own format -------------------------------------------------------


def _rewrite(tmp_path: Path, change) -> Path:
    """SMALL with its document changed by ``change(doc)`` (the tensors kept)."""
    doc, tensors = read_model_file(SMALL)
    change(doc)
    path = tmp_path / "tampered.safetensors"
    from safetensors.torch import save

    path.write_bytes(save(tensors, metadata={METADATA_KEY: json.dumps(doc)}))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["policy"].update({"class": "os.system"}), "policy.class: 'os.system' is not"),
        (
            lambda d: d["policy"].update(
                {"features_extractor": "parlour.train.games.audition:AuditionFeatures"}
            ),
            "policy.features_extractor: 'parlour.train.games.audition:AuditionFeatures' is not",
        ),
        (
            lambda d: d["policy"]["features_extractor_kwargs"].update({"evil": "x"}),
            "features_extractor_kwargs.evil: not an option",
        ),
        (
            lambda d: d["policy"]["features_extractor_kwargs"].update({"count_indicators": [1]}),
            "expected a bool, int, float or str",
        ),
        (lambda d: d["policy"].update({"net_arch": [64]}), "the network has (27, 64)"),
        (lambda d: d["observation_space"].update({"shape": [7]}), "cannot build its network"),
        (lambda d: d["observation_space"].update({"low": [0.0]}), "observation_space.low"),
        (lambda d: d["action_space"].update({"n": 5}), "the network has (5,"),
        (lambda d: d.update({"version": 99}), "newer than this parlour reads"),
        (lambda d: d.update({"format": "pickle"}), "field format"),
        (lambda d: d.update({"extra": 1}), "unknown fields ['extra']"),
        (lambda d: d["training"].update({"num_timesteps": -1}), "training.num_timesteps"),
    ],
)
def test_a_tampered_document_is_refused_naming_the_field(tmp_path, change, message):
    path = _rewrite(tmp_path, change)
    with pytest.raises(ValueError, match="model .*tampered.safetensors") as err:
        ppo.load_policy(str(path))
    assert message in str(err.value)


def test_a_huge_header_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "huge.safetensors"
    size = MAX_HEADER_BYTES + 1
    path.write_bytes(struct.pack("<Q", size) + b"{" + b" " * (size - 1))
    with pytest.raises(ValueError, match=f"header of {size} bytes"):
        load_policy_file(path)


def test_tensors_of_another_dtype_or_extra_names_are_refused(tmp_path):
    doc, tensors = read_model_file(SMALL)
    name = "value_net.weight"
    for changed, message in [
        ({**tensors, name: tensors[name].double()}, "float64"),
        ({**tensors, "evil": torch.zeros(1)}, r"unexpected \['evil'\]"),
    ]:
        path = tmp_path / "t.safetensors"
        write_model_file(doc, changed, path)
        with pytest.raises(ValueError, match=message):
            load_policy_file(path)


def test_nan_weights_are_refused_at_load_and_at_save(tmp_path):
    from parlour.train.model import TrainingDivergedError, save_model

    doc, tensors = read_model_file(SMALL)
    name = next(k for k, v in tensors.items() if v.is_floating_point() and v.numel())
    bad = dict(tensors)
    bad[name] = tensors[name].clone()
    bad[name].view(-1)[0] = float("nan")
    from safetensors.torch import save

    path = tmp_path / "nan.safetensors"
    path.write_bytes(save(bad, metadata={METADATA_KEY: json.dumps(doc)}))
    with pytest.raises(ValueError, match=f"tensor '{name}' holds NaN or infinite"):
        ppo.load_policy(str(path))

    policy = load_policy_file(SMALL)
    with torch.no_grad():
        next(policy.parameters()).view(-1)[0] = float("inf")
    out = tmp_path / "out.safetensors"
    with pytest.raises(ValueError, match="NaN or infinite"):
        save_policy(policy, out)

    class Model:  # (what save_model reads of a MaskablePPO model)
        num_timesteps = 1024

    Model.policy = policy
    with pytest.raises(TrainingDivergedError, match="training diverged at learner step 1024"):
        save_model(Model(), out)
    assert not out.exists() and list(tmp_path.iterdir()) == [path]  # nothing written


# -- what parlour train writes ---------------------------------------------------------------------


def test_a_training_run_writes_only_files_that_load_without_trust_and_resumes(tmp_path, capsys):
    cfg = write_config(tmp_path / "t.yaml", tiny(opponents={"snapshot_every": 128}))
    runs = ["--runs", str(tmp_path / "runs"), "--no-progress"]
    assert run_main(["train", str(cfg), *runs], capsys)[0] == 0
    run = tmp_path / "runs" / "tiny"
    written = [p for p in run.rglob("*") if p.is_file()]
    assert not any(zipfile.is_zipfile(p) for p in written)  # no pickle-bearing file
    models = [p for p in written if p.suffix == ".safetensors"]
    assert {p.name for p in models} >= {"model.safetensors", "latest.safetensors"}
    assert any(p.parent.name == "snapshots" for p in models)
    for p in models:
        assert sniff(p) == "parlour"
        ppo.load_policy(str(p))  # no trust needed
    assert run_main(["train", str(cfg), *runs, "--resume", "--timesteps", "512"], capsys)[0] == 0
    report = json.loads((run / "report.json").read_text())
    assert report["timesteps"] == 512 and report["model"].endswith("model.safetensors")


def test_resume_of_an_older_run_names_the_conversion(tmp_path, capsys):
    import yaml

    from parlour.train.config import config_from_dict

    run = tmp_path / "runs" / "tiny"  # (a run of an older parlour: a pickle-bearing checkpoint)
    (run / "checkpoints").mkdir(parents=True)
    (run / "config.yaml").write_text(yaml.safe_dump(config_from_dict(tiny()).to_dict()))
    shutil.copy(LEGACY, run / "checkpoints" / "latest.zip")
    cfg = write_config(tmp_path / "t.yaml", tiny())
    argv = ["train", str(cfg), "--runs", str(tmp_path / "runs"), "--resume", "--no-progress"]
    code, _, err = run_main(argv, capsys)
    assert code == 2 and "parlour models convert" in err and "latest.zip" in err


def test_init_from_a_trusted_zip_loads_its_weights(tmp_path):
    from parlour.train.config import config_from_dict
    from parlour.train.model import init_weights
    from parlour.train.train import build_model, make_vec_env

    ppo_cfg = {**tiny()["ppo"], "net_arch": [16], "activation": "tanh"}  # (the zip's network)
    cfg = config_from_dict(tiny(ppo=ppo_cfg))
    vec_env = make_vec_env(cfg)
    model = build_model(cfg, vec_env)
    vec_env.close()
    with pytest.raises(SystemExit, match=WHY):
        init_weights(model, LEGACY)
    init_weights(model, LEGACY, trust=True)
    want = ppo.load_policy(str(SMALL)).state_dict()  # (the same weights, converted)
    got = model.policy.state_dict()
    assert all(torch.equal(got[k], v) for k, v in want.items())
