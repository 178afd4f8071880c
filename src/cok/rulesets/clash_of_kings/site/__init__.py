"""The campaign's static web site and its map picture (`cok site`, `cok map --svg`)."""

#: The site's pages as every page's header names them (label, file), home first: the one
#: list, which the served pages' header reads too (`table.web().pages`).
PAGES = (("Standings", "index.html"), ("Log", "log.html"), ("Map", "map.html"))
