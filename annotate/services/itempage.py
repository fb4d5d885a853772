"""What the annotation page of a sentence needs, read in one SQL statement.

A request for ``/annotate/<id>`` reads, in one SELECT: the sentence it names (whether
the user may open it, :func:`annotate.services.study.opens`; the lemma and the word as it stands,
which the validation needs), and the page to show: that sentence for a GET, the
annotator's next sentence after a save. The page is its sentence, its dataset, the
word's sentences (answered or not), word k of n, sentence k of n, done / total over the
annotator's sentences (:func:`annotate.services.study.sentences_of`), the previous sentence, the
saved answer and the word's dictionary tick (:func:`annotate.services.responses.word_flag`).

The word's sentences are numbered in the query, and only those the page links are read
(:data:`WINDOW`): the first, the last, those within :data:`WINDOW` of the one shown, and
the one the jump field asks for, so that the page and its read stay the same size
whatever the size of the word.

A save changes what the page read before it knows in a way the save tells
(:meth:`ItemPage.after_save`): one more done when the save was the sentence's first,
the saved sentence answered, and the tick of its word.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any, NamedTuple

from sqlalchemy import (
    CTE,
    BindParameter,
    ColumnElement,
    Integer,
    Label,
    ScalarSelect,
    Select,
    and_,
    bindparam,
    case,
    distinct,
    func,
    lambda_stmt,
    or_,
    select,
    true,
)
from sqlalchemy.orm import aliased
from sqlalchemy.sql.lambdas import StatementLambdaElement

from annotate.models import Assignment, Dataset, Instance, Lexelt, Response, User
from annotate.services import core
from annotate.services.responses import word_flag
from annotate.services.rounds import judges_a_round
from annotate.services.study import (
    assigned_in,
    assigned_to,
    open_member_of,
    opens,
    sentences_of,
)


@dataclass(frozen=True)
class Sentence:
    """A sentence as the page shows it: the context around the target (``head``)."""

    id: int
    before: str
    head: str
    after: str


@dataclass(frozen=True)
class DatasetName:
    """What a page says of its dataset."""

    id: int
    name: str
    language: str
    task: str = "substitution"
    title: str = ""
    """The study's public title (what a crowd participant sees instead of the name)."""
    public: bool = False
    """``name`` is the public title: the page is shown to a participant of this study."""


@dataclass(frozen=True)
class SavedAnswer:
    """The annotator's current answer to the sentence shown."""

    kind: str
    substitutes: tuple[str, ...]
    multiword: str | None


WINDOW = 5
"""The sentences of the word linked either side of the one shown (with the word's first
and last): at most ``2 * WINDOW + 3`` links, whatever the word's size."""


class SentenceLink(NamedTuple):
    """A sentence of the word the page links: its number in the word (1 to n) and id (a
    record, a named tuple: made for every link of every page)."""

    number: int
    id: int


@dataclass(frozen=True)
class ItemPage:
    """The annotation page of one sentence (progress always visible)."""

    instance: Sentence
    lexelt_id: int
    dataset: DatasetName
    word_index: int
    words: int
    sentence_index: int  # the shown sentence's number in its word (0: not one of theirs)
    sentences: int  # the word's sentences (of the annotator)
    links: tuple[SentenceLink, ...]  # those the page links (:data:`WINDOW`), in order
    answered: frozenset[int]  # the ids of those with an answer
    done: int
    total: int
    previous: int | None
    saved: SavedAnswer | None
    used_dictionary: bool  # the word's tick
    jump: int | None = None  # the id of the sentence the jump field asked for, if any

    def after_save(self, instance_id: int, lexelt_id: int, new: bool, used: bool) -> ItemPage:
        """The page once the annotator's sentence ``instance_id`` (of word ``lexelt_id``)
        is saved: ``new`` when the save was its first answer, ``used`` its tick."""
        return replace(
            self,
            done=self.done + new,
            answered=self.answered | {instance_id}
            if any(link.id == instance_id for link in self.links)
            else self.answered,
            used_dictionary=used if lexelt_id == self.lexelt_id else self.used_dictionary,
        )

    def form(self) -> dict[str, str]:
        """The form's values: the saved answer (empty for a new sentence) and the tick."""
        form = {"used_dictionary": "on" if self.used_dictionary else ""}
        if self.saved is not None and self.saved.kind == "rating":
            form["rating"] = self.saved.substitutes[0] if self.saved.substitutes else ""
        elif self.saved is not None:
            for index, substitute in enumerate(self.saved.substitutes[:3], 1):
                form[f"sub{index}"] = substitute
            form["name"] = "on" if self.saved.kind == "name" else ""
            form["nil"] = "on" if self.saved.kind == "nil" else ""
            form["mw"] = "on" if self.saved.multiword else ""
            form["multiword"] = self.saved.multiword or ""
        return form


