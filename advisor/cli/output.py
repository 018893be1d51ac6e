"""Send a rendered document to stdout or, atomically, to a file."""

from __future__ import annotations

import mimetypes
import os
from collections.abc import Sequence
from typing import NamedTuple

import click

from advisor.cli.std_streams import check_stdout, write_stdout
from advisor.io.safe_write import check_output, write_atomic
from advisor.model.errors import InputError
from advisor.model.terminal_text import inert


class Destination(NamedTuple):
    """Where a command's output goes (``-o``; None or ``-`` is stdout), with what it must
    never replace; ``emit`` checks it again just before writing."""

    path: str | None
    force: bool = False
    inputs: Sequence[str | None] = ()
    packs: Sequence[str] = ()


def check_destination(
    path: str | None,
    *,
    force: bool = False,
    inputs: Sequence[str | None] = (),
    packs: Sequence[str] = (),
) -> Destination:
    """Refuse a bad ``-o`` (or a closed stdout) before any work is done. The output may
    never replace a file the command reads, with or without ``--force``: one of its
    ``inputs``, a file a rule pack in ``packs`` would read (a YAML file at its top level,
    anything in its data/), or anything in the advisor's own data (bundled rules,
    templates, examples, questions, docs/sources.md)."""
    destination = Destination(path, force, tuple(inputs), tuple(packs))
    if path is None or path == "-":
        check_stdout()
        return destination
    check_output(path, force=force)
    for source in [*inputs, *_own_data()]:
        if source and same_file(path, source):
            raise InputError(
                f"is also an input ({inert(source)}): the output would replace it; "
                "choose another -o path",
                path=path,
            )
        if source and _inside(path, source):
            raise InputError(
                f"is inside a folder the advisor reads ({inert(source)}): the output would "
                "replace or add to its input; choose another -o path",
                path=path,
            )
    for pack in packs:
        data = os.path.join(pack, "data")
        top = _inside(path, pack, top_only=True)
        # read as Windows opens the name too ('new.yaml.', 'new.yaml::$DATA' are new.yaml)
        yaml_here = top and any(r[-1:] in (["yaml"], ["yml"]) for r in _readings(path))
        windows_data = top and _windows_base(path) == "data"
        named_data = windows_data or _resolved(path) == _resolved(data)  # breaks the pack
        if yaml_here or named_data or _inside(path, data):
            raise InputError(
                f"would become part of the rule pack {inert(pack)} (a YAML file at its top "
                "level, or anything in its data/); choose another -o path",
                path=path,
            )
    return destination


def interpreter_paths(python: Sequence[str]) -> tuple[str, ...]:
    """The files ``--python`` names, found as the probes find them (a bare name on PATH),
    so ``-o`` can never replace an interpreter it runs."""
    from probes.env.interpreter import locate

    return tuple(locate(p) or p for p in python)


def _own_data() -> list[str]:
    """The advisor's bundled data, which every command reads, and its own code (the advisor
    and the probes, which are copied into the interpreters they measure)."""
    import advisor
    import probes
    from advisor.resources import data_dir

    folders = [os.path.dirname(os.path.abspath(m.__file__ or "")) for m in (advisor, probes)]
    for name in ("rules", "templates", "examples"):
        try:
            folders.append(str(data_dir(name)))
        except FileNotFoundError:
            continue
    from advisor.questionnaire.spec import QUESTIONS_FILE

    try:
        sources = [str(data_dir("docs") / "sources.md")]  # the claim ids evidence cites
    except FileNotFoundError:
        sources = []
    return [*folders, str(QUESTIONS_FILE), *sources]


def own_folder_holding(folder: str) -> str | None:
    """The advisor's own data or code folder that ``folder`` is, or lies in (created or
    not yet), else None: nothing the advisor writes, its probe cache included, goes there."""
    probe = os.path.join(folder, "x")
    return next((own for own in _own_data() if _inside(probe, own)), None)


