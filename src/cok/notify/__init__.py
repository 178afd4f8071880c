"""Between game nights the campaign speaks (issue 39): posts in the club's chat through
Apprise destinations, kept with the links in the user data folder, sent from an outbox so
that posting never slows or fails a recording. Never imports the CLI, the server or renderers."""
