"""Generators: each turns the analysed design into a list of `OutputFile`s (never writes)."""
