"""The rules engine: pure Python, no I/O, no clock, no global randomness."""
