"""The rules of No True King: pure functions of the state and an event (contract §4)."""
