"""The emulated machines and their console (docs/harness.md)."""
