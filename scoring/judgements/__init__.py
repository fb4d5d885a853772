"""Judgement studies: fresh judges label candidate
substitutes, as in the post hoc study of McCarthy & Navigli 2009 (section 4.4: good / reasonable /
bad, Tables 11 and 12) or the lexical-reference task of Glickman et al. 2006 (true: word / phrase /
context, or false).

Pure: plain data in, frozen dataclasses out; no Flask, no SQLAlchemy.

* :mod:`~scoring.judgements.rounds`: a round's content (the post hoc sample of a gold and
  systems' answers, or a rows file), which the app stores and shows to judges;
* :mod:`~scoring.judgements.labels`: the label sets, as data;
* :mod:`~scoring.formats.judgements`: the judgements file (JSON Lines, the contract);
* :mod:`~scoring.judgements.verdicts`: the majority verdict and Tables 11 and 12;
* :mod:`~scoring.judgements.agreement`: Cohen's and Fleiss' kappa, alpha nominal and
  ordinal, per round and per judge, on the labels and the binary view;
* :mod:`~scoring.judgements.models`: AP, ROC AUC, their curves, recall per sub-category
  and the permutation test for model scores;
* :mod:`~scoring.judgements.report`: all of it for one round, as JSON and text;
* :mod:`~scoring.judgements.swords`: the SWORDS judgements as a finished round.
"""

from scoring.formats.judgements import Judgement, parse_judgements, read_judgements
from scoring.judgements.labels import LABEL_SETS, LabelSet, label_set
from scoring.judgements.report import JudgementReport, render_text, report
from scoring.judgements.verdicts import binary_verdict, verdict

__all__ = [
    "LABEL_SETS",
    "Judgement",
    "JudgementReport",
    "LabelSet",
    "binary_verdict",
    "label_set",
    "parse_judgements",
    "read_judgements",
    "render_text",
    "report",
    "verdict",
]
