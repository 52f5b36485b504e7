"""Fixtures of the case bank tests (``test_case_bank*.py``): a verified-banks record of their own,
a small built bank, a fresh record per test, and the proofs ``open_bank`` runs."""

from __future__ import annotations

import pytest

from parlour.envs.awkward_guests.case import bank as B
from parlour.envs.awkward_guests.case.bank_build import build_bank

from .bank_helpers import BUILT_COUNT, BUILT_LEVEL, BUILT_SEED, own_record


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    with own_record(tmp_path_factory.mktemp("record")) as folder:
        yield folder


@pytest.fixture(scope="module")
def built(record, tmp_path_factory):
    """A small bank (12 easy cases, build seed 3) and its build report."""
    path = tmp_path_factory.mktemp("banks") / "small.agbank"
    return path, build_bank(path, BUILT_LEVEL, BUILT_COUNT, seed=BUILT_SEED)


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A verified-banks record of this test's own, empty."""
    folder = tmp_path / "record"
    monkeypatch.setenv(B.CACHE_ENV, str(folder))
    monkeypatch.setattr(B, "_VERIFIED_HERE", set())
    return folder


@pytest.fixture
def proofs(monkeypatch):
    """The banks ``open_bank`` proves (their digests), in order."""
    seen: list[str] = []
    real = B.proof_failures

    def counting(bank, limit=None):
        seen.append(bank.digest)
        return real(bank, limit)

    monkeypatch.setattr(B, "proof_failures", counting)
    return seen
