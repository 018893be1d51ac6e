"""Fourth round of attacks on SECURITY.md: output paths, interpreters, caches, numbers,
dates and format strings. Each test is a reproducer from the round, now refused cleanly."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path

import pytest
from hostile_support import ROOT, run
from jinja2.exceptions import SecurityError

from advisor.decide import pack_layout
from advisor.io.safe_yaml import load_yaml_text
from advisor.model.choices import parse_count, parse_megabytes
from advisor.model.errors import InputError
from advisor.report.format_limits import check_format
from probes.env.interpreter import InterpreterError, inspect
from probes.run import cache

RULES = ROOT / "rules"


def _wrapper(path: Path) -> None:
    """A script that runs this interpreter (a link to a venv's python would lose the venv)."""
    path.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    path.chmod(0o755)


def _one_line_error(code: int, out: str, err: str, *fragments: str) -> None:
    assert code == 2, err
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in err, err


def test_a_link_and_dotdot_cannot_carry_the_output_into_bundled_rules(tmp_path: Path) -> None:
    """``link/..`` is the parent of the link's target for the kernel, whatever the text
    says: the folder check resolves it the same way. The advisor under test reads the
    checkout's rules (hostile_support.run puts ROOT first), so those are the ones aimed at;
    a file the protection failed to keep out is put back."""
    (tmp_path / "lnk").symlink_to(RULES / "data", target_is_directory=True)
    for name, extra in (("evil.yaml", []), ("production.yaml", ["--force"])):
        before = (RULES / name).read_bytes() if (RULES / name).exists() else None
        try:
            result = run(
                "recommend", "--example", "student-starter", "--probes", "none",
                "-o", f"lnk/../{name}", *extra, cwd=tmp_path,
            )  # fmt: skip
            _one_line_error(result.code, result.out, result.err, "inside a folder")
        finally:
            after = (RULES / name).read_bytes() if (RULES / name).exists() else None
            if after != before:
                if before is None:
                    (RULES / name).unlink()
                else:
                    (RULES / name).write_bytes(before)
        assert after == before


def test_a_link_and_dotdot_cannot_add_a_rule_file_to_a_user_pack(cli, tmp_path, monkeypatch):
    pack = tmp_path / "pack"
    (pack / "notes").mkdir(parents=True)
    (tmp_path / "lnk").symlink_to(pack / "notes", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(
        "recommend", "--example", "student-starter", "--probes", "none",
        "--rules", str(pack), "-o", "lnk/../x.yaml",
    )  # fmt: skip
    _one_line_error(code, out, err, "part of the rule pack")
    assert not (pack / "x.yaml").exists()


def test_dev_stdout_is_never_replaced(cli, tmp_path: Path) -> None:
    """With --force the report would replace the system's /dev/stdout link (as root)."""
    for extra in ([], ["--force"]):
        code, out, err = cli(
            "recommend", "--example", "student-starter", "--probes", "none",
            "-o", "/dev/stdout", *extra,
        )  # fmt: skip
        _one_line_error(code, out, err, "device, stream or system file")
    assert os.path.islink("/dev/stdout") or not os.path.exists("/dev/stdout")


def test_force_keeps_the_permissions_of_the_file_it_replaces(cli, tmp_path: Path) -> None:
    private = tmp_path / "private.md"
    private.write_text("secret")
    private.chmod(0o600)
    code, _, err = cli(
        "recommend", "--example", "student-starter", "--probes", "none",
        "-o", str(private), "--force",
    )  # fmt: skip
    assert code == 0, err
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert "Framework recommendation" in private.read_text()


def test_an_unlistable_pack_folder_is_a_one_line_error(monkeypatch, tmp_path: Path) -> None:
    def refuse(self: Path):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "iterdir", refuse)
    with pytest.raises(InputError, match="cannot list this rule pack folder: Permission denied"):
        pack_layout.rule_files(tmp_path)


def test_a_deeply_nested_cache_file_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text("[" * 100_000)
    path.chmod(0o600)
    tmp_path.chmod(0o700)
    assert cache.load(path, {"k": 1}) is None


def test_a_cache_path_that_cannot_be_expanded_is_refused(run_advisor) -> None:
    proc = run_advisor(
        "probe", "--level", "quick", env={"ADVISOR_CACHE_DIR": "~no-such-user-here/x"}
    )
    _one_line_error(proc.returncode, proc.stdout, proc.stderr, "$ADVISOR_CACHE_DIR")


def test_a_relative_python_path_is_read_from_the_working_folder(tmp_path, monkeypatch) -> None:
    (tmp_path / "bin").mkdir()
    _wrapper(tmp_path / "bin" / "python")
    monkeypatch.chdir(tmp_path)
    assert inspect("bin/python").path == str(tmp_path / "bin" / "python")


@pytest.mark.parametrize(
    "body",
    [
        'echo "[1]"',
        'echo \'{"version": "abc"}\'',
        "echo '{\"version\": 5}'",
        'echo \'{"version": [3, 12, 0], "numpy": 1, "frameworks": []}\'',
        "yes",  # floods stdout: stopped at the output cap, not after a minute
    ],
)
def test_an_interpreter_that_answers_oddly_is_refused(tmp_path: Path, body: str) -> None:
    fake = tmp_path / "fakepy"
    fake.write_text(f"#!/bin/sh\n{body}\n")
    fake.chmod(0o755)
    with pytest.raises(InterpreterError, match="not a working Python interpreter"):
        inspect(str(fake))


@pytest.mark.parametrize("text", ["0,25", "1,5B", "1,0,0", "12,34", "1,000,00"])
def test_a_comma_is_never_a_silent_decimal(text: str) -> None:
    with pytest.raises(ValueError, match="only separate thousands"):
        parse_count(text)
    with pytest.raises(ValueError, match="only separate thousands"):
        parse_megabytes(text)


def test_a_comma_still_separates_thousands() -> None:
    assert parse_count("1,000,000") == 1e6
    assert parse_count("1,500M") == 1.5e9
    assert parse_megabytes("1,024MB") == 1024


def test_dates_stay_text_so_the_model_judges_them() -> None:
    """A project named 2024-13-45 is a name, not a date the YAML reader fails to build."""
    doc = load_yaml_text("project: {name: 2024-13-45}\nchecked: 2026-11-30\n")
    assert doc.data == {"project": {"name": "2024-13-45"}, "checked": "2026-11-30"}


@pytest.mark.parametrize(
    ("spec", "style", "why"),
    [
        ("{{{0:>{1}}}}", "{}", "taken from an argument"),  # a nested field after '{{'
        ("{:\u0662\u0660\u0660\u0660\u0660\u0660\u0660}", "{}", "over 9999"),  # Arabic-Indic
        ("%(a(b))2000000s", "%", "over 9999"),  # nested parentheses in the key
        ("%(a(b(c)))*s", "%", "taken from an argument"),
        ("%-0 +#.99999f", "%", "over 9999"),
    ],
)
def test_format_widths_are_read_as_python_reads_them(spec: str, style: str, why: str) -> None:
    with pytest.raises(SecurityError, match=why):
        check_format(spec, style)


@pytest.mark.parametrize(
    ("spec", "style"),
    [("%5d %-8.3f %% %(a)s", "%"), ("{:>10}|{:08.3f}|{{x}}|{:,}", "{}"), ("100%%", "%")],
)
def test_ordinary_formats_pass(spec: str, style: str) -> None:
    check_format(spec, style)


def test_interpreter_answers_are_json_the_script_prints(tmp_path: Path) -> None:
    """The real interpreter's answer still reads (the shape check is not too strict)."""
    info = inspect(sys.executable)
    assert info.version.count(".") == 2 and json.dumps(info.to_json())


@pytest.mark.parametrize(
    "name", ["a\u2028b\x85c", "right\u202eleft", "tag\U000e0041s", "zw\u200bsp", "{{ 7*7 }}"]
)
def test_ask_writes_hidden_characters_as_escapes_and_reads_them_back(name: str) -> None:
    """`ask -o` wrote U+202E raw and turned NEL/U+2028 into spaces on the way back."""
    from advisor.io.profile_writer import profile_yaml
    from advisor.model.profile import Profile

    text = profile_yaml(Profile.model_validate({"project": {"name": name}}))
    assert not any(ch in text for ch in "\u2028\x85\u202e\U000e0041\u200b")
    assert load_yaml_text(text).data["project"]["name"] == name


def test_zero_width_joiners_stay_as_typed() -> None:
    from advisor.io.profile_writer import profile_yaml
    from advisor.model.profile import Profile

    name = "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645"  # Persian needs ZWNJ
    assert f"name: {name}" in profile_yaml(Profile.model_validate({"project": {"name": name}}))


def test_a_file_name_that_is_not_utf8_keeps_json_strict(cli, tmp_path: Path) -> None:
    """The name's lone surrogate is written as the text \\udcff, not a JSON escape that
    strict parsers refuse."""
    profile = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff.yaml"))
    profile.write_text("purpose: research\n")
    out = tmp_path / "r.json"
    code, _, err = cli("recommend", str(profile), "--probes", "none", "--format", "json",
                       "-o", str(out))  # fmt: skip
    assert code == 0, err
    raw = out.read_bytes().decode("utf-8")  # valid UTF-8
    data = json.loads(raw)
    assert "\\udcff" in json.dumps(data) and "\\\\udcff" in raw


def test_a_user_pack_may_not_hold_more_than_a_file_may(cli, tmp_path: Path) -> None:
    """Ten files of 1.1 MB each took 22 s and 530 MB before their error; the total is
    capped before any file is parsed."""
    pack = tmp_path / "pack"
    pack.mkdir()
    for i in range(3):
        (pack / f"r{i}.yaml").write_text("rules: []\n#" + "x" * 2_000_000 + "\n")
    code, out, err = cli(
        "recommend", "--example", "student-starter", "--probes", "none", "--rules", str(pack)
    )
    _one_line_error(code, out, err, "over 5 MB together")


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="no /dev/shm here")
def test_folders_below_dev_such_as_shm_are_ordinary(cli) -> None:
    target = f"/dev/shm/advisor-test-{os.getpid()}.md"
    try:
        code, _, err = cli(
            "recommend", "--example", "student-starter", "--probes", "none", "-o", target
        )
        assert code == 0, err
    finally:
        if os.path.exists(target):
            os.unlink(target)


