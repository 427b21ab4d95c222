"""`python3 -m harness ...`: the command line is harness/cli.py."""

import sys

from .cli import main

sys.exit(main())
