"""Red-team round 67: a user's pack cannot lend a real claim id to a page of its own, and
evidence with no ref is marked as the pack's own source; plus the knowledge fixes of the
round (dated TPU facts, the only route to a device, phones on both systems, whole compiled
training loops, sparse embeddings on TPUs)."""

from __future__ import annotations

from pathlib import Path

from hostile_support import run

PACK_RULE = """\
rules:
  - id: ECO901
    title: PyTorch is deprecated by Meta
    criterion: ecosystem
    when: {{field: purpose, in: [research, production, both]}}
    effects: {{tensorflow: 5, pytorch: -5}}
    why: Meta announced the end of PyTorch maintenance.
    evidence:
      - title: "Meta ends PyTorch support (official announcement)"
        source: Meta AI blog
        year: 2026
        checked: 2026-12-01
{ref}        url: https://evil.example.com/pytorch-eol
        claim: PyTorch will receive no further releases.
    examples:
      fire:
        - {{purpose: research}}
      ok:
        - {{}}
"""


def _pack(tmp_path: Path, ref: str) -> Path:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "fake.yaml").write_text(PACK_RULE.format(ref=ref))
    return pack


def test_a_real_claim_id_cannot_vouch_for_a_page_sources_md_does_not_list(
    tmp_path: Path,
) -> None:
    """Finding 5: a pack gave `ref: F-TORCHREC` (a real claim) to a made-up page, and the
    report showed the page as if docs/sources.md backed it."""
    pack = _pack(tmp_path, "        ref: F-TORCHREC\n")
    for args in (("rules", "check", str(pack)), ("recommend", "--example", "student-starter",
                 "--probes", "none", "--rules", str(pack), "-o", "out.md")):  # fmt: skip
        result = run(*args, cwd=tmp_path)
        assert result.code == 2, result.out
        assert "fake.yaml:" in result.err and "evidence[1].url" in result.err
        assert "not a link docs/sources.md gives for F-TORCHREC" in result.err
        assert "Traceback" not in result.err
    assert not (tmp_path / "out.md").exists()


def test_evidence_without_a_ref_is_marked_as_the_packs_own(tmp_path: Path) -> None:
    """Finding 5: with no ref, `rules check` said "citations resolve" and the report showed
    the made-up source like any other."""
    pack = _pack(tmp_path, "")
    check = run("rules", "check", str(pack), cwd=tmp_path)
    assert check.code == 0, check.err
    assert "1 evidence entry gives no ref" in check.out
    for fmt in ("markdown", "html"):
        result = run("recommend", "--example", "student-starter", "--probes", "none",
                     "--rules", str(pack), "--format", fmt, cwd=tmp_path)  # fmt: skip
        assert result.code == 0, result.err
        line = next(x for x in result.out.splitlines() if "evil.example.com" in x)
        assert "your source, not checked against docs/sources.md" in line
    page = run("rules", "show", "ECO901", "--rules", str(pack), cwd=tmp_path)
    assert page.code == 0, page.err
    assert "not checked against docs/sources.md" in page.out


def test_every_bundled_link_beside_a_ref_is_one_its_claim_lists(tmp_path: Path) -> None:
    """The bundled pack meets the rule it sets for users (rules check runs it too)."""
    result = run("rules", "check", cwd=tmp_path)
    assert result.code == 0, result.err
    assert result.out.rstrip().endswith("citations resolve")


PROFILES = Path(__file__).parent / "fixtures" / "round67"


def _json(tmp_path: Path, name: str, *args: str) -> dict:
    import json

    (tmp_path / "p.yaml").write_text((PROFILES / f"{name}.yaml").read_text())
    result = run("recommend", "p.yaml", "--format", "json", *args, cwd=tmp_path)
    assert result.code == 0, result.err
    return json.loads(result.out)


def _fired(data: dict) -> set[str]:
    return {r["id"] for r in data["rules"]}


def test_tpu_only_training_is_a_fact_between_pytorch_xla_and_tpu_vms(tmp_path: Path) -> None:
    """Finding 1: as of 2020-06 no rule read TPU-only training (HW201 ends 2019-10, HW008
    starts 2021-06), and a lab with some PyTorch got PyTorch at medium."""
    data = _json(tmp_path, "p21_tpu_only_2020", "--as-of", "2020-06")
    assert "HW204" in _fired(data)
    assert data["recommendation"]["confidence"] == "low"
    for month in ("2019-06", "2021-09"):  # the neighbouring periods keep their own rules
        assert "HW204" not in _fired(_json(tmp_path, "p21_tpu_only_2020", "--as-of", month))


def test_the_only_runtime_of_a_device_in_beta_is_still_its_only_runtime(tmp_path: Path) -> None:
    """Finding 2: in 2019 the Coral Edge TPU ran only int8 TF Lite models, but its route was
    rated beta (the product was), so PyTorch experts were told PyTorch on a tie."""
    data = _json(tmp_path, "p20b_coral_2019_ptexpert", "--as-of", "2019-06")
    assert data["recommendation"]["framework"] == "tensorflow"
    assert data["recommendation"]["confidence"] == "high"


def test_an_ios_only_route_does_not_carry_pytorch_on_android_and_ios(tmp_path: Path) -> None:
    """Finding 3: Core ML (iOS only) was PyTorch's "mature" route to Android and iOS apps
    from Nov 2020, against the rule's own PyTorch Mobile evidence."""
    data = _json(tmp_path, "p24_mobile_pt_2021", "--as-of", "2021-03")
    assert data["recommendation"]["framework"] == "tensorflow"
    text = str(data)
    assert "Core ML via coremltools (iOS)" not in text and "PyTorch Mobile" in text


def test_torchrec_is_not_credited_on_tpus_alone(tmp_path: Path) -> None:
    """Finding 6: ECO103 gave PyTorch +2 for TorchRec on a TPU-only recommender, where the
    stack itself leaves TorchRec out (its kernels need CUDA or ROCm GPUs)."""
    data = _json(tmp_path, "p26_recsys_tpu", "--probes", "none")
    fired = {r["id"]: r for r in data["rules"]}
    assert "ECO103" not in fired and "ECO113" in fired
    assert fired["ECO113"]["effects"].get("pytorch", 0) == 0


def test_a_pytorch_llm_served_on_tpus_gets_a_tpu_serving_path_and_its_risk(
    tmp_path: Path,
) -> None:
    """Finding 7: a PyTorch team serving an LLM on TPUs was offered only vLLM/SGLang 'with ROCm
    builds', and the younger PyTorch-native TPU back end showed only as a -1."""
    data = _json(tmp_path, "p25_llm_tpu_serving", "--probes", "none")
    assert data["recommendation"]["framework"] == "pytorch"
    stack = " ".join(item["name"] for item in data["recommendation"]["stack"])
    assert "vLLM-TorchTPU" in stack
    risks = {r["rule"]: r["text"] for r in data["risks"] if r["framework"] == "pytorch"}
    assert "test your model" in risks["PROD106"]


def test_pytorch_for_apples_neural_engine_starts_with_coremltools(tmp_path: Path) -> None:
    """Finding 8: the report rated Core ML the best route to the Neural Engine, but PyTorch's
    starter exported for ExecuTorch and litert-torch."""
    data = _json(tmp_path, "p11_apple_silicon_hobby", "--probes", "none")
    assert data["recommendation"]["framework"] == "pytorch"
    assert "ct.convert(" in data["recommendation"]["starter"]
