"""Showing the state: sentences, Rich tables and JSON documents. No rules here."""