def _inside(path: str, folder: str, *, top_only: bool = False) -> bool:
    """True if ``path`` would be written inside the directory ``folder`` (``top_only``:
    directly in it, not in a subfolder). The folder it lands in is resolved as the kernel
    does (``link/..`` is the parent of the link's target, not the folder holding the
    link), and compared by identity, so case or a second name for the folder cannot hide
    it."""
    try:
        if not os.path.isdir(folder):
            return False
        root = os.stat(folder)
        here = _resolved(os.path.dirname(path) or ".")
    except (OSError, ValueError):
        return False
    while True:
        if _same_dir(here, root):
            return True
        if top_only:
            return False
        parent = os.path.dirname(here)
        if parent == here:
            return False
        here = parent


def _same_dir(path: str, root: os.stat_result) -> bool:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return False
    return (info.st_dev, info.st_ino) == (root.st_dev, root.st_ino)


def _resolved(path: str) -> str:
    """``path`` with every link resolved in order (``realpath`` on the path as given: an
    ``abspath`` first would drop ``link/..`` as text before the link is followed)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return path


def same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # either does not exist (yet): not the same file
        return False


def emit(text: str, destination: Destination) -> None:
    """Print ``text`` or write it atomically to the destination's path (kept unless
    ``force``), after checking the destination again: a folder swapped for a link while
    the probes ran cannot carry the output into an input or the advisor's data.

    A file name that is not valid UTF-8 reaches the text as lone surrogates (Python's
    surrogateescape); they are written as visible escapes (``\\udcff``), never as bytes
    that would make the output invalid UTF-8 or fail to encode (write_stdout does so for
    standard output)."""
    path, force = destination.path, destination.force
    if path is None or path == "-":
        write_stdout(text if text.endswith("\n") else text + "\n")
        return
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    check_destination(path, force=force, inputs=destination.inputs, packs=destination.packs)
    write_atomic(path, text, force=force)
    click.echo(f"advisor: wrote {inert(path)}", err=True)


# Suffixes a browser renders as a document with markup and scripts: HTML and XHTML,
# server-side includes (.shtml, .ehtml), web archives (.mht, .mhtml), SVG and XML (with
# the XML kinds browsers render: XSL, XBL, MathML, RDF), and Windows' HTML applications
# and components (.hta runs in mshta with the user's rights; .htc), and server pages a web
# server runs before it sends them (PHP with Debian's .phar, JSP, ASP and ASP.NET with IIS's
# old .asa and .cer mappings and .stm includes, Razor, ColdFusion): a '<?php' in a project
# name written there unescaped would run on the server.
# Beyond this list, any suffix the machine's MIME table (Python's mimetypes, which reads
# /etc/mime.types) gives an HTML or XML type counts: a browser or web server that consults
# the same table renders it as markup (Debian's table gives .xhtm XHTML, .rss and .kml XML).
_HTML_SUFFIXES = {
    *("html", "htm", "xhtml", "xhtm", "xht", "shtml", "shtm", "ehtml", "mht", "mhtml"),
    *("svg", "svgz", "xml", "xsl", "xslt", "xbl", "mml", "rdf", "hta", "htc", "xul"),
    *("php", "php2", "php3", "php4", "php5", "php6", "php7", "php8"),
    *("phtml", "phtm", "pht", "phar"),
    *("jsp", "jspx", "jspf", "asp", "aspx", "ascx", "ashx", "asmx", "cshtml", "vbhtml"),
    *("asa", "cer", "stm", "cfm", "cfml", "cfc"),
}
_MARKUP_TYPES = ("text/html", "text/xml", "application/xml", "image/svg+xml")


def named_html(name: str) -> bool:
    """Whether any suffix of the file's name says HTML (report.html, t.html.j2, t.xhtml.tmpl,
    t.html.j2.txt): such a template is almost surely HTML, and its data must be escaped so.
    Suffixes are compared as Windows opens them: trailing dots and spaces stripped, and an
    NTFS stream name cut off ('r.html::$DATA' is r.html), and as POSIX reads them, where a
    colon is part of the name ('r.md:x.html' is an .html file): either reading counts."""
    return any(_html_suffixes(suffixes) for suffixes in _readings(name))


def html_page(name: str) -> bool:
    """Whether a browser opens the file as an HTML page, the only kind of document a
    ``<meta>`` content policy reaches: its last suffix is .html or .htm, in every reading
    of its name. An .xhtml, .svg or .xml file is parsed as XML (the policy is then an
    element of no namespace, which no browser reads), an .hta runs in mshta with the
    user's rights, .mht is a MIME archive, and a server page runs on its server."""
    return all(suffixes[-1:] in (["html"], ["htm"]) for suffixes in _readings(name))


