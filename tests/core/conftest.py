"""Mutation runs (`make mutation`) fork every mutant's test run from one process that has already run
the tests once, so the rules core's memoised functions (``scoring.reachable_scores``…) arrive filled
with the unmutated answers and a mutant below them would never run.  Under mutmut (it sets
``MUTANT_UNDER_TEST``) those caches are emptied before each run; an ordinary run is left alone."""

import os
import sys


def pytest_sessionstart(session):
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    for name, module in list(sys.modules.items()):
        if name.startswith("duplicate.core") and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()
