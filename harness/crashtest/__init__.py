"""Crash testing by write log (docs/crashtest.md).

wlog reads the hardware model's write log (writelog=, hw-models/core/wlog.c);
fsread reads our file system from an image; replay rebuilds the disk at
every crash point, checks it with tools/fsck (and repairs it with fsck -y),
and counts the acknowledged data lost; run boots a guest to make the logs;
report prints the table and draws the plot.
"""
