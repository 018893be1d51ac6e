"""Child process: import one framework, run the requested probes, stream each result.

Run by the parent as ``python -m probes.worker --framework jax --probes matmul,autodiff
--level quick --out EVENTS``. Every event is one JSON line appended to EVENTS.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import sys
import time
import traceback
from typing import Any

from probes import faults
from probes.common import Context, failed
from probes.plan import FRAMEWORKS, LEVELS, budget
from probes.protocol import EventWriter

MODULES = {"pytorch": "probes.fw_torch", "jax": "probes.fw_jax", "tensorflow": "probes.fw_tf"}


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m probes.worker")
    parser.add_argument("--framework", required=True, choices=FRAMEWORKS)
    parser.add_argument("--probes", required=True, help="comma-separated probe ids")
    parser.add_argument("--level", required=True, choices=LEVELS)
    parser.add_argument("--out", required=True, help="file the JSON-lines events go to")
    parser.add_argument("--workload", default="{}", help="workload hints as JSON")
    parser.add_argument("--options", default="{}", help="probe options as JSON")
    return parser.parse_args(argv)


def _describe(exc: BaseException) -> str:
    """'Type: message (file:line)' of the innermost frame."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    message = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {message}{where}" if message else f"{type(exc).__name__}{where}"


def main(argv: list[str] | None = None) -> int:
    faulthandler.enable()  # a crash leaves a Python traceback on stderr for the parent
    args = _parse(argv)
    writer = EventWriter(args.out)
    injected = faults.from_env()
    start = time.perf_counter()
    try:
        if faults.import_fails(injected, args.framework):
            raise ImportError(f"import of {args.framework} failed (fault injected)")
        module = importlib.import_module(MODULES[args.framework])
    except ImportError as exc:
        writer.emit({"event": "import_error", "missing": True, "reason": _describe(exc)})
        return 0
    except Exception as exc:
        writer.emit({"event": "import_error", "missing": False, "reason": _describe(exc)})
        return 0
    env: dict[str, Any]
    try:
        env = module.environment()
    except Exception as exc:
        env = {"error": _describe(exc)}
    env["import_s"] = time.perf_counter() - start
    writer.emit({"event": "env", **env})
    ctx = Context(level=args.level, budget=budget(args.level),
                  workload=json.loads(args.workload), options=json.loads(args.options))
    for probe in [p for p in args.probes.split(",") if p]:
        writer.emit({"event": "start", "probe": probe})
        t0 = time.perf_counter()
        try:
            faults.inject(injected, args.framework, probe)
            result = module.PROBES[probe](ctx)
        except MemoryError as exc:
            result = failed(f"out of memory ({_describe(exc)})")
        except Exception as exc:
            result = failed(_describe(exc))
        result["seconds"] = time.perf_counter() - t0
        writer.emit({"event": "result", "probe": probe, **result})
    writer.emit({"event": "done"})
    return 0


if __name__ == "__main__":
    sys.exit(main())
