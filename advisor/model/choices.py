"""The vocabulary of the profile: the enums its answers choose from, and the parsers
for counts (7B, 350M) and sizes (256KB, 4GB). :mod:`advisor.model.profile` builds the
profile's sections from them and re-exports them.
"""

from __future__ import annotations

import re
from enum import Enum
from typing import Any

from advisor.frameworks import CODE_FRAMEWORK
from advisor.model.field_guards import SPACES, check_separators, underflows


class Choice(str, Enum):
    """A string enum whose members print as their value."""

    def __str__(self) -> str:
        return self.value


class Purpose(Choice):
    research = "research"
    production = "production"
    both = "both"


class Domain(Choice):
    vision = "vision"
    nlp = "nlp"
    speech = "speech"
    rl = "rl"
    scientific = "scientific"
    generative = "generative"
    tabular = "tabular"
    recommender = "recommender"
    time_series = "time_series"


class Hardware(Choice):
    cpu = "cpu"
    nvidia_gpu = "nvidia_gpu"
    amd_gpu = "amd_gpu"
    tpu = "tpu"
    apple_silicon = "apple_silicon"
    aws_trainium = "aws_trainium"
    aws_inferentia = "aws_inferentia"
    intel_gaudi = "intel_gaudi"


class Target(Choice):
    server = "server"
    mobile = "mobile"
    browser = "browser"
    microcontroller = "microcontroller"
    edge = "edge"
    batch = "batch"
    earth_engine = "earth_engine"


class EdgeHardware(Choice):
    edge_tpu = "edge_tpu"
    mobile_npu = "mobile_npu"
    apple_neural_engine = "apple_neural_engine"
    nvidia_jetson = "nvidia_jetson"
    intel_npu = "intel_npu"
    arm_ethos = "arm_ethos"
    fpga_logic = "fpga_logic"
    fpga_dpu = "fpga_dpu"


class ServingStack(Choice):
    none = "none"
    tf_serving = "tf_serving"
    triton = "triton"
    vllm = "vllm"
    other = "other"


class Language(Choice):
    javascript = "javascript"
    cpp = "cpp"
    swift_kotlin = "swift_kotlin"
    java = "java"
    rust = "rust"


class Simulator(Choice):
    none = "none"
    cpu = "cpu"
    accelerator = "accelerator"
    accelerator_jax = "accelerator_jax"
    accelerator_pytorch = "accelerator_pytorch"
    accelerator_tensorflow = "accelerator_tensorflow"


class CodeSize(Choice):
    small = "small"
    large = "large"


class Serving(Choice):
    online_api = "online_api"
    llm_serving = "llm_serving"
    none = "none"


class Experience(Choice):
    none = "none"
    some = "some"
    expert = "expert"


class LibraryFamily(Choice):
    vision = "vision"
    nlp = "nlp"
    rl = "rl"
    probabilistic = "probabilistic"
    graph = "graph"  # graph neural networks and machine-learned interatomic potentials


class ExistingCode(Choice):
    pytorch = "pytorch"
    tf1 = "tf1"
    tf2_keras = "tf2_keras"
    jax = "jax"
    numpy = "numpy"
    other = "other"  # another deep-learning framework (MXNet, Caffe, Theano, Chainer, ...)

    @property
    def framework(self) -> str | None:
        """The candidate framework this code is written in (a registry id), or None for
        NumPy and other frameworks' code (advisor/frameworks.py: CODE_FRAMEWORK)."""
        return CODE_FRAMEWORK.get(self.value)


class Determinism(Choice):
    none = "none"
    preferred = "preferred"
    required = "required"


class ModelFamily(Choice):
    mlp = "mlp"
    cnn = "cnn"
    transformer = "transformer"
    rnn = "rnn"
    other = "other"


class DType(Choice):
    float32 = "float32"
    bfloat16 = "bfloat16"
    float16 = "float16"


_SUFFIX = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}
# Linear: no two quantifiers can match the same digits (no catastrophic backtracking).
_COUNT = re.compile(
    rf"{SPACES}([0-9]+(?:\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?{SPACES}(?:([kKmMbBgGtT]){SPACES})?"
)  # ASCII letters only, as the schema's pattern: IGNORECASE would take the Kelvin sign
MAX_COUNT_CHARS = 64


def _without_separators(value: str) -> str:
    """The text without thousands separators (field_guards.check_separators refuses a
    comma or underscore anywhere else: '1,5B' is an error, never a silent 15 billion)."""
    if len(value) > MAX_COUNT_CHARS:
        return value  # too long as written: the caller refuses it with its own message
    check_separators(value)
    return value.replace("_", "").replace(",", "")


def parse_count(value: Any) -> Any:
    """Accept 7e9, '7e9', '7B', '350M', '1.5k' as parameter counts."""
    if isinstance(value, str):
        text = _without_separators(value)
        match = _COUNT.fullmatch(text) if len(text) <= MAX_COUNT_CHARS else None
        if not match:
            raise ValueError("expected a number such as 125000000, 350M, 7B or 1.5e11")
        number, exponent, suffix = match.groups()
        count = float(number + (exponent or "")) * _SUFFIX.get((suffix or "").lower(), 1.0)
        if underflows(number + (exponent or ""), _SUFFIX.get((suffix or "").lower(), 1.0)):
            raise ValueError(f"{value.strip()} is too small to hold (it would read as 0)")
        return count
    return value


# Linear like _COUNT: a number, an optional exponent, an optional unit.
_SIZE = re.compile(
    rf"{SPACES}([0-9]+(?:\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?{SPACES}([kKmMgGtT]?[iI]?[bB]?){SPACES}"
)
_SIZE_MB = {
    "": 1.0,
    "b": 1e-6,
    "kb": 1e-3,
    "kib": 1.024e-3,
    "mb": 1.0,
    "mib": 1.048576,
    "gb": 1e3,
    "gib": 1073.741824,
    "tb": 1e6,
    "tib": 1.099511627776e6,
    "k": 1e-3,
    "m": 1.0,
    "g": 1e3,
    "t": 1e6,
}


def parse_megabytes(value: Any) -> Any:
    """Accept 0.25, '256KB', '4 GB', '512MiB' as a size in MB."""
    if isinstance(value, str):
        text = _without_separators(value)
        match = _SIZE.fullmatch(text) if len(text) <= MAX_COUNT_CHARS else None
        unit = match.group(3).lower() if match else None
        if not match or unit not in _SIZE_MB:
            raise ValueError("expected a size in MB such as 0.25, 256KB, 512MB or 4GB")
        number = match.group(1) + (match.group(2) or "")
        size = float(number) * _SIZE_MB[unit]
        if underflows(number, _SIZE_MB[unit]):  # 1e-400, or 1e-320 B, is not 'no limit'
            raise ValueError(f"{value.strip()} is too small to hold; write 0 for no limit")
        return size
    return value
