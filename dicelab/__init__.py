"""dicelab: reproducing, checking and extending four papers on dice games."""

__version__ = "0.1.0"
