"""`cok serve`: the campaign at the table. A web server over one campaign folder that reads the
state kept warm in the process and records through the service layer, as the command line
does. It knows no game: each game brings its pages and forms through its Ruleset (`web()`).
"""
