"""`kit mock`: the generated service with every HTTP logic stub answering from the design.

`build.py` generates the project into a folder of its own (the project's files are never
touched), replaces the logic stubs with mock ones (`kit_core.generators.go.mock`) and builds
it; `command.py` is the CLI subcommand that builds and runs it.
"""
