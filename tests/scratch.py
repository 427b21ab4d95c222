"""A copy of the sources in a scratch directory, for tests that change a
file the build or the harness reads (a profile, params.def) and must not
touch the checkout other tests run from.
"""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scratch_tree(dest: Path) -> Path:
    """git's files (committed or not, not the ignored ones: no build/) copied
    to dest, which is returned."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                            "--exclude-standard"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest
