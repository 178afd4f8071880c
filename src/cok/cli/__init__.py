"""What the commands share: options, recording from the command line, and the commands every game has."""
