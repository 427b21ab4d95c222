#!/usr/bin/env python3
"""gensrc.py DIR: write the Andrew benchmark's source tree into DIR.

For now an empty directory: the generator of the tree comes with the
benchmark itself.
"""
import sys
from pathlib import Path

Path(sys.argv[1]).mkdir(parents=True, exist_ok=True)
