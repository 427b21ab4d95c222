"""The paper's benchmarks and test programs, the paper's numbers, and the
tables and files a run produces (docs/harness.md)."""
