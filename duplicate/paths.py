"""Where the application's files are: the repository's root, with ``templates/``, ``static/`` and
``migrations/`` next to the package. A floor module (standard library only), so that the database, the
printing and the application factory read it without importing the package's ``__init__``."""

import os

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