@dataclass(frozen=True)
class Addressed:
    """The sentence a request names, as a save needs it."""

    id: int
    lexelt_id: int
    dataset: DatasetName
    may_open: bool
    targets: tuple[str, str]  # the lemma and the word in the sentence (validation)
    judging: bool  # the user judges a round (the header's link)
    done: int  # the annotator's sentences of the dataset with an answer
    total: int  # the annotator's sentences of the dataset


def read(
    user: User, instance_id: int, following: bool, jump: int = 0
) -> tuple[Addressed, ItemPage | None] | None:
    """The sentence ``instance_id`` and the page to show: its own (``following`` False)
    or the annotator's next sentence's (None after their last). None when there is no
    such sentence. ``jump``: a sentence number of the shown word, whose id the page then
    has (:attr:`ItemPage.jump`; 0 for none). One SQL statement (:func:`page_query`), run
    as Core runs it (:func:`annotate.services.core.execute`)."""
    rows = core.execute(page_query(following), page_parameters(user.id, instance_id, jump)).all()
    if not rows:
        return None
    top = rows[0]
    dataset = DatasetName(top.dataset_id, top.name, top.language, top.task, top.public_title)
    addressed = Addressed(
        top.id,
        top.lexelt_id,
        dataset,
        opens(
            user.is_organiser, bool(top.member), bool(top.assigned_some), bool(top.assigned_this)
        ),
        (top.lemma, top.head),
        bool(top.judge) and not user.is_organiser,
        top.done or 0,
        top.total or 0,
    )
    if top.shown_id is None:
        return addressed, None
    here = top.here or 0
    links = tuple(
        SentenceLink(row.number, row.sibling_id)
        for row in rows
        if row.sibling_id is not None
        and (row.number in (1, top.word_count) or (here and abs(row.number - here) <= WINDOW))
    )
    page = ItemPage(
        Sentence(top.shown_id, top.shown_before, top.shown_head, top.shown_after),
        top.shown_lexelt_id,
        dataset,
        word_index=top.word_index or 0,
        words=top.words or 0,
        sentence_index=here,
        sentences=top.word_count or 0,
        links=links,
        answered=frozenset(row.sibling_id for row in rows if row.sibling_answer is not None),
        done=top.done or 0,
        total=top.total or 0,
        previous=top.previous,
        saved=None
        if top.kind is None
        else SavedAnswer(top.kind, tuple(top.substitutes or ()), top.multiword),
        used_dictionary=bool(top.flag),
        jump=next((row.sibling_id for row in rows if jump and row.number == jump), None),
    )
    return addressed, page


