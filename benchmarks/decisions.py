"""Decision benchmark: does the advisor pick what real, publicly documented projects picked?

Usage: python benchmarks/decisions.py [--split dev|test|all] [--json] [--check] [--show-misses]
Each benchmarks/cases/<id>.yaml holds one project: id, name, year, source {url, title,
publisher}, chosen, acceptable (what a careful expert would also accept), description,
decisive_facts, and the profile a user would write from the description.
Split: test if int(sha256(id).hexdigest(), 16) % 3 == 0, else dev. Tune on dev only.

Per split and predictor: top-1 agreement (verdict == chosen), acceptable agreement (verdict
in acceptable), recall per framework, a confusion matrix (rows chosen, columns verdict) and,
for the advisor, calibration (per confidence level: cases, share with verdict == chosen).
Predictors: the advisor without probe measurements (through advise(), the one function that
imports advisor); always_pytorch; and rule_of_thumb, the five-line rule of issue 11:
  1. a microcontroller or browser target, or an incumbent TensorFlow team -> TensorFlow;
  2. TPU training hardware, a JAX team or a functional team -> JAX;
  3. otherwise PyTorch;
where "incumbent TensorFlow team" = team.experience.tensorflow == expert or existing_code
has tf1 or tf2_keras; "JAX team" = team.experience.jax == expert or existing_code has jax;
"functional team" = team.functional_programming is true. Baselines give no confidence, so
their calibration is n/a (null in JSON). --check compares the test split's advisor figures
with benchmarks/decision_floors.yaml and exits 1 naming each figure below its floor; bad
case or floors files exit 2, one line each.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import yaml

HERE = Path(__file__).resolve().parent
FRAMEWORKS = ("pytorch", "jax", "tensorflow")
LEVELS = ("high", "medium", "low")
SPLIT_RULE = "test if int(sha256(id).hexdigest(), 16) % 3 == 0, else dev"


class Verdict(NamedTuple):
    framework: str
    confidence: str | None
    reasons: tuple[str, ...] = ()


_RULESET: list[Any] = []


def advise(profile: dict[str, Any]) -> Verdict:
    """The advisor's verdict for a raw profile dict; the only place that imports advisor.

    Raises ValueError (pydantic's ValidationError is one) for a profile the advisor rejects.
    """
    from advisor.decide.engine import decide
    from advisor.decide.rules import load_ruleset
    from advisor.model.profile import Profile

    if not _RULESET:
        _RULESET.append(load_ruleset())
    decision = decide(Profile.model_validate(profile), None, _RULESET[0])
    rec = decision.recommendation
    top = decision.rules[:3]  # sorted by impact, largest first
    effects = [", ".join(f"{fw} {w:+.1f}" for fw, w in r.weighted.items() if w) for r in top]
    reasons = tuple(f"{r.id}({e})" for r, e in zip(top, effects, strict=True))
    return Verdict(rec.framework, rec.confidence, reasons)


def always_pytorch(profile: dict[str, Any]) -> Verdict:
    """Baseline: PyTorch, whatever the profile says."""
    return Verdict("pytorch", None)


def rule_of_thumb(profile: dict[str, Any]) -> Verdict:
    """Baseline: the five-line rule of thumb (see the module docstring)."""
    team = profile.get("team") or {}
    experience = team.get("experience") or {}
    code = set(profile.get("existing_code") or [])
    targets = set((profile.get("deployment") or {}).get("targets") or [])
    training = set((profile.get("hardware") or {}).get("training") or [])
    tf_team = experience.get("tensorflow") == "expert" or bool(code & {"tf1", "tf2_keras"})
    jax_team = experience.get("jax") == "expert" or "jax" in code
    if targets & {"microcontroller", "browser"} or tf_team:
        return Verdict("tensorflow", None)
    if "tpu" in training or jax_team or team.get("functional_programming") is True:
        return Verdict("jax", None)
    return Verdict("pytorch", None)


PREDICTORS: dict[str, Callable[[dict[str, Any]], Verdict]] = {
    "advisor": advise,
    "rule_of_thumb": rule_of_thumb,
    "always_pytorch": always_pytorch,
}


def split_of(case_id: str) -> str:
    """'test' or 'dev', fixed by a hash of the id (see SPLIT_RULE)."""
    return "test" if int(hashlib.sha256(case_id.encode()).hexdigest(), 16) % 3 == 0 else "dev"


@dataclass
class Case:
    id: str
    chosen: str
    acceptable: tuple[str, ...]
    profile: dict[str, Any]
    path: str
    lines: dict[tuple[Any, ...], int]
    split: str


class CaseError(Exception):
    """One problem with one input file, printed as a single line."""


def _key_lines(node: Any, prefix: tuple[Any, ...] = ()) -> dict[tuple[Any, ...], int]:
    """Line (1-based) of every mapping key path in a composed YAML node."""
    lines: dict[tuple[Any, ...], int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            path = (*prefix, key.value)
            lines[path] = key.start_mark.line + 1
            lines.update(_key_lines(value, path))
    return lines


def _line(lines: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int:
    return next((lines[loc[:i]] for i in range(len(loc), 0, -1) if loc[:i] in lines), 1)


_REQUIRED = {
    "id": str, "name": str, "year": int, "source": dict, "chosen": str, "acceptable": list,
    "description": str, "decisive_facts": list, "profile": dict,
}  # fmt: skip


def load_case(path: Path) -> Case:
    """Read and check one case file; raise CaseError naming file, line and field."""
    try:
        text = path.read_text(encoding="utf-8")
        data = yaml.safe_load(text)
        lines = _key_lines(yaml.compose(text))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        mark = getattr(exc, "problem_mark", None)
        where, why = (mark.line + 1, exc.problem) if mark else (1, exc)  # type: ignore[attr-defined]
        raise CaseError(f"{path}:{where}: cannot read: {' '.join(str(why).split())}") from None

    def bad(field: str, why: str) -> CaseError:
        return CaseError(f"{path}:{_line(lines, tuple(field.split('.')))}: {field}: {why}")

    if not isinstance(data, dict):
        raise CaseError(f"{path}:1: expected a mapping of case fields")
    for key in data:
        if key not in _REQUIRED:
            raise bad(str(key), f"unknown field (expected {', '.join(_REQUIRED)})")
    for key, kind in _REQUIRED.items():
        if key not in data:
            raise CaseError(f"{path}:1: {key}: missing")
        if not isinstance(data[key], kind) or (kind is str and not data[key].strip()):
            raise bad(key, f"expected a non-empty {kind.__name__}")
    if data["id"] != path.stem:
        raise bad("id", f"must equal the file name stem {path.stem!r}")
    if not 1990 <= data["year"] <= 2030:
        raise bad("year", "expected a year between 1990 and 2030")
    for key in ("url", "title", "publisher"):
        if not isinstance(data["source"].get(key), str) or not data["source"][key].strip():
            raise bad(f"source.{key}", "expected a non-empty string")
    if not data["source"]["url"].startswith(("https://", "http://")):
        raise bad("source.url", "expected an http(s) URL")
    if data["chosen"] not in FRAMEWORKS:
        raise bad("chosen", f"expected one of {', '.join(FRAMEWORKS)}")
    acceptable = data["acceptable"]
    if any(fw not in FRAMEWORKS for fw in acceptable) or data["chosen"] not in acceptable:
        raise bad("acceptable", "expected frameworks from the list, including the chosen one")
    if not data["decisive_facts"] or not all(isinstance(f, str) for f in data["decisive_facts"]):
        raise bad("decisive_facts", "expected a non-empty list of short phrases")
    fields = (data["id"], data["chosen"], tuple(acceptable), data["profile"], str(path), lines)
    return Case(*fields, split_of(data["id"]))


def load_cases(directory: Path) -> tuple[list[Case], list[str]]:
    """All cases in a directory, and one error line per bad file."""
    cases, errors = [], []
    for path in sorted(directory.glob("*.yaml")):
        try:
            cases.append(load_case(path))
        except CaseError as exc:
            errors.append(str(exc))
    if not cases and not errors:
        errors.append(f"{directory}: no *.yaml case files")
    return cases, errors


def profile_error(case: Case, exc: ValueError) -> str:
    """One line naming file, line and field for a profile the advisor rejected."""
    details = getattr(exc, "errors", None)
    if callable(details) and details():
        first = details()[0]
        loc = ("profile", *first.get("loc", ()))
        field = ".".join(str(p) for p in loc)
        return f"{case.path}:{_line(case.lines, loc)}: {field}: {first.get('msg', exc)}"
    return f"{case.path}:{_line(case.lines, ('profile',))}: profile: {' '.join(str(exc).split())}"


def _share(hits: int, n: int) -> float | None:
    return round(hits / n, 4) if n else None


def metrics(rows: list[tuple[Case, Verdict]], calibrated: bool) -> dict[str, Any]:
    """Top-1, acceptable, recall, confusion and calibration for (case, verdict) pairs."""
    n = len(rows)
    top1 = sum(v.framework == c.chosen for c, v in rows)
    ok = sum(v.framework in c.acceptable for c, v in rows)
    recall, confusion = {}, {}
    for fw in FRAMEWORKS:
        mine = [v for c, v in rows if c.chosen == fw]
        recall[fw] = _share(sum(v.framework == fw for v in mine), len(mine))
        confusion[fw] = {p: sum(v.framework == p for v in mine) for p in FRAMEWORKS}
    calibration = None
    if calibrated:
        calibration = {}
        for level in LEVELS:
            at = [(c, v) for c, v in rows if v.confidence == level]
            hits = sum(v.framework == c.chosen for c, v in at)
            calibration[level] = {"n": len(at), "correct": _share(hits, len(at))}
    return {
        "n": n,
        "top1": _share(top1, n),
        "acceptable": _share(ok, n),
        "recall": recall,
        "confusion": confusion,
        "calibration": calibration,
    }


def evaluate(cases: list[Case]) -> tuple[dict[str, dict[str, Verdict]], list[str]]:
    """Every predictor's verdict on every case, and one error line per rejected profile."""
    verdicts: dict[str, dict[str, Verdict]] = {name: {} for name in PREDICTORS}
    errors = []
    for case in cases:
        try:
            for name, predict in PREDICTORS.items():
                verdicts[name][case.id] = predict(case.profile)
        except ValueError as exc:
            errors.append(profile_error(case, exc))
    return verdicts, errors


def report(cases: list[Case], verdicts: dict[str, dict[str, Verdict]]) -> dict[str, Any]:
    """The whole result: counts, then per split and predictor the figures."""
    by_framework = {fw: sum(c.chosen == fw for c in cases) for fw in FRAMEWORKS}
    result: dict[str, Any] = {"cases": len(cases), "by_framework": by_framework}
    for split in ("dev", "test", "all"):
        chosen = [c for c in cases if split in ("all", c.split)]
        result[split] = {
            name: metrics([(c, verdicts[name][c.id]) for c in chosen], name == "advisor")
            for name in PREDICTORS
        }
    return result


def json_view(result: dict[str, Any]) -> dict[str, Any]:
    """The issue's JSON shape: cases, by_framework, dev and test (no counts or matrices)."""
    keep = ("top1", "acceptable", "recall", "calibration")
    out = {"cases": result["cases"], "by_framework": result["by_framework"]}
    for split in ("dev", "test"):
        out[split] = {
            name: {k: figures[k] for k in keep} for name, figures in result[split].items()
        }
    return out


def _pct(value: float | None) -> str:
    return "  n/a" if value is None else f"{100 * value:4.0f}%"


def render_split(split: str, figures: dict[str, dict[str, Any]], cases: list[Case]) -> str:
    """Plain-text tables for one split: summary, confusion matrices, calibration."""
    mine = [c for c in cases if split in ("all", c.split)]
    counts = ", ".join(f"{fw} {sum(c.chosen == fw for c in mine)}" for fw in FRAMEWORKS)
    head = f"{'predictor':<16}{'top-1':>14}{'acceptable':>14}" + "".join(
        f"{'recall ' + fw:>20}" for fw in FRAMEWORKS
    )
    out = [f"== {split}: {len(mine)} cases ({counts}) ==", head]
    for name, f in figures.items():
        n = f["n"]
        top1 = f"{round((f['top1'] or 0) * n)}/{n} {_pct(f['top1'])}"
        ok = f"{round((f['acceptable'] or 0) * n)}/{n} {_pct(f['acceptable'])}"
        recall = "".join(
            f"{f['confusion'][fw][fw]:>12}/{sum(f['confusion'][fw].values()):<2}"
            f"{_pct(f['recall'][fw])}"
            for fw in FRAMEWORKS
        )
        out.append(f"{name:<16}{top1:>14}{ok:>14}{recall}")
    for name, f in figures.items():
        out.append(f"confusion, {name} (rows: chosen, columns: verdict)")
        out.append(f"  {'':<12}" + "".join(f"{fw:>12}" for fw in FRAMEWORKS))
        for fw in FRAMEWORKS:
            out.append(f"  {fw:<12}" + "".join(f"{f['confusion'][fw][p]:>12}" for p in FRAMEWORKS))
    out.append("calibration (confidence: cases, share with verdict == chosen)")
    for name, f in figures.items():
        cal = f["calibration"]
        if cal is None:
            out.append(f"  {name:<16}n/a (no confidence)")
            continue
        cells = "  ".join(f"{lvl} {cal[lvl]['n']:>2} {_pct(cal[lvl]['correct'])}" for lvl in LEVELS)
        out.append(f"  {name:<16}{cells}")
    return "\n".join(out)


def render_misses(cases: list[Case], verdicts: dict[str, Verdict], split: str) -> str:
    """One line per advisor verdict that differs from the project's choice."""
    out = ["advisor misses (verdict != chosen):"]
    for case in cases:
        v = verdicts[case.id]
        if split in ("all", case.split) and v.framework != case.chosen:
            note = "acceptable" if v.framework in case.acceptable else "wrong"
            out.append(
                f"  {case.id} [{case.split}] chosen {case.chosen}, verdict {v.framework} "
                f"({v.confidence}, {note}); top rules: {', '.join(v.reasons)}"
            )
    return "\n".join(out)


FLOOR_KEYS = ("top1", "acceptable", "recall", "high_confidence_correct")


def load_floors(path: Path) -> dict[str, Any]:
    """The floors file: top1, acceptable, recall {framework: share}, high_confidence_correct."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise CaseError(f"{path}: cannot read: {' '.join(str(exc).split())}") from None
    if not isinstance(data, dict) or set(data) != set(FLOOR_KEYS):
        raise CaseError(f"{path}:1: expected exactly the keys {', '.join(FLOOR_KEYS)}")
    if not isinstance(data["recall"], dict) or set(data["recall"]) != set(FRAMEWORKS):
        raise CaseError(f"{path}: recall: expected one floor per framework")
    for key, value in [*data.items(), *((f"recall.{k}", v) for k, v in data["recall"].items())]:
        if key != "recall" and not (isinstance(value, (int, float)) and 0 <= value <= 1):
            raise CaseError(f"{path}: {key}: expected a share between 0 and 1")
    return data


def check(figures: dict[str, Any], floors: dict[str, Any]) -> list[str]:
    """Each test-split advisor figure below its floor (an undefined figure counts as 0)."""
    pairs = [(k, figures[k], floors[k]) for k in ("top1", "acceptable")]
    pairs += [(f"recall.{fw}", figures["recall"][fw], floors["recall"][fw]) for fw in FRAMEWORKS]
    high = figures["calibration"]["high"]["correct"]
    pairs.append(("high_confidence_correct", high, floors["high_confidence_correct"]))
    return [
        f"test split, advisor {key}: {value} < floor {floor}"
        for key, value, floor in pairs
        if (value or 0.0) < floor
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--json", action="store_true", help="print the figures as one object")
    parser.add_argument("--check", action="store_true", help="exit 1 below the test floors")
    parser.add_argument("--show-misses", action="store_true", help="list the advisor's misses")
    parser.add_argument("--cases", type=Path, default=HERE / "cases")
    parser.add_argument("--floors", type=Path, default=HERE / "decision_floors.yaml")
    args = parser.parse_args(argv)
    cases, errors = load_cases(args.cases)
    floors = None
    if args.check:
        try:
            floors = load_floors(args.floors)
        except CaseError as exc:
            errors.append(str(exc))
    verdicts, profile_errors = evaluate(cases) if not errors else ({}, [])
    errors += profile_errors
    if errors:
        print("\n".join(errors), file=sys.stderr)
        return 2
    result = report(cases, verdicts)
    if args.json:
        print(json.dumps(json_view(result), indent=2))
    else:
        print(f"{len(cases)} cases; split rule: {SPLIT_RULE}")
        splits = ("dev", "test", "all") if args.split == "all" else (args.split,)
        print("\n\n".join(render_split(s, result[s], cases) for s in splits))
        if args.show_misses:
            print("\n" + render_misses(cases, verdicts["advisor"], args.split))
    if floors is not None:
        failures = check(result["test"]["advisor"], floors)
        for line in failures:
            print(f"below floor: {line}", file=sys.stderr)
        return 1 if failures else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
