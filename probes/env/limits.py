"""Resource limits a child process sets on itself before it runs (a ``preexec_fn``)."""

from __future__ import annotations


def cap_file_size(limit: int) -> None:
    """Cap the size of any file the process writes at ``limit`` bytes (SIGXFSZ past it),
    never above a hard limit the user set (``ulimit -f``): raising one fails, and a failing
    ``preexec_fn`` stops the launch with a SubprocessError."""
    import resource

    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    cap = limit if hard == resource.RLIM_INFINITY else min(limit, hard)
    resource.setrlimit(resource.RLIMIT_FSIZE, (cap, cap))