@cache
def page_statement(following: bool) -> Select[Any]:
    """The page's one SELECT, built once (its parameters: ``user_id``, ``instance_id``,
    ``jump``): one row per sentence of the word shown that the page links (:data:`WINDOW`)
    or the jump field asks for, each with every figure of the page, the sentence's number
    in the word, the shown one's (``here``) and the word's count of sentences."""
    user_id = bindparam("user_id", type_=Integer)
    cur = aliased(Instance, name="cur")
    ctx = (
        select(
            cur.id,
            cur.dataset_id,
            cur.lexelt_id,
            cur.position,
            cur.before,
            cur.head,
            cur.after,
            Lexelt.lemma,
            Lexelt.position.label("lexelt_position"),
            Lexelt.word_index.label("lexelt_word_index"),
            Dataset.name,
            Dataset.public_title,
            Dataset.language,
            Dataset.task,
            Dataset.sentences,
            Dataset.words.label("dataset_words"),
            open_member_of(user_id, cur.dataset_id).label("member"),
            assigned_in(user_id, cur.dataset_id).label("assigned_some"),
            assigned_to(user_id, cur.id).label("assigned_this"),
            judges_a_round(user_id).label("judge"),
        )
        .select_from(cur)
        .join(Lexelt, Lexelt.id == cur.lexelt_id)
        .join(Dataset, Dataset.id == cur.dataset_id)
        .where(cur.id == bindparam("instance_id", type_=Integer))
        .cte("ctx")
    )

    shown = _shown(user_id, ctx, following)
    answer = aliased(Response, name="answer")
    previous = ctx.c.id if following else _neighbour(user_id, ctx, later=False)
    figures = (
        select(
            ctx,
            shown.c.id.label("shown_id"),
            shown.c.lexelt_id.label("shown_lexelt_id"),
            shown.c.before.label("shown_before"),
            shown.c.head.label("shown_head"),
            shown.c.after.label("shown_after"),
            shown.c.position.label("shown_position"),
            *_progress(user_id, ctx, shown),
            previous.label("previous"),
            word_flag(user_id, shown.c.lexelt_id).label("flag"),
            answer.kind,
            answer.substitutes,
            answer.multiword,
        )
        .select_from(ctx)
        .outerjoin(shown, true())
        .outerjoin(answer, and_(answer.user_id == user_id, answer.instance_id == shown.c.id))
        .cte("figures")
        .prefix_with("MATERIALIZED")  # once, not again for each of the word's sentences
    )
    sibling = aliased(Instance, name="sibling")
    # the word's sentences of the annotator, numbered in one pass: each row has its number,
    # the word's count and the shown sentence's number (``here``, NULL when it is not one
    # of theirs); only those the page links are read on (a word's size costs a scan of
    # its sentences, not their rows)
    theirs_shown = func.max(case((sibling.id == figures.c.shown_id, 1), else_=0)).over()
    up_to_shown = func.sum(case((sibling.position <= figures.c.shown_position, 1), else_=0))
    numbered = (
        select(
            sibling.id.label("sibling_id"),
            func.row_number().over(order_by=sibling.position).label("number"),
            func.count().over().label("word_count"),
            case((theirs_shown == 1, up_to_shown.over())).label("here"),
        )
        .select_from(figures)
        .join(
            sibling,
            and_(
                sibling.lexelt_id == figures.c.shown_lexelt_id,
                sentences_of(user_id, sibling, figures.c.dataset_id, figures.c.assigned_some),
            ),
        )
        .cte("numbered")
    )
    number = numbered.c.number
    linked = or_(
        number == 1,
        number == numbered.c.word_count,
        number.between(numbered.c.here - WINDOW, numbered.c.here + WINDOW),
        number == bindparam("jump", type_=Integer),
    )
    theirs = aliased(Response, name="theirs")
    return (
        select(
            figures,
            numbered.c.here,
            numbered.c.word_count,
            numbered.c.sibling_id,
            number,
            theirs.id.label("sibling_answer"),
        )
        .select_from(figures)
        .outerjoin(numbered, linked)
        .outerjoin(
            theirs, and_(theirs.instance_id == numbered.c.sibling_id, theirs.user_id == user_id)
        )
        .order_by(number)
    )


def page_parameters(user_id: int, instance_id: int, jump: int = 0) -> dict[str, int]:
    """The values of :func:`page_query`'s parameters (``jump`` 0: no sentence asked for)."""
    return {"user_id": user_id, "instance_id": instance_id, "jump": jump}


def page_query(following: bool) -> StatementLambdaElement:
    """:func:`page_statement` as it is run: wrapped in a lambda statement, whose cache
    key (the lambda's code) is a few names long. The statement's own key is some 10,000
    nested values that SQLAlchemy hashed again on every execution to find its compiled
    form (a sixth of the read's CPU)."""
    return _PAGE_QUERIES[following]


