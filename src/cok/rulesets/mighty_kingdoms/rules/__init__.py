"""The rules of Mighty Kingdoms (contract section 5): for each event a `decide_*`, a pure
function of the state and the event that returns an outcome or raises RuleError, and a
`commit_*` that applies that outcome; `apply.py` holds the two tables."""
