"""Red-team round 28: each finding, fixed, with the promise it broke (SECURITY.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile_support import run

SCRIPT = "<script>alert(document.domain)</script>"


@pytest.mark.parametrize("fmt", ["json", "markdown"])
@pytest.mark.parametrize("name", ["r.html", "r.htm", "r.hta", "r.svg"])
def test_markdown_or_json_is_never_written_to_a_file_a_browser_opens_as_html(
    tmp_path: Path, fmt: str, name: str
) -> None:
    """JSON keeps '<' and Markdown escapes it as '\\<': in a file named .html either runs
    the script a project name holds. Refused, one line, nothing written."""
    (tmp_path / "p.yaml").write_text(f'project: {{name: "{SCRIPT}"}}\n', encoding="utf-8")
    args = ("recommend", "p.yaml", "--probes", "none", "--format", fmt, "-o", name)
    result = run(*args, cwd=tmp_path)
    assert result.code == 2, result.err
    assert len(result.err.strip().splitlines()) == 1 and "--format html" in result.err
    assert not (tmp_path / name).exists()


def test_the_probe_report_is_never_written_to_a_markup_name_even_as_json(tmp_path: Path) -> None:
    result = run("probe", "--format", "json", "-o", "pr.hta", cwd=tmp_path)
    assert result.code == 2 and ".md or .json" in result.err
    assert not (tmp_path / "pr.hta").exists()


def test_html_to_a_markup_name_and_json_to_a_json_name_still_work(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(f'project: {{name: "{SCRIPT}"}}\n', encoding="utf-8")
    for fmt, name in (("html", "r.html"), ("json", "r.json"), ("markdown", "r.md")):
        args = ("recommend", "p.yaml", "--probes", "none", "--format", fmt, "-o", name)
        assert run(*args, cwd=tmp_path).code == 0, (fmt, name)
    assert "<script>" not in (tmp_path / "r.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "says"),
    [("# {{ 1/0 }}\n", "ZeroDivisionError"), ("# {{ nosuch.thing }}\n", "undefined")],
)
def test_answers_given_before_a_template_fails_are_kept(
    tmp_path: Path, body: str, says: str
) -> None:
    """Before, 28 answers were given, then the template failed as it rendered and they were
    lost. They are saved as a profile, the one error line says where, and nothing else is
    written; rerun with that profile and they are all there."""
    pexpect = pytest.importorskip("pexpect")
    import os
    import sys

    from advisor.io.profiles import load_profile

    (tmp_path / "t.md.j2").write_text(body, encoding="utf-8")
    script = Path(sys.executable).with_name("advisor")
    cmd = [str(script)] if script.exists() else [sys.executable, "-m", "advisor"]
    args = [*cmd[1:], "recommend", "--template", "t.md.j2", "--probes", "none", "-o", "r.md"]
    child = pexpect.spawn(
        cmd[0],
        args,
        cwd=str(tmp_path),
        env={**os.environ, "NO_COLOR": "1", "TERM": "dumb"},
        encoding="utf-8",
        timeout=60,
    )
    answered_purpose = False
    while True:
        index = child.expect([r"\(([\w.]+)\)\s", r"these answers\?[^\n]*\[y\]: "])
        if index == 1:
            child.sendline("y")
            break
        path = child.match.group(1)
        child.expect(r"\]: ")
        child.sendline("production" if path == "purpose" else "")
        answered_purpose = answered_purpose or path == "purpose"
    child.expect(pexpect.EOF)
    child.close()
    assert answered_purpose and child.exitstatus == 2
    assert says in child.before and "advisor-answers.yaml" in child.before
    assert not (tmp_path / "r.md").exists()
    kept = load_profile(tmp_path / "advisor-answers.yaml")
    assert kept.purpose.value == "production"


def test_answers_are_kept_beside_an_earlier_copy_never_over_it(tmp_path: Path) -> None:
    from advisor.cli.kept_answers import keep_answers
    from advisor.model.errors import InputError
    from advisor.model.profile import Profile

    os_cwd = Path.cwd()
    (tmp_path / "advisor-answers.yaml").write_text("purpose: research\n", encoding="utf-8")
    try:
        import os

        os.chdir(tmp_path)
        error = keep_answers(InputError("failed", path="t.md.j2", line=2), Profile(), [])
    finally:
        os.chdir(os_cwd)
    assert "advisor-answers-2.yaml" in error.message and error.line == 2
    assert (tmp_path / "advisor-answers.yaml").read_text() == "purpose: research\n"
    assert (tmp_path / "advisor-answers-2.yaml").exists()


def test_a_template_that_reads_measurements_is_not_refused_before_the_probes(
    tmp_path: Path,
) -> None:
    """Round 29: a trial render on an unmeasured example had refused a good template."""
    (tmp_path / "t.md.j2").write_text("{{ environment.os | md }}\n", encoding="utf-8")
    env = {"ADVISOR_PROBE_HIDE": "all", "ADVISOR_CACHE_DIR": str(tmp_path / "c")}
    args = ("recommend", "--example", "student-starter", "--template", "t.md.j2", "-o", "r.md")
    result = run(*args, "--probes", "quick", cwd=tmp_path, env=env, timeout=300)
    assert result.code == 0, result.err
    assert (tmp_path / "r.md").read_text(encoding="utf-8").strip()


def _rule(rid: str, fire: str, ok: str) -> str:
    return (
        f"  - {{id: {rid}, title: A user rule, criterion: scale, when: {{field: team.size, "
        f"gte: 50}}, effects: {{pytorch: 1}}, why: A rule of a user pack., evidence: "
        f"[{{title: A source, source: A publisher, year: 2020, claim: A claim of the source.}}], "
        f"examples: {{fire: {fire}, ok: {ok}}}}}\n"
    )


def test_a_rule_gives_at_most_16_examples_a_list(tmp_path: Path) -> None:
    from advisor.decide.rules import load_ruleset
    from advisor.model.errors import InputError

    pack = tmp_path / "pack"
    pack.mkdir()
    many = "[" + ", ".join(["{team: {size: 99}}"] * 17) + "]"
    (pack / "r.yaml").write_text("rules:\n" + _rule("SCL900", many, "[{}]"), encoding="utf-8")
    with pytest.raises(InputError, match="at most 16") as caught:
        load_ruleset([pack])
    assert caught.value.line == 2


def test_examples_aliased_by_the_thousand_are_refused_before_any_runs(tmp_path: Path) -> None:
    """Each rule's `fire: *f` named a list of 16 examples: 3,000 rules (954 KB) took 97 s on
    every load. The user packs' examples are counted, all of them, before any runs."""
    from advisor.decide.rules import load_ruleset
    from advisor.model.errors import InputError

    pack = tmp_path / "pack"
    pack.mkdir()
    sixteen = "[" + ", ".join(["{team: {size: 99}}"] * 16) + "]"
    text = "rules:\n" + _rule("SCL300", f"&f {sixteen}", "&o [{}]")
    text += "".join(_rule(f"SCL{i}", "*f", "*o") for i in range(301, 950))
    (pack / "r.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="more than 10,000 examples"):
        load_ruleset([pack])


def test_a_bad_file_is_refused_before_the_next_is_parsed(tmp_path: Path) -> None:
    """Every file of every pack used to be parsed (474 MB for one 4.5 MB pack) before the
    first was checked; now each is checked as it is read."""
    from advisor.decide.rules import load_ruleset
    from advisor.model.errors import InputError

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "a.yaml").write_text("- not a mapping\n", encoding="utf-8")
    (pack / "b.yaml").write_text("rules: [\n", encoding="utf-8")  # never read
    with pytest.raises(InputError) as caught:
        load_ruleset([pack])
    assert caught.value.path is not None and caught.value.path.endswith("a.yaml")


