"""The hardware models: profiles, the model's arguments and log, and the
commands that run guests under a model (docs/harness.md)."""
