"""Patterns compiled when first used (:mod:`scoring.patterns`): a lazy pattern does what
the compiled one does, and the drop-in scorer's modules compile none at import."""

from __future__ import annotations

import re

import pytest

from scoring.patterns import lazy, pattern
from scoring.types import LEXELT
from tests.bare_python import bare_python


def test_a_lazy_pattern_does_what_the_compiled_one_does() -> None:
    words = lazy(r"non[\s-](\w+)", re.ASCII)
    compiled = re.compile(r"non[\s-](\w+)", re.ASCII)
    text = "non-stop and non fiction, nonsense"
    assert words.search(text).group(1) == compiled.search(text).group(1) == "stop"  # type: ignore[union-attr]
    assert words.findall(text) == compiled.findall(text) == ["stop", "fiction"]
    assert [m.span() for m in words.finditer(text)] == [(0, 8), (13, 24)]
    assert words.fullmatch("non-stop") is not None and words.match("a non-stop") is None
    assert words.sub("X", text) == compiled.sub("X", text) == "X and X, nonsense"
    assert words.pattern == r"non[\s-](\w+)" and words.flags == compiled.flags
    lines = lazy(rb"[A-Z][^\n]*")
    assert lines.findall(b"a\nBig line\nsmall\nCaps") == [b"Big line", b"Caps"]
    assert LEXELT.fullmatch("side.n") is not None and LEXELT.fullmatch("side") is None


def test_a_lazy_pattern_is_compiled_once_at_its_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = re.compile

    def counted(source: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(source)
        return real(source, flags)

    monkeypatch.setattr(re, "compile", counted)
    word = lazy(r"[a-z]+")
    assert compiled == []
    assert word.fullmatch("abc") and not word.fullmatch("ab c") and word.search("1 x")
    assert word.pattern == r"[a-z]+" and word.groups == 0 and word.pattern == r"[a-z]+"
    assert compiled == [r"[a-z]+"]
    assert pattern(r"[0-9]+ [a-z]+$") is pattern(r"[0-9]+ [a-z]+$")


def test_the_scorers_modules_compile_no_pattern_at_import() -> None:
    """Compiling costs 20-90 µs a pattern, in a start-up of about 20 ms: the modules a
    best or oot run loads name their patterns with :func:`scoring.patterns.lazy`."""
    code = (
        "import re, sys; compiled = []; real = re._compile\n"
        "def counted(source, flags):\n"
        "    compiled.append(source); return real(source, flags)\n"
        "re._compile = counted\n"
        "import scoring.score.cli, scoring.score.cache\n"
        "print(compiled, file=sys.stderr)"
    )
    done = bare_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-1] == "[]"
