"""The prompt a model is asked with: a Jinja template (a file, ``--prompt FILE``, or one of
lexsub's defaults, ``prompts/substitution.jinja`` and ``prompts/simplification.jinja``)
with three variables: ``sentence`` (the context), ``target`` (the word as written) and
``language`` (the language's English name, ``English``); ``language_code`` (``en``),
``lemma`` and ``pos`` (n, v, a, r, or empty) as well.

Templates run in Jinja's sandbox with undefined variables an error, so a misspelt variable
is a clear line, not an empty prompt. Jinja2 comes with ``pip install 'lexsub[models]'``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from annotate.generate.items import Item

TASKS = ("substitution", "simplification")
"""The default prompts: lexical substitution (the task's XML) and simplification (TSAR,
MLSP)."""
FOLDER = Path(__file__).resolve().parent / "prompts"


class PromptError(ValueError):
    """A template that cannot be read or rendered, or Jinja2 missing (one line)."""


@dataclass(frozen=True)
class Prompt:
    """A compiled template, its name (the file) and its text's SHA-256."""

    name: str
    text: str
    template: Any

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    def render(self, item: Item, language: str, language_code: str) -> str:
        """The message for ``item``; PromptError naming the file and Jinja's reason."""
        try:
            return str(
                self.template.render(
                    sentence=item.sentence,
                    target=item.word,
                    lemma=item.lemma,
                    pos=item.pos or "",
                    language=language,
                    language_code=language_code,
                )
            ).strip()
        except Exception as error:  # Jinja's errors have no common base but Exception
            raise PromptError(f"{self.name}: the template fails: {error}") from None


def default_prompt(task: str) -> Path:
    """The file of lexsub's default prompt for ``task`` (:data:`TASKS`)."""
    return FOLDER / f"{task}.jinja"


def load_prompt(path: str | Path) -> Prompt:
    """The template of ``path`` (named ``lexsub:substitution.jinja`` for a default);
    PromptError when Jinja2 is missing, the file cannot be read or is not a Jinja
    template."""
    try:
        from jinja2 import StrictUndefined, TemplateSyntaxError
        from jinja2.sandbox import SandboxedEnvironment
    except ImportError:
        raise PromptError(
            "lexsub generate llm reads its prompt with Jinja2: "
            "pip install 'lexsub[models]' (or pip install jinja2)"
        ) from None
    name = f"lexsub:{Path(path).name}" if Path(path).parent == FOLDER else str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise PromptError(f"{name}: cannot read the prompt ({error})") from None
    environment = SandboxedEnvironment(undefined=StrictUndefined, keep_trailing_newline=False)
    try:
        template = environment.from_string(text)
    except TemplateSyntaxError as error:
        raise PromptError(
            f"{name}, line {error.lineno}: not a Jinja template ({error.message})"
        ) from None
    return Prompt(name, text, template)
