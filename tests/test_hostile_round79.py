"""Red-team round 79 (security): regression tests, each failing before its fix."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_support import run
from test_hostile_round24 import PACK_RULE

ROOT = Path(__file__).resolve().parent.parent
SHADOWED = ("yaml", "click", "json", "pydantic")


def _hostile_folder(folder: Path) -> Path:
    """A downloaded pack with modules beside it that would shadow the advisor's own; each
    leaves a marker if it is ever imported."""
    (folder / "r.yaml").write_text(PACK_RULE)
    marker = folder / "RAN"
    for name in SHADOWED:
        (folder / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write('{name} ')\n")
    return marker


@pytest.mark.parametrize(
    ("pythonpath", "extra"),
    [
        (f"{ROOT}{os.pathsep}", {}),  # `export PYTHONPATH=$PYTHONPATH:/x` the other way round
        (f"{os.pathsep}{ROOT}", {"PYTHONSAFEPATH": "1"}),  # the mitigation SECURITY.md names
        (f".{os.pathsep}{ROOT}", {}),
        (f"{ROOT}{os.pathsep}{os.pathsep}./", {}),
    ],
)
def test_an_empty_or_relative_pythonpath_entry_imports_nothing_from_the_working_folder(
    tmp_path: Path, pythonpath: str, extra: dict[str, str]
) -> None:
    """Finding 1: an empty (or relative) PYTHONPATH entry is the working folder, which Python
    puts ahead of the installed packages whatever -P or PYTHONSAFEPATH says, so a `yaml.py`
    beside a pack ran inside the advisor (`python -m advisor`, `python -P -m advisor` and
    the `advisor` command alike)."""
    marker = _hostile_folder(tmp_path)
    done = run("rules", "check", ".", cwd=tmp_path, env={"PYTHONPATH": pythonpath, **extra})
    assert not marker.exists(), marker.read_text()
    assert done.code == 0, done.err
    assert "1 rule valid" in done.out


def test_the_advisor_command_imports_nothing_from_the_working_folder(tmp_path: Path) -> None:
    """The same through a console script like the one pip writes (its folder first on
    sys.path, not the working folder)."""
    pack = tmp_path / "pack"
    pack.mkdir()
    marker = _hostile_folder(pack)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "advisor"
    script.write_text("import sys\nfrom advisor.cli import main\nsys.exit(main())\n")
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}"}
    done = subprocess.run(
        [sys.executable, str(script), "rules", "check", "."],
        cwd=pack,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert not marker.exists(), marker.read_text()
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_source_checkout_named_by_a_relative_pythonpath_still_runs() -> None:
    """The folder that holds the advisor being run stays on the path (nothing else would
    import it), as `python -m advisor` keeps it from its own checkout."""
    done = run("rules", "list", cwd=ROOT, env={"PYTHONPATH": "."})
    assert done.code == 0, done.err
    assert done.out.startswith("DEP001")


def test_the_packs_total_is_kept_as_files_are_read_not_only_as_sized(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 2: the 5 MB for all user packs together was checked from the sizes on disk
    before parsing, and each file then read against its own 5 MB only, so files that grew
    after the check (a synced folder) could make the advisor read 1,000 x 5 MB. The sizes
    are made to lie here, as such a folder's would; the reading still stops at the total."""
    from advisor.decide import pack_layout
    from advisor.decide.rules import load_ruleset
    from advisor.model.errors import InputError

    monkeypatch.setattr(pack_layout, "_check_pack_bounds", lambda packs: None)
    padding = "# " + "x" * 98 + "\n"
    packs = []
    for number in (1, 2):
        pack = tmp_path / f"pack{number}"
        pack.mkdir()
        text = PACK_RULE.replace("DEP901", f"DEP90{number}") + padding * 30_000  # 3 MB
        (pack / "r.yaml").write_text(text)
        packs.append(pack)
    assert len(load_ruleset(packs[:1]).rules) > 1  # one alone is within the total
    with pytest.raises(InputError, match="together") as caught:
        load_ruleset(packs)
    assert caught.value.path == str(packs[1] / "r.yaml")


@pytest.mark.parametrize("name", ["out.txt", "out", "out.md"])
def test_a_custom_templates_html_goes_only_to_an_html_page(tmp_path: Path, name: str) -> None:
    """Finding 3: SECURITY.md says a custom template's HTML is written only to an .html or
    .htm file, but `--format html -o out.txt` (or a name without a suffix) wrote it."""
    (tmp_path / "t.j2").write_text("<!doctype html><p>hi</p>\n")
    done = run(
        "recommend", "--example", "student-starter", "--probes", "none",
        "--template", "t.j2", "--format", "html", "-o", name, cwd=tmp_path,
    )  # fmt: skip
    assert done.code == 2, done.err
    assert "only to an .html or .htm file" in done.err
    assert not (tmp_path / name).exists()
    done = run(
        "recommend", "--example", "student-starter", "--probes", "none",
        "--template", "t.j2", "--format", "html", "-o", "r.html", cwd=tmp_path,
    )  # fmt: skip
    assert done.code == 0, done.err
    assert "Content-Security-Policy" in (tmp_path / "r.html").read_text()
