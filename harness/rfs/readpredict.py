"""Seed 002's remote file read (its 4c) in the measure suite's Final
Results Table form: for each file size, the local read beside the remote
one under each protocol, per 1 KB block, with the hardware's share
predicted from the profile (docs/measure.md, "Remote file read").

A remote read of one block (an lseek and a 1 KB read, as the local
`fileread`) costs the client what a local one does (two traps and the
block copied out to the program), and, once for every RFS_MAXDATA bytes
(the client's cache fetches a block's whole 8 KB chunk in one READ:
kernel/port/rfs/cache.c), one call:

  - the READ on the wire and through both NICs: a call of one fragment,
    and a reply of 8 KB and its header in full fragments sent back to
    back (harness/net/link.py: link.c's arithmetic);
  - the server's disk reads of the chunk's blocks: sequential (overhead +
    transfer), and for a chunk of the random order a positioning first,
    half a rotation and a seek as often as a shuffled read of a file lying
    in a row changes cylinder (harness/bench/diskpredict.py).

The software of a call (both kernels' RPC and file system, the server's
process) is not predicted: it is the table's software column, measured
less hardware.  The frame sizes are the RPC's (kernel/port/rfs/rpc.h,
rpc.c, rfs.h: tests/unit/test_readpredict.py reads the constants from
there) under our stack's headers (harness/net/table.py).
"""

from __future__ import annotations

from typing import Any

from ..bench.diskpredict import Disk
from ..bench.finaltable import FinalRow, Hardware, _file_size, _t, fileread_client_ns
from ..guest.fsformat import BSIZE
from ..guest.protocol import Result
from ..net.link import Link
from ..net.table import ETH, IP, UDP

# kernel/port/rfs/rpc.h and rfs.h
RPC_FRAG_HDR = 16                       # xid, kind, index, count, length
UDP_MAXDATA = 1500 - IP - UDP           # the kernel's largest datagram: one frame
RPC_FRAG_DATA = UDP_MAXDATA - RPC_FRAG_HDR
RFS_MAXDATA = 8192                      # a READ's bytes: NFS v2's largest
# A READ call: program, procedure; file handle, offset, count.  Its reply:
# status, epoch; the attributes (five words), the count, the bytes.
READ_CALL = 4 * 2 + 4 * 3
READ_REPLY = 4 * 2 + 4 * 5 + 4 + RFS_MAXDATA
HEADERS = ETH + IP + UDP + RPC_FRAG_HDR

# The file sizes, KB, each read by its own pair of machines (rfs/fileread.py);
# 002 read 16 MB to 512 MB remotely, in 4 KB blocks.  The largest is the
# local suite's `fileread` file.
SIZES_KB = (64, 256, 1024)
# Where the files are: the local row's on the client's own disk, the others
# on the server's, each read by `rfileread fileread -e LABEL`.
WHERE = ("local", "nfs", "sprite")
CASES = ("seq", "random")


def label(where: str, kb: int) -> str:
    """What `rfileread fileread -e` is given: its cases are CASE-LABEL."""
    return f"{where}-{kb}k"


def case_name(case: str, where: str, kb: int) -> str:
    return f"{case}-{label(where, kb)}"


def frames(nbytes: int) -> list[int]:
    """The frame lengths (without FCS) of an RPC message of nbytes."""
    out = []
    while True:
        k = min(nbytes, RPC_FRAG_DATA)
        out.append(HEADERS + k)
        nbytes -= k
        if nbytes <= 0:
            return out


def read_call_wire_ns(link: Link) -> float:
    """A READ's call and reply through the NICs, on the wire and the
    cable: the call's one frame, then the reply's frames back to back
    (each but the last the wire's time with its gap), the last delivered."""
    reply = frames(READ_REPLY)
    return float(link.one_way_ns(frames(READ_CALL)[0]) +
                 sum(link.stream_ns(n) for n in reply[:-1]) + link.one_way_ns(reply[-1]))


def remote_block_ns(hw: Hardware, disk: Disk, link: Link, case: str, size: int) -> float:
    """The hardware's share of one block read remotely (module docstring)."""
    per_chunk = RFS_MAXDATA // BSIZE
    server = disk.sequential_ns
    if case == "random":
        server += (disk.random_ns(size) - disk.sequential_ns) / per_chunk
    return fileread_client_ns(hw) + read_call_wire_ns(link) / per_chunk + server


def rows(results: list[Result], profile: dict[str, Any]) -> list[FinalRow]:
    """The table's rows, in size order, local first, for the results there are."""
    hw, disk = Hardware.from_profile(profile), Disk.from_profile(profile)
    link = Link.from_profile(profile["link"])
    by_case = {r.case: r for r in results if r.bench == "fileread"}
    per_chunk = RFS_MAXDATA // BSIZE
    out = []
    for kb in SIZES_KB:
        for where in WHERE:
            for case in CASES:
                r = by_case.get(case_name(case, where, kb))
                if r is None or not r.iters:
                    continue
                size = r.count("size")
                op = (f"{'local' if where == 'local' else 'remote, ' + where} file read, "
                      f"per block: {_file_size(size)} file, cold, {case}")
                if where == "local":
                    reads = r.count("dev_reads") / r.iters
                    hw_ns = fileread_client_ns(hw) + reads * (
                        disk.sequential_ns if case == "seq" else disk.random_ns(size))
                    basis = f"2 traps, a {BSIZE} B copy, {reads:.2f} {case} disk reads"
                else:
                    hw_ns = remote_block_ns(hw, disk, link, case, size)
                    basis = (f"2 traps, a {BSIZE} B copy; 1/{per_chunk} of a READ's "
                             f"{len(frames(READ_CALL)) + len(frames(READ_REPLY))} frames "
                             f"({_t(read_call_wire_ns(link))}); the server's "
                             f"{case} disk read")
                out.append(FinalRow(f"fileread/{r.case}", op, "002 4c" if where != "local"
                                    else "002 4b", "~", hw_ns, float(r.ns_per_op), basis))
    return out


NOTE = ("hardware: from the profile alone (harness/rfs/readpredict.py): the client's traps "
        "and copy, the server's disk, and the READ's frames through the NICs and on the wire "
        "(link.c's arithmetic), ~ an estimate; software = measured - hardware, the calls' "
        "software among it")
