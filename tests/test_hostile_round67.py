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
