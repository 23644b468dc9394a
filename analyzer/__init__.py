"""Monte Carlo strategy analyzer for card games."""

__version__ = "0.1.0"