# --- Round 5: attacks on the round-4 fixes ------------------------------------------------


def test_a_bare_interpreter_name_found_through_a_relative_path_entry_runs_that_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PATH=relbin:... made `which` return relbin/py, which then ran from the temp folder."""
    (tmp_path / "relbin").mkdir()
    _wrapper(tmp_path / "relbin" / "mypy3")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "relbin" + os.pathsep + os.environ.get("PATH", ""))
    assert inspect("mypy3").path == str(tmp_path / "relbin" / "mypy3")


def test_an_interpreter_found_on_path_is_an_input(cli, tmp_path, monkeypatch) -> None:
    (tmp_path / "bin").mkdir()
    interp = tmp_path / "bin" / "mypy3"
    interp.symlink_to(sys.executable)
    monkeypatch.setenv("PATH", str(tmp_path / "bin") + os.pathsep + os.environ["PATH"])
    code, out, err = cli(
        "recommend", "--example", "student-starter", "--probes", "none",
        "--python", "mypy3", "-o", str(interp), "--force",
    )  # fmt: skip
    _one_line_error(code, out, err, "is also an input")
    assert interp.is_symlink()


def test_an_interpreter_that_forks_leaves_nothing_running(tmp_path: Path) -> None:
    marker = tmp_path / "alive"
    fake = tmp_path / "fakepy"
    fake.write_text(f"#!/bin/sh\n(sleep 30; touch {marker}) &\necho '[1]'\n")
    fake.chmod(0o755)
    with pytest.raises(InterpreterError):
        inspect(str(fake))
    import subprocess

    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True, check=False)
    assert f"touch {marker}" not in ps.stdout


@pytest.mark.parametrize("text", ["1,000.2,5B", "1,000.5,5", "1,000e,5", "12,345.6,7M"])
def test_commas_after_the_thousands_groups_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="only separate thousands"):
        parse_count(text)


def test_an_equals_sign_is_text() -> None:
    assert load_yaml_text("name: =\n").data == {"name": "="}


@pytest.mark.parametrize("name", ["a\x7fb\u200bc", "a\ufffeb\u200b"])
def test_every_hidden_character_is_escaped_so_the_file_reads_back(name: str) -> None:
    from advisor.io.profile_writer import profile_yaml
    from advisor.model.profile import Profile

    text = profile_yaml(Profile.model_validate({"project": {"name": name}}))
    assert load_yaml_text(text).data["project"]["name"] == name


@pytest.mark.parametrize("checked", ["0", "1764460800", '"1735689600"', '"0"'])
def test_a_number_is_not_a_day(cli, tmp_path: Path, checked: str) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    rule = (ROOT / "tests" / "bad_inputs" / "rules" / "bad_id.yaml").read_text()
    rule = rule.replace("id: eco-1", "id: ECO901").replace(
        "    claim: A claim", f"    checked: {checked}\n    claim: A claim"
    )
    (pack / "mine.yaml").write_text(rule)
    code, out, err = cli("rules", "check", str(pack))
    _one_line_error(code, out, err, "checked", "YYYY-MM-DD")


@pytest.mark.parametrize(("home", "why"), [("", "is empty"), ("rel/x", "not an absolute")])
def test_an_empty_or_relative_home_is_refused(run_advisor, home: str, why: str) -> None:
    env = {"HOME": home, "ADVISOR_CACHE_DIR": "", "XDG_CACHE_HOME": ""}
    proc = run_advisor("probe", "--level", "quick", env=env)
    _one_line_error(proc.returncode, proc.stdout, proc.stderr, "$HOME", why)


@pytest.mark.parametrize(
    "source",
    [
        "{{ ('%9999999d'.encode() % 1)|length }}",
        "{{ 'x'.encode().center(99999999)|length }}",
        "{{ ('x'.encode() * 250000000)|length }}",
        "{{ ('x'|safe).center(999999)|length }}",
        "{{ (('\\t' * 99999)|safe).expandtabs(999)|length }}",
    ],
)
def test_bytes_and_safe_strings_are_capped_like_text(source: str) -> None:
    from advisor.report.template_sandbox import render_in_sandbox

    with pytest.raises(InputError, match="blocked by the sandbox"):
        render_in_sandbox(source, "t.md", {}, html=False)


def test_force_over_a_link_does_not_take_its_targets_mode(cli, tmp_path: Path) -> None:
    target = tmp_path / "open.md"
    target.write_text("x")
    target.chmod(0o777)
    link = tmp_path / "link.md"
    link.symlink_to(target)
    code, _, err = cli(
        "recommend", "--example", "student-starter", "--probes", "none",
        "-o", str(link), "--force",
    )  # fmt: skip
    assert code == 0, err
    assert not link.is_symlink() and stat.S_IMODE(link.stat().st_mode) & 0o022 == 0


# --- Round 6: attacks on the round-5 fixes ------------------------------------------------

_PLANT = "import os, pathlib\npathlib.Path(os.environ['MARK']).write_text('ran')\n" + (
    "from importlib import import_module as _m\nimport sys\n"
)


def test_a_json_py_in_the_temp_folder_never_runs_when_an_interpreter_is_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inspector ran `python -c` in /tmp, where a json.py shadowed the standard one."""
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "json.py").write_text(_PLANT)
    mark = tmp_path / "ran"
    monkeypatch.setenv("TMPDIR", str(shared))
    monkeypatch.setenv("MARK", str(mark))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # TMPDIR read again
    inspect(sys.executable)
    assert not mark.exists()


