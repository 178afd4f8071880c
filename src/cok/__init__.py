"""cok — a campaign ledger for A Song of Ice and Fire: TMG map campaigns ("Clash of Kings")."""

__version__ = "0.4.0"
