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
imports advisor), answering for today as a user gets it; advisor_as_of, the same advisor
with only the knowledge that held in January of the case's year (rules, routes, prior and
framework releases carry their dates: RuleSet.at in advisor/decide/rules.py), a backtest without
look-ahead that judges a past choice against what was known when it was made (a choice
made in a framework's first-release year but before its release month would be a sure
miss; no case is one);
always_pytorch; and rule_of_thumb, the five-line rule of issue 11:
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
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # decision_cases.py, also when this file is loaded by path
from decision_cases import (  # noqa: E402
    FRAMEWORKS,
    SPLIT_RULE,
    Case,
    CaseError,
    load_cases,
    profile_error,
    split_of,  # noqa: F401  (re-exported: tests and users call decisions.split_of)
)

LEVELS = ("high", "medium", "low")


class Verdict(NamedTuple):
    framework: str
    confidence: str | None
    reasons: tuple[str, ...] = ()


_RULESET: list[Any] = []


def advise(profile: dict[str, Any], as_of: str | None = None) -> Verdict:
    """The advisor's verdict for a raw profile dict; the only place that imports advisor.

    ``as_of`` (YYYY-MM): judge with the knowledge that held then (RuleSet.at)
    instead of the pack's today. Raises ValueError (pydantic's ValidationError is one) for
    a profile the advisor rejects.
    """
    from advisor.decide.engine import decide
    from advisor.decide.rules import load_ruleset
    from advisor.model.profile import Profile
    from advisor.pipeline import unasked_fields

    if not _RULESET:
        _RULESET.append(load_ruleset())
    ruleset = _RULESET[0].at(as_of) if as_of else _RULESET[0]
    # the verdict and confidence a user gets; the search for what would change it is skipped
    model = Profile.model_validate(profile)
    decision = decide(model, None, ruleset, verdict_only=True, unasked=unasked_fields(model))
    rec = decision.recommendation
    top = decision.rules[:3]  # sorted by impact, largest first
    effects = [", ".join(f"{fw} {w:+.1f}" for fw, w in r.weighted.items() if w) for r in top]
    reasons = tuple(f"{r.id}({e})" for r, e in zip(top, effects, strict=True))
    return Verdict(rec.framework or "none", rec.confidence, reasons)  # none: all vetoed


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


def as_of_choice(case: Case) -> str:
    """The month a past choice is judged at: January of its year (the choice came before
    the source that reports it)."""
    return f"{case.year}-01"


# Each predictor sees a case's profile; only the point-in-time advisor also sees its year.
PREDICTORS: dict[str, Callable[[Case], Verdict]] = {
    "advisor": lambda case: advise(case.profile),
    "advisor_as_of": lambda case: advise(case.profile, as_of_choice(case)),
    "rule_of_thumb": lambda case: rule_of_thumb(case.profile),
    "always_pytorch": lambda case: always_pytorch(case.profile),
}
CALIBRATED = ("advisor", "advisor_as_of")


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
                verdicts[name][case.id] = predict(case)
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
            name: metrics([(c, verdicts[name][c.id]) for c in chosen], name in CALIBRATED)
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


def render_split(
    split: str,
    figures: dict[str, dict[str, Any]],
    cases: list[Case],
    verdicts: dict[str, dict[str, Verdict]],
) -> str:
    """Plain-text tables for one split: summary, confusion matrices, calibration."""
    mine = [c for c in cases if split in ("all", c.split)]
    counts = ", ".join(f"{fw} {sum(c.chosen == fw for c in mine)}" for fw in FRAMEWORKS)
    head = f"{'predictor':<16}{'top-1':>16}{'acceptable':>16}" + "".join(
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
        out.append(f"{name:<16}{top1:>16}{ok:>16}{recall}")
    for name, f in figures.items():
        out.append(f"confusion, {name} (rows: chosen, columns: verdict)")
        out.append(f"  {'':<12}" + "".join(f"{fw:>12}" for fw in FRAMEWORKS))
        for fw in FRAMEWORKS:
            out.append(f"  {fw:<12}" + "".join(f"{f['confusion'][fw][p]:>12}" for p in FRAMEWORKS))
    for name in CALIBRATED:
        out.append(
            f"{name} top-1 by the year of the choice (before {ERA}, from {ERA} on): "
            + era(mine, verdicts[name])
        )
    out.append("calibration (confidence: cases, share with verdict == chosen)")
    for name, f in figures.items():
        cal = f["calibration"]
        if cal is None:
            out.append(f"  {name:<16}n/a (no confidence)")
            continue
        cells = "  ".join(f"{lvl} {cal[lvl]['n']:>2} {_pct(cal[lvl]['correct'])}" for lvl in LEVELS)
        out.append(f"  {name:<16}{cells}")
    return "\n".join(out)


ERA = 2022  # ExecuTorch, LiteRT's PyTorch converter, TorchServe's decline: after 2021


def era(cases: list[Case], advisor: dict[str, Verdict]) -> str:
    """One advisor's top-1 on choices made before ERA and from ERA on: per framework, then
    all (with acceptable agreement)."""
    cells = []
    for fw in FRAMEWORKS:
        for label, mine in (
            ("<", [c for c in cases if c.chosen == fw and c.year < ERA]),
            (">=", [c for c in cases if c.chosen == fw and c.year >= ERA]),
        ):
            hits = sum(advisor[c.id].framework == fw for c in mine)
            cells.append(f"{fw} {label}{ERA} {hits}/{len(mine)}")
    for label, mine in (
        ("<", [c for c in cases if c.year < ERA]),
        (">=", [c for c in cases if c.year >= ERA]),
    ):
        top1 = sum(advisor[c.id].framework == c.chosen for c in mine)
        ok = sum(advisor[c.id].framework in c.acceptable for c in mine)
        cells.append(f"all {label}{ERA} top-1 {top1}/{len(mine)}, acceptable {ok}/{len(mine)}")
    return "; ".join(cells)


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
        print("\n\n".join(render_split(s, result[s], cases, verdicts) for s in splits))
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