def test_a_json_py_in_the_users_folder_never_runs_in_a_probe_worker(tmp_path: Path) -> None:
    """Workers ran `python -m` in the user's folder (a downloaded rule pack's, say)."""
    import subprocess

    if sys.version_info < (3, 11):
        pytest.skip("needs python -P (3.11+) to start the advisor itself safely in that folder")
    (tmp_path / "json.py").write_text(_PLANT)
    mark = tmp_path / "ran"
    env = {**os.environ, "MARK": str(mark), "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(  # -P: like the installed `advisor` script, no '' on sys.path
        [sys.executable, "-P", "-m", "advisor", "probe", "--level", "quick", "--framework", "jax"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=180, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert not mark.exists()


@pytest.mark.parametrize(
    "source",
    [
        "{{ n|striptags|tojson }}",
        "{{ {'t': n|striptags}|xmlattr }}",
        "{{ n|striptags|urlize }}",
        "{{ (n|safe).unescape()|tojson }}",
        "{{ (n|safe).striptags()|urlize }}",
    ],
)
def test_entities_decoded_by_a_filter_still_give_no_braces(source: str) -> None:
    import html

    from advisor.report.template_sandbox import render_in_sandbox

    data = {"n": "&#123;&#123;7*7&#125;&#125; &lbrace;&lbrace;8*8&rbrace;&rbrace;"}
    out = render_in_sandbox(source, "t.html", data, html=True)
    assert "{{" not in html.unescape(out)


@pytest.mark.parametrize(
    "source",
    ["{{ [1, 2]|tojson(indent=5000000) }}", "{{ '\\t'.expandtabs(tabsize=150000000) }}"],
)
def test_widths_given_by_keyword_are_capped(source: str) -> None:
    from advisor.report.template_sandbox import render_in_sandbox

    with pytest.raises(InputError, match="too large"):
        render_in_sandbox(source, "t.html", {}, html=True)


def test_an_html_template_renders_as_html_unless_told_otherwise(cli, tmp_path: Path) -> None:
    template = tmp_path / "t.html.j2"
    template.write_text("<h1>{{ profile.project.name }}</h1>\n")
    profile = tmp_path / "p.yaml"
    profile.write_text('project: {name: "<img src=x onerror=alert(1)>"}\n')
    code, out, err = cli("recommend", str(profile), "--probes", "none", "--template", str(template))
    assert code == 0, err
    assert "<img" not in out and "&lt;img" in out


@pytest.mark.parametrize(
    "text", ["1_5B", "0,000,000,000,000,000,000,000,000,000,000,000,000,000,25"]
)
def test_underscores_and_long_texts_follow_the_same_rule(text: str) -> None:
    with pytest.raises(ValueError):
        parse_count(text)


@pytest.mark.parametrize(
    ("env", "field"),
    [
        ({"HOME": "", "XDG_CACHE_HOME": "~/xc", "ADVISOR_CACHE_DIR": ""}, "$XDG_CACHE_HOME"),
        ({"HOME": "", "ADVISOR_CACHE_DIR": "~/ac"}, "$ADVISOR_CACHE_DIR"),
    ],
)
def test_a_tilde_with_an_empty_home_is_refused(run_advisor, env, field) -> None:
    proc = run_advisor("probe", "--level", "quick", env=env)
    _one_line_error(proc.returncode, proc.stdout, proc.stderr, field, "$HOME is empty")
