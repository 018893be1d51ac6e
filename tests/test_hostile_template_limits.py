"""The template process's hard limits, each on its own: CPU time, memory, wall clock, output;
and a template cannot change the advisor's state."""

from __future__ import annotations

import pytest

import advisor.report.template_jail as jail
from advisor.frameworks import DISPLAY_NAMES
from advisor.model.errors import InputError
from advisor.report.template_jail import render_isolated

LOOPS = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"


def test_cpu_limit_stops_an_endless_template() -> None:
    with pytest.raises(InputError, match="more than 1 s of CPU time"):
        render_isolated(LOOPS, "t.j2", {}, html=False)


def test_wall_clock_limit_stops_a_template_even_with_cpu_to_spare(monkeypatch) -> None:
    monkeypatch.setattr(jail, "CPU_SECONDS", 60)
    monkeypatch.setattr(jail, "WALL_SECONDS", 0.5)
    with pytest.raises(InputError, match=r"took longer than 0\.5 s"):
        render_isolated(LOOPS, "t.j2", {}, html=False)


def test_memory_limit_stops_a_template_within_the_sandbox_caps(monkeypatch) -> None:
    # the memory limit on its own: on a busy machine the 1 s CPU cap could stop the template
    # first (seen once in a fresh-clone CI run while another test run shared the 2 cores)
    monkeypatch.setattr(jail, "CPU_SECONDS", 30)
    source = "{% set big = range(100000)|map('string')|map('center', 9000)|list %}{{ big|length }}"
    with pytest.raises(InputError, match="too much memory"):
        render_isolated(source, "t.j2", {}, html=False)


def test_output_limit() -> None:
    source = "{% for i in range(100000) %}{{ 'x' * 99999 }}{% endfor %}"
    with pytest.raises(InputError, match="larger than 5000000 characters"):
        render_isolated(source, "t.j2", {}, html=False)


def test_a_template_cannot_change_the_advisors_state() -> None:
    before = dict(DISPLAY_NAMES)
    data = {"ranking": [{"framework": "pytorch"}], "recommendation": {"framework": "jax"}}
    for source in (
        "{{ DISPLAY_NAMES.update({'pytorch': 'Evil'}) }}",
        "{{ ranking.append(1) }}",
        "{{ recommendation.update({'framework': 'evil'}) }}",
        "{% set _ = ranking.pop() %}",
    ):
        with pytest.raises(InputError):
            render_isolated(source, "t.j2", data, html=False)
    assert dict(DISPLAY_NAMES) == before
    assert data == {"ranking": [{"framework": "pytorch"}], "recommendation": {"framework": "jax"}}


def test_a_good_template_still_renders() -> None:
    out = render_isolated(
        "{{ DISPLAY_NAMES['jax'] }} {{ x | md }}", "t.j2", {"x": "*a*"}, html=False
    )
    assert out == "JAX \\*a\\*"
