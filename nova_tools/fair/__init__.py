"""Play by links simulated on one machine (every seat's device in one process): the tests,
the protocol's test vectors and ``python -m nova fair-stats``."""
