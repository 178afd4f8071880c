"""The personal links that sign a phone in (`cok invite`, the organiser's links page): made,
kept as hashes in the user's data folder, the address phones open them at, and drawn as a QR
code. The application's, not the web server's: `cok invite` and the club's chat use them
without loading `cok.serve` (tests/serve/test_plain_server.py)."""
