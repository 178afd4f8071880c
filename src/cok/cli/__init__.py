"""The `cok` command line (see `cok.cli.app`)."""
