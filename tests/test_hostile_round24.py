"""Red-team round 24: `python -m advisor` never imports from the working folder, alias keys
are refused where they are written, every markup suffix the MIME table knows is treated as
HTML, shell-completion variables are input, and the probe cache stays out of the
advisor's own code."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hostile_support import Result, assert_refused, fake_interpreter, run, snapshot

from advisor.cli.output import named_html

ROOT = Path(__file__).resolve().parent.parent

PACK_RULE = """rules:
  - id: DEP901
    title: &k Test rule
    criterion: deployment
    when: {field: deployment.targets, contains: mobile}
    effects: {pytorch: 1}
    why: because of reasons
    evidence:
      - {title: ttt, source: ss, year: 2024, claim: claim claim claim}
    examples:
      fire: [{deployment: {targets: [mobile]}}]
      ok: [{deployment: {targets: [server]}}]
"""


def test_python_m_never_imports_a_module_from_the_working_folder(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(PACK_RULE)
    marker = tmp_path / "RAN"
    for name in ("yaml", "click", "json"):
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'w').write('{name}')\n")
    done = run("rules", "check", ".", cwd=tmp_path)
    assert done.code == 0, done.err
    assert "1 rule valid" in done.out
    assert not marker.exists(), marker.read_text()


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("project:\n  name: &n size\nteam:\n  experience: {}\n  *n : x\n", 5),
        ("project:\n  name: &n purpose\nteam: {size: 3}\n*n : research\n", 4),
        ("&k team: {size: 3}\n*k : {size: 4}\n", 2),
        ("project:\n  name: &n purpose\n? *n\n: research\n", 3),
    ],
)
def test_a_key_written_as_an_alias_is_refused_at_its_own_line(
    tmp_path: Path, text: str, line: int
) -> None:
    (tmp_path / "p.yaml").write_text(text)
    done = run("recommend", "p.yaml", "--probes", "none", cwd=tmp_path)
    assert_refused(done, f"p.yaml:{line}:", "written as an alias")


def test_an_alias_key_in_a_rule_pack_is_refused_at_its_line(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "r.yaml").write_text(PACK_RULE + "    *k : extra\n")
    done = run("rules", "check", "pack", cwd=tmp_path)
    assert_refused(done, "r.yaml:13:", "written as an alias")


def test_aliases_as_values_and_merge_keys_still_load(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(
        "project: {name: &n demo, notes: *n}\nteam: &t {size: 3}\nhardware:\n"
        "  training: &hw [cpu]\n  inference: *hw\n"
    )
    done = run("recommend", "p.yaml", "--probes", "none", "--format", "json", cwd=tmp_path)
    assert done.code == 0, done.err


@pytest.mark.parametrize(
    "name", ["r.xhtm", "r.XHTM", "r.rss", "r.kml", "r.svgz", "t.xhtm.j2", "r.xul", "r.atom"]
)
def test_every_suffix_the_mime_table_calls_html_or_xml_is_markup(name: str) -> None:
    assert named_html(name)


@pytest.mark.parametrize("name", ["r.md", "r.yaml", "r.txt", "r.docx", "report", "r.json"])
def test_plain_suffixes_are_not_markup(name: str) -> None:
    assert not named_html(name)


def test_an_xhtm_report_is_html_and_escapes_a_template(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").write_text('project: {name: "<script>alert(1)</script>"}\n')
    (tmp_path / "t.md.j2").write_text("{{ profile.project.name }}\n")
    done = run(
        "recommend", "x.yaml", "--probes", "none", "--template", "t.md.j2", "-o", "r.xhtm",
        cwd=tmp_path,
    )  # fmt: skip
    # round 71: a custom template's HTML goes only to an .html or .htm page, the one kind
    # of file whose content policy a browser reads (an .xhtm is parsed as XML)
    assert done.code == 2 and "--output" in done.err and not (tmp_path / "r.xhtm").exists()
    done = run("recommend", "x.yaml", "--probes", "none", "-o", "r.xhtm", cwd=tmp_path)
    assert done.code == 0, done.err  # the bundled report: HTML, its data escaped
    text = (tmp_path / "r.xhtm").read_text()
    assert "<script>" not in text and "&lt;script&gt;" in text
    done = run("ask", "--defaults", "-o", "p.xhtm", cwd=tmp_path)
    assert_refused(done, "--output", "YAML profile")
    assert not (tmp_path / "p.xhtm").exists()


def _console_script(cwd: Path, env: dict[str, str]) -> Result:
    """The installed ``advisor`` script, whose completion variable (_ADVISOR_COMPLETE) is the
    one a shell's completion script sets."""
    script = Path(sys.executable).with_name("advisor")
    proc = subprocess.run(
        [str(script)], cwd=cwd, env={**os.environ, **env}, capture_output=True, timeout=60
    )
    return Result(proc.returncode, proc.stdout.decode(), proc.stderr.decode(), 0.0, 0.0)


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"_ADVISOR_COMPLETE": "bash_complete"}, "completion variables"),
        (
            {"_ADVISOR_COMPLETE": "bash_complete", "COMP_WORDS": "advisor re", "COMP_CWORD": "x"},
            "completion variables",
        ),
        ({"_ADVISOR_COMPLETE": "bogus"}, "not a completion instruction"),
        ({"_ADVISOR_COMPLETE": "bash_\x1b[31m"}, "not a completion instruction"),
    ],
)
def test_bad_completion_variables_are_one_line_and_exit_2(
    tmp_path: Path, env: dict[str, str], fragment: str
) -> None:
    assert_refused(_console_script(tmp_path, env), "_ADVISOR_COMPLETE", fragment)


