"""The hardware models and their commands (docs/harness.md)."""
