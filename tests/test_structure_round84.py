"""Structure (round 84): what a newcomer adding a field, a probe and a framework ran into.

- A framework id inside a dotted field path ('team.experience.pytorch') was typed in
  advisor/decide/sensitivity.py, where tests/test_architecture.py's quoted-id pattern does
  not look: a fourth framework's experience answer would silently not be varied.
- Constants were defined twice with the same value (probes/suite/common.py's dead copies of
  matmul.py's and jit.py's sizes; the default batch in three probe modules; the report's
  minus sign in two section modules): editing one copy would change nothing, or half.
- docs/architecture.md said `probes.backends` was left out of the import-cycle contract;
  pyproject's contract covers it. README called advisor/frameworks.py the registry, whose
  entries live in probes/catalog.py. docs/probes.md's table of probes is kept by hand.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

from advisor.decide.sensitivity import JUDGEMENTS
from advisor.frameworks import FRAMEWORKS
from advisor.model.paths import PROFILE_PATHS
from probes import catalog

ROOT = Path(__file__).resolve().parent.parent
# the articles' claims compare exactly JAX and PyTorch (tests/test_architecture.py)
CLAIM_MODULES = {"report/claims.py", "report/claims_base.py", "report/claims_speed.py"}


def _strings(tree: ast.AST) -> list[ast.Constant]:
    """String constants that are not docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


def test_no_framework_id_in_a_dotted_path_outside_the_registry() -> None:
    """'team.experience.jax' names a framework as surely as 'jax' does: derive it."""
    ids = "|".join(map(re.escape, FRAMEWORKS))
    dotted = re.compile(rf"\w\.({ids})\b|\b({ids})\.\w")
    offenders = []
    for path in sorted((ROOT / "advisor").rglob("*.py")):
        name = str(path.relative_to(ROOT / "advisor"))
        if name == "frameworks.py" or name in CLAIM_MODULES:
            continue
        for node in _strings(ast.parse(path.read_text(encoding="utf-8"))):
            if " " not in node.value and dotted.search(node.value):
                offenders.append(f"advisor/{name}:{node.lineno}: {node.value!r}")
    assert not offenders, "\n".join(offenders)


def test_judgement_answers_are_real_fields_and_cover_every_framework() -> None:
    assert set(JUDGEMENTS) <= set(PROFILE_PATHS), set(JUDGEMENTS) - set(PROFILE_PATHS)
    assert {f"team.experience.{fw}" for fw in FRAMEWORKS} <= set(JUDGEMENTS)


def test_no_constant_is_defined_twice_with_the_same_value() -> None:
    """A module-level constant lives in one module; the others import it. (Same name with
    another value, such as each backend's DTYPES, is each module's own.)"""
    for package in ("advisor", "probes"):
        where: dict[tuple[str, str], list[str]] = defaultdict(list)
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Assign):
                    names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    names = [node.target.id] if node.value is not None else []
                else:
                    continue
                for name in names:
                    if name.isupper() and node.value is not None:
                        key = (name, ast.unparse(node.value))
                        where[key].append(str(path.relative_to(ROOT)))
        twice = {f"{n} = {v}": files for (n, v), files in where.items() if len(files) > 1}
        assert not twice, twice


def test_workload_probes_share_one_default_batch() -> None:
    """The default batch is probes.suite.common.DEFAULT_BATCH, not a literal 64 again."""
    for rel in ("suite/workload.py", "backends/scale_torch.py", "backends/scale_jax.py"):
        text = (ROOT / "probes" / rel).read_text(encoding="utf-8")
        assert 'get("batch_size") or 64' not in text, rel
        assert "min(batch, 512)" not in text, rel


def test_architecture_doc_leaves_out_no_package_the_contract_covers() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = pyproject["tool"]["importlinter"]["contracts"]
    (acyclic,) = [c for c in contracts if c["type"] == "acyclic_siblings"]
    covered = [
        ".".join(p.relative_to(ROOT).parts)
        for top in ("advisor", "probes")
        for p in [ROOT / top, *(d for d in (ROOT / top).rglob("*") if d.is_dir())]
        if (p / "__init__.py").is_file()
    ]
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for package in covered:
        parent = package.rsplit(".", 1)[0]
        if package in acyclic["ancestors"] or f"{parent}.*" in acyclic["ancestors"]:
            assert f"`{package}` is left out" not in doc, package


def test_readme_says_where_the_registry_entries_live() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("Layout (details and change recipes") :]
    assert "`probes/catalog.py`" in layout.split("`rules/`", 1)[0]


def test_probes_doc_table_lists_every_probe_at_its_level() -> None:
    """docs/probes.md's "What is measured" table is written by hand: keep it to the catalog."""
    doc = (ROOT / "docs" / "probes.md").read_text(encoding="utf-8")
    table = doc[doc.index("## What is measured") : doc.index("## Method")]
    rows = dict(re.findall(r"^\| `(\w+)` \| (\w+) \|", table, flags=re.M))
    assert rows == {p.id: p.level for p in catalog.PROBES}
