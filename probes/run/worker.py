"""Child process: import one framework's backend, run the requested probes, stream each result.

Run by the parent as ``python -m probes.run.worker --framework jax --probes matmul,autodiff
--level quick --out EVENTS``. Every event is one JSON line appended to EVENTS. With
``--serve`` the worker stays alive after its probes and answers comparison rounds read
from stdin (one JSON command a line) until it reads ``exit`` or end of file.

Needs only the standard library, NumPy and the framework, so it can run in another
interpreter (the user's project environment) with just this package on PYTHONPATH.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import importlib
import json
import os
import platform
import sys
import time
import traceback
from typing import Any

from probes import catalog
from probes.run import faults
from probes.run.protocol import EventWriter


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m probes.run.worker")
    parser.add_argument("--framework", required=True, choices=catalog.FRAMEWORKS)
    parser.add_argument("--probes", required=True, help="comma-separated probe ids")
    parser.add_argument("--level", required=True, choices=catalog.LEVELS)
    parser.add_argument("--out", required=True, help="file the JSON-lines events go to")
    parser.add_argument("--workload", default="{}", help="workload hints as JSON")
    parser.add_argument("--options", default="{}", help="probe options as JSON")
    parser.add_argument("--threads", type=int, default=0, help="intra-op threads (0: default)")
    parser.add_argument("--cpus", default="", help="comma-separated CPUs to run on")
    parser.add_argument("--serve", action="store_true", help="answer comparison rounds after")
    return parser.parse_args(argv)


def describe(exc: BaseException) -> str:
    """'Type: message (file:line)' of the innermost frame."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" ({frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno})" if frames else ""
    message = str(exc).strip().splitlines()[0][:300] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {message}{where}" if message else f"{type(exc).__name__}{where}"


def _pin(cpus: str) -> None:
    wanted = {int(c) for c in cpus.split(",") if c.strip().isdigit()}
    if wanted and hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, wanted)


def main(argv: list[str] | None = None) -> int:
    faulthandler.enable()  # a crash leaves a Python traceback on stderr for the parent
    args = _parse(argv)
    _pin(args.cpus)  # before the framework starts its thread pools
    writer = EventWriter(args.out)
    injected = faults.from_env()
    start = time.perf_counter()
    framework = catalog.FRAMEWORK_SPECS[catalog.FRAMEWORKS.index(args.framework)]
    try:
        if faults.import_fails(injected, args.framework):
            raise ImportError(f"import of {args.framework} failed (fault injected)")
        backend = importlib.import_module(framework.backend).load(args.threads or None)
    except ImportError as exc:
        absent = exc.name if isinstance(exc, ModuleNotFoundError) else None
        event = {"event": "import_error", "missing": True, "reason": describe(exc)}
        writer.emit({**event, "module": absent} if absent else event)
        return 0
    except Exception as exc:
        writer.emit({"event": "import_error", "missing": False, "reason": describe(exc)})
        return 0
    from probes.suite.common import Context

    env: dict[str, Any]
    try:
        env = backend.environment()
    except Exception as exc:
        env = {"error": describe(exc)}
    env["import_s"] = time.perf_counter() - start
    env["worker_python"] = {
        "executable": sys.executable,
        "version": platform.python_version(),
        "probes_from": os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    }
    writer.emit({"event": "env", **env})
    ctx = Context(
        level=args.level,
        budget=catalog.budget(args.level),
        workload=json.loads(args.workload),
        options=json.loads(args.options),
    )
    for probe in [p for p in args.probes.split(",") if p]:
        writer.emit({"event": "start", "probe": probe})
        t0 = time.perf_counter()
        try:
            faults.inject(injected, args.framework, probe)
            module = importlib.import_module(catalog.spec(probe).module)
            result = module.run(backend, ctx)
        except MemoryError as exc:
            result = _failed(f"out of memory ({describe(exc)})")
        except Exception as exc:
            result = _failed(describe(exc))
        result["seconds"] = time.perf_counter() - t0
        writer.emit({"event": "result", "probe": probe, **result})
    writer.emit({"event": "done", "kernels": sorted(ctx.kernels)})
    if args.serve:
        serve(ctx, writer)
    return 0


def serve(ctx: Any, writer: EventWriter) -> None:
    """Answer ``{"cmd": "round", "kernel": K, "seconds": S}`` lines until ``exit`` or EOF."""
    from probes.measure.timing import window

    for line in sys.stdin:
        try:
            command = json.loads(line)
        except ValueError:
            continue
        if not isinstance(command, dict) or command.get("cmd") != "round":
            break
        name = str(command.get("kernel"))
        kernel = ctx.kernels.get(name)
        if kernel is None:
            writer.emit({"event": "round", "kernel": name, "error": "no such kernel"})
            continue
        try:
            samples = window(
                kernel.call, kernel.sync, float(command.get("seconds", 0.1)), kernel.block
            )
            writer.emit({"event": "round", "kernel": name, "per_call": samples})
        except Exception as exc:
            writer.emit({"event": "round", "kernel": name, "error": describe(exc)})


def _failed(reason: str) -> dict[str, Any]:
    return {"status": "failed", "reason": reason, "metrics": {}, "params": {}, "noisy": False}


if __name__ == "__main__":
    sys.exit(main())
