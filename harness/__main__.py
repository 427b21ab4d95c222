"""`python3 -m harness ...`: see harness/cli.py."""

import sys

from .cli import main

sys.exit(main())
