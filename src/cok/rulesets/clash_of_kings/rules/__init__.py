"""The Clash of Kings rules: pure functions of the state and one event.

Each rule module decides what an event does (or raises RuleError saying why it is
refused); `apply` then commits that decision to the state. No I/O here.
"""