def test_good_completion_still_works(tmp_path: Path) -> None:
    env = {"_ADVISOR_COMPLETE": "bash_complete", "COMP_WORDS": "advisor reco", "COMP_CWORD": "1"}
    done = _console_script(tmp_path, env)
    assert done.code == 0 and "recommend" in done.out, done.err


@pytest.mark.parametrize("inside", ["probes", "advisor/zz", "rules/cache"])
def test_the_probe_cache_never_lies_in_the_advisors_own_code(tmp_path: Path, inside: str) -> None:
    python = fake_interpreter(tmp_path, "pass")
    before = snapshot(ROOT / inside.split("/")[0])
    done = run(
        "probe",
        "--python",
        str(python),
        cwd=tmp_path,
        env={"ADVISOR_CACHE_DIR": str(ROOT / inside)},
    )
    assert_refused(done, "$ADVISOR_CACHE_DIR", "own code or data")
    assert snapshot(ROOT / inside.split("/")[0]) == before


def test_a_probe_cache_that_is_a_file_is_refused(tmp_path: Path) -> None:
    python = fake_interpreter(tmp_path, "pass")
    done = run(
        "probe", "--python", str(python), cwd=tmp_path, env={"ADVISOR_CACHE_DIR": "/dev/null"}
    )
    assert_refused(done, "$ADVISOR_CACHE_DIR", "not a folder")


@pytest.mark.parametrize("raw", [b"p\xff.yaml", "a\u202eb.yaml".encode(), "z\u200b.yaml".encode()])
def test_the_reproduce_command_names_the_file_that_was_read(tmp_path: Path, raw: bytes) -> None:
    folder = os.fsencode(str(tmp_path))
    with open(os.path.join(folder, raw), "wb") as f:
        f.write(b"purpose: research\n")
    name = os.fsdecode(raw)
    done = run("recommend", name, "--probes", "none", cwd=tmp_path)
    assert done.code == 0, done.err
    line = next(x for x in done.out.splitlines() if "advisor recommend $'" in x)
    word = line.split("advisor recommend ", 1)[1].split(" --", 1)[0].strip("`")
    named = subprocess.run(
        ["bash", "-c", f"printf %s {word}"], capture_output=True, check=True, cwd=tmp_path
    ).stdout
    assert named == raw
