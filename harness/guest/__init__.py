"""The emulated machines: one registry entry per ISA, the serial console
and the lines the guest prints (docs/harness.md)."""
