"""The campaign's static web site and its map picture (`cok site`, `cok map --svg`)."""
