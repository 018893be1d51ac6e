"""The report's appendix profile (profile_yaml, annotated style) reads back as the same answers."""

from __future__ import annotations

import pytest
import yaml

from advisor.io.profile_writer import profile_yaml
from advisor.io.profiles import list_examples, load_profile
from advisor.model.profile import Profile
from advisor.model.said import said_paths


@pytest.mark.parametrize("example", list_examples(), ids=lambda e: e.name)
def test_the_appendix_reruns_with_the_same_answers(example: object) -> None:
    profile = load_profile(str(example.path))  # type: ignore[attr-defined]
    text = profile_yaml(profile, style="annotated")
    back = Profile.model_validate(yaml.safe_load(text) or {})
    assert back == profile
    assert said_paths(back) == said_paths(profile)  # a value not given stays not given


def test_a_value_not_given_is_shown_commented_out() -> None:
    text = profile_yaml(Profile.model_validate({"team": {"size": 4}}), style="annotated")
    assert "  size: 4\n" in text
    assert "  # functional_programming: false  # not said" in text
    assert "# ecosystem:" in text  # a section with no answer is commented out whole
    assert said_paths(Profile.model_validate(yaml.safe_load(text))) == {"team.size"}
