"""A round trip's parts (harness/net/roundtrip.py), without booting
anything: the kernel's source files fall into the categories the handout
names, on every ISA's paths, and every category is one the table prints."""

import pytest

from harness.net import roundtrip


@pytest.mark.parametrize("path,category", [
    ("arch/riscv/usercopy.o", "copies"), ("arch/vax/memcpy.o", "copies"),
    ("dev/virtio_net.o", "NIC driver"), ("dev/lance.o", "NIC driver"),
    ("arch/mips/nic.o", "NIC driver"), ("arch/vax/delqa.o", "NIC driver"),
    ("arch/x86/trapentry.o", "trap and interrupt"), ("arch/riscv/plic.o", "trap and interrupt"),
    ("port/net/udp.o", "protocol"), ("port/net/ip.o", "protocol"),
    ("port/sched.o", "scheduler"), ("arch/m68k/swtch.o", "scheduler"),
    ("port/syscall.o", "system call"), ("port/fs.o", roundtrip.OTHER), ("", roundtrip.OTHER),
])
def test_kernel_files_fall_into_the_handouts_categories(path, category):
    assert roundtrip.category_of_file(path) == category


def test_every_category_is_in_the_order_printed():
    cats = {c for _, c in roundtrip.CATEGORIES} | set(roundtrip.FUNCTIONS.values())
    assert cats <= set(roundtrip.ORDER)