def _progress(user_id: BindParameter[int], ctx: CTE, shown: CTE) -> list[Label[Any]]:
    """The page's figures, none counted over the whole dataset (a save costs the same
    whatever its size): ``total`` (the annotator's sentences), ``done`` (those with their
    answer), ``words`` (the words with one of them) and ``word_index`` (the shown word's
    k among those). Without assignments they are the dataset's figures stored at import
    (:attr:`Dataset.sentences`, :attr:`Dataset.words`, :attr:`Lexelt.word_index`) and the
    annotator's answers whose sentence is in the dataset, counted from their answers;
    with assignments they are counted from the annotator's assigned sentences."""
    given = aliased(Assignment, name="given")
    x = aliased(Instance, name="gx")
    word = aliased(Lexelt, name="gword")
    counted = aliased(Response, name="counted")
    theirs = (
        select()
        .select_from(given)
        .join(x, x.id == given.instance_id)
        .where(given.user_id == user_id, x.dataset_id == ctx.c.dataset_id)
    )
    answered = (
        select(func.count(counted.id))
        .where(
            counted.user_id == user_id,
            select(x.dataset_id).where(x.id == counted.instance_id).scalar_subquery()
            == ctx.c.dataset_id,
        )
        .scalar_subquery()
    )
    assigned_answered = (
        theirs.with_only_columns(func.count(counted.id))
        .join(
            counted,
            and_(counted.user_id == given.user_id, counted.instance_id == given.instance_id),
        )
        .scalar_subquery()
    )
    assigned_total = theirs.with_only_columns(func.count(given.id))
    assigned_words = theirs.with_only_columns(func.count(distinct(x.lexelt_id)))
    assigned_index = assigned_words.join(word, word.id == x.lexelt_id).where(
        word.position <= shown.c.lexelt_position
    )

    def figure(assigned: ScalarSelect[int], stored: ColumnElement[int], name: str) -> Label[Any]:
        return case((ctx.c.assigned_some, assigned), else_=stored).label(name)

    return [
        figure(assigned_total.scalar_subquery(), ctx.c.sentences, "total"),
        figure(assigned_answered, answered, "done"),
        figure(assigned_words.scalar_subquery(), ctx.c.dataset_words, "words"),
        figure(assigned_index.scalar_subquery(), shown.c.word_index, "word_index"),
    ]


def _neighbour(user_id: BindParameter[int], ctx: CTE, later: bool) -> ColumnElement[int | None]:
    """The annotator's sentence after (``later``) or before the addressed one, in the
    dataset's order: without assignments the dataset's next or previous, read from the
    index (dataset_id, position) up to the first; with assignments the nearest of the
    ones assigned to them, found among their assignments (not by walking past the
    sentences of everyone else's batches)."""
    x = aliased(Instance, name="near")
    given = aliased(Assignment, name="near_given")
    beyond = x.position > ctx.c.position if later else x.position < ctx.c.position
    order = x.position if later else x.position.desc()
    anyone = (  # alone in its SELECT, so read in index order up to the first
        select(x.id)
        .where(x.dataset_id == ctx.c.dataset_id, beyond)
        .order_by(order)
        .limit(1)
        .scalar_subquery()
    )
    # ``given.dataset_id`` and the position plus 0 (no index has it): the planner reads
    # the annotator's assignments and sorts those, rather than walking the dataset's index
    near = x.position + 0
    theirs = (
        select(x.id)
        .select_from(given)
        .join(x, x.id == given.instance_id)
        .where(
            given.user_id == user_id,
            given.dataset_id == ctx.c.dataset_id,
            near > ctx.c.position if later else near < ctx.c.position,
        )
        .order_by(near if later else near.desc())
        .limit(1)
        .scalar_subquery()
    )
    return case((ctx.c.assigned_some, theirs), else_=anyone)


def _shown(user_id: BindParameter[int], ctx: CTE, following: bool) -> CTE:
    """The sentence the page shows: the addressed one, or the annotator's next."""
    if not following:
        return select(
            ctx.c.id,
            ctx.c.lexelt_id,
            ctx.c.before,
            ctx.c.head,
            ctx.c.after,
            ctx.c.lexelt_position,
            ctx.c.lexelt_word_index.label("word_index"),
            ctx.c.position,
        ).cte("shown")
    y = aliased(Instance, name="shown_instance")
    return (
        select(
            y.id,
            y.lexelt_id,
            y.before,
            y.head,
            y.after,
            Lexelt.position.label("lexelt_position"),
            Lexelt.word_index,
            y.position,
        )
        .select_from(ctx)
        .join(y, y.id == _neighbour(user_id, ctx, later=True))
        .join(Lexelt, Lexelt.id == y.lexelt_id)
        .cte("shown")
    )


_OWN_PAGE = page_statement(following=False)
_NEXT_PAGE = page_statement(following=True)
# module constants: SQLAlchemy keys a lambda statement by its code, and takes a
# statement a lambda names from the module as fixed (a closure's would be keyed whole)
_PAGE_QUERIES = {
    False: lambda_stmt(lambda: _OWN_PAGE),
    True: lambda_stmt(lambda: _NEXT_PAGE),
}