def _html_suffixes(suffixes: list[str]) -> bool:
    if _HTML_SUFFIXES & set(suffixes):
        return True
    # the MIME table decides only for the suffix a server or browser reads: the last one,
    # or the one before a template's own suffix ('t.rss.j2'); an 'its' or 'rs' inside a
    # name ('team.its.yaml', 'acme.rs.md') is part of the name
    read = suffixes[-2:] if suffixes[-1:] and suffixes[-1] in _TEMPLATE_SUFFIXES else suffixes[-1:]
    return any(_mime_markup(suffix) for suffix in read)


_TEMPLATE_SUFFIXES = {"j2", "jinja", "jinja2", "tmpl", "tpl", "template"}


def _mime_markup(suffix: str) -> bool:
    """Whether the MIME table maps the suffix to an HTML or XML type."""
    kind = mimetypes.guess_type(f"x.{suffix}", strict=False)[0] or ""
    return kind in _MARKUP_TYPES or kind.endswith("+xml")


def named_json(name: str) -> bool:
    """Whether the file's last suffix, read as Windows or as POSIX opens it (see
    named_html), is .json or one the MIME table gives a JSON type ('r.geojson',
    'r.jsonld', 'r.webmanifest'): 'r.json', 'r.JSON', 'r.json.', 'r.json ', 'r.json::$DATA'
    and 'r.md:x.json' all are."""
    return any(
        suffixes[-1:] == ["json"] or (bool(suffixes) and _mime_json(suffixes[-1]))
        for suffixes in _readings(name)
    )


def _mime_json(suffix: str) -> bool:
    kind = mimetypes.guess_type(f"x.{suffix}", strict=False)[0] or ""
    return kind == "application/json" or kind.endswith("+json")


def _windows_base(name: str) -> str:
    """The file's name as Windows opens it: an NTFS stream name cut off at the first colon,
    trailing dots and spaces stripped, case folded ('Data.', 'data::$DATA' are data)."""
    return _as_windows(os.path.basename(name).lower())


def _as_windows(base: str) -> str:
    """A lower-case base name with what Windows drops: the stream name, trailing dots and spaces."""
    return base.split(":")[0].rstrip(" .")


def _readings(name: str) -> list[list[str]]:
    """The name's suffixes, lower case, with trailing dots and spaces stripped: as Windows
    reads the name (an NTFS stream name cut off at the first colon) and as POSIX does (a
    colon is part of the name)."""
    base = os.path.basename(name).lower()
    out = []
    for stripped in (_as_windows(base), base.rstrip(" .")):
        out.append([part.rstrip(" .") for part in stripped.split(".")[1:]])
    return out


def refuse_text_named_json(fmt: str, output: str | None, rename: str) -> None:
    """An explicit Markdown or HTML format is never written to a file named as JSON: a
    JSON reader (a script, a pipeline) would fail on it. ``rename`` is the suffix to offer."""
    if output and fmt != "json" and named_json(str(output)):
        raise InputError(
            f"--format {fmt} cannot be written to a file named as JSON: "
            f"name it .{rename}, or pass --format json",
            field="--output",
        )
