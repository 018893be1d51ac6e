"""YAML parser errors as one line each, at the line an editor shows."""

from __future__ import annotations

import yaml

from advisor.io.text_lines import LineIndex
from advisor.model.errors import InputError

MERGE_TAG = "tag:yaml.org,2002:merge"


def reader_error(exc: yaml.reader.ReaderError, name: str, text: str) -> InputError:
    """A character YAML does not allow (DEL, ESC, U+FFFE, ...), at its line, not at an
    offset in the stream."""
    char = exc.character
    if isinstance(char, int):
        char = chr(char)
    offset = text.find(char) if isinstance(char, str) and char else -1
    line = LineIndex(text).line_of_offset(offset) if offset >= 0 else None
    code = f"U+{ord(char):04X}" if isinstance(char, str) and len(char) == 1 else "?"
    return InputError(
        f"invalid YAML: control characters are not allowed in YAML text (found {code})",
        path=name,
        line=line,
    )


def yaml_error(exc: yaml.MarkedYAMLError, name: str, text: str) -> InputError:
    """One line for a parser error, with the line number and a plain reason."""
    mark = exc.problem_mark or exc.context_mark
    index = LineIndex(text)
    line = index.line_of_mark(mark)
    problem = exc.problem or "invalid YAML"
    if "could not determine a constructor" in problem:
        tag = problem.split("for the tag")[-1].strip()
        if tag.strip("'") == MERGE_TAG:  # a plain '<<' where a value belongs
            reason = "'<<' is YAML's merge key; write it in quotes to mean the text"
            return InputError(reason, path=name, line=line)
        return InputError(f"YAML tags are not allowed here: {tag}", path=name, line=line)
    if mark is not None and index.tab_before(mark):
        problem = "tab character in indentation (YAML allows spaces only)"
    elif exc.context:
        problem = f"{exc.context}: {problem}"
    hidden_break = index.hidden_break_note(mark)
    if hidden_break:
        problem = f"{problem} ({hidden_break})"
    return InputError(f"invalid YAML: {problem}", path=name, line=line)
