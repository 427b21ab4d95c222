"""The benchmarks, the paper's numbers, the report (docs/harness.md)."""
