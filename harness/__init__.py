"""The host side of the project: boot a guest, run benchmarks, print the paper's tables.

Modules, one job each:
  cli       the command line (`python3 -m harness run|shell|report|check`)
  machines  how to boot each ISA (emulator command lines, kernel images)
  profiles  which notional machine a run stands for (today: "none")
  console   a guest's serial console on a pty: boot, run a command, stop
  protocol  parse the guest's RESULT/PASS/FAIL/... lines (docs/protocol.md)
  suite     the benchmarks and how to run them on a booted guest
  checks    the failure-case test programs (t_*) and how to judge them
  paper     the published numbers of Ousterhout's 1989 paper, as data
  report    tables in the paper's style, and the JSON and CSV files
  errors    the exceptions all of these raise
"""
