"""Mutation runs (`make mutation`) fork every mutant's test run from one process, and record which tests
call which function by running them all once in one process: the rules core's memoised functions
(``scoring.reachable_scores``…) would answer from their cache, so that a mutant below them would never
run, and only the first test to fill the cache would be recorded as reaching it.  Under mutmut (it sets
``MUTANT_UNDER_TEST``) those caches are emptied before every test; an ordinary run is left alone.
(Hypothesis has no deadline in any run: tests/conftest.py.)"""

import os
import sys

import pytest

if "MUTANT_UNDER_TEST" in os.environ:
    # mutmut's trampolines add two frames to every call: the relais planner's search (`movements.relais`)
    # goes deeper than Python's default 1,000 frames under them
    sys.setrecursionlimit(10_000)


@pytest.fixture(autouse=True)
def _fresh_core_caches():
    if "MUTANT_UNDER_TEST" in os.environ:
        for name, module in list(sys.modules.items()):
            if name.startswith("duplicate.core") and module is not None:
                for value in list(vars(module).values()):
                    if callable(getattr(value, "cache_clear", None)):
                        value.cache_clear()
    yield
