"""Remote files: the paper's Local and Remote configurations on two machines,
NFS and Sprite (kernel/port/rfs/, docs/remote-files.md)."""
