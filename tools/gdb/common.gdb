# Shared by every ISA's command file (tools/gdb/<isa>.gdb), which sources it
# last.  `make gdb` (harness/course/debug.py) then connects to QEMU's
# gdbstub and loads the program's symbols: docs/debugging.md.
set confirm off
set pagination off
set print pretty on
# Read code from the ELF files rather than through the emulator: in the
# kernel, a process's pages may not be readable (RISC-V's sstatus.SUM off).
set trust-readonly-sections on
# The kernel's ELF file has line numbers and types (-g): `list`, `info
# locals` and `p *curproc` work in kernel code.
source tools/gdb/console.py

# stop-in PROG LOCATION: a breakpoint that stops only while program PROG is
# the current process.  Every program is linked at the same addresses, so
# a plain `break getpid.c:main` stops in whichever program runs there.
# An interrupt taken in the idle loop (the console's, now that the kernel
# takes keys while a shell waits in read()) has no current process: the
# test of curproc keeps the condition from reading through a null pointer,
# which gdb reports as an error and stops on.
define stop-in
  break $arg1 if curproc != 0 && $_streq(curproc->name, "$arg0")
end
document stop-in
stop-in PROGRAM LOCATION: break at LOCATION only while PROGRAM is the current
process (curproc->name), e.g. `stop-in getpid sys_getpid`.
end

# ps: the process table, as the kernel sees it.
define ps
  set $i = 0
  while $i < sizeof(proc) / sizeof(proc[0])
    if proc[$i].state != UNUSED
      printf "%3d  ", proc[$i].pid
      output proc[$i].state
      printf "  %s", proc[$i].name
      if proc[$i].state == SLEEPING
        printf "  on "
        output proc[$i].chan
      end
      printf "\n"
    end
    set $i = $i + 1
  end
end
document ps
ps: every process in the kernel's table: pid, state, name, and what a
sleeping one sleeps on (its channel: an address, named if gdb can).
end

# tf: the current process's saved user registers: the frame trap_entry
# built on its kernel stack (struct trapframe, kernel/arch/<isa>/machine.h).
define tf
  p/x *curproc->tf
end
document tf
tf: print the current process's saved user registers (*curproc->tf).
end
