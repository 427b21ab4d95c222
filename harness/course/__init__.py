"""What a course needs on top of the harness: the labs (docs/labs/), their
grader (`python3 -m harness grade`, `make grade`) and the debugger's
launcher (`make gdb`).

    labs.py    the seven labs as data: the ISAs whose tests must pass, the
               benchmarks measured under which profiles, the goals
    grade.py   build, check, measure, compare with the unmodified kernel's
               numbers (docs/labs/baseline/), score
    rfschecks.py  lab 7's checks: a server crash, as shipped and as the
               student's unsafe server (rfsd -async)
    debug.py   an emulator stopped at its first instruction with gdb (QEMU)
               or SIMH's own debugger (VAX) attached, symbols loaded

It needs the three other packages (guest, bench, model); none needs it.
"""
