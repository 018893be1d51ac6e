"""Red-team round 66: serving on hardware TensorFlow cannot run on, Apple's Neural Engine
from TensorFlow, beginners on TPUs, the verdict's words when the prior decides, the order of
TensorFlow's install lines, and DDP for models it cannot replicate."""

from __future__ import annotations

import json
from pathlib import Path

from hostile_support import run

PROFILES = Path(__file__).parent / "fixtures" / "round66"


def _report(tmp_path: Path, name: str, text: str | None = None, fmt: str = "json") -> dict | str:
    source = text if text is not None else (PROFILES / f"{name}.yaml").read_text()
    (tmp_path / "p.yaml").write_text(source)
    result = run("recommend", "p.yaml", "--probes", "none", "--format", fmt, cwd=tmp_path)
    assert result.code == 0, result.err
    return json.loads(result.out) if fmt == "json" else result.out


def _risks(data: dict, framework: str) -> dict[str, str]:
    return {r["rule"]: r["text"] for r in data["risks"] if r["framework"] == framework}


def test_serving_on_inferentia_or_gaudi_warns_a_tensorflow_verdict(tmp_path: Path) -> None:
    """Finding 1: TensorFlow and TF Serving for a service whose only inference hardware
    (Inferentia, Gaudi) cannot run TensorFlow, without a word."""
    for name, rule in (("c1-tf-inferentia", "HW107"), ("c2-tf-gaudi-serve", "HW111")):
        data = _report(tmp_path, name)
        assert isinstance(data, dict)
        assert rule in {r["id"] for r in data["rules"]}
        # an expert TensorFlow team with a large Keras codebase: TensorFlow still leads,
        # and the report must say it cannot run where the model is served
        assert data["recommendation"]["framework"] == "tensorflow"
        assert "cannot" in _risks(data, "tensorflow")[rule]


def test_the_neural_engine_from_tensorflow_gets_coremltools_and_a_float_model(
    tmp_path: Path,
) -> None:
    """Finding 2: the stack had no coremltools and the starter wrote a fully int8 model,
    which LiteRT's Core ML delegate does not run."""
    data = _report(tmp_path, "e5-ane")
    assert isinstance(data, dict)
    rec = data["recommendation"]
    assert rec["framework"] == "tensorflow"
    assert any(i["name"].startswith("Core ML Tools") for i in rec["stack"])
    assert "tf.float16" in rec["starter"] and "TFLITE_BUILTINS_INT8" not in rec["starter"]


def test_listing_a_cpu_beside_tpus_does_not_flip_a_beginners_verdict(tmp_path: Path) -> None:
    """Finding 3: a beginner on [tpu] got JAX (high), on [cpu, tpu] PyTorch; the PyTorch
    line was TorchTPU, the young backend, first."""
    alone = (PROFILES / "f1-beginner-tpu.yaml").read_text()
    with_cpu = alone.replace("training: [tpu]", "training: [cpu, tpu]")
    verdicts = []
    for text in (alone, with_cpu):
        data = _report(tmp_path, "", text)
        assert isinstance(data, dict)
        rec = data["recommendation"]
        verdicts.append((rec["framework"], rec["confidence"]))
        assert "HW008" not in {r["id"] for r in data["rules"]}
        if rec["framework"] == "pytorch":
            assert "torch_tpu" not in rec["install"]["command"]
            assert "torch_tpu" in (rec["install_elsewhere"]["tpu"]["command"] or "")
    assert verdicts[0] == verdicts[1]


def test_the_verdict_does_not_call_the_prior_an_answer(tmp_path: Path) -> None:
    """Finding 4: 'level ... but ahead on the other answers' beside 'the answers leave them
    level and the prior decides', and 'capped at medium' under 'confidence: low'."""
    text = _report(tmp_path, "g1-mcu-pt-large", fmt="markdown")
    assert isinstance(text, str)
    verdict = next(line for line in text.splitlines() if line.startswith("**Build on"))
    if "level on the 0-100 scale" in verdict and "prior decides" in text:
        assert "ahead on the other answers" not in verdict
    assert "the confidence is capped at medium." not in text


def test_the_inconsistency_banner_does_not_say_capped_under_a_low_confidence(
    tmp_path: Path,
) -> None:
    """The same words in the banner for answers that contradict each other."""
    text = _report(tmp_path, "", "hardware: {training: [aws_inferentia]}\n", fmt="markdown")
    assert isinstance(text, str) and "CON016" in text
    assert "confidence is capped at medium" not in text and "at most medium" in text


def test_a_tensorflow_team_with_gpus_and_macs_installs_for_the_gpus_first(
    tmp_path: Path,
) -> None:
    """Finding 5: the lead line was the Mac's, which trains on the CPU."""
    data = _report(tmp_path, "b1-tf-mac-gpu")
    assert isinstance(data, dict)
    rec = data["recommendation"]
    assert rec["framework"] == "tensorflow"
    assert "tensorflow[and-cuda]" in rec["install"]["command"]
    assert "apple_silicon" in rec["install_elsewhere"]


def test_ddp_is_not_offered_for_a_model_it_cannot_replicate(tmp_path: Path) -> None:
    """Finding 6: DDP (a full replica per GPU) listed for a 400B model."""
    data = _report(tmp_path, "h1-frontier")
    assert isinstance(data, dict)
    names = [i["name"] for i in data["recommendation"]["stack"]]
    assert not any(n.startswith("DistributedDataParallel") for n in names)
    assert any(n.startswith("FSDP2") for n in names)
