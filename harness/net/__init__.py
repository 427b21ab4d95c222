"""Two machines on a modelled Ethernet: the shared wire, a pair of nodes,
the network suite and the two-console shell (docs/network.md)."""