def test_the_limits_on_user_packs_hold_for_all_of_them_together(tmp_path: Path) -> None:
    """--rules repeated four times had taken 1.5 GB: each pack was bounded alone."""
    from advisor.decide.pack_layout import MAX_PACK_BYTES, user_packs
    from advisor.model.errors import InputError

    packs = []
    for n in range(3):
        pack = tmp_path / f"p{n}"
        pack.mkdir()
        (pack / "r.yaml").write_bytes(b"#" * (MAX_PACK_BYTES // 2 - 10))
        packs.append(pack)
    assert user_packs(tmp_path / "core", packs[:1]) == packs[:1]
    with pytest.raises(InputError, match="together") as caught:
        user_packs(tmp_path / "core", packs)
    assert caught.value.path == str(packs[2])


def test_a_pack_folder_of_too_many_entries_is_refused(tmp_path: Path) -> None:
    """200,000 notes beside the rules took a run from 1 s to 14 s (listed several times)."""
    from advisor.decide.pack_layout import MAX_PACK_ENTRIES, rule_files
    from advisor.model.errors import InputError

    pack = tmp_path / "pack"
    pack.mkdir()
    for i in range(MAX_PACK_ENTRIES + 1):
        (pack / f"n{i}.txt").touch()
    with pytest.raises(InputError, match="over 10,000 entries"):
        rule_files(pack)


def test_the_node_limit_is_not_called_an_alias_bomb_when_no_alias_is_used() -> None:
    from advisor.io.safe_yaml import load_yaml_text
    from advisor.model.errors import InputError

    text = "x:\n" + "".join(f"  - [{', '.join(['0'] * 9000)}]\n" for _ in range(23))
    with pytest.raises(InputError, match="too many nodes") as caught:
        load_yaml_text(text)
    assert "alias bomb" not in caught.value.message


def test_a_packs_consistency_checks_count_toward_the_example_limit(tmp_path: Path) -> None:
    """Round 29: 480 checks of 64 aliased examples each (102 KB) ran 61,440 examples on
    every load, 15 s: checks' examples were bounded by neither limit."""
    from advisor.decide.rules import load_ruleset
    from advisor.model.errors import InputError

    data = tmp_path / "pack" / "data"
    data.mkdir(parents=True)
    sixteen = "[" + ", ".join(["{model: {parameters: 7e10}}"] * 16) + "]"

    def check(n: int, trip: str) -> str:
        return (
            f"  - {{id: CON{n}, title: A user check, when: {{field: model.parameters, gt: 1e8}}, "
            f"message: a check of a user pack, evidence: [{{title: A source, source: A "
            f"publisher, year: 2020, claim: A claim of the source.}}], examples: {{trip: "
            f"{trip}}}}}\n"
        )

    text = "checks:\n" + check(300, f"&t {sixteen}")
    text += "".join(check(n, "*t") for n in range(301, 930))
    (data / "consistency.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match="more than 10,000 examples"):
        load_ruleset([tmp_path / "pack"])
    seventeen = "[" + ", ".join(["{model: {parameters: 7e10}}"] * 17) + "]"
    (data / "consistency.yaml").write_text("checks:\n" + check(300, seventeen), encoding="utf-8")
    with pytest.raises(InputError, match="at most 16"):
        load_ruleset([tmp_path / "pack"])


# --------------------------------------------------------------- round 30


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (("--format", "markdown"), "r.md:x.html"),
        (("--format", "json"), "r.json:x.html"),
        ((), "x:.svg"),
    ],
)
def test_a_colon_does_not_hide_a_markup_suffix_on_posix(
    tmp_path: Path, args: tuple[str, ...], name: str
) -> None:
    """The Windows reading cut the name at its first colon ('r.md'); on Linux the file is
    an .html file a browser opens as one."""
    (tmp_path / "p.yaml").write_text(f'project: {{name: "{SCRIPT}"}}\n', encoding="utf-8")
    result = run("recommend", "p.yaml", "--probes", "none", *args, "-o", name, cwd=tmp_path)
    if result.code == 0:  # no --format: the name picks HTML, which is escaped
        assert "<script>" not in (tmp_path / name).read_text(encoding="utf-8")
        assert (tmp_path / name).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    else:
        assert result.code == 2 and not (tmp_path / name).exists()


def test_both_readings_of_a_name_count() -> None:
    from advisor.cli.output import named_html, named_json

    assert named_html("r.md:x.html") and named_html("r.html::$DATA") and named_html("r.html")
    assert named_json("r.md:x.json") and named_json("r.json::$DATA")
    assert not named_html("report:v1.md") and not named_json("report:v1.md")


def test_the_kept_answers_note_leads_the_line_so_a_long_message_cannot_cut_it() -> None:
    from advisor.cli.kept_answers import keep_answers
    from advisor.model.errors import InputError
    from advisor.model.profile import Profile

    long = InputError("template failed: " + "a" * 900, path="t.md.j2", line=1)
    kept = keep_answers(long, Profile(), [])
    try:
        line = str(kept)
        assert "your answers are kept in " in line
    finally:
        name = kept.message.split("kept in ", 1)[1].split(" (give", 1)[0]
        Path(name).unlink()


def test_answers_a_rule_pack_folder_cannot_take_are_kept_in_the_temporary_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Round 30: with `--rules .` the working folder is a pack, and the answers were lost
    without a word; now they go to the temporary folder, readable by the user alone."""
    import os
    import tempfile

    from advisor.cli.kept_answers import keep_answers
    from advisor.model.errors import InputError
    from advisor.model.profile import Profile

    pack = tmp_path / "pack"
    pack.mkdir()
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.chdir(pack)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    kept = keep_answers(InputError("failed"), Profile(), [str(pack)])
    assert not list(pack.iterdir())
    saved = temp / "advisor-answers.yaml"
    assert str(saved) in kept.message and saved.exists()
    assert os.stat(saved).st_mode & 0o077 == 0


def test_answers_that_cannot_be_kept_anywhere_are_said_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from advisor.cli.kept_answers import keep_answers
    from advisor.model.errors import InputError
    from advisor.model.profile import Profile

    pack = tmp_path / "pack"
    pack.mkdir()
    monkeypatch.chdir(pack)
    monkeypatch.setattr(tempfile, "tempdir", str(pack))  # the pack again: refused
    kept = keep_answers(InputError("failed"), Profile(), [str(pack)])
    assert kept.message.startswith("your answers could not be kept; failed")
